"""Everything the sandbox host remembers: in memory, or with ``--state FILE`` in an SQLite store
(``records.py``: one row per record, safe for several processes, the same cost per request at
100 records or 100,000).

Each family module keeps its records under its own key (``state.family("giftcards")``).
Conventions the ledger view relies on:
- ``family("transactions")["invoices"]``: invoice -> record with at least ``invoice``, ``state``
  (authorized, sale, refund, voided, declined, error, referral, batched), ``approvedAmount``
  (a string Decimal), ``kind``.
- ``family("giftcards")["cards"]``: card key -> record with ``state``, ``balance`` and the
  masked ``number`` (never the full number, see ``host_giftcards``).
- ``family("batches")["closed"]``: a list of closed batches.

A family is a mapping of *slots*: a dict value is a collection whose items are records (one row
each); any other value is one row. Records are plain JSON data, changed in place by handlers.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cashier.sandbox.core import SandboxClock, SandboxConfig
from cashier.sandbox.records import RecordStore
from cashier.sandbox.shared import is_gift_card, masked
from cashier.sandbox.terminals import TerminalHub

#: Suffix of a JSON state file of an earlier version, once imported into the store.
IMPORTED_SUFFIX = ".imported-json"
#: Suffix of the owner-only file beside the store that holds the card-key secret.
KEY_SUFFIX = ".key"


def _secret_beside(target: Path) -> bytes:
    """The store's card-key secret, in its own owner-only file (made at first use): the state
    file alone (copied, attached to a report) cannot turn a card key back into a number."""
    path = target.with_name(target.name + KEY_SUFFIX)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # another process is writing it right now
            secret = path.read_bytes()
            if len(secret) == 32:
                return secret
            time.sleep(0.02)
        raise ValueError(f"{path}: the sandbox key file is damaged (expected 32 bytes)") from None
    secret = secrets.token_bytes(32)
    with os.fdopen(fd, "wb") as fh:
        fh.write(secret)
    return secret


class SandboxState:
    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self.clock = SandboxClock()
        self.data: dict[str, dict[str, Any]] = {}
        self.issued_access_tokens: set[str] = set()
        self.option = config.option
        #: Virtual PIN pads live in memory only; a restart leaves them idle.
        self.terminals = TerminalHub()
        #: The ``--state`` store; None keeps everything in ``data`` (memory only).
        self.store: RecordStore | None = None
        self._saved_meta: dict[str, Any] = {}
        #: Keys card numbers one way (``card_key``); with ``--state`` it lives beside the file.
        self._secret = secrets.token_bytes(32)

    def family(self, name: str) -> MutableMapping[str, Any]:
        if self.store is not None:
            return self.store.family(name)
        return self.data.setdefault(name, {})

    @contextmanager
    def request(self) -> Iterator[None]:
        """Around one request: fresh reads when another process wrote, changed rows written."""
        if self.store is None:
            yield
            return
        if self.store.refresh():
            self._read_meta()
        with self.store.request():
            try:
                yield
            finally:
                self._flush_meta_into_unit()

    # ---- card vault: tokens stand for cards; the full number is never kept ---------------------
    def tokenize(self, number: str, brand: str) -> str:
        """The card token (16 characters, last 4 of the card) for a number; same card, same token.

        Any family can call this (tokens, gift cards); ``detokenize`` gives back what a
        transaction needs (brand, masked number), never the full number.
        """
        digest = hashlib.sha256(b"cashier-sandbox-vault:" + number.encode()).hexdigest()
        token = str(int(digest[:16], 16))[:12].rjust(12, "0") + number[-4:]
        vault = self.family("vault").setdefault("tokens", {})
        if token not in vault:
            vault[token] = {"type": brand, "number": "X" * (len(number) - 4) + number[-4:],
                            "last4": number[-4:]}
        return token

    def card_key(self, number: str) -> str:
        """A one-way key for a card number (keyed hash): where a gift card's record lives, and
        what is written to disk instead of its number."""
        return hmac.new(self._secret, b"card:" + number.encode(), hashlib.sha256).hexdigest()[:40]

    def detokenize(self, token: str) -> dict[str, Any] | None:
        record: dict[str, Any] | None = self.family("vault").get("tokens", {}).get(token)
        return record

    def next_sequence(self, name: str) -> int:
        """A counter that survives restarts (authorization codes, references, batch ids)."""
        if self.store is not None:
            return self.store.next_sequence(name)
        seqs = self.family("sequences")
        seqs[name] = int(seqs.get(name, 0)) + 1
        return int(seqs[name])

    def reset(self) -> None:
        self.data.clear()
        self.issued_access_tokens.clear()
        self.clock = SandboxClock()
        if self.store is not None:
            self.store.clear()
            self._saved_meta = {}

    # ---- persistence -----------------------------------------------------------------------
    def _meta(self) -> dict[str, Any]:
        return {"issuedAccessTokens": sorted(self.issued_access_tokens),
                "clockOffset": self.clock.offset_s}

    def _read_meta(self) -> None:
        assert self.store is not None
        tokens = self.store.meta("issuedAccessTokens") or []
        offset = self.store.meta("clockOffset")
        self.issued_access_tokens |= set(tokens)
        if offset is not None:
            self.clock.offset_s = float(offset)
        self._saved_meta = self._meta()

    def _flush_meta_into_unit(self) -> None:
        assert self.store is not None
        meta = self._meta()
        changed = {k: v for k, v in meta.items() if self._saved_meta.get(k) != v}
        self.store.flush(changed)
        self._saved_meta = meta

    def snapshot(self) -> dict[str, Any]:
        data = self.store.export() if self.store is not None else self.data
        return {"data": data, **self._meta()}

    def save(self, path: str | Path | None = None) -> None:
        """Write what changed (before the answer leaves); nothing to do in memory."""
        if self.store is None and path is not None:
            held = self.data  # first save of a sandbox that ran in memory: move into the store
            self.load(path)
            assert self.store is not None
            self.store.import_data(held)
        if self.store is not None:
            self._flush_meta_into_unit()

    def load(self, path: str | Path) -> bool:
        """Open the store at ``path`` (made when missing); True when it held state already.

        A JSON state file of an earlier version found there is imported once, its gift card
        numbers replaced by their one-way keys, and then deleted (it held them in full); if the
        import fails it stays beside as ``FILE.imported-json``."""
        target = Path(path)
        legacy: dict[str, Any] | None = None
        aside = target.with_name(target.name + IMPORTED_SUFFIX)
        if target.exists() and target.stat().st_size and target.read_bytes()[:1] == b"{":
            legacy = json.loads(target.read_text(encoding="utf-8"))
            target.replace(aside)
        if self.store is not None and self.store.path == target and legacy is None:
            return not self.store.is_empty()
        self.store = RecordStore(target)
        self._secret = _secret_beside(target)
        existed = not self.store.is_empty()
        if legacy is not None:
            with self.store.request():
                self.store.import_data(self._without_gift_numbers(legacy.get("data", {})))
                self.store.flush({"issuedAccessTokens": legacy.get("issuedAccessTokens", []),
                                  "clockOffset": float(legacy.get("clockOffset", 0.0))})
            aside.unlink()
            existed = True
        self._read_meta()
        self.data = {}
        return existed

    def _without_gift_numbers(self, data: dict[str, Any]) -> dict[str, Any]:
        """An earlier version's state with every full gift card number turned into its key."""
        cards = data.get("giftcards", {}).get("cards")
        if isinstance(cards, dict):
            data["giftcards"]["cards"] = {
                (self.card_key(k) if is_gift_card(k) else k):
                    ({**v, "number": masked(k)} if is_gift_card(k) else v)
                for k, v in cards.items()}
        tokens = data.get("tokens", {}).get("tokens")
        for record in (tokens.values() if isinstance(tokens, dict) else []):
            number = record.get("giftcard") if isinstance(record, dict) else None
            if isinstance(number, str) and is_gift_card(number):
                record.update(giftcard=self.card_key(number), masked=masked(number))
        invoices = data.get("transactions", {}).get("invoices")
        for record in (invoices.values() if isinstance(invoices, dict) else []):
            number = record.get("giftcard") if isinstance(record, dict) else None
            if isinstance(number, str) and is_gift_card(number):
                record["giftcard"] = self.card_key(number)
        return data
