"""Drawer: open with a float, pay in, pay out, no sale, and the blind close.

The page asks and shows; every rule (amounts, reasons, what needs a manager, the over/short) is
in ``cashier.drawer`` through the till's ``CashDesk``. The close is blind: the expected amount
appears only after the clerk's count is recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QGridLayout, QLabel, QLineEdit, QSizePolicy, QSpinBox, QVBoxLayout, QWidget

from cashier.clerks import SignInError
from cashier.errors import DrawerRefused, ManagerNeeded, ValidationError
from ui import a11y
from ui.core_words import error_words, printer_words, say
from ui.i18n import format_money, format_time, tr
from ui.pages.base import Page, TitledBox
from ui.widgets.amount import AmountDisplay, FitAmountDisplay

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.till import Till


def small_amount(currency: str, what: Callable[[], str]) -> AmountDisplay:
    """A small amount field styled by the theme (as on Sale and Journal), so high contrast applies;
    ``what`` it is, in the window's language (said with the amount to a screen reader)."""
    display = FitAmountDisplay(currency)
    display.setMinimumHeight(52)
    display.setObjectName("SmallAmount")
    display.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)  # one line high
    display.what = what
    display.refresh()
    return display


class DrawerPage(Page):

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        cur = till.currency
        self.state_line = QLabel()
        self.state_line.setObjectName("Breakdown")
        self.state_line.setWordWrap(True)
        self.layout_.addWidget(self.state_line)
        # what the last action did (or why it was refused), near the top: at the bottom it fell
        # below the fold at 1024x768 and an action seemed to do nothing
        self.message = QLabel()
        self.message.setObjectName("ResultMessage")
        self.message.setWordWrap(True)
        a11y.live(self.message)  # what came of the last action, or why it was refused
        self.layout_.addWidget(self.message)
        # two columns: on the left what the drawer's state calls for (open it, or count and close
        # it: only one shows), on the right the cash moves and the manager's approval; the four
        # in a two-by-two grid put Close [F10] under the fold at 1280x800 (150 %) under a title bar
        grid = QGridLayout()
        grid.setSpacing(8)  # 12 ran Spanish at 150 % text off 1024 px by 4
        self.layout_.addLayout(grid)
        left, right = QVBoxLayout(), QVBoxLayout()
        left.setSpacing(12)
        right.setSpacing(12)
        grid.addLayout(left, 0, 0)
        grid.addLayout(right, 0, 1)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)

        self.open_box = TitledBox()
        col = QGridLayout(self.open_box)
        self.float_amount = small_amount(cur, lambda: tr("Float"))
        self.open_button = self.button(lambda: tr("Open drawer"), "F5", self.open_drawer, "Primary")
        self.float_label = QLabel()
        col.addWidget(self.float_label, 0, 0)
        col.addWidget(self.float_amount, 0, 1)
        col.addWidget(self.open_button, 1, 0, 1, 2)
        left.addWidget(self.open_box)

        self.move_box = TitledBox()
        col = QGridLayout(self.move_box)
        self.move_amount = small_amount(cur, lambda: tr("Cash amount"))
        self.reason = QLineEdit()
        self.reason.setMaxLength(120)
        self.amount_label, self.reason_label = QLabel(), QLabel()
        # each key under its word: Pay out [F7] ran off 1024 px at 150 % text (issue #39)
        self.pay_in_button = self.button(lambda: tr("Pay in"), "F6", lambda: self.cash_move("pay_in"),
                                         stacked=True)
        self.pay_out_button = self.button(lambda: tr("Pay out"), "F7", lambda: self.cash_move("pay_out"),
                                          stacked=True)
        self.no_sale_button = self.button(lambda: tr("No sale"), "F4", lambda: self.cash_move("no_sale"),
                                          stacked=True)
        # each word above its field, two buttons a row: beside them, and three side by side, they
        # did not fit 1024 px in Spanish, nor at 150 % text
        col.addWidget(self.amount_label, 0, 0)
        col.addWidget(self.move_amount, 1, 0)
        col.addWidget(self.reason_label, 2, 0)
        col.addWidget(self.reason, 3, 0)
        row = QGridLayout()
        row.addWidget(self.pay_in_button, 0, 0)
        row.addWidget(self.pay_out_button, 0, 1)
        row.addWidget(self.no_sale_button, 1, 0, 1, 2)
        col.addLayout(row, 4, 0)
        right.addWidget(self.move_box)

        self.close_box = TitledBox()
        col = QGridLayout(self.close_box)
        self.counted = small_amount(cur, lambda: tr("Counted cash"))
        self.counted_label = QLabel()
        self.count_button = self.button(lambda: tr("Count"), "F9", self.count, "Primary")
        self.result = QLabel()
        self.result.setObjectName("Breakdown")
        self.result.setWordWrap(True)
        a11y.live(self.result)  # the count against what was expected: over, short, balanced
        self.close_reason = QLineEdit()
        self.close_reason.setMaxLength(120)
        self.close_reason_label = QLabel()
        self.close_button = self.button(lambda: tr("Close drawer"), "F10", self.close_drawer, "Primary")
        # bill by bill (issue #39): the pieces of each note and coin, added up by the core's
        # rule for ``--counts`` (``cashier.drawer.count_denominations``) into the counted cash
        self.by_note_button = self.button(lambda: tr("Count by note"), "F3", self.toggle_by_note,
                                          stacked=True)
        self.by_note_button.setCheckable(True)
        self.by_note = QWidget()
        notes = QGridLayout(self.by_note)
        notes.setContentsMargins(0, 0, 0, 0)
        self.pieces: dict[Decimal, QSpinBox] = {}
        from cashier.drawer import denominations  # the journal loads with the runtime, not here

        pieces = denominations(cur, till.profile.ticket.notes)
        half = (len(pieces) + 1) // 2  # two columns of notes and coins: the box stays short
        for i, value in enumerate(pieces):
            label = QLabel(format_money(value, cur))
            box = QSpinBox()
            box.setRange(0, 100000)
            box.setAccelerated(True)
            box.valueChanged.connect(lambda _n: self._count_by_note())
            label.setBuddy(box)
            notes.addWidget(label, i % half, 2 * (i // half))
            notes.addWidget(box, i % half, 2 * (i // half) + 1)
            self.pieces[value] = box
        self.by_note.setVisible(False)
        col.addWidget(self.counted_label, 0, 0)
        col.addWidget(self.counted, 0, 1)
        col.addWidget(self.by_note_button, 1, 0, 1, 2)
        col.addWidget(self.by_note, 2, 0, 1, 2)
        col.addWidget(self.count_button, 3, 0, 1, 2)
        col.addWidget(self.result, 4, 0, 1, 2)
        col.addWidget(self.close_reason_label, 5, 0, 1, 2)  # above its field: a long label
        col.addWidget(self.close_reason, 6, 0, 1, 2)
        col.addWidget(self.close_button, 7, 0, 1, 2)
        left.addWidget(self.close_box)
        left.addStretch(1)

        right.addStretch(1)

        self.layout_.addStretch(1)
        self._counted: Decimal | None = None
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        super().retranslate()
        if hasattr(self, "close_reason_label"):  # built: the drawer's state line in the new language
            self.refresh()
        self.open_box.setTitle(tr("Open the drawer"))
        self.float_label.setText(tr("Float"))
        self.move_box.setTitle(tr("Cash in and out"))
        self.amount_label.setText(tr("Amount"))
        self.reason_label.setText(tr("Reason"))
        self.close_box.setTitle(tr("Close the drawer (blind count)"))
        self.counted_label.setText(tr("Counted cash"))
        self.by_note_button.setAccessibleDescription(
            tr("Count the drawer bill by bill: the pieces of each note and coin add up to the counted "
               "cash."))
        self.close_reason_label.setText(tr("Over/short reason"))
        self.reason_label.setBuddy(self.reason)
        self.close_reason_label.setBuddy(self.close_reason)
        for display in (self.float_amount, self.move_amount, self.counted):
            display.refresh()  # its spoken name in the new language

    # ---- the core ------------------------------------------------------------------------------
    @property
    def desk(self) -> Any:
        assert self.gui is not None and self.gui.cashdesk is not None
        return self.gui.cashdesk

    @property
    def clerk(self) -> str:
        clerk = getattr(self.till, "clerk", None)
        return str(clerk.id) if clerk is not None else str(self.till.profile.clerk_id)

    def _signed_in(self) -> Any:
        """The clerk signed in with their own PIN: the core approves with it only when that clerk
        is a manager (a manager at the till is not asked again)."""
        return getattr(self.till, "clerk", None)

    def _ask(self, needed: ManagerNeeded) -> Any:
        """The one manager prompt (``ui.manager_prompt``) for what the core refused: the approving
        manager, or None (said on the page) when none approved."""
        from ui.manager_prompt import ask_pin

        approval = ask_pin(self, needed, self.desk.roster, self.desk.recorder.path, "window drawer")
        if not approval.go:
            self.say(lambda: approval.why, "warn")
            return None
        return approval.manager

    def _attempt(self, action: Callable[[Any], Any]) -> Any:
        """Run one core action with ``action(manager)``; when the core wants a manager, the one
        prompt asks for one and the action runs again with them. Every refusal becomes one line
        on the page."""
        try:
            try:
                return action(self._signed_in())
            except ManagerNeeded as exc:
                manager = self._ask(exc)
                if manager is None:
                    return None
                return action(manager)
        except ManagerNeeded as exc:
            needed = exc
            self.say(lambda: error_words(needed, self.till.currency), "warn")
        except (DrawerRefused, SignInError, ValidationError) as exc:
            refusal = exc
            self.say(lambda: error_words(refusal, self.till.currency), "bad")
        return None

    def say(self, words: Callable[[], str], level: str = "ok") -> None:
        """One line of what came of the last action (said again after a language switch)."""
        self.say_in(self.message, words)
        self.message.setProperty("level", level)
        self.message.style().unpolish(self.message)
        self.message.style().polish(self.message)

    def entered(self) -> None:
        self.refresh()
        session = self.desk.drawer.current() if self.gui and self.gui.cashdesk else None
        (self.counted if session else self.float_amount).setFocus()

    def refresh(self) -> None:
        if self.gui is None or self.gui.cashdesk is None:
            self.state_line.setText(tr("The drawer is not available: the journal could not be opened."))
            for box in (self.open_box, self.move_box, self.close_box):
                box.setEnabled(False)
            return
        status = self.desk.status()
        is_open = bool(status["open"])
        if is_open:
            text = (tr("Drawer open since") + f" {format_time(status['opened_at'])} · "
                    + tr("float") + f" {format_money(Decimal(status['float']), self.till.currency)} · "
                    + tr("cash tickets") + f" {status['cash_tickets']} · " + tr("no sales")
                    + f" {status['no_sales']}")
            if status["waiting_for_manager"]:
                text += " · " + tr("counted, waiting for a manager")
        else:
            text = tr("No drawer is open. Count the float and open the drawer.")
        self.state_line.setText(text)
        self.open_box.setEnabled(not is_open)
        self.open_box.setVisible(not is_open)
        self.move_box.setEnabled(is_open and bool(status.get("takes_moves")))
        self.close_box.setEnabled(is_open)
        self.close_box.setVisible(is_open)
        self.close_button.setEnabled(is_open and self._counted is not None)

    # ---- actions -------------------------------------------------------------------------------
    def open_drawer(self) -> None:
        amount = self.float_amount.value
        session = self._attempt(lambda _m: self.desk.open(clerk=self.clerk, float_amount=amount))
        if session is not None:
            shown = format_money(session.float, self.till.currency)
            status = self._printer_trouble()
            self.say(lambda: tr("Drawer open with a float of") + f" {shown}. "
                     + (tr("The drawer opened: put the float in.") if not status else
                        printer_words(status) + " " + tr("Open the drawer with its key.")),
                     "warn" if status else "ok")
            self.float_amount.clear()
            self._counted = None
            self.result.clear()
        self.refresh()
        if session is not None:  # the float's box is gone: the keys go to the cash moves
            self.move_amount.setFocus()

    def cash_move(self, kind: str) -> None:
        reason = self.reason.text()
        amount = self.move_amount.value

        def act(manager: Any) -> Any:
            if kind == "no_sale":
                return self.desk.no_sale(reason, clerk=self.clerk)
            do = self.desk.pay_in if kind == "pay_in" else self.desk.pay_out
            return do(amount, reason, clerk=self.clerk, manager=manager)

        if self._attempt(act) is not None:
            def words() -> str:
                text = {"pay_in": tr("Paid in"), "pay_out": tr("Paid out"),
                        "no_sale": tr("Drawer opened (no sale)")}[kind]
                if kind != "no_sale":
                    text += f" {format_money(amount, self.till.currency)}"
                if status:
                    return (f"{text}: {reason.strip()}. " + tr("The move is in the journal.") + " "
                            + printer_words(status) + " " + tr("Open the drawer with its key."))
                return f"{text}: {reason.strip()}. " + tr("Done: the drawer opened and the move is "
                                                          "in the journal.")
            status = self._printer_trouble()
            self.say(words, "warn" if status else "ok")
            self.move_amount.clear()
            self.reason.clear()
            self.move_amount.setFocus()  # the next move starts with its amount, not in the reason
        self.refresh()

    def _printer_trouble(self) -> str:
        """The printer's status line when it is known not to print (the drawer kick goes through
        it, so the drawer may not have opened); "" when it prints or the till has none."""
        return str(self.desk.printer_trouble)

    def count(self) -> None:
        """The blind count: recorded first, then expected and over/short are shown."""
        counted = self.counted.value
        done = self._attempt(lambda manager: self.desk.drawer.count(counted, clerk=self.clerk,
                                                                    manager=manager))
        if done is None:
            return
        _session, balance, value = done
        self._counted = value
        over_short = balance.over_short(value)
        cur = self.till.currency

        def words() -> str:
            word = {"over": tr("over"), "short": tr("short"),
                    "balanced": tr("balanced")}[balance.verdict(value)]
            return (tr("Expected") + f" {format_money(balance.expected, cur)} · " + tr("counted")
                    + f" {format_money(value, cur)} · {word} {format_money(abs(over_short), cur)}")
        self.say_in(self.result, words)
        if over_short:
            self.close_reason.setFocus()
            self.say(lambda: tr("Count recorded.") + " " + tr("Say why the drawer is over or short."))
        else:
            self.close_button.setFocus()
            self.say(lambda: tr("Count recorded."))
        self.refresh()

    def toggle_by_note(self) -> None:
        """F3: the count bill by bill (the pieces of each note and coin) or as one amount."""
        shown = not self.by_note.isVisible()
        self.by_note.setVisible(shown)
        self.by_note_button.setChecked(shown)
        if shown:
            next(iter(self.pieces.values())).setFocus()
            self._count_by_note()
        else:
            self.counted.setFocus()

    def counts(self) -> dict[str, int]:
        """The pieces counted of each note and coin (``--counts``' shape)."""
        return {str(value): box.value() for value, box in self.pieces.items() if box.value()}

    def _count_by_note(self) -> None:
        """The counted cash is what the pieces add up to, by the core's rule."""
        from cashier.drawer import count_denominations

        total = self._attempt(lambda _manager: count_denominations(self.counts(), self.till.currency))
        if total is not None:
            self.counted.set_value(total)

    def close_drawer(self) -> None:
        if self._counted is None:
            self.say(lambda: tr("Count the drawer first."), "bad")
            return
        counted = self._counted
        def close(manager: Any) -> Any:
            result = self.desk.close_drawer(counted, clerk=self.clerk,
                                            reason=self.close_reason.text(), manager=manager)
            if not result.closed and result.needed is not None:
                raise result.needed  # the one prompt asks, then the close runs again
            return result

        result = self._attempt(close)
        if result is None:
            self.refresh()
            return
        if not result.closed:
            waiting = str(result.waiting)
            self.say(lambda: say(waiting), "warn")
            self.refresh()
            return
        self.last_close = result
        cur = self.till.currency
        self.say(lambda: tr("Drawer closed.") + " " + tr("Over/short")
                 + f" {format_money(result.over_short, cur)}. "
                 + tr("The Z report is on the Reports screen."))
        self._counted = None
        self.counted.clear()
        for box in self.pieces.values():
            box.setValue(0)
        self.close_reason.clear()
        self.result.clear()
        self.refresh()
        self.float_amount.setFocus()  # the count's box is gone: the next float is typed here

