"""Virtual PIN pads: terminals with a real state that wait for a (virtual) customer.

Contract used by the transaction handlers (keep these signatures):

- ``hub.get(terminal_id) -> VirtualTerminal`` (a new id is a new idle terminal; DCC addresses
  its PIN pad by serial number, which is then the id; ``terminal_id_for`` picks the id a
  request addresses for the processing option).
- ``await terminal.read_card(amount=..., purpose=..., tip=...) -> CardRead``: waits for the
  customer to present a card (and to pick a tip first when ``tip``, a ``TipObject`` dict, asks
  for one); raises ``TerminalCancelled`` when ``/devices/reset`` cancels the wait and
  ``TerminalTimeout`` when the customer never comes. ``prompt_fault(exc)`` turns either (and
  ``TerminalBusy``) into the host's error envelope.
- Other prompts: ``prompt_tip``, ``prompt_signature``, ``prompt_confirmation``, ``prompt_terms``,
  ``prompt_input``, ``prompt_form``; displays: ``show_form``, ``show_line_items``,
  ``clear_line_items``, ``print_receipt``, ``show_next_step``; ``reset()``.

Who answers a prompt (one of them, in this order):

1. A LISTENER attached in-process, e.g. the training window's customer-facing PIN pad::

       def listener(prompt: Prompt) -> None:          # or ``async def``
           show(prompt.kind, prompt.texts, prompt.amount, prompt.tip_options())
           # later, when the person at the till taps a button:
           prompt.present_card("4321000000001119", "T")   # or choose_tip / sign / accept /
                                                         # decline / enter / press / cancel
       detach = hub.attach("1742", listener)

   ``Prompt.answer(CustomerAnswer)`` is the general form; ``await prompt.wait()`` gives the
   answer (or raises ``TerminalCancelled`` / ``TerminalTimeout``) to whoever wants it.
2. Otherwise the terminal's customer SCRIPT (``POST /_sandbox/terminals/{id}/customer``): a
   standing ``CustomerScript`` plus one-shot scripts used by the next customer only. The
   default customer taps the test Visa 4321000000001119 (the test gift card 2664654648774 for
   gift card operations) and gives no tip.

Prompts wait until answered, reset, or their timeout. A UI follows what the customer sees with
``async for event in hub.events(terminal_id)`` or ``hub.observe(terminal_id, callback)``;
each ``TerminalEvent`` carries the state, the current prompt and the display. No Qt here.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import inspect
import itertools
import logging
import struct
import zlib
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from cashier.redact import mask_pan
from cashier.sandbox.core import HostFault, missing_field

log = logging.getLogger(__name__)

DEFAULT_CARD = "4321000000001119"  # the vendor's test Visa
#: Decision: the sandbox's test gift card is the vendor's example gift card number.
DEFAULT_GIFT_CARD = "2664654648774"
#: Decision: a DCP request without ``device.terminalId`` addresses this terminal.
DCP_DEFAULT_TERMINAL = "DCP"
DEFAULT_TIMEOUT_S = 120.0
SUPPORTED_LANGUAGES = ("en", "fr", "es", "de", "it", "nl", "pt")
CENT = Decimal("0.01")

IDLE = "idle"
WAITING_FOR_CARD = "waiting for card"
WAITING_FOR_TIP = "waiting for tip"
WAITING_FOR_SIGNATURE = "waiting for signature"
WAITING_FOR_CONFIRMATION = "waiting for confirmation"
WAITING_FOR_TERMS = "waiting for terms"
WAITING_FOR_INPUT = "waiting for input"
SHOWING_FORM = "showing form"
SHOWING_LINE_ITEMS = "showing line items"
SHOWING_TEXT = "showing text"
SHOWING_WAIT = "showing wait"
PRINTING = "printing"

#: prompt kind -> the terminal state while it waits
PROMPT_STATES = {
    "card": WAITING_FOR_CARD, "tip": WAITING_FOR_TIP, "signature": WAITING_FOR_SIGNATURE,
    "confirmation": WAITING_FOR_CONFIRMATION, "terms": WAITING_FOR_TERMS,
    "input": WAITING_FOR_INPUT, "form": SHOWING_FORM,
}
ENTRY_MODES = {"T": "C", "TAP": "C", "C": "C", "E": "E", "INSERT": "E", "S": "2", "SWIPE": "2",
               "2": "2", "1": "1", "M": "M", "MANUAL": "M", "R": "R"}
TIP_OPTIONS = ("preset1", "preset2", "preset3", "other", "notip")


class TerminalCancelled(Exception):
    """The pending prompt was cancelled by /devices/reset."""


class TerminalTimeout(Exception):
    """Nobody answered the prompt in time."""


class TerminalBusy(Exception):
    """Another request is already waiting for the customer on this terminal."""


class CustomerCancelled(TerminalCancelled):
    """The customer pressed Cancel (or refused to sign) at the PIN pad."""


def prompt_fault(exc: Exception, terminal_id: str = "") -> HostFault:
    """The host's answer when a prompt ends without an answer (codes chosen by the sandbox)."""
    where = f"Terminal({terminal_id}) " if terminal_id else ""
    if isinstance(exc, CustomerCancelled):
        return HostFault(9960, "CUSTOMER CANCEL", f"{where}the customer cancelled at the PIN pad",
                         secondary_code=2, severity="Error", code=50101)
    if isinstance(exc, TerminalCancelled):
        return HostFault(9960, "PROMPT CANCELLED", f"{where}the pending request was cancelled by "
                         "a device reset", secondary_code=1, severity="Error", code=50101)
    if isinstance(exc, TerminalTimeout):
        return HostFault(9960, "PINPAD TIMEOUT", f"{where}the customer did not answer in time",
                         secondary_code=3, severity="Error", code=40001)
    if isinstance(exc, TerminalUnavailable):
        return no_pinpad(terminal_id)
    if isinstance(exc, TerminalBusy):
        return HostFault(9960, "PINPAD BUSY", f"{where}another request is waiting for the "
                         "customer", secondary_code=4, severity="Error", code=50102)
    raise TypeError(f"not a terminal outcome: {type(exc).__name__}")


