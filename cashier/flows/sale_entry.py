"""The Sale screen's state, without Qt: the amount typed (a ``CentsBuffer`` the screen's display
shows), the digits a barcode scanner typed, whether the entry holds what remains (pre-filled),
whether F12 was pressed once (armed), the open ticket and its session. ``key`` says what a key
does, ``tender_request`` which amount a tender takes and the lines it brings, ``fields`` what the
screen shows; the window only draws and runs what these say.

Light on purpose, as ``figures``: the Sale screen is built before the flows and the journal are
loaded, so they are imported where a tender or its outcome is built, not here.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from cashier.discounts import Discount, cash_rounded, parse_discount
from cashier.errors import ValidationError
from cashier.flows.catalog_grid import CatalogGrid, Pick
from cashier.flows.figures import Figures, cash_offers
from cashier.money import CentsBuffer

if TYPE_CHECKING:
    from cashier.catalog import Catalog
    from cashier.catalog.scan import Found
    from cashier.clerks import Action, Clerk
    from cashier.flows.base import FlowContext, FlowResult
    from cashier.flows.ticket import (
        Tender,
        Ticket,
        TicketResult,
        TicketSession,
        TicketSettings,
    )
    from cashier.journal.model import Entry

#: How the tip is taken (the profile's ``tip_mode``): not at all, asked on the PIN pad, keyed.
TIP_NONE, TIP_PAD, TIP_KEYED = "none", "pad", "keyed"


class Product(Protocol):
    """What a scanned barcode adds (``cashier.config.Product``)."""

    @property
    def name(self) -> str: ...
    @property
    def price(self) -> Decimal: ...
    @property
    def barcode(self) -> str: ...


class Key(StrEnum):
    """A key as the entry tells it apart (the window maps its keyboard onto these)."""

    DIGIT = "digit"
    ADD = "add"  # + or Insert
    RETURN = "return"
    ESCAPE = "escape"
    BACKSPACE = "backspace"
    TIMES = "times"  # * : the number typed is how many of the next line
    TEXT = "text"  # a printable character that is not a digit
    PAGE_UP = "page up"  # the grid's previous category
    PAGE_DOWN = "page down"  # ... its next category
    UP = "up"  # the grid's previous page of buttons
    DOWN = "down"  # ... its next page
    OTHER = "other"


class Act(StrEnum):
    """What the window does with a key."""

    AMOUNT = "amount"  # the active amount (or tip) display takes the key
    RETYPE = "retype"  # the pre-filled amount is cleared, then the display takes the digit
    ADD_LINE = "add line"
    QUANTITY = "quantity"  # the number typed became the next line's quantity (``times``)
    SCAN = "scan"  # the scanned product is added as a line (``SaleEntry.product``)
    NAME_BACK = "name backspace"  # the line's name loses its last letter
    NAME_TYPE = "name type"  # the letter goes to the line's name
    NAME_CLEAR = "name clear"  # Esc: the line's name cleared, then the display takes the key
    PICK = "pick"  # the grid's product is added as a line (``SaleEntry.take_pick``)
    GRID = "grid"  # the grid took the key (a category, a page, the panel's question): redraw it
    NO_MATCH = "no match"  # Return with letters typed that name no product: nothing happens
    NONE = "none"  # not the entry's key


@dataclass(frozen=True)
class Fields:
    """What the Sale screen shows of the entry (the same object while nothing changed, so the
    screen lays out again only when it did)."""

    figures: Figures
    tax_shown: bool
    paid_shown: bool  # money was taken: "Paid" is shown (after a decline alone it said $0.00)
    ready: bool  # something is due, or only the closing is left: the tenders are ready
    cash_offers: tuple[Decimal, ...]
    can_add_line: bool
    can_remove_line: bool
    can_cancel: bool
    tip_keyed: bool  # the keyed tip's field is shown
    tip_open: bool  # ... and may be typed in (the ticket did not take its tip yet)
    quantity: int = 1  # how many of the next line (the quantity key, issue #39)
    can_park: bool = False  # the ticket on screen may be set aside (lines, no money taken)
    #: the drawer is open: cash needs an open drawer session (``flows.ticket.check_tenders``);
    #: with it closed the Cash key and the quick cash keys look inactive
    drawer_open: bool = True
    can_discount: bool = False  # a discount or a price override may be given (issue #38)
    #: what cash for all that remains is asked, rounded to the profile's ``cash_rounding``
    #: (``discounts.cash_rounded``, as the cash tender takes it); None: the till does not round
    #: cash, or nothing is due
    cash_due: Decimal | None = None
    #: a tender applied money: the lines, the discounts and the tip are final (cancel instead,
    #: ``Ticket.lines_locked``), so the screen's keys that change them give way to the tenders
    lines_locked: bool = False


@dataclass(frozen=True)
class Press:
    """One key on the entry, answered in one trip: what the window does with it, whether the
    amount (or tip) took the digit (False: beyond the till's bound, not taken), and the fields
    the screen then shows."""

    act: Act
    fields: Fields
    taken: bool = True


@dataclass(frozen=True)
class TenderRequest:
    """One tender as the Sale screen asks for it: the tender, the line the quick path adds first,
    the keyed tip, the tip mode, how many tenders the ticket had before, and what the waiting
    screen shows (``waits_for_all``: all that remains, the ticket's figure once journaled)."""

    tender: Tender
    lines: tuple[tuple[str, Decimal, int], ...]
    keyed_tip: Decimal | None
    tip_mode: str
    before: int
    shown: Decimal
    waits_for_all: bool
    #: nothing remains: the tender closes the ticket as paid, charging nothing (a comp)
    closes: bool = False

    @property
    def on_pad(self) -> bool:
        """The customer is asked (the PIN pad, or the code on it): the screen waits; cash is not,
        nor any tender that only closes the ticket."""
        return self.tender.kind != "cash" and not self.closes


#: Told each ticket the entry now shows (None: none), and whether what remains was pre-filled.
Shown = Callable[["Ticket | None", bool], None]


class SaleEntry:
    """One Sale screen's state. ``amount`` and ``tip`` are the buffers the screen's displays
    show: typed into there, read and set here. The ticket's lines and tenders run here too
    (``context`` gives the flows' context and the ticket's settings once the till is up), and
    ``shown`` is told each ticket as it comes, so the screen draws it inside the same event."""

    def __init__(self, amount: CentsBuffer, tip: CentsBuffer, *, products: Sequence[Product] = (),
                 tip_mode: str = TIP_NONE, notes: Sequence[Decimal] = (), currency: str = "USD",
                 context: Callable[[], tuple[FlowContext, TicketSettings]] | None = None,
                 shown: Shown | None = None, prefixes: Sequence[str] = (),
                 catalog: Catalog | None = None, cash_rounding: Decimal | None = None) -> None:
        self.context = context
        #: the profile's ``cash_rounding`` step (None: cash is paid to the cent)
        self.cash_rounding = cash_rounding
        #: the product grid (the catalog's categories and buttons; None: a screen without one)
        self.grid = None if catalog is None else CatalogGrid(catalog)
        self.picked: Pick | None = None  # what the grid's last key chose, for the screen to add
        self.shown = shown
        self.amount = amount
        self.tip = tip
        #: what a scan finds without a till to sell from (no context): the profile's products
        self.products = products
        #: the profile's price-embedded EAN-13 prefixes (``cashier.catalog.scan``)
        self.prefixes = tuple(prefixes)
        self.found: Found | None = None  # what the last SCAN found in the catalog (label price)
        self.tip_mode = tip_mode
        self.notes = tuple(notes)
        self.currency = currency
        self.session: TicketSession | None = None  # the open ticket's session
        self.ticket: Ticket | None = None  # its last Ticket
        self.prefilled = False  # the entry shows what remains (typing replaces it)
        self.scanned = ""  # digits as typed, for a barcode scanner acting as a keyboard
        self.product: Product | None = None  # the product the last SCAN found
        #: (ticket id, amount paid) the first F12 asked about; the second press cancels
        self.cancel_armed: tuple[int, Decimal] | None = None
        self.waiting_for_all = False  # the tender on the PIN pad takes all that remains
        #: the till's drawer is open (told by the screen from the cash desk): cash can be taken
        self.drawer_open = True
        self.result: FlowResult | None = None  # the last tender's result (on the result screen)
        #: the last fields and what they were of: asked several times per key, made once
        self._fields: tuple[Ticket | None, tuple[str, str, bool, str, int, bool], Fields] | None = None
        self.quantity = 1  # how many of the next line: the quantity key sets it, a line takes it

    # ---- what the screen shows ---------------------------------------------------------------
    def keyed_tip(self) -> Decimal:
        """The tip typed in the Tip field (keyed mode), not yet taken by the ticket."""
        return self.tip.value if self.tip_mode == TIP_KEYED else Decimal(0)

    def figures(self) -> Figures:
        """The core's figures for the ticket, the amount typed (with no line yet) and the keyed tip."""
        return self.fields().figures

    @property
    def tip_taken(self) -> bool:
        return self.ticket is not None and self.ticket.tip_asked

    @property
    def has_open_lines(self) -> bool:
        t = self.ticket
        return t is not None and t.is_open and bool(t.lines)

    def fields(self) -> Fields:
        t = self.ticket
        # asked several times per key: a ticket is frozen, so the same ticket object with the same
        # digits and flags has the same fields (a 200-line ticket's sums are not free, and it is
        # not compared field by field)
        of = (self.amount.digits, self.tip.digits, self.prefilled, self.tip_mode, self.quantity,
              self.drawer_open)
        last = self._fields
        if last is not None and last[0] is t and last[1] == of:
            return last[2]
        typed = Decimal(0) if self.prefilled else self.amount.value * self.quantity
        figures = Figures.of(t, typed=typed, keyed_tip=self.keyed_tip())
        open_ticket = t is not None and t.is_open
        keyed = self.tip_mode == TIP_KEYED
        fields = Fields(
            figures=figures, tax_shown=bool(figures.tax) or bool(t and t.record.tax_rate),
            paid_shown=bool(t and t.money_taken), ready=figures.ready,
            cash_offers=tuple(cash_offers(figures.remaining, self.notes, self.currency)),
            can_add_line=self.amount.entered and not self.prefilled,
            can_remove_line=bool(t is not None and open_ticket and t.lines and not t.lines_locked),
            can_cancel=open_ticket, tip_keyed=keyed, tip_open=keyed and not self.tip_taken,
            quantity=self.quantity,
            can_park=bool(t is not None and open_ticket and t.lines and not t.lines_locked
                          and not t.checking),
            drawer_open=self.drawer_open,
            can_discount=self.can_discount(),
            cash_due=cash_rounded(figures.remaining, self.cash_rounding, self.currency)
            if self.cash_rounding and figures.due else None,
            lines_locked=bool(t is not None and open_ticket and t.lines_locked))
        self._fields = (t, of, fields)
        return fields

    # ---- what is typed -----------------------------------------------------------------------
    def prefill(self) -> None:
        """What remains (with a keyed tip) in the entry: typing replaces it, F2 charges it all."""
        self.prefilled = False
        figures = self.figures()
        if self.has_open_lines and figures.due:
            self.amount.set(figures.remaining)
            self.prefilled = True
        else:
            self.amount.clear()
        self.scanned = ""

    def amount_edited(self) -> None:
        """The amount changed (Backspace, the keypad): no longer what remains, it is typed now."""
        if self.prefilled and not self.figures().is_remaining(self.amount.value):
            self.prefilled = False

    def tip_edited(self) -> bool:
        """The pre-filled amount follows the keyed tip, so it and Remaining agree (True: it moved)."""
        if self.prefilled:
            self.amount.set(self.figures().remaining)
        return self.prefilled

    def tip_mode_set(self, mode: str) -> bool:
        """The tip mode chosen; True when a keyed tip no longer applies (and was cleared)."""
        self.tip_mode = mode
        if mode != TIP_KEYED and not self.tip_taken:
            self.tip.clear()
            return True
        return False

    def key(self, key: Key, text: str = "", *, on_tip: bool = False, named: bool = False) -> Act:
        """What a key typed on the entry does. ``on_tip``: the Tip field has the keyboard;
        ``named``: the line's name holds text (Backspace takes from it when nothing is typed)."""
        act = Act.AMOUNT
        if not on_tip and (grid_act := self._grid_key(key, text)) is not None:
            return grid_act
        if not on_tip:
            if key is Key.DIGIT:
                self.scanned += text
                if self.prefilled:
                    # typing replaces what remains (a part of it, for a split); a refused amount
                    # starts over by itself (the display's ``show_refused``)
                    self.prefilled = False
                    self.amount.clear()
                    act = Act.RETYPE
            elif key is Key.ADD:
                return Act.ADD_LINE
            elif key is Key.TIMES:
                return Act.QUANTITY
            elif key is Key.RETURN and (product := self._scanned_product()) is not None:
                self.amount.clear()
                self.scanned = ""
                self.product = product
                return Act.SCAN
            elif key is Key.ESCAPE:
                self.scanned = ""
                self.prefilled = False
                act = Act.NAME_CLEAR
            elif key is Key.BACKSPACE and not self.amount.entered and named:
                return Act.NAME_BACK
            elif key is Key.TEXT:
                return Act.NAME_TYPE  # letters name the next line
        if key in (Key.BACKSPACE, Key.ESCAPE, Key.RETURN):
            self.scanned = ""
        elif key is not Key.DIGIT:
            return Act.NONE
        return act

    def _grid_key(self, key: Key, text: str) -> Act | None:
        """The grid's keys: while its panel asks, 1-9 answer, Return adds, Esc backs out (and no
        other key types under it); Page Up/Down the category, Up/Down the page; Return with
        letters typed (and no price) adds the first product they name, when the catalog has
        products (a till without any keeps Return as it was). None: not the grid's."""
        grid = self.grid
        if grid is None:
            return None
        if grid.choice is not None:
            pick = None
            if key is Key.DIGIT and text in "123456789":
                pick = grid.option(int(text))
            elif key is Key.RETURN:
                pick = grid.confirm()
            elif key is Key.ESCAPE:
                grid.back()
            self.picked = pick
            return Act.PICK if pick is not None else Act.GRID
        if key in (Key.PAGE_UP, Key.PAGE_DOWN):
            grid.step_category(1 if key is Key.PAGE_DOWN else -1)
            return Act.GRID
        if key in (Key.UP, Key.DOWN):
            grid.turn(1 if key is Key.DOWN else -1)
            return Act.GRID
        if key is Key.RETURN and grid.filter and grid.catalog.products and not self.scanned \
                and (self.prefilled or not self.amount.entered):
            product = grid.first()
            if product is None:
                return Act.NO_MATCH  # never a charge: the cashier was naming a product
            self.picked = grid.press(product)
            return Act.PICK if self.picked is not None else Act.GRID
        return None

    def choose(self, pick: Pick | None) -> bool:
        """A button of the grid or its panel chose ``pick`` (None: the panel asks first); True
        when there is a product to add (``take_pick``)."""
        self.picked = pick
        return pick is not None

    def take_pick(self) -> Pick | None:
        """What the grid chose, once: the line to add."""
        pick, self.picked = self.picked, None
        return pick

    def press(self, key: Key, text: str = "", *, on_tip: bool = False, named: bool = False,
              start_over: bool = False) -> Press:
        """One key typed on the entry, in one call: what it does (``key``), the edit it makes to
        the amount or the tip it is typed in (a digit, Backspace, Esc; ``start_over``: the amount
        on screen was refused, a digit starts a new one), and the fields the screen shows then.
        The window draws what this answers and asks nothing more for the key; Return is left to
        the window (it charges, which asks for its tender)."""
        act = self.key(key, text, on_tip=on_tip, named=named)
        taken = True
        if act is Act.QUANTITY:
            taken = self.times()
            return Press(act, self.fields(), taken)
        if act in (Act.AMOUNT, Act.RETYPE, Act.NAME_CLEAR) and key is not Key.RETURN:
            buffer = self.tip if on_tip else self.amount
            if key is Key.DIGIT:
                if start_over:
                    buffer.clear()
                taken = buffer.push(text)
            elif key is Key.BACKSPACE:
                buffer.backspace()
            elif key is Key.ESCAPE:
                buffer.clear()
            if on_tip:
                self.tip_edited()
            else:
                self.amount_edited()
        return Press(act, self.fields(), taken)

    def times(self) -> bool:
        """The quantity key: the whole number typed is how many of the next line (2 * 3 5 0 +
        adds 2 x 3.50; nothing typed: back to one). False, with nothing changed, when it breaks
        the line's quantity rule (``flows.cart.check_quantity``) or the entry holds what remains."""
        from cashier.errors import ValidationError
        from cashier.flows.cart import check_quantity

        if self.prefilled:
            return False
        if not self.amount.entered:
            self.quantity = 1
            return True
        try:
            self.quantity = check_quantity(int(self.amount.digits))
        except ValidationError:
            return False
        self.amount.clear()
        self.scanned = ""
        return True

    def take_quantity(self) -> int:
        """The next line's quantity, taken by that line: the one after it is one again."""
        quantity, self.quantity = self.quantity, 1
        return quantity

    def _scanned_product(self) -> Product | None:
        """A barcode scanner types the code then Return: the product of that code in the catalog
        the till sells from now (``Catalog.by_barcode``, then a price-embedded label: the one rule
        of ``cashier.catalog.scan``); before the till is up, the profile's product of that code."""
        code = self.scanned
        self.found = None
        if not code:
            return None
        catalog = self._catalog()
        if catalog is None:
            return next((p for p in self.products if p.barcode == code), None)
        from cashier.catalog.scan import scanned

        self.found = scanned(catalog, code, self.prefixes, self.currency)
        return None if self.found is None else self.found.product

    def _catalog(self) -> Catalog | None:
        """The catalog sold from now; before the till is up, the grid's (None: neither yet)."""
        shown = None if self.grid is None else self.grid.catalog
        if self.context is None:
            return shown
        try:
            ctx, _settings = self.context()
        except RuntimeError:  # the till is still starting
            return shown
        return ctx.catalog.current()

    def line(self) -> Decimal | None:
        """The typed amount as a new line's price (None: nothing typed, or it is what remains);
        the entry is cleared for the next line."""
        if self.prefilled or not self.amount.entered:
            return None
        price = self.amount.value
        self.amount.clear()
        return price

    # ---- tenders -----------------------------------------------------------------------------
    def tender_request(self, kind: str, *, handed: Decimal | None = None, chosen: bool = False,
                       name: str = "") -> TenderRequest:
        """One tender for the amount typed, or all that remains when it is pre-filled or nothing
        is typed (``chosen``: a quick cash key, ``handed`` the note, None "Exact"). With no line
        yet, the typed amount becomes the ticket's line first (the quick path, ``name`` it)."""
        from cashier.flows.ticket import Tender

        typed = self.amount.value
        quick = not self.has_open_lines
        all_remaining = quick or self.prefilled or not self.amount.entered
        amount = handed if chosen else (None if all_remaining else typed)
        tender = Tender(kind, amount)  # type: ignore[arg-type]
        keyed_tip = self.keyed_tip() if self.tip_mode == TIP_KEYED else None
        lines = ((name, typed, self.take_quantity()),) if quick else ()
        before = len(self.ticket.tenders) if self.ticket is not None and not quick else 0
        figures = self.figures()
        closes = not quick and figures.closes
        self.waiting_for_all = kind != "cash" and amount is None and not closes
        shown = figures.remaining if amount is None else amount
        return TenderRequest(tender, lines, keyed_tip, self.tip_mode, before, shown,
                             self.waiting_for_all, closes)

    def settled(self, entry: Entry) -> FlowResult | None:
        """The result on screen was being checked and recovery has now settled its ``entry``:
        the real outcome (else None)."""
        from cashier.entry_rules import is_checking
        from cashier.flows.base import FlowResult, outcome_of

        r = self.result
        if r is None or r.entry.id != entry.id or not is_checking(r.outcome) or entry.unresolved:
            return None
        return FlowResult(entry, outcome_of(entry), entry.message or "")

    @staticmethod
    def result_style(result: FlowResult | None) -> str:
        """How the result is coloured: a cancelled tender as cancelled, a capture as approved, a
        ticket closed with no tender (None: a comp) as paid."""
        from cashier.entry_rules import is_cancelled

        if result is None:
            return "approved"
        view = "cancelled" if is_cancelled(result.entry) else result.outcome
        return {"captured": "approved"}.get(view, view)

    # ---- the ticket --------------------------------------------------------------------------
    def arm_cancel(self) -> bool:
        """F12: True when this press only asks (money was taken and the ticket, with what it paid,
        was not asked about yet); the second press on the same ticket and sum cancels."""
        t = self.ticket
        if t is None:
            return False
        if t.money_taken and self.cancel_armed != (t.id, t.paid):
            self.cancel_armed = (t.id, t.paid)
            return True
        self.cancel_armed = None
        return False

    def needs_new_ticket(self) -> bool:
        """No session, or its ticket closed: the next line or tender starts a new ticket."""
        return self.session is None or (self.ticket is not None and not self.ticket.is_open)

    def leave_closed(self) -> bool:
        """The next customer: a paid (or cancelled) ticket is left behind; True when it was."""
        if self.ticket is not None and not self.ticket.is_open:
            self.forget()
            return True
        return False

    def changed_ticket(self, event: object) -> Ticket | None:
        """The ticket of a core event about this screen's ticket (a ``TicketChanged``), else None."""
        if self.session is None:
            return None
        from cashier.flows.ticket import TicketChanged

        if isinstance(event, TicketChanged) and event.ticket.id == self.session.id:
            return event.ticket
        return None

    def forget(self) -> None:
        self.session = None
        self.ticket = None

    # ---- what the cashier's keys run ---------------------------------------------------------
    def show(self, ticket: Ticket | None, *, prefill: bool = False) -> None:
        """``ticket`` is the one on screen now (``prefill``: what remains goes in the entry)."""
        self.ticket = ticket
        if self.shown is not None:
            self.shown(ticket, prefill)

    def _context(self) -> tuple[FlowContext, TicketSettings]:
        if self.context is None:
            raise RuntimeError("this SaleEntry runs no flows: it was given no context")
        return self.context()

    async def session_for(self, tenders: Sequence[Tender] = ()) -> TicketSession:
        """The open ticket's session, or a new ticket (the ``tenders`` about to pay it checked
        first by the core, so a refused one leaves nothing journaled)."""
        from cashier.flows.ticket import TicketSession

        session = self.session
        if session is None or self.needs_new_ticket():
            session = await TicketSession.start(*self._context(), tenders)
            self.session = session
            self.show(session.ticket)
        return session

    def add_line(self, name: str, price: Decimal, quantity: int | None = None) -> Coroutine[Any, Any, Ticket]:
        """A line of ``quantity`` (None: what the quantity key set, taken now, as the key is
        pressed); the coroutine adds it."""
        return self._add_line(name, price, self.take_quantity() if quantity is None else quantity)

    async def _add_line(self, name: str, price: Decimal, quantity: int) -> Ticket:
        ticket = await (await self.session_for()).add_line(name, price, quantity)
        self.show(ticket, prefill=True)
        return ticket

    async def park(self) -> Ticket:
        """The ticket on screen set aside (``TicketSession.park``); the counter is free for the
        next customer."""
        from cashier.errors import ValidationError

        t = self.ticket
        if self.session is None or t is None or not t.is_open:
            raise ValidationError("ticket", "there is no open ticket to park")
        ticket = await self.session.park()
        self.forget()
        self.quantity = 1
        self.show(None, prefill=True)
        return ticket

    async def parked(self) -> list[Ticket]:
        """The parked tickets, oldest first."""
        from cashier.flows.ticket import parked_tickets

        return await parked_tickets(self._context()[0])

    async def recall(self, ticket_id: int) -> Ticket:
        """A parked ticket back on the counter. A ticket with lines or tenders on screen stays:
        it is parked or finished first (one ticket on the counter at a time)."""
        from cashier.errors import ValidationError
        from cashier.flows.ticket import recall

        t = self.ticket
        if t is not None and t.is_open and (t.lines or t.tenders):
            raise ValidationError("ticket", "ticket {ticket} is on the counter: park it or finish "
                                            "it first", ticket=t.id)
        ctx, settings = self._context()
        session = await recall(ctx, ticket_id, settings)
        self.session = session
        ticket = session.ticket or await session.refresh()
        self.show(ticket, prefill=True)
        return ticket

    async def add_scanned(self) -> Ticket:
        """The product the last SCAN found, as a line: from the catalog (its sku, version, tax
        class; a price-embedded label's price), or a profile's product typed as its name and price."""
        product, found = self.product, self.found
        if product is None:
            raise RuntimeError("nothing was scanned")
        session = await self.session_for()
        if found is not None:
            ticket = await session.add_product(found.product, price=found.price)
        else:
            ticket = await session.add_line(product.name, product.price)
        self.show(ticket, prefill=True)
        return ticket

    # ---- discounts and price overrides (issue #38): the rules are the session's --------------------
    def reasons(self) -> tuple[str, ...]:
        """The reasons a discount or a price override may give (the catalog's)."""
        context = self._context()[0]
        return context.catalog.current().reasons

    def can_discount(self) -> bool:
        """An open ticket with lines and nothing paid yet: a discount or a price may change."""
        t = self.ticket
        return t is not None and t.is_open and bool(t.lines) and not t.lines_locked

    def discount_approval(self, text: str, *, on_line: bool) -> tuple[Action, Decimal]:
        """What the manager rule is asked for the discount typed (``10%`` or ``2.00``) on the last
        line or the whole ticket: the window asks a manager's PIN when the core's rule wants one."""
        from cashier.clerks import Action

        if self.session is None or not self.can_discount():
            raise ValidationError("discount", "add a line first (and before any payment)")
        discount = self._discount(text, "", on_line)
        return Action.DISCOUNT, self.session.discount_percent(discount)

    def _discount(self, text: str, reason: str, on_line: bool) -> Discount:
        lines = len(self.ticket.lines) if self.ticket is not None else 0
        return parse_discount(text, self.currency, line=lines - 1 if on_line else None,
                              reason=reason, field_name="discount")

    async def add_discount(self, text: str, reason: str, *, on_line: bool,
                           manager: Clerk | None) -> Ticket:
        """The discount typed on the last line (``on_line``) or the whole ticket, for ``reason``."""
        session = await self.session_for()
        ticket = await session.add_discount(self._discount(text, reason, on_line), manager)
        self.show(ticket, prefill=True)
        return ticket

    def check_price_override(self, ticket: Ticket | None = None) -> None:
        """A price is typed over the last line's only when it is a catalog product (a typed line
        is typed again): asked before anything else, so the window asks no one in vain."""
        t = ticket or self.ticket
        if t is None or not t.lines or t.lines[-1].sku is None:
            raise ValidationError("price", "the last line is not a catalog product: type its "
                                           "price as a new line instead")

    async def override_last_price(self, price: str, reason: str, manager: Clerk | None) -> Ticket:
        """The last line sold again at ``price`` over its catalog price (a catalog line only), for
        ``reason``, approved by ``manager``: the line is replaced by one that keeps the catalog's
        price beside the typed one."""
        from cashier.clerks import Action
        from cashier.flows.ticket import PriceOverride

        session = await self.session_for()
        ticket = session.ticket or await session.refresh()
        self.check_price_override(ticket)
        line = ticket.lines[-1]
        product = self._context()[0].catalog.current().product(line.sku)
        if product is None:
            raise ValidationError("price", "{sku} is no longer sold at this till", sku=line.sku)
        override = PriceOverride(price, reason, manager)
        self._context()[0].approval(Action.PRICE_OVERRIDE, Decimal(0), manager)  # before removing
        mods = [m for m in product.modifiers if m.name in line.modifiers]
        await session.remove_line(len(ticket.lines) - 1)
        ticket = await session.add_product(product, quantity=line.quantity, modifiers=mods,
                                           override=override)
        self.show(ticket, prefill=True)
        return ticket

    async def add_product(self, pick: Pick, quantity: int = 1) -> Ticket:
        """The grid's (or a scanner's) product as a line, with its modifiers."""
        session = await self.session_for()
        ticket = await session.add_product(pick.product, quantity=quantity, modifiers=pick.modifiers)
        self.show(ticket, prefill=True)
        return ticket

    async def remove_last_line(self) -> Ticket:
        session = await self.session_for()
        ticket = session.ticket or await session.refresh()
        ticket = await session.remove_line(len(ticket.lines) - 1)
        self.show(ticket, prefill=True)
        return ticket

    async def cancel(self, manager: Clerk | None) -> Ticket:
        """The ticket cancelled (approved tenders voided, cash given back) and left behind."""
        if self.session is None:
            raise RuntimeError("no ticket to cancel")
        ticket = await self.session.cancel(manager=manager)
        self.show(ticket)
        self.forget()
        return ticket

    async def pay(self, session: TicketSession, request: TenderRequest) -> TicketResult:
        """The requested tender on ``session`` (its lines and keyed tip first: the quick path):
        the ticket and the result its flow built, as the flow returned them."""
        session.settings = replace(session.settings, tip_mode=request.tip_mode)
        paid = await session.quick_pay([request.tender], lines=request.lines, tip=request.keyed_tip)
        self.show(paid.ticket)
        return paid

    async def resume(self) -> TicketSession | None:
        """After start-up recovery: the latest ticket a crash left open (None: none)."""
        from cashier.flows.ticket import open_tickets

        sessions = await open_tickets(*self._context())
        return sessions[-1] if sessions else None
