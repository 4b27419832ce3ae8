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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cashier.catalog.model import Catalog
from cashier.catalog.rules import (
    catalog_from_wire,
    category_to_wire,
    product_to_wire,
    tax_class_to_wire,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS copy_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS copy_rows (
    kind TEXT NOT NULL, key TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (kind, key)
) WITHOUT ROWID;
"""
_KINDS = (("products", "product", "sku"), ("categories", "category", "name"),
          ("tax_classes", "tax_class", "name"))


def copy_path(journal: Path) -> Path:
    """``journal-lane-3.sqlite`` -> ``journal-lane-3.catalog.sqlite``."""
    return journal.with_name(f"{journal.stem}.catalog.sqlite")


class TillCatalogCopy:
    """One till's copy. Not shared between threads: each opens its own (they are short)."""

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

    def version(self) -> int:
        row = self.conn.execute("SELECT value FROM copy_meta WHERE key = 'version'").fetchone()
        return int(row[0]) if row else 0

    def load(self) -> Catalog | None:
        """The copy as a ``Catalog`` (None: the till never pulled one)."""
        version = self.version()
        if version == 0:
            return None
        body: dict[str, Any] = {"version": version}
        for plural, kind, _ in _KINDS:
            body[plural] = [json.loads(d) for (d,) in self.conn.execute(
                "SELECT data FROM copy_rows WHERE kind = ? ORDER BY key", (kind,))]
        return catalog_from_wire(body, checked=False)  # checked when it was pulled

    def save(self, catalog: Catalog, changed: Mapping[str, list[dict[str, Any]]] | None = None,
             ) -> None:
        """Keep ``catalog`` (its version and rows) in one transaction; ``changed``: only those
        rows differ from the copy (a pull of what changed), else the copy is replaced whole."""
        rows: list[tuple[str, str, str]] = []
        if changed is None:
            rows += [("product", p.sku, json.dumps(product_to_wire(p))) for p in catalog.products]
            rows += [("category", c.name, json.dumps(category_to_wire(c)))
                     for c in catalog.categories]
            rows += [("tax_class", t.name, json.dumps(tax_class_to_wire(t)))
                     for t in catalog.tax_classes]
        else:
            for plural, kind, key in _KINDS:
                rows += [(kind, str(item[key]), json.dumps(item)) for item in changed.get(plural, [])]
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            if changed is None:
                self.conn.execute("DELETE FROM copy_rows")
            self.conn.executemany("INSERT OR REPLACE INTO copy_rows (kind, key, data) "
                                  "VALUES (?, ?, ?)", rows)
            self.conn.execute("INSERT OR REPLACE INTO copy_meta (key, value) VALUES "
                              "('version', ?)", (str(catalog.version),))
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise


def merged(current: Catalog, body: Mapping[str, Any]) -> Catalog:
    """``current`` with what changed after it (a pull's ``"full": false`` answer) laid on top."""
    delta = catalog_from_wire(dict(body))
    by_sku = {p.sku: p for p in current.products}
    by_sku.update({p.sku: p for p in delta.products})
    categories = {c.name: c for c in current.categories}
    categories.update({c.name: c for c in delta.categories})
    taxes = {t.name: t for t in current.tax_classes}
    taxes.update({t.name: t for t in delta.tax_classes})
    return Catalog(delta.version, tuple(by_sku.values()), tuple(categories.values()),
                   tuple(taxes.values()))
