"""PIN pad work around a sale: the cart's line items kept in step with the pad (LG), terms and
conditions, a yes/no confirmation, the signature (uploaded to the invoice on HD and LG), and the
receipt on the pad's printer; ``checkout`` runs them in order around ``payments.sale``.

The till is the authority on the cart: a pad that fails to show a change never blocks the sale;
the cart marks itself out of step and redraws the whole list at the next change.
None of these moves money, so each is a journal note (who, what the customer answered), never
an entry; terms the customer declines stop the sale before anything is charged.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from cashier.errors import ValidationError
from cashier.flows.base import FlowContext, FlowResult
from cashier.flows.giftcards import require
from cashier.flows.payments import KeyedCard, sale
from cashier.flows.pinpad import print_receipt
from cashier.host.endpoints import BY_METHOD
from cashier.host.errors import HostError, HostProtocolError, HostTimeout, HostUnavailable
from cashier.host.models.devices import TermsAndConditions
from cashier.journal.model import Entry
from cashier.money import max_amount, quantum
from cashier.printing.receipt import ReceiptStyle, pad_receipt
from cashier.redact import redact
from cashier.text import CARD_RULE, clean_text, free_text, has_card_number, optional_free_text

log = logging.getLogger(__name__)

#: Our spec's limit for ``device.lineItems``.
MAX_SHOWN = 10
MAX_DESCRIPTION = 40
#: Characters per line on the pad (decision: the spec gives none; 32 fits common pads).
LINE_WIDTH = 32
PAD_ERRORS = (HostError, HostTimeout, HostUnavailable, HostProtocolError)
BY_LINE_ITEMS = BY_METHOD["device_line_items"]
BY_UPLOAD = BY_METHOD["upload_signature"]


#: The most pieces one line carries (the command line's ``xQTY``, the Sale screen's quantity key).
MAX_QUANTITY = 999


def check_quantity(quantity: object) -> int:
    """THE quantity rule of a line: a whole number from 1 to ``MAX_QUANTITY``."""
    if isinstance(quantity, bool) or not isinstance(quantity, int) or not 1 <= quantity <= MAX_QUANTITY:
        raise ValidationError("quantity", f"must be a whole number from 1 to {MAX_QUANTITY}")
    return quantity


@dataclass(frozen=True)
class CartLine:
    description: str
    unit_price: Decimal
    quantity: int = 1

    def __post_init__(self) -> None:
        text = free_text("description", self.description).strip()
        if not 1 <= len(text) <= MAX_DESCRIPTION:
            raise ValidationError("description", f"must be 1 to {MAX_DESCRIPTION} characters")
        object.__setattr__(self, "description", text)
        if not isinstance(self.unit_price, Decimal) or not self.unit_price.is_finite() \
                or self.unit_price < 0:
            raise ValidationError("unit_price", "must be a Decimal amount, 0 or more")
        check_quantity(self.quantity)

    @property
    def amount(self) -> Decimal:
        return self.unit_price * self.quantity

    def text(self, width: int = LINE_WIDTH) -> str:
        """``2x Coffee          7.00``: the amount right-aligned, the description cut to fit."""
        amount = f"{self.amount:.2f}"
        left = f"{self.quantity}x {self.description}" if self.quantity > 1 else self.description
        room = max(width - len(amount) - 1, 1)
        return f"{left[:room]:<{room}} {amount}"


@dataclass(frozen=True, slots=True)
class LineItemsShown:
    """What the pad shows after a cart change; ``in_sync`` False: the pad did not take it."""

    lines: tuple[str, ...]
    in_sync: bool


class Cart:
    """The sale's lines. On LG every change is mirrored on the pad in one call: an added line is
    appended (``APPENDLINEITEM``), any other change shows the list anew (the same call without
    the option replaces what is shown), an empty cart clears (``DELETE /devices/lineitems``)."""

    def __init__(self, ctx: FlowContext, *, width: int = LINE_WIDTH) -> None:
        self.ctx = ctx
        self.width = width
        self.lines: list[CartLine] = []
        self.shown: list[str] = []
        self.in_sync = True

    @property
    def pad(self) -> bool:
        return BY_LINE_ITEMS.supports(self.ctx.client.option)

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.lines), Decimal(0))

    def wanted(self) -> list[str]:
        """What the pad should show. Decision: beyond 10 lines, a count of the earlier lines and
        the 9 most recent (the customer checks what was just scanned)."""
        if len(self.lines) <= MAX_SHOWN:
            return [line.text(self.width) for line in self.lines]
        earlier = len(self.lines) - (MAX_SHOWN - 1)  # only the lines shown are laid out
        return [f"... {earlier} earlier items"[:self.width],
                *(line.text(self.width) for line in self.lines[-(MAX_SHOWN - 1):])]

    async def add(self, line: CartLine) -> None:
        quantum_ = quantum(self.ctx.journal.currency)
        if line.unit_price != line.unit_price.quantize(quantum_):
            raise ValidationError("unit_price", f"has more decimals than {self.ctx.journal.currency} allows")
        limit = max_amount(self.ctx.journal.currency)
        if self.total + line.amount > limit:
            raise ValidationError("cart", f"total must be at most {limit} (the host's limit)")
        self.lines.append(line)
        await self._sync()

    async def remove(self, index: int) -> CartLine:
        if not 0 <= index < len(self.lines):
            raise ValidationError("index", f"must be 0 to {len(self.lines) - 1}" if self.lines
                                  else "the cart is empty")
        line = self.lines.pop(index)
        await self._sync()
        return line

    async def clear(self) -> None:
        self.lines.clear()
        await self._sync()

    async def _sync(self) -> None:
        if not self.pad:
            return  # no pad shows lines (Host Direct): nothing to lay out
        wanted = self.wanted()
        client = self.ctx.client
        try:
            grows = self.in_sync and len(wanted) > len(self.shown) and wanted[:len(self.shown)] == self.shown
            if grows:
                await client.device_line_items(wanted[len(self.shown):], append=bool(self.shown))
            elif wanted and (wanted != self.shown or not self.in_sync):
                # Decision: one call. Display Line Items without APPENDLINEITEM shows these items in
                # place of those shown (the vendor's "appends" only with the option), so a list
                # that changed (a removal; beyond 10 lines, the "... N earlier items" row) needs
                # no DELETE first: the pad never shows an empty list between the two
                await client.device_line_items(wanted)
            elif self.shown or not self.in_sync:
                await client.device_clear_line_items()
            self.shown = wanted
            self.in_sync = True
        except PAD_ERRORS as exc:
            self.in_sync = False  # redrawn in full at the next change
            log.warning("line items not shown on the PIN pad: %s", redact(str(exc))[:200])
        self.ctx.bus.publish(LineItemsShown(tuple(self.shown), self.in_sync))


# ---- prompts around the sale ---------------------------------------------------------------------
def _customer_gave_up(exc: HostError) -> bool:
    """9960: the prompt was cancelled (reset), the customer pressed Cancel, or never answered."""
    return exc.primary_code == 9960


async def accept_terms(ctx: FlowContext, text: str, *, header: str | None = None,
                       ack_text: str | None = None) -> bool:
    """Terms on the pad (LG, DCP, DCC): True when the customer accepts; a cancel is a no."""
    require(ctx, "device_terms_and_conditions")
    text = clean_text(text, multiline=True)
    if has_card_number(text):
        raise ValidationError("terms", CARD_RULE)
    if not 1 <= len(text) <= 4096:
        raise ValidationError("terms", "must be 1 to 4096 characters")
    header, ack_text = optional_free_text("header", header), optional_free_text("ack_text", ack_text)
    for name, value in (("header", header), ("ack_text", ack_text)):
        if value is not None and len(value) > 100:
            raise ValidationError(name, "must be at most 100 characters")
    terms = TermsAndConditions(value=text, header=header, ack_text=ack_text)
    try:
        answer = await ctx.client.device_terms_and_conditions(terms)
        accepted = answer.terms_accepted is True
        how = "accepted" if accepted else "declined"
    except HostError as exc:
        if not _customer_gave_up(exc):
            raise
        accepted, how = False, f"no answer ({exc.short_text})"
    await ctx.journal.note(None, "terms", actor=ctx.actor, answer=how)
    return accepted


async def confirm(ctx: FlowContext, question: str) -> bool:
    """A yes/no question on the pad (LG only); a cancel is a no."""
    require(ctx, "device_prompt_confirmation")
    question = free_text("question", question)
    if not 1 <= len(question) <= 64:
        raise ValidationError("question", "must be 1 to 64 characters")
    try:
        yes = (await ctx.client.device_prompt_confirmation(question)).confirmed is True
    except HostError as exc:
        if not _customer_gave_up(exc):
            raise
        yes = False
    await ctx.journal.note(None, "confirmation", actor=ctx.actor, question=question, answer=yes)
    return yes


@dataclass(frozen=True)
class SignatureResult:
    captured: bool
    uploaded: bool
    message: str = ""
    data: str | None = field(default=None, repr=False)  # base64 PNG: kept in memory only


async def capture_signature(ctx: FlowContext, invoice: str | None = None, *, image: str | None = None,
                            display_text: str = "Please sign") -> SignatureResult:
    """The customer's signature: from the pad (LG, DCP, DCC) or ``image`` (a base64 PNG the window
    captured, the only way on HD), then uploaded to ``invoice`` where the option can (HD, LG)."""
    entry: Entry | None = None
    if invoice is not None:
        entry = await ctx.journal.by_invoice(invoice)
        if entry is None:
            raise ValidationError("invoice", "is not in this till's journal")
    if image is None:
        if ctx.client.option == "HD":
            raise ValidationError("signature", "Host Direct has no PIN pad: capture the signature in "
                                               "the window and pass it as an image")
        display_text = free_text("display_text", display_text)
        if len(display_text) > 72:
            raise ValidationError("display_text", "must be at most 72 characters")
        try:
            answer = await ctx.client.device_prompt_signature(display_text=display_text)
        except HostError as exc:
            if not _customer_gave_up(exc):
                raise
            await ctx.journal.note(entry.id if entry else None, "signature", actor=ctx.actor,
                                   captured=False)
            return SignatureResult(False, False, f"no signature ({exc.short_text})")
        image = answer.signature.data if answer.signature else None
        if not image:
            return SignatureResult(False, False, "the pad returned no signature")
    uploaded, message = False, ""
    if invoice is not None and BY_UPLOAD.supports(ctx.client.option):
        try:
            await ctx.client.upload_signature(invoice=invoice, data=image)
            uploaded = True
        except PAD_ERRORS as exc:
            message = f"signature not uploaded: {redact(str(exc))[:200]}"
    elif invoice is not None:
        message = f"kept on the till: {ctx.client.option} cannot upload a signature"
    await ctx.journal.note(entry.id if entry else None, "signature", actor=ctx.actor, captured=True,
                           uploaded=uploaded, size=len(image))
    return SignatureResult(True, uploaded, message, image)


def receipt_lines(entry: Entry, language: str = "en") -> list[str]:
    """The payment's receipt on the PIN pad's printer: the one layout
    (``cashier.printing.receipt``), a label and value a line."""
    return pad_receipt(entry, ReceiptStyle(language=language))


@dataclass(frozen=True)
class CheckoutResult:
    payment: FlowResult | None
    stopped: str | None = None
    signature: SignatureResult | None = None
    printed: bool = False

    @property
    def outcome(self) -> str:
        return self.payment.outcome if self.payment is not None else "stopped"

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = self.payment.as_dict() if self.payment else {"outcome": "stopped"}
        out.update(stopped=self.stopped, printed=self.printed,
                   signature=None if self.signature is None else
                   {"captured": self.signature.captured, "uploaded": self.signature.uploaded})
        return out


async def checkout(ctx: FlowContext, cart: Cart, *, tax: Decimal = Decimal(0), tip: Decimal | None = None,
                   prompt_tip: bool = False, card: KeyedCard | None = None, token: str | None = None,
                   terms: str | None = None, signature: bool = False,
                   print_on_pad: bool = False) -> CheckoutResult:
    """Terms (a decline stops here, nothing charged) -> sale of the cart's total -> signature ->
    receipt on the pad -> the pad's line items cleared."""
    if cart.total <= 0:
        raise ValidationError("cart", "is empty: add a line with an amount first")
    if terms is not None and not await accept_terms(ctx, terms):
        return CheckoutResult(None, "the customer declined the terms: nothing was charged")
    payment = await sale(ctx, cart.total, tip=tip, tax=tax, card=card, token=token,
                         prompt_tip=prompt_tip)
    if payment.outcome != "approved":
        return CheckoutResult(payment)
    invoice = str(payment.entry.invoice)
    signed = await capture_signature(ctx, invoice) if signature else None
    printed = False
    if print_on_pad:
        try:
            await print_receipt(ctx, receipt_lines(payment.entry, ctx.receipt_language))
            printed = True
        except PAD_ERRORS as exc:
            log.warning("receipt not printed on the PIN pad: %s", redact(str(exc))[:200])
    await cart.clear()
    return CheckoutResult(payment, signature=signed, printed=printed)
