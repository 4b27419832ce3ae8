"""The Sale screen's widgets and how they draw the core's ``SaleEntry``: the entry (the ticket,
what is typed, the keypad, the tenders), the wait on the PIN pad and the result; the PIN pad's
and the journal's events as they show. What the keys and buttons run is ``page.SalePage``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from cashier.catalog import Catalog
from cashier.flows.sale_entry import TIP_KEYED, SaleEntry
from ui import a11y
from ui.i18n import format_money, tr
from ui.pages.base import restyle
from ui.pages.sale import entry_stage, stages
from ui.pages.sale.entry_stage import EntryStage
from ui.pages.sale.product_grid import ProductGrid
from ui.pages.sale.stages import SaleResult, WaitingStage
from ui.pages.staged import StagedPage
from ui.widgets.amount import AmountDisplay

if TYPE_CHECKING:
    from cashier.flows.base import FlowContext, FlowResult
    from cashier.flows.figures import Figures
    from cashier.flows.ticket import Ticket, TicketSession, TicketSettings
    from cashier.journal.model import Entry
    from ui.gui import Gui
    from ui.till import Till


class SaleView(StagedPage):
    qr_requested = Signal(object, object)  # amount, tax (kept for the QR screen's own sales)
    result_shown = Signal(object)  # FlowResult of the tender that ended the ticket (None: a comp)
    ticket_changed = Signal(object)  # cashier.flows.ticket.Ticket

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        self.task: asyncio.Task[Any] | None = None

    # the model's state, under the names the window and its tests use
    @property
    def ticket(self) -> Ticket | None:
        return self.model.ticket

    @property
    def session(self) -> TicketSession | None:
        return self.model.session

    @property
    def prefilled(self) -> bool:
        return self.model.prefilled

    @prefilled.setter
    def prefilled(self, prefilled: bool) -> None:
        self.model.prefilled = prefilled

    @property
    def result(self) -> FlowResult | None:
        return self.model.result

    @result.setter
    def result(self, result: FlowResult | None) -> None:
        self.model.result = result

    def _context(self) -> tuple[FlowContext, TicketSettings]:
        from cashier.flows.ticket import TicketSettings

        return self.till.ctx, TicketSettings.of(self.till.profile)

    # ---- entry -----------------------------------------------------------------------------
    def _build_entry(self, actions: entry_stage.SalePage) -> QWidget:
        e = self.entry_stage = EntryStage(actions, self.stack)
        # the names the rest of the window (and its tests) use
        t, pay, k = self.ticket_panel, self.payment_panel, self.keypad_panel = (
            e.ticket_panel, e.payment_panel, e.keypad_panel)
        self.lines_list, self.tenders_list, self.sum_labels = t.lines_list, t.tenders_list, t.sum_labels
        self.total_label, self.total_value = self.sum_labels["total"]
        self.remaining_value = self.sum_labels["remaining"][1]
        self.remove_line_button, self.cancel_ticket_button = e.remove_line_button, e.cancel_ticket_button
        self.park_button, self.parked_button = e.park_button, e.parked_button
        self.amount: AmountDisplay = pay.amount
        self.description, self.tip = pay.description, pay.tip
        self.notice, self.error_label, self.add_line_button = pay.notice, pay.error_label, pay.add_line_button
        self.card_button, self.gift_button, self.qr_button, self.cash_button = e.tender_buttons
        self.keypad, self.ready_hint = k.keypad, k.ready_hint
        self.amount_field, self.tip_field = k.amount_field, k.tip_field
        self.active: AmountDisplay = self.amount
        p = self.till.profile
        self.model = SaleEntry(self.amount.buffer, self.tip.buffer, products=p.products,
                               tip_mode=pay.tip_mode(), notes=p.ticket.notes, currency=self.till.currency,
                               context=self._context, shown=self._show_ticket,
                               prefixes=p.price_embedded_prefixes, catalog=Catalog.from_profile(p),
                               cash_rounding=p.cash_rounding)
        self._grid(actions)
        self.heading.setVisible(False)  # the navigation names the screen: its height is the ticket's
        # 12 at the sides scrolled Spanish at 125 % by 6 px; 8 scrolled a 999,998.00 ticket in high
        # contrast at 150 % by 3 px (issue #39)
        self.layout_.setContentsMargins(6, 8, 6, 8)
        pay.tip_mode_box.currentIndexChanged.connect(lambda _i: self._tip_mode_changed())
        self.amount.changed.connect(lambda _v: self._amount_changed())
        self.tip.changed.connect(lambda _v: self._tip_changed())
        # the entry fits the width it has: laid out again when the window or the text size changes
        self.scroll_area.viewport().installEventFilter(self)
        e.installEventFilter(self)
        for display in (self.amount, self.tip):
            display.installEventFilter(self)  # the entry's keys go through the ticket's rules
            display.submitted.connect(actions.charge_card)
            display.refused.connect(self._too_long)
        return e

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest)
                and watched in (self.scroll_area.viewport(), self.entry_stage)):
            margins = self.layout_.contentsMargins()
            self.entry_stage.fit(self.scroll_area.viewport().width() - margins.left() - margins.right())
        return super().eventFilter(watched, event)

    def _grid(self, actions: entry_stage.SalePage) -> None:
        """The catalog's product grid in the keypad's place; it follows the till's catalog (a store
        pull swaps in a newer version: checked each second and as the screen shows)."""
        assert self.model.grid is not None
        self.product_grid = ProductGrid(self.model.grid, self.till.currency, actions.add_pick)
        self.keypad_panel.add_grid(self.product_grid)
        self.keypad_panel.show_grid(bool(self.model.grid.catalog.products))
        self.description.textChanged.connect(self._filter_changed)  # letters typed filter it
        self._catalog_timer = QTimer(self)
        self._catalog_timer.setInterval(1000)
        self._catalog_timer.timeout.connect(self.follow_catalog)
        self._catalog_timer.start()

    def follow_catalog(self) -> None:
        """The till's catalog as it is now: a newer version redraws the grid."""
        grid = self.model.grid
        if grid is not None and self.till.ready and grid.sync(self.till.ctx.catalog.current()):
            self.keypad_panel.show_grid(bool(grid.catalog.products))
            self.product_grid.redraw()

    def _filter_changed(self, text: str) -> None:
        if self.model.grid is not None:
            self.model.grid.set_filter(text)
            self.product_grid.redraw()

    def select_field(self, display: AmountDisplay) -> None:
        if display is not self.tip or self.tip.isEnabled():
            self.active = display
            self.entry_stage.aim(display)

    def key_tip_field(self) -> None:
        """F7: the tip is keyed (switching the tip mode to keyed when it was not)."""
        if self.tip_mode() != TIP_KEYED:
            self.set_tip_mode(TIP_KEYED)
        self.select_field(self.tip)

    def tip_mode(self) -> str:
        return self.payment_panel.tip_mode()

    def set_tip_mode(self, mode: str) -> None:
        self.payment_panel.set_tip_mode(mode)

    def _tip_mode_changed(self) -> None:
        dropped = self.model.tip_mode_set(self.tip_mode())
        fields = self.model.fields()
        self.tip.setEnabled(fields.tip_open)
        self.tip.setVisible(fields.tip_keyed)  # the keyed tip's line only when the tip is keyed
        if dropped:
            self.tip.settle()
            if self.active is self.tip:
                self.select_field(self.amount)
        self._update_totals()

    def figures(self) -> Figures:
        """What the ticket panel shows (the core's figures of the ticket and the entry)."""
        return self.model.figures()

    def _amount_changed(self) -> None:
        self.model.amount_edited()
        self._update_totals()

    def _tip_changed(self) -> None:
        if self.model.tip_edited():
            self.amount.settle()
        self._update_totals()

    def drawer_changed(self) -> None:
        """The drawer opened or closed (at start, coming back to the screen, a drawer move): the
        Cash key looks as it is, ready or waiting for the drawer."""
        desk = self.gui.cashdesk if self.gui is not None else None
        is_open = desk is None or desk.drawer.current() is not None
        if self.model.drawer_open != is_open:
            self.model.drawer_open = is_open
            self.entry_stage.show_fields(self.model.fields(), self._busy(), self.on_entry)

    def _update_totals(self) -> None:
        """The entry as the model's fields say; the error line goes, as each ask clears it."""
        self.entry_stage.show_fields(self.model.fields(), self._busy(), self.on_entry)
        self.error_label.clear()

    def _too_long(self) -> None:
        cur = self.till.currency  # the core's one bound (the profile's max_amount), in its currency
        self.say_in(self.error_label, lambda: tr("Amount: at most {max}, this till's limit for one "
                                                 "payment; the extra digit was not taken.").format(
            max=format_money(self.till.profile.bounds.ceiling(cur), cur)))

    def _show_ticket(self, ticket: Ticket | None, prefill: bool = False) -> None:
        """Redraw the ticket panel from the core's ``Ticket`` (``prefill``: and what remains)."""
        self.model.ticket = ticket
        self.ticket_panel.show_ticket(ticket)
        if ticket is not None and self.model.waiting_for_all and self.on_waiting:
            # the ticket's own figure (with tax and tip) once the quick path journaled them
            self.waiting.amount.setText(format_money(ticket.remaining, self.till.currency))
        self._tip_mode_changed()
        self.ticket_changed.emit(ticket)
        if prefill:
            self._prefill_remaining()

    def _prefill_remaining(self) -> None:
        """What remains (with a keyed tip) in the entry: typing replaces it, F2 charges it all."""
        self.model.prefill()
        self.amount.settle()
        self._update_totals()

    def take_focus(self) -> None:
        if self.on_entry:
            self.select_field(self.active)
        elif self.on_result:
            self.new_button.setFocus()

    def _busy(self) -> bool:
        """A flow of this screen is running (its own ``done`` callback does not count)."""
        if self.task is None or self.task.done():
            return False
        try:
            return self.task is not asyncio.current_task()
        except RuntimeError:  # no loop running: called from plain Qt
            return True

    def _say(self, tone: str, words: Callable[[], str]) -> None:
        """A notice under the ticket in ``tone``; said again after a language switch."""
        restyle(self.notice, "tone", tone)
        self.say_in(self.notice, words)
        self.entry_stage.payment_panel.show_said()
        self._describe_amount()

    def _result_summary(self) -> str:
        """The result on screen as one phrase: its title, amount, change due and message."""
        return ". ".join(text for text in (
            self.result_title.text(), self.result_amount.text(),
            self.change_due.text() if self.change_due.isVisibleTo(self.result_page) else "",
            self.result_message.text()) if text)

    # Where the focus lands says what just happened before what it does: New sale the result,
    # the amount the notice (a declined card, a partial approval). Both are announced too; this is
    # for a reader that takes no announcements (Orca 43, Debian 12's), which reads the focused
    # widget's description, and its description again when it changes.
    def _describe_result(self) -> None:
        """New sale's description: the result on screen, then what the key does (set before
        the key takes the focus: said once)."""
        plain = tr("The next customer: a new ticket.")
        summary = self._result_summary() if self.has_receipt() else ""
        self.new_button.setAccessibleDescription(f"{summary}. {plain}" if summary else plain)

    def _describe_amount(self) -> None:
        """The amount's description: the notice under the ticket, if any, then how to type."""
        how = self.ready_hint.text()
        said = self.notice.text()
        self.amount.setAccessibleDescription(f"{said} {how}" if said else how)

    def _failed(self, exc: BaseException) -> None:
        from cashier.errors import CashierError

        self.stack.setCurrentWidget(self.entry_page)
        self._update_totals()
        if isinstance(exc, CashierError):
            self.say_refusal(self.error_label, exc)
            return
        raise exc

    # ---- waiting on the PIN pad ------------------------------------------------------------
    def _build_waiting(self, actions: stages.SalePage) -> QWidget:
        w = self.waiting = WaitingStage(actions, self.till.currency)
        self.wait_amount, self.wait_title, self.prompt_text = w.amount, w.title, w.prompt
        self.terminal_line, self.cancel_button = w.terminal_line, w.cancel_button
        return w

    def _show_waiting(self, total: Decimal, kind: str) -> None:
        self.waiting.start(total, kind)
        self.clear_of_the_pad(self.waiting_page, 32)
        self.stack.setCurrentWidget(self.waiting_page)
        self.cancel_button.setFocus()

    def _terminal_event(self, event: object) -> None:
        if self.on_waiting:
            self.waiting.pad_event(event)

    def _device_prompt(self, _event: object) -> None:
        if self.on_waiting and not self.till.status.training:
            self.waiting.present_card()

    def _other_event(self, event: object) -> None:
        from cashier.journal.model import DrawerMoved  # loaded with the runtime

        if isinstance(event, DrawerMoved):
            self.drawer_changed()
        ticket = self.model.changed_ticket(event)
        if ticket is not None:
            self._show_ticket(ticket)

    def _payment_changed(self, entry: Entry) -> None:
        settled = self.model.settled(entry) if self.on_result else None
        if settled is not None:  # recovery settled the payment on screen: the real outcome
            self.show_result(settled)
            if self.session is not None:
                self.till.run(self.session.settle(), "ticket refresh", done=self._show_ticket)
            return
        from cashier.entry_rules import is_unknown

        if self.on_waiting and is_unknown(entry):
            self.waiting.lost()

    # ---- result ----------------------------------------------------------------------------
    def _build_result(self, actions: stages.SalePage) -> QWidget:
        r = self.result_stage = SaleResult(actions)
        self.new_button, self.print_button, self.check_button = r.new_button, r.print_button, r.check_button
        self.show_receipt_button, self.receipt_view = r.show_receipt_button, r.receipt_view
        self.result_title, self.result_amount, self.change_due = r.title, r.amount, r.change_due
        self.result_details, self.result_message = r.details, r.message
        return r

    def show_result(self, result: FlowResult | None) -> None:
        """The tender's result (None: the paid ticket closed with no tender, a comp)."""
        self.result = result
        ticket = self.ticket if self.ticket is not None and self.ticket.is_paid else None
        self.result_stage.show_result(result, ticket, self.model.result_style(result))
        # the cashier's focus goes to New sale: the outcome is announced, a refusal at once, and
        # is the key's description (a reader without announcements, Orca 43, says it on focus)
        a11y.announce(self, self._result_summary(), urgent=not self.print_button.isEnabled())
        self.clear_of_the_pad(self.result_page, 32)
        self._describe_result()
        self.stack.setCurrentWidget(self.result_page)
        self.new_button.setFocus()
        self.result_shown.emit(result)

    def has_receipt(self) -> bool:
        """A result with a receipt: a tender's, or a paid ticket's (a comp has no tender)."""
        return self.result is not None or (self.ticket is not None and self.ticket.is_paid)

    def last_outcome(self) -> str | None:
        return None if self.result is None else str(self.result.outcome)

    # ---- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        super().retranslate()
        # said now, as every screen is (the window's switch does not wait for Qt's posted event)
        self.product_grid.retranslate()
        a11y.name(self.receipt_view, tr("Receipt"), tr("The receipt as it prints, line by line."))
        for button, about in (
                (self.remove_line_button, tr("Removes the ticket's last line.")),
                (self.cancel_ticket_button, tr("Cancels the ticket: approved tenders are voided and "
                                               "cash is given back; asks again when money was taken.")),
                (self.cancel_button, tr("Cancels the payment waiting on the PIN pad: nothing is "
                                        "charged.")),
                (self.print_button, tr("Prints the receipt on the PIN pad's printer.")),
                (self.show_receipt_button, tr("Shows the receipt on screen.")),
                (self.check_button, tr("Asks the host again what became of the payment."))):
            button.setAccessibleDescription(about)
        self.entry_stage.retranslate()
        self._describe_result()
        self._describe_amount()
        self._update_totals()
