"""The till's copy of the store's catalog: a SQLite file of its own beside the journal.

Why a file of its own (``<journal stem>.catalog.sqlite``) and not the journal: the catalog is the
store's (the till only mirrors its newest version; losing the file costs one full pull), while
the journal is the till's own record of money. What a ticket line sold at is the journal's
(sku, catalog version, unit price), never a reference into this copy.

A version is written whole or not at all (one transaction): a till that stops mid-write keeps
the version it had. The copy is what the till sells from while the store is away.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cashier.catalog.model import Catalog, CatalogSource
from cashier.catalog.rules import catalog_from_wire

_SCHEMA = """
CREATE TABLE IF NOT EXISTS copy_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS copy_rows (
    kind TEXT NOT NULL, key TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (kind, key)
) WITHOUT ROWID;
"""
#: (the wire's list, the row's kind, the item's key)
_KINDS = (("products", "product", "sku"), ("categories", "category", "name"),
          ("tax_classes", "tax_class", "name"), ("promotions", "promotion", "name"),
          ("reasons", "reason", "name"))


def copy_path(journal: Path) -> Path:
    """``journal-lane-3.sqlite`` -> ``journal-lane-3.catalog.sqlite``."""
    return journal.with_name(f"{journal.stem}.catalog.sqlite")


class TillCatalogCopy:
    """One till's copy: the last whole version as the store sent it (``base``, one text: a
    20,000-product pull is written and read in one piece) and what changed since, row by row
    (``copy_rows``, laid over the base). Not shared between threads: each opens its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(path, timeout=10, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(_SCHEMA)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> TillCatalogCopy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM copy_meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def version(self) -> int:
        return int(self._meta("version") or 0)

    def load(self) -> Catalog | None:
        """The copy as a ``Catalog`` (None: the till never pulled one)."""
        version = self.version()
        base = self._meta("base")
        if version == 0 or base is None:
            return None
        body: dict[str, Any] = json.loads(base)
        body["version"] = version
        for plural, kind, key in _KINDS:
            changed = {str(k): json.loads(d) for k, d in self.conn.execute(
                "SELECT key, data FROM copy_rows WHERE kind = ?", (kind,))}
            if changed:
                body[plural] = [changed.pop(str(item[key]), item) for item in body.get(plural, [])]
                body[plural] += list(changed.values())
        return catalog_from_wire(body, checked=False)  # the store checked it (decision 019)

    def save_whole(self, version: int, text: str) -> None:
        """A whole version as the store sent it (``text``: its JSON answer)."""
        self._write(version, base=text)

    def save_changes(self, version: int, body: Mapping[str, Any]) -> None:
        """What changed after the copy's version (a pull's ``"full": false`` answer)."""
        rows = [(kind, str(item[key]), json.dumps(item))
                for plural, kind, key in _KINDS for item in body.get(plural, [])]
        self._write(version, rows=rows)

    def _write(self, version: int, *, base: str | None = None,
               rows: Sequence[tuple[str, str, str]] = ()) -> None:
        """One transaction: a till stopped mid-write keeps the version it had."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            if base is not None:
                self.conn.execute("DELETE FROM copy_rows")
                self.conn.execute("INSERT OR REPLACE INTO copy_meta (key, value) VALUES "
                                  "('base', ?)", (base,))
            self.conn.executemany("INSERT OR REPLACE INTO copy_rows (kind, key, data) "
                                  "VALUES (?, ?, ?)", rows)
            self.conn.execute("INSERT OR REPLACE INTO copy_meta (key, value) VALUES "
                              "('version', ?)", (str(version),))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise


class CopySource(CatalogSource):
    """A till's ``CatalogSource`` read from its copy when the catalog is first needed (a command
    that takes a payment never builds 20,000 products it does not sell; ``held_version`` asks
    the copy's version alone). Without a copy: ``fallback()`` (the profile's, version 0). A pull
    of what changed goes into the copy and the source reads it again when next asked."""

    def __init__(self, path: Path, fallback: Callable[[], Catalog]) -> None:
        super().__init__(Catalog(0, ()))
        self.path = path
        self._fallback = fallback
        self._loaded = False
        self._lock = threading.Lock()

    def current(self) -> Catalog:
        if not self._loaded:
            with self._lock:
                if not self._loaded:
                    held = None
                    if self.path.exists():
                        with TillCatalogCopy(self.path) as copy:
                            held = copy.load()
                    self._catalog = held or self._fallback()
                    self._loaded = True
        return self._catalog

    @property
    def loaded(self) -> bool:
        return self._loaded

    def held_version(self) -> int:
        """The version it sells from, without building it."""
        if self._loaded or not self.path.exists():
            return self.current().version
        with TillCatalogCopy(self.path) as copy:
            return copy.version()

    def copy_changed(self) -> None:
        """The copy holds a newer version than the one built: build it when next asked."""
        with self._lock:
            self._loaded = False

    def replace(self, catalog: Catalog) -> bool:
        with self._lock:
            if self._loaded and catalog.version <= self._catalog.version \
                    and self._catalog.version != 0:
                return False
            self._catalog = catalog
            self._loaded = True
            return True


def merged(current: Catalog, body: Mapping[str, Any], delta: Catalog | None = None) -> Catalog:
    """``current`` with what changed after it (a pull's ``"full": false`` answer, read as
    ``delta`` when given) laid on top."""
    if delta is None:
        delta = catalog_from_wire(dict(body), checked=False)
    by_sku = {p.sku: p for p in current.products}
    by_sku.update({p.sku: p for p in delta.products})
    categories = {c.name: c for c in current.categories}
    categories.update({c.name: c for c in delta.categories})
    taxes = {t.name: t for t in current.tax_classes}
    taxes.update({t.name: t for t in delta.tax_classes})
    # promotions by name: a row that ended (``"active": false``) takes its promotion away
    promotions = {p.name: p for p in current.promotions}
    started = {p.name: p for p in delta.promotions}
    for raw in body.get("promotions", []):
        name = str(raw.get("name", ""))
        promotions.pop(name, None)
        if name in started:
            promotions[name] = started[name]
    reasons = dict.fromkeys(current.reasons)
    reasons.update(dict.fromkeys(str(r.get("name", "")) for r in body.get("reasons", [])))
    return Catalog(delta.version, tuple(by_sku.values()), tuple(categories.values()),
                   tuple(taxes.values()), current.prices_include_tax, tuple(promotions.values()),
                   tuple(reasons))