def no_pinpad(terminal_id: str) -> HostFault:
    return HostFault(9956, "TID NO PINPAD",
                     f"Terminal({terminal_id}) is not configured for any PinPad", severity="Error",
                     code=40500)


def terminal_id_for(option: str, body: Mapping[str, Any], headers: Mapping[str, str] | None = None,
                    *, header_required: bool = False) -> str:
    """The terminal a request addresses: LG ``device.terminalId`` (or the ``TerminalID``
    header on GET/DELETE), DCP the same but optional, DCC ``device.serialNumber``."""
    device = body.get("device") if isinstance(body.get("device"), Mapping) else {}
    assert isinstance(device, Mapping)
    header = None
    if headers is not None:
        header = headers.get("terminalid")
    if option == "DCC" or device.get("cloud") is True:
        serial = device.get("serialNumber") or header
        if not serial:
            raise missing_field("device.serialNumber")
        return str(serial)
    tid = device.get("terminalId") or header
    if tid:
        return str(tid)
    if option == "LG" or header_required:
        raise missing_field("TerminalID header" if headers is not None and not body
                            else "device.terminalId")
    return DCP_DEFAULT_TERMINAL


# ---- what the customer is asked and answers ---------------------------------------------------
@dataclass(frozen=True)
class TipRequest:
    """A tip prompt (``TipObject``): presets are percentages of ``basis`` or amounts."""

    basis: Decimal
    preset_type: str = "percent"  # none | percent | amount
    presets: tuple[Decimal, ...] = ()
    preset_default: str | None = None
    display_no_tip: bool = True
    header_text: str | None = None

    @classmethod
    def from_body(cls, tip: Mapping[str, Any], basis: Decimal) -> TipRequest:
        presets = tuple(Decimal(str(tip[k])) for k in ("preset1", "preset2", "preset3")
                        if tip.get(k) is not None)
        default = tip.get("presetDefault")
        no_tip = tip.get("displayNoTip")
        return cls(basis=basis, preset_type=str(tip.get("presetType") or "percent"),
                   presets=presets if tip.get("presetType") != "none" else (),
                   preset_default=None if default is None else str(default),
                   display_no_tip=no_tip not in (False, "N", "false"),
                   header_text=tip.get("headerText"))

    def preset_amounts(self) -> tuple[Decimal, ...]:
        """The tip each preset button adds, in money."""
        if self.preset_type == "percent":
            return tuple((self.basis * p / 100).quantize(CENT, rounding=ROUND_HALF_UP)
                         for p in self.presets)
        return tuple(p.quantize(CENT, rounding=ROUND_HALF_UP) for p in self.presets)

    def resolve(self, choice: str | Decimal | None) -> tuple[str, Decimal]:
        """(``tip.selectedOption``, tip amount) for a customer's choice: presetN, notip,
        'none', or an amount (which counts as its preset when it equals one)."""
        amounts = self.preset_amounts()
        if choice is None or choice in ("none", "notip"):
            return "notip", Decimal(0)
        if isinstance(choice, str) and choice.startswith("preset"):
            index = int(choice[6:]) - 1 if choice[6:].isdigit() else -1
            if not 0 <= index < len(amounts):
                raise ValueError(f"tip: {choice} is not offered on this prompt")
            return choice, amounts[index]
        value = Decimal(str(choice))
        if not value.is_finite() or value < 0:
            raise ValueError("tip: must be an amount of 0 or more")
        if value == 0:
            return "notip", Decimal(0)
        for i, amount in enumerate(amounts):
            if amount == value:
                return f"preset{i + 1}", amount
        return "other", value.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass
