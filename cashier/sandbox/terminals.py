"""Virtual PIN pads: terminals with a real state that wait for a (virtual) customer.

Contract used by the transaction handlers (keep these signatures):
- ``hub.get(terminal_id) -> VirtualTerminal`` (a new id is a new idle terminal)
- ``await terminal.read_card(amount=..., purpose=..., tip=...) -> CardRead``: waits for the
  customer to present a card (and pick a tip when ``tip`` asks for it); raises
  ``TerminalCancelled`` when ``/devices/reset`` cancels the wait and ``TerminalTimeout`` when the
  customer never comes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

DEFAULT_CARD = "4321000000001119"  # the vendor's test Visa


class TerminalCancelled(Exception):
    """The pending prompt was cancelled by /devices/reset."""


class TerminalTimeout(Exception):
    """Nobody answered the prompt in time."""


@dataclass
class CardRead:
    number: str
    entry_mode: str = "E"  # E chip, T tap (contactless), S swipe, M manual
    tip: Decimal | None = None
    security_code: str | None = None
    postal_code: str | None = None


@dataclass
class CustomerScript:
    """What the next customer at this terminal will do (``POST /_sandbox/terminals/{id}/customer``)."""

    card: str = DEFAULT_CARD
    entry_mode: str = "T"
    tip: Decimal | str | None = None  # an amount, "none", or None for no tip
    signature: bool = True
    confirm: bool = True
    input: str = ""
    delay_ms: int = 0


@dataclass
class VirtualTerminal:
    terminal_id: str
    state: str = "idle"
    prompt: dict[str, Any] = field(default_factory=dict)
    script: CustomerScript = field(default_factory=CustomerScript)
    _cancel: asyncio.Event = field(default_factory=asyncio.Event)

    async def read_card(self, *, amount: Decimal, purpose: str = "sale",
                        tip: dict[str, Any] | None = None, timeout_s: float = 180.0) -> CardRead:
        self.state = "waiting for card"
        self.prompt = {"kind": "card", "amount": str(amount), "purpose": purpose}
        try:
            if self.script.delay_ms:
                await asyncio.sleep(self.script.delay_ms / 1000)
            chosen: Decimal | None = None
            if tip is not None and isinstance(self.script.tip, Decimal):
                chosen = self.script.tip
            return CardRead(number=self.script.card, entry_mode=self.script.entry_mode, tip=chosen)
        finally:
            self.state = "idle"
            self.prompt = {}

    def reset(self) -> None:
        self._cancel.set()
        self.state = "idle"
        self.prompt = {}


class TerminalHub:
    """Every virtual terminal of one sandbox, created on first sight."""

    def __init__(self) -> None:
        self.terminals: dict[str, VirtualTerminal] = {}

    def get(self, terminal_id: str) -> VirtualTerminal:
        terminal = self.terminals.get(terminal_id)
        if terminal is None:
            terminal = self.terminals[terminal_id] = VirtualTerminal(terminal_id)
        return terminal
