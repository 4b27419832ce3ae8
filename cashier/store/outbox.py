"""The till's side of the store: push the journal's events from an outbox, in order, at least once.

The journal's ``events`` table is append-only and its INTEGER PRIMARY KEY is the till's event
sequence; ``store_outbox`` (one row) holds this journal's id, how far the store has it and the
last store-wide close the till has applied. Everything here is synchronous and runs on its own
journal connection, in a thread of its own (the window) or after a command's work (the CLI), so
a store that is slow or away never delays a sale.

Each contact starts with ``/v1/hello``: the store's mark for this journal is where pushing
resumes (the store is the judge of what it holds), the invoice floor is applied to the journal
(a new or replaced journal never reuses an invoice), and a store-wide close made since the last
contact is recorded and closes the till's own batch up to what the store had received.

Each push carries the journal's chain before its first event (``cashier.journal.outbox_rows``):
a journal restored from an older copy that went on writing past the store's mark is refused by
the store (409, nothing of it stored) instead of being taken on top of the lost journal's events.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from cashier.config import TillProfile, store_token_for
from cashier.journal.outbox_rows import chain_over
from cashier.journal.recorder import JournalRecorder
from cashier.store import StoreError, StoreUnreachable, TillNumberRefused

log = logging.getLogger(__name__)
#: Events per push: small enough for a quick request, big enough that a day's backlog is fast.
CHUNK = 500
#: The actor written on what the till does because the store said so.
STORE_ACTOR = "store"
#: The header carrying a manager's store session (``cashier.store.app``).
MANAGER_HEADER = "X-Store-Manager"


@dataclass(frozen=True)
class SyncResult:
    pushed: int
    pending: int
    reached: bool
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pushed": self.pushed, "pending": self.pending}
        if self.message:
            out["message"] = self.message
        return out


def store_headers(profile: TillProfile, token: str | None = None) -> dict[str, str]:
    token = token or store_token_for(profile)
    if not token:
        raise StoreError("store token: none for this till; put the one 'cashier store add-till' "
                         "printed in the OS keyring or CASHIER_STORE_TOKEN")
    return {"Authorization": f"Bearer {token}"}


def store_client(profile: TillProfile, *, token: str | None = None, timeout_s: float = 5.0,
                 transport: httpx.BaseTransport | None = None,
                 manager_session: str | None = None) -> httpx.Client:
    """The till's client; with ``manager_session`` (a manager signed in at the store) it may do
    store-wide work, the till token alone only this till's."""
    if not profile.store_url:
        raise StoreError("store_url: this till's profile names no store service")
    headers = store_headers(profile, token)
    if manager_session:
        headers[MANAGER_HEADER] = manager_session
    return httpx.Client(base_url=profile.store_url, headers=headers, timeout=timeout_s,
                        transport=transport)


def answer(response: httpx.Response) -> dict[str, Any]:
    """The store's JSON answer; its refusals as one readable line."""
    if response.status_code >= 500:
        raise StoreUnreachable(f"store: {response.status_code} (the store service or its database "
                               "is away)")
    try:
        body = response.json()
    except ValueError:
        raise StoreError(f"store: answered {response.status_code} without JSON") from None
    if not isinstance(body, dict):
        raise StoreError("store: answered something other than a JSON object")
    if response.status_code == 403 and body.get("error") == "till_number":
        raise TillNumberRefused(f"store: {body.get('message')}")
    if response.status_code >= 400 and not (response.status_code == 409
                                            and body.get("error") == "gap"):
        raise StoreError(f"store: {body.get('message') or response.status_code}")
    return body