class CustomerAnswer:
    """What the customer did; only the fields of the prompt's kind matter."""

    card: str | None = None
    entry_mode: str | None = None
    tip: str | Decimal | None = None  # presetN, notip / none, or an amount
    signature: bool | None = None
    accepted: bool | None = None  # confirmation (Y/N) and terms (A/D)
    text: str | None = None  # promptinput
    button_id: str | None = None  # forms with buttons
    cancelled: bool = False

    def __repr__(self) -> str:  # never show a full card number
        card = mask_pan(self.card) if self.card else None
        return (f"CustomerAnswer(card={card!r}, entry_mode={self.entry_mode!r}, tip={self.tip!r}, "
                f"signature={self.signature!r}, accepted={self.accepted!r}, "
                f"button_id={self.button_id!r}, cancelled={self.cancelled!r})")


_prompt_ids = itertools.count(1)


@dataclass(eq=False)
class Prompt:
    """One question put to the customer. Resolve it with ``answer`` or a convenience method."""

    terminal_id: str
    kind: str  # card, tip, signature, confirmation, terms, input, form
    texts: dict[str, str] = field(default_factory=dict)
    amount: Decimal | None = None
    tip: TipRequest | None = None
    form: dict[str, Any] | None = None
    line_items: tuple[str, ...] = ()
    purpose: str = ""
    language: str = "en"
    id: int = field(default_factory=lambda: next(_prompt_ids))
    _future: asyncio.Future[CustomerAnswer] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future(), repr=False)

    # -- answering --------------------------------------------------------------------------
    def answer(self, answer: CustomerAnswer) -> bool:
        """Resolve the prompt; False when it was already answered, cancelled or timed out."""
        if self._future.done():
            return False
        self._future.set_result(answer)
        return True

    def present_card(self, number: str = DEFAULT_CARD, entry_mode: str = "T") -> bool:
        return self.answer(CustomerAnswer(card=number, entry_mode=entry_mode))

    def choose_tip(self, choice: str | Decimal | None) -> bool:
        return self.answer(CustomerAnswer(tip=choice))

    def sign(self) -> bool:
        return self.answer(CustomerAnswer(signature=True))

    def accept(self) -> bool:
        return self.answer(CustomerAnswer(accepted=True))

    def decline(self) -> bool:
        return self.answer(CustomerAnswer(accepted=False))

    def enter(self, text: str) -> bool:
        return self.answer(CustomerAnswer(text=text))

    def press(self, button_id: str) -> bool:
        return self.answer(CustomerAnswer(button_id=button_id))

    def cancel(self) -> bool:
        """The customer presses Cancel."""
        return self.answer(CustomerAnswer(cancelled=True))

    @property
    def done(self) -> bool:
        return self._future.done()

    async def wait(self) -> CustomerAnswer:
        return await asyncio.shield(self._future)

    def _fail(self, exc: Exception) -> None:
        if not self._future.done():
            self._future.set_exception(exc)
            self._future.exception()  # mark retrieved: nobody else may be waiting

    # -- for displays -----------------------------------------------------------------------
    def tip_options(self) -> list[tuple[str, Decimal]]:
        """(option, amount) buttons a tip prompt shows."""
        if self.tip is None:
            return []
        buttons = [(f"preset{i + 1}", a) for i, a in enumerate(self.tip.preset_amounts())]
        if self.tip.display_no_tip:
            buttons.append(("notip", Decimal(0)))
        return buttons

    def describe(self) -> dict[str, Any]:
        """JSON-able view (control route, trainer)."""
        view: dict[str, Any] = {"id": self.id, "kind": self.kind, "texts": dict(self.texts),
                                "purpose": self.purpose, "language": self.language}
        if self.amount is not None:
            view["amount"] = str(self.amount)
        if self.tip is not None:
            view["tip"] = {"presetType": self.tip.preset_type,
                           "options": [{"option": o, "amount": str(a)} for o, a in self.tip_options()],
                           "presetDefault": self.tip.preset_default}
        if self.form is not None:
            view["form"] = self.form
        if self.line_items:
            view["lineItems"] = list(self.line_items)
        return view


