"""The till follows the store's catalog: it pulls the newest version at start, every minute
(``CatalogFollower``, the window's thread) and on ``cashier catalog sync``, keeps it in its copy
(``cashier.catalog.till_copy``) and swaps it into the ``CatalogSource`` the flows sell from.

A till that holds version N asks only for what changed after N (a price change is one product on
the wire); a till without a copy pulls the version whole. A store away changes nothing: the till
sells from its copy (or, never having pulled one, from its profile), and says so in one line.
Also here: a store manager's catalog writes from a till (``CatalogWriter``: the manager's store
session, the store checks every rule again).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx

from cashier.catalog.model import Catalog, CatalogSource
from cashier.catalog.rules import catalog_from_wire, product_to_wire
from cashier.catalog.till_copy import CopySource, TillCatalogCopy, copy_path, merged
from cashier.config import TillProfile
from cashier.errors import ValidationError
from cashier.store import StoreError, StoreUnreachable
from cashier.store.catalog import ProductChange, change_to_wire, sheets_to_wire
from cashier.store.outbox import answer, store_client

log = logging.getLogger(__name__)
#: How often the window's till asks the store for a newer version.
FOLLOW_S = 60.0
#: How long a till's start waits for the store's newest catalog (a store away: its copy).
PULL_AT_START_S = 1.0


@dataclass(frozen=True)
class PullResult:
    version: int
    changed: bool
    reached: bool
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version, "changed": self.changed}
        if self.message:
            out["message"] = self.message
        return out


def till_copy(profile: TillProfile) -> TillCatalogCopy:
    return TillCatalogCopy(copy_path(profile.resolved_journal_path))


def follows_store(profile: TillProfile) -> bool:
    """A till that sells from the store's catalog (a training till never does)."""
    return bool(profile.store_url) and not profile.is_training


def _get(client: httpx.Client, path: str, params: dict[str, Any], timeout: float) -> httpx.Response:
    try:
        return client.get(path, params=params, timeout=httpx.Timeout(max(timeout, 0.05)))
    except httpx.HTTPError as exc:
        raise StoreUnreachable(f"store: cannot reach it for the catalog ({type(exc).__name__})"
                               ) from None


def pull(profile: TillProfile, source: CatalogSource, *, budget_s: float = 5.0,
         transport: httpx.BaseTransport | None = None) -> PullResult:
    """Ask the store for what changed after the version ``source`` holds; keep and take a newer
    one. Never raises for a store away (``reached`` False): the till goes on with what it has.
    A ``CopySource`` not built yet is not built here: what changed goes into the copy."""
    lazy = isinstance(source, CopySource) and not source.loaded
    held = source.held_version() if isinstance(source, CopySource) else source.current().version
    deadline = time.monotonic() + budget_s
    try:
        with store_client(profile, transport=transport, timeout_s=budget_s) as client:
            response = _get(client, "/v1/catalog", {"after": held} if held else {},
                            deadline - time.monotonic())
            body = answer(response)
    except StoreUnreachable as exc:
        return PullResult(held, False, False, str(exc))
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version <= held:
        return PullResult(held, False, True)
    whole = body.get("full") is not False
    try:
        # the store checked every rule as it was written (its own rows, our own service): the
        # till reads the answer's shape, and a line sold is checked again on the ticket
        if whole:
            newer: Catalog | None = catalog_from_wire(body, checked=False)
        else:
            changes = catalog_from_wire(body, checked=False)  # what changed: a few rows
            newer = None if lazy else merged(source.current(), body, changes)
    except (KeyError, TypeError, ValueError, ArithmeticError):
        raise StoreError("store: answered a catalog this till cannot read; it sells from the "
                         "version it has") from None
    with till_copy(profile) as copy:
        if whole:
            copy.save_whole(version, response.text)
        else:
            copy.save_changes(version, body)
    if newer is not None:
        source.replace(newer)
    elif isinstance(source, CopySource):
        source.copy_changed()
    log.info("catalog: version %s from the store (%s)", version,
             "whole" if whole else "what changed")
    return PullResult(version, True, True)