class Outbox:
    """One journal's outbox. Not thread-safe: one thread owns an instance, like ``JournalRecorder``."""

    def __init__(self, profile: TillProfile, *, token: str | None = None,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.profile = profile
        self.journal = JournalRecorder(profile.resolved_journal_path, till_id=profile.till_id,
                                    till_number=profile.till_number, currency=profile.currency,
                                    training=profile.is_training)
        self.client = store_client(profile, token=token, transport=transport)
        #: The catalog's newest version as the store said at the last contact (0: unknown)
        self.catalog_version = 0

    def close(self) -> None:
        self.client.close()
        self.journal.close()

    # ---- the outbox row ------------------------------------------------------------------
    def state(self) -> tuple[str, int, int]:
        return self.journal.outbox_state()

    def _save(self, column: str, value: int) -> None:
        self.journal.save_outbox_mark(column, value)

    def _mark(self, mark: int, chain: str | None = None,
              known: tuple[int, str] | None = None) -> str:
        """The store holds this journal through ``mark``: note it, with the journal's chain
        there (computed unless given; the next push carries it for the store to check)."""
        if chain is None:
            chain = self.journal.chain_through(mark, known)
        self.journal.save_pushed(mark, chain)
        return chain

    def last_event(self) -> int:
        return self.journal.last_event_id()

    def pending(self) -> int:
        return max(self.last_event() - self.state()[1], 0)

    # ---- one contact ----------------------------------------------------------------------
    def _post(self, path: str, body: dict[str, Any], deadline: float) -> dict[str, Any]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise StoreUnreachable("store: out of time for this push")
        try:
            response = self.client.post(path, content=json.dumps(body, separators=(",", ":")),
                                        headers={"Content-Type": "application/json"},
                                        timeout=httpx.Timeout(left))
        except httpx.HTTPError as exc:
            raise StoreUnreachable(f"store: cannot reach {self.profile.store_url} "
                                   f"({type(exc).__name__})") from None
        return answer(response)

    def sync(self, budget_s: float = 5.0) -> SyncResult:
        """Push what is pending within ``budget_s``; what is not pushed stays pending."""
        deadline = time.monotonic() + budget_s
        journal_id, _pushed, _seen = self.state()
        try:
            hello = self.hello(deadline)
        except StoreUnreachable as exc:
            return SyncResult(0, self.pending(), False, str(exc))
        floor = int(hello.get("invoice_floor") or 0)
        if floor > self.journal.invoice_high_water():
            self.journal.raise_invoice_floor(floor)
            log.info("store: invoices continue after sequence %s", floor)
        mark = int(hello.get("high_water") or 0)
        last = self.last_event()
        if mark > last:
            raise StoreError(f"journal: the store holds {mark} events of this journal but it has only "
                             f"{last}: it was restored from an older copy. Keep this journal aside and "
                             "start the till on a new one (it continues the invoices)")
        chain = self._mark(mark)
        self._learn_close(hello.get("store_close"), journal_id)
        pushed = 0
        try:
            while True:
                batch = self.journal.read_events(mark, CHUNK)
                if not batch:
                    break
                body = self._post("/v1/events", {"journal_id": journal_id, "chain": chain,
                                                 "events": batch}, deadline)
                new_mark = int(body.get("high_water") or 0)
                if "error" not in body:
                    pushed += int(body.get("applied") or 0)
                if new_mark == batch[-1]["seq"]:  # the usual answer: all of it is held
                    chain = chain_over(chain, batch)
                    self._mark(new_mark, chain)
                else:  # another pusher of this journal moved the mark (a gap): resume there
                    chain = self._mark(new_mark, known=(mark, chain))
                mark = new_mark
        except StoreUnreachable as exc:
            return SyncResult(pushed, self.pending(), False, str(exc))
        return SyncResult(pushed, self.pending(), True)

    def hello(self, deadline: float) -> dict[str, Any]:
        """The contact's first request; the store's word on this till's number is kept in the
        journal (a number the store says is another till's starts no payment, also while the
        store is away: the last word holds)."""
        try:
            hello = self._post("/v1/hello", {"journal_id": self.state()[0],
                                             "till_id": self.profile.till_id,
                                             "till_number": self.profile.till_number}, deadline)
        except TillNumberRefused as exc:
            self.journal.record_store_number(True, message=str(exc))
            raise
        self.journal.record_store_number(False)
        version = hello.get("catalog_version")
        if isinstance(version, int) and not isinstance(version, bool):
            self.catalog_version = version
        return hello

    def _learn_close(self, close: Any, journal_id: str) -> None:
        """Record a store-wide close made since the last contact and close this till's batch up
        to the event the store had received from this journal when it closed."""
        if not isinstance(close, dict):
            return
        batch_no = int(close.get("batch_no") or 0)
        if batch_no <= self.state()[2]:
            return
        through = (close.get("through") or {}).get(self.profile.till_id, {}).get(journal_id)
        self.journal.note(None, "store_batch_closed", actor=STORE_ACTOR, store_batch=batch_no,
                          closed_by=str(close.get("closed_by")), override=bool(close.get("override")))
        if through is not None:
            self.journal.close_batch(actor=STORE_ACTOR, override=bool(close.get("override")),
                                     summary={"store_batch": batch_no}, through_event=int(through))
        self._save("store_close_seen", batch_no)


def push_pending(profile: TillProfile, budget_s: float = 1.0) -> SyncResult | None:
    """What a CLI money command does as it ends: push within about a second, else leave it
    pending (never an error for the command: the money part is already done and journaled)."""
    if not profile.store_url or profile.is_training:
        return None
    try:
        outbox = Outbox(profile)
    except StoreError as exc:
        log.warning("%s", exc)
        return None
    try:
        return outbox.sync(budget_s)
    except TillNumberRefused as exc:  # kept in the journal: the next payment is refused, saying so
        log.info("%s", exc)
        return None
    except StoreError as exc:
        log.warning("%s", exc)
        return None
    finally:
        outbox.close()


def learn_till_number(profile: TillProfile, budget_s: float = 1.5) -> None:
    """Before a process's first invoice: a till that has never heard the store's word on its
    number asks once (a short hello) so a till sharing another's number is refused before its
    first payment; a store away changes nothing (the payment goes on, the word is learnt at the
    next contact). Never raises."""
    if not profile.store_url or profile.is_training:
        return
    try:
        outbox = Outbox(profile)
    except StoreError as exc:
        log.warning("%s", exc)
        return
    try:
        if outbox.journal.store_number_word() is None:
            outbox.hello(time.monotonic() + budget_s)
    except (StoreUnreachable, TillNumberRefused) as exc:  # the payment says it, or goes on
        log.info("%s", exc)
    except StoreError as exc:
        log.warning("%s", exc)
    finally:
        outbox.close()


class BackgroundPusher:
    """The window's pusher: a thread of its own (never the counter's loop) that pushes a couple
    of seconds after each journal change, and every ``interval_s`` anyway, backing off while
    the store is away."""

    def __init__(self, profile: TillProfile, *, interval_s: float = 2.0,
                 outbox_factory: Callable[[], Outbox] | None = None,
                 on_catalog: Callable[[int], None] | None = None) -> None:
        self.profile = profile
        #: told the catalog's newest version after each contact (the catalog follower pulls
        #: at once when it is newer than the till's: a price reaches the counter in seconds)
        self.on_catalog = on_catalog
        self.interval_s = interval_s
        self._factory = outbox_factory or (lambda: Outbox(profile))
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="store-pusher", daemon=True)
        self.last: SyncResult | None = None
        self.last_error: str = ""

    def start(self) -> None:
        self._thread.start()

    def nudge(self, *_args: Any) -> None:
        """A journal change: push soon (called on the loop's thread; only sets a flag)."""
        self._wake.set()

    def stop(self, timeout_s: float = 1.5) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)

    def _run(self) -> None:
        try:
            outbox = self._factory()
        except StoreError as exc:
            self.last_error = str(exc)
            log.warning("store pusher not started: %s", exc)
            return
        delay = self.interval_s
        away = False
        try:
            while True:
                if away:  # the store is away: journal changes wait for the back-off, not a retry each
                    self._stop.wait(delay)
                else:
                    self._wake.wait(self.interval_s)
                self._wake.clear()
                stopping = self._stop.is_set()
                budget = 1.0 if stopping else 5.0  # the last push, as the window closes
                try:
                    self.last = outbox.sync(budget)
                    self.last_error = "" if self.last.reached else self.last.message
                    if self.on_catalog is not None and outbox.catalog_version:
                        self.on_catalog(outbox.catalog_version)
                except StoreError as exc:
                    self.last_error = str(exc)
                except Exception:  # a journal or network fault must not kill the pusher
                    log.exception("store push failed")
                    self.last_error = "store push failed (details in the log)"
                if stopping:
                    break
                away = bool(self.last_error)
                delay = min(delay * 2, 30.0) if away else self.interval_s
        finally:
            outbox.close()