@dataclass
class CardRead:
    number: str = field(repr=False)
    entry_mode: str = "E"  # E chip, C contactless, 2/1 swipe (track), M manual
    tip: Decimal | None = None
    security_code: str | None = field(default=None, repr=False)
    postal_code: str | None = None
    tip_option: str | None = None

    @property
    def masked(self) -> str:
        return mask_pan(self.number)


@dataclass
class CustomerScript:
    """What the next customer at this terminal will do (``POST /_sandbox/terminals/{id}/customer``)."""

    card: str | None = None  # None: the test Visa, or the test gift card for gift card operations
    entry_mode: str = "T"
    tip: Decimal | str | None = None  # an amount, "none", "presetN", or None for no tip
    signature: bool = True
    confirm: bool = True
    input: str | None = None
    button: str | None = None
    delay_ms: int = 0
    #: Decision: a scripted customer who never answers (until reset or timeout).
    silent: bool = False

    def answer_for(self, prompt: Prompt) -> CustomerAnswer:
        kind = prompt.kind
        if kind == "card":
            card = self.card or (DEFAULT_GIFT_CARD if prompt.purpose.startswith("gift") else DEFAULT_CARD)
            return CustomerAnswer(card=card, entry_mode=self.entry_mode)
        if kind == "tip":
            return CustomerAnswer(tip=self.tip)
        if kind == "signature":
            return CustomerAnswer(signature=self.signature)
        if kind in ("confirmation", "terms"):
            return CustomerAnswer(accepted=self.confirm)
        if kind == "input":
            return CustomerAnswer(text=self.input if self.input is not None
                                  else SAMPLE_INPUTS.get(prompt.texts.get("index", ""), "1234"))
        if kind == "form":
            buttons = (prompt.form or {}).get("buttons") or []
            first = str(buttons[0].get("id")) if buttons and isinstance(buttons[0], Mapping) else "1"
            return CustomerAnswer(button_id=self.button or first)
        return CustomerAnswer()

    def describe(self) -> dict[str, Any]:
        return {"card": mask_pan(self.card) if self.card else None, "entry_mode": self.entry_mode,
                "tip": None if self.tip is None else str(self.tip), "signature": self.signature,
                "confirm": self.confirm, "input": self.input, "button": self.button,
                "delay_ms": self.delay_ms, "silent": self.silent}