def fallback_catalog(profile: TillProfile) -> Catalog:
    """What a till sells from with no copy of the store's catalog: its profile's products at its
    ``tax_rate`` (version 0), or, a training till without a store or products, the training
    café and shop."""
    from cashier.catalog.training import training_catalog

    if profile.is_training and not profile.store_url and not profile.products:
        return training_catalog()
    return Catalog.from_profile(profile)


def till_source(profile: TillProfile) -> CatalogSource:
    """The catalog a till sells from as it opens: a till that follows a store reads its copy
    when first needed (``CopySource``), any other its profile's."""
    if follows_store(profile):
        return CopySource(copy_path(profile.resolved_journal_path),
                          lambda: fallback_catalog(profile))
    return CatalogSource(fallback_catalog(profile))


def catalog_at_start(profile: TillProfile) -> Catalog:
    """The catalog ``till_source`` gives, built (``catalog show``, ``export``, tests)."""
    return till_source(profile).current()


class CatalogFollower:
    """The window's follower: a thread of its own pulls every ``interval_s`` (and at once when
    nudged); the flows see a newer version at their next read of the source."""

    def __init__(self, profile: TillProfile, source: CatalogSource, *,
                 interval_s: float = FOLLOW_S) -> None:
        self.profile = profile
        self.source = source
        self.interval_s = interval_s
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="catalog-follower", daemon=True)
        self.last: PullResult | None = None

    def start(self) -> None:
        self._thread.start()

    def nudge(self) -> None:
        self._wake.set()

    def store_has(self, version: int) -> None:
        """The store's newest version as the pusher heard it: pull now when it is newer."""
        if version > self.source.current().version:
            self._wake.set()

    def stop(self, timeout_s: float = 1.5) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)

    def _run(self) -> None:
        """The runtime pulled as it opened: the first pull here is a minute later (or nudged).
        First the catalog is built here, off the counter's loop (a ``CopySource`` builds a
        20,000-product copy when first read: never in the middle of a key press)."""
        try:
            self.source.current()
        except Exception:  # a copy that cannot be read: the flows say so when they read it
            log.exception("catalog copy not read")
        while True:
            self._wake.wait(self.interval_s)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.last = pull(self.profile, self.source)
            except (StoreError, ValidationError) as exc:
                log.warning("catalog pull refused: %s", exc)
            except Exception:  # a copy or network fault must not end the follower
                log.exception("catalog pull failed")


class CatalogWriter:
    """A store manager's catalog changes from a till: each request carries the manager's store
    session (``cashier.store.close.sign_in_manager``); the store checks the rules again and
    answers the new version (``{"version", "changed"}``)."""

    def __init__(self, profile: TillProfile, session: str, *,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.client = store_client(profile, manager_session=session, transport=transport,
                                   timeout_s=30.0)

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> CatalogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _post(self, path: str, *, body: dict[str, Any] | None = None,
              raw: bytes | None = None) -> dict[str, Any]:
        try:
            if raw is not None:
                response = self.client.post(path, content=raw,
                                            headers={"Content-Type": "text/csv"})
            else:
                response = self.client.post(path, content=json.dumps(body),
                                            headers={"Content-Type": "application/json"})
        except httpx.HTTPError as exc:
            raise StoreUnreachable(f"store: cannot reach it ({type(exc).__name__}): nothing "
                                   "changed") from None
        return answer(response)

    def import_sheet(self, data: bytes, promotions: bytes | None = None) -> dict[str, Any]:
        if promotions is not None:
            return self._post("/v1/catalog/import", body=sheets_to_wire(data, promotions))
        return self._post("/v1/catalog/import", raw=data)

    def add_reason(self, word: str) -> dict[str, Any]:
        return self._post("/v1/catalog/reasons", body={"name": word})

    def add_category(self, name: str, colour: str | None) -> dict[str, Any]:
        return self._post("/v1/catalog/categories", body={"name": name, "colour": colour})

    def add_tax_class(self, name: str, rate: str) -> dict[str, Any]:
        return self._post("/v1/catalog/tax-classes", body={"name": name, "rate": rate})

    def add_product(self, product: Any) -> dict[str, Any]:
        return self._post("/v1/catalog/products", body={"product": product_to_wire(product)})

    def change(self, change: ProductChange) -> dict[str, Any]:
        return self._post("/v1/catalog/change", body=change_to_wire(change))
