"""Everything the sandbox host remembers, as plain JSON-able data so ``--state FILE`` can keep it.

Each family module keeps its records under its own key (``state.family("giftcards")``).
Conventions the ledger view relies on:
- ``family("transactions")["invoices"]``: invoice -> record with at least ``invoice``, ``state``
  (authorized, sale, refund, voided, declined, error, referral, batched), ``approvedAmount``
  (a string Decimal), ``kind``.
- ``family("giftcards")["cards"]``: card number -> record with ``state`` and ``balance``.
- ``family("batches")["closed"]``: a list of closed batches.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from cashier.cards import never_luhn_valid
from cashier.sandbox.core import SandboxClock, SandboxConfig
from cashier.sandbox.terminals import TerminalHub


class SandboxState:
    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self.clock = SandboxClock()
        self.data: dict[str, dict[str, Any]] = {}
        self.issued_access_tokens: set[str] = set()
        self.option = config.option
        #: Virtual PIN pads live in memory only; a restart leaves them idle.
        self.terminals = TerminalHub()

    def family(self, name: str) -> dict[str, Any]:
        return self.data.setdefault(name, {})

    # ---- card vault: tokens stand for cards; the full number is never kept ---------------------
    def tokenize(self, number: str, brand: str) -> str:
        """The card token (16 characters, last 4 of the card) for a number; same card, same token.

        Any family can call this (tokens, gift cards); ``detokenize`` gives back what a
        transaction needs (brand, masked number), never the full number.
        """
        digest = hashlib.sha256(b"cashier-sandbox-vault:" + number.encode()).hexdigest()
        token = never_luhn_valid(str(int(digest[:16], 16))[:12].rjust(12, "0") + number[-4:])
        vault = self.family("vault").setdefault("tokens", {})
        if token not in vault:
            vault[token] = {"type": brand, "number": "X" * (len(number) - 4) + number[-4:],
                            "last4": number[-4:]}
        return token

    def detokenize(self, token: str) -> dict[str, Any] | None:
        record: dict[str, Any] | None = self.family("vault").get("tokens", {}).get(token)
        return record

    def next_sequence(self, name: str) -> int:
        """A counter that survives restarts (authorization codes, references, batch ids)."""
        seqs = self.family("sequences")
        seqs[name] = int(seqs.get(name, 0)) + 1
        return int(seqs[name])

    def reset(self) -> None:
        self.data.clear()
        self.issued_access_tokens.clear()
        self.clock = SandboxClock()

    # ---- persistence -----------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {"data": self.data, "issuedAccessTokens": sorted(self.issued_access_tokens),
                "clockOffset": self.clock.offset_s}

    def save(self, path: str | Path) -> None:
        """Atomic write: a crash mid-save leaves the previous file intact."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".sandbox-state-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(self.snapshot(), fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)

    def load(self, path: str | Path) -> bool:
        target = Path(path)
        if not target.exists():
            return False
        raw = json.loads(target.read_text(encoding="utf-8"))
        self.data = raw.get("data", {})
        self.issued_access_tokens = set(raw.get("issuedAccessTokens", []))
        self.clock.offset_s = float(raw.get("clockOffset", 0.0))
        return True