#: What a scripted customer types when the script gives no ``input`` (``promptInput.index``).
SAMPLE_INPUTS = {"001": "333", "002": "65", "003": "65144", "004": "123456789", "005": "6789",
                 "006": "01/01/1990", "007": "50000", "008": "5555550100", "009": "5555550101",
                 "010": "customer@example.com", "011": "D1234567", "012": "2.00"}


@dataclass(frozen=True)
class TerminalEvent:
    """What the customer sees right now, sent to observers on every change."""

    terminal_id: str
    state: str
    prompt: Prompt | None
    display: dict[str, Any]


Listener = Callable[[Prompt], Awaitable[None] | None]
Observer = Callable[[TerminalEvent], None]


# ---- a small PNG, so a "signature" is a real image ----------------------------------------------
def _png(width: int, height: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def signature_png(seed: int = 0) -> str:
    """Base64 PNG of a scribble (format 'P'), different per prompt."""
    width, height = 64, 16
    rows = [bytearray(b"\xff" * width) for _ in range(height)]
    for x in range(4, width - 4):
        y = 8 + int(5 * ((x * 7 + seed) % 11 - 5) / 5)
        rows[max(0, min(height - 1, y))][x] = 0
    return base64.b64encode(_png(width, height, [bytes(r) for r in rows])).decode("ascii")


# ---- the terminal ---------------------------------------------------------------------------
class VirtualTerminal:
    def __init__(self, terminal_id: str, hub: TerminalHub | None = None) -> None:
        self.terminal_id = terminal_id
        self.hub = hub
        self.state = IDLE
        self.prompt: Prompt | None = None
        self.script = CustomerScript()
        self.one_shots: deque[CustomerScript] = deque()
        self.listener: Listener | None = None
        self.observers: list[Observer] = []
        self.line_items: list[str] = []
        self.display: dict[str, Any] = {}
        self.last_receipt: dict[str, Any] | None = None
        self.language = "en"
        self.connected = True
        self.readers_armed = False
        self._busy = False
        self._generation = 0  # bumped by reset: sessions started before it are cancelled
        self._customer: CustomerScript | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- state and observers ------------------------------------------------------------------
    def _set_state(self, state: str, display: dict[str, Any] | None = None) -> None:
        self.state = state
        if display is not None:
            self.display = display
        event = TerminalEvent(self.terminal_id, state, self.prompt, dict(self.display))
        for observer in list(self.observers):
            try:
                observer(event)
            except Exception:  # an observer never breaks the terminal
                log.exception("terminal observer failed")

    def _rest_state(self) -> None:
        """Back to what the pad shows between prompts."""
        self.prompt = None
        if self.line_items:
            self._set_state(SHOWING_LINE_ITEMS, {"lineItems": list(self.line_items)})
        else:
            self._set_state(IDLE, {})

    def describe(self) -> dict[str, Any]:
        return {"terminalId": self.terminal_id, "state": self.state,
                "prompt": self.prompt.describe() if self.prompt else None,
                "display": dict(self.display), "lineItems": list(self.line_items),
                "lastReceipt": self.last_receipt, "language": self.language,
                "connected": self.connected, "listener": self.listener is not None,
                "script": self.script.describe(),
                "oneShots": [s.describe() for s in self.one_shots]}

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("terminal %s helper failed: %r", self.terminal_id, t.exception())
        task.add_done_callback(done)
        return task

    # -- sessions: one customer interaction at a time -----------------------------------------
    @contextlib.contextmanager
    def session(self) -> Iterator[int]:
        """Claim the terminal for one request; the generation tells whether a reset came."""
        if not self.connected:
            raise TerminalUnavailable(self.terminal_id)
        if self._busy:
            raise TerminalBusy(self.terminal_id)
        self._busy = True
        self._customer = self.one_shots.popleft() if self.one_shots else self.script
        try:
            yield self._generation
        finally:
            self._busy = False
            self._customer = None

    @property
    def busy(self) -> bool:
        return self._busy

    async def ask(self, prompt: Prompt, *, generation: int | None = None,
                  timeout_s: float | None = -1.0) -> CustomerAnswer:
        """Put one prompt to the customer and wait. ``timeout_s`` None waits until reset."""
        if generation is not None and generation != self._generation:
            raise TerminalCancelled(self.terminal_id)
        if timeout_s is not None and timeout_s < 0:
            timeout_s = self.hub.default_timeout_s if self.hub else DEFAULT_TIMEOUT_S
        prompt.language = self.language
        if not prompt.line_items and self.line_items:
            prompt.line_items = tuple(self.line_items)
        self.prompt = prompt
        self._set_state(PROMPT_STATES.get(prompt.kind, SHOWING_FORM), {"prompt": prompt.describe()})
        helper: asyncio.Task[Any] | None = None
        listener = self.listener
        if listener is not None:
            try:
                outcome = listener(prompt)
                if inspect.isawaitable(outcome):
                    helper = self._spawn(outcome)
            except Exception:
                log.exception("terminal listener failed")
        else:
            helper = self._spawn(self._scripted(prompt, self._customer or self.script))
        try:
            answer = await asyncio.wait_for(prompt.wait(), timeout_s)
        except TimeoutError:
            prompt._fail(TerminalTimeout(self.terminal_id))
            raise TerminalTimeout(self.terminal_id) from None
        finally:
            if helper is not None and not helper.done() and listener is None:
                helper.cancel()
            if self.prompt is prompt:
                self._rest_state()
        if answer.cancelled:
            raise CustomerCancelled(self.terminal_id)
        return answer

    async def _scripted(self, prompt: Prompt, script: CustomerScript) -> None:
        if script.silent:
            return
        if script.delay_ms:
            await asyncio.sleep(script.delay_ms / 1000)
        prompt.answer(script.answer_for(prompt))

    # -- the contract for transaction handlers ------------------------------------------------
    async def read_card(self, *, amount: Decimal, purpose: str = "sale",
                        tip: Mapping[str, Any] | None = None, tip_basis: Decimal | None = None,
                        timeout_s: float | None = -1.0) -> CardRead:
        """Tip first (when asked, DCP/DCC), then the card; raises TerminalCancelled/Timeout."""
        with self.session() as generation:
            chosen: Decimal | None = None
            option: str | None = None
            if tip is not None:
                request = TipRequest.from_body(tip, tip_basis if tip_basis is not None else amount)
                option, chosen = await self._tip(request, amount, generation, timeout_s)
            answer = await self.ask(Prompt(self.terminal_id, "card", amount=amount + (chosen or 0),
                                           purpose=purpose,
                                           texts={"header": "Present card",
                                                  "text": f"Total {amount + (chosen or 0)}"}),
                                    generation=generation, timeout_s=timeout_s)
            self.readers_armed = False
            return CardRead(number=answer.card or DEFAULT_CARD,
                            entry_mode=ENTRY_MODES.get((answer.entry_mode or "T").upper(), "C"),
                            tip=chosen, tip_option=option)

    async def _tip(self, request: TipRequest, amount: Decimal, generation: int,
                   timeout_s: float | None) -> tuple[str, Decimal]:
        prompt = Prompt(self.terminal_id, "tip", amount=amount, tip=request,
                        texts={"header": request.header_text or "Would you like to add a tip?"})
        answer = await self.ask(prompt, generation=generation, timeout_s=timeout_s)
        try:
            return request.resolve(answer.tip)
        except (ValueError, InvalidOperation):
            return "notip", Decimal(0)

    async def prompt_tip(self, *, amount: Decimal, tip: Mapping[str, Any],
                         tip_basis: Decimal | None = None,
                         timeout_s: float | None = -1.0) -> tuple[str, Decimal]:
        """``/devices/prompttip``: (selectedOption, tip amount)."""
        with self.session() as generation:
            request = TipRequest.from_body(tip, tip_basis if tip_basis is not None else amount)
            return await self._tip(request, amount, generation, timeout_s)

    async def prompt_simple(self, kind: str, texts: dict[str, str], *,
                            form: dict[str, Any] | None = None,
                            timeout_s: float | None = -1.0) -> CustomerAnswer:
        """Signature, confirmation, terms, input or a form with buttons: one prompt."""
        with self.session() as generation:
            return await self.ask(Prompt(self.terminal_id, kind, texts=texts, form=form),
                                  generation=generation, timeout_s=timeout_s)

    async def prompt_signature(self, text: str = "Please sign") -> str:
        """Base64 PNG of the signature; a customer who refuses counts as a cancel."""
        answer = await self.prompt_simple("signature", {"text": text})
        if answer.signature is False:
            raise CustomerCancelled(self.terminal_id)
        return signature_png(self._generation + len(text))

    def show_form(self, form: dict[str, Any]) -> None:
        """A display-only form (message, qrDisplay): stays until the next prompt or a reset."""
        if not self.connected:
            raise TerminalUnavailable(self.terminal_id)
        if self._busy:
            raise TerminalBusy(self.terminal_id)
        self.prompt = None
        self._set_state(SHOWING_FORM, {"form": form})

    def show_next_step(self, next_step: Mapping[str, Any] | None) -> None:
        """``device.nextStep`` after a prompt: idle, none (keep), displayWait, displayText."""
        if not next_step:
            return
        kind = next_step.get("type")
        texts = {k: str(v.get("value")) for k, v in next_step.items()
                 if k in ("header", "subHeader", "text") and isinstance(v, Mapping)}
        if kind == "idle":
            self._rest_state()
        elif kind == "displayWait":
            self._set_state(SHOWING_WAIT, {"texts": texts})
        elif kind == "displayText":
            self._set_state(SHOWING_TEXT, {"texts": texts})

    def show_line_items(self, items: list[str], *, append: bool = False) -> None:
        if not self.connected:
            raise TerminalUnavailable(self.terminal_id)
        combined = (self.line_items + list(items)) if append else list(items)
        if len(combined) > 10:
            raise ValueError("device.lineItems: at most 10 items may be shown (with those appended)")
        self.line_items = combined
        if not self._busy:
            self._set_state(SHOWING_LINE_ITEMS, {"lineItems": list(combined)})

    def clear_line_items(self) -> None:
        self.line_items = []
        if not self._busy:
            self._rest_state()

    def print_receipt(self, lines: list[str], *, images: int = 0) -> None:
        if not self.connected:
            raise TerminalUnavailable(self.terminal_id)
        receipt = {"lines": list(lines), "images": images}
        self._set_state(PRINTING, {"receipt": receipt})
        self.last_receipt = receipt
        if not self._busy:
            self._rest_state()

    def arm_readers(self) -> None:
        """``/devices/initializereaders``: card readers on, the pad asks for a card."""
        if not self.connected:
            raise TerminalUnavailable(self.terminal_id)
        self.readers_armed = True
        if not self._busy:
            self._set_state(WAITING_FOR_CARD, {"texts": {"header": "Present card"}})

    def reset(self) -> None:
        """Cancel whatever waits (the waiter gets TerminalCancelled) and go idle."""
        self._generation += 1
        if self.prompt is not None:
            self.prompt._fail(TerminalCancelled(self.terminal_id))
        self.prompt = None
        self.line_items = []
        self.readers_armed = False
        self._set_state(IDLE, {})


class TerminalUnavailable(Exception):
    """The terminal is switched off or unplugged (``connected: false``): 9956 TID NO PINPAD."""


class TerminalHub:
    """Every virtual terminal of one sandbox, created on first sight."""

    def __init__(self, default_timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self.terminals: dict[str, VirtualTerminal] = {}
        self.default_timeout_s = default_timeout_s

    def get(self, terminal_id: str) -> VirtualTerminal:
        terminal = self.terminals.get(terminal_id)
        if terminal is None:
            terminal = self.terminals[terminal_id] = VirtualTerminal(terminal_id, self)
        return terminal

    def attach(self, terminal_id: str, listener: Listener) -> Callable[[], None]:
        """The listener answers this terminal's prompts instead of the script; returns detach."""
        terminal = self.get(terminal_id)
        terminal.listener = listener
        if terminal.prompt is not None and not terminal.prompt.done:
            outcome = listener(terminal.prompt)  # a prompt already waiting is shown at once
            if inspect.isawaitable(outcome):
                terminal._spawn(outcome)

        def detach() -> None:
            if terminal.listener is listener:
                terminal.listener = None
        return detach

    def observe(self, terminal_id: str, observer: Observer) -> Callable[[], None]:
        """Call ``observer(event)`` on every state change; returns the unsubscribe function."""
        terminal = self.get(terminal_id)
        terminal.observers.append(observer)

        def remove() -> None:
            with contextlib.suppress(ValueError):
                terminal.observers.remove(observer)
        return remove

    async def events(self, terminal_id: str) -> AsyncIterator[TerminalEvent]:
        """Async iterator of state changes, starting with the current one."""
        queue: asyncio.Queue[TerminalEvent] = asyncio.Queue()
        terminal = self.get(terminal_id)
        remove = self.observe(terminal_id, queue.put_nowait)
        try:
            yield TerminalEvent(terminal_id, terminal.state, terminal.prompt, dict(terminal.display))
            while True:
                yield await queue.get()
        finally:
            remove()

    def set_script(self, terminal_id: str, script: CustomerScript, *, once: bool = False) -> None:
        terminal = self.get(terminal_id)
        if once:
            terminal.one_shots.append(script)
        else:
            terminal.script = script
            terminal.one_shots.clear()


def script_from_json(raw: Mapping[str, Any], base: CustomerScript | None = None) -> CustomerScript:
    """Build a script from control-route JSON; ValueError names the field and the rule."""
    known = {"card", "tip", "signature", "confirm", "input", "button", "delay_ms", "entry_mode",
             "once", "silent"}
    for key in raw:
        if key not in known:
            raise ValueError(f"{key}: unknown field (expected one of {', '.join(sorted(known))})")
    script = replace(base) if base is not None else CustomerScript()
    if "card" in raw:
        card = raw["card"]
        if card is not None and (not isinstance(card, str) or not card.isdigit()
                                 or not 12 <= len(card) <= 19):
            raise ValueError("card: must be a test card number of 12 to 19 digits")
        script.card = card
    if "entry_mode" in raw:
        mode = raw["entry_mode"]
        if not isinstance(mode, str) or mode.upper() not in ENTRY_MODES:
            raise ValueError("entry_mode: must be tap, insert, swipe, manual (or T, E, S, M)")
        script.entry_mode = mode.upper()
    if "tip" in raw:
        tip = raw["tip"]
        if tip is None or tip in ("none", "notip"):
            script.tip = None if tip is None else "none"
        elif isinstance(tip, str) and tip in TIP_OPTIONS[:3]:
            script.tip = tip
        else:
            try:
                value = Decimal(str(tip)) if not isinstance(tip, bool | float) else None
            except InvalidOperation:
                value = None
            if value is None or not value.is_finite() or value < 0 or value != value.quantize(CENT):
                raise ValueError('tip: must be an amount string such as "2.50", "none" or preset1..3')
            script.tip = value
    for key in ("signature", "confirm", "silent"):
        if key in raw:
            if not isinstance(raw[key], bool):
                raise ValueError(f"{key}: must be true or false")
            setattr(script, key, raw[key])
    for key in ("input", "button"):
        if key in raw:
            if raw[key] is not None and (not isinstance(raw[key], str) or len(raw[key]) > 4096):
                raise ValueError(f"{key}: must be text of at most 4096 characters")
            setattr(script, key, raw[key])
    if "delay_ms" in raw:
        delay = raw["delay_ms"]
        if isinstance(delay, bool) or not isinstance(delay, int) or not 0 <= delay <= 600_000:
            raise ValueError("delay_ms: must be a whole number of milliseconds from 0 to 600000")
        script.delay_ms = delay
    if "once" in raw and not isinstance(raw["once"], bool):
        raise ValueError("once: must be true or false")
    return script
