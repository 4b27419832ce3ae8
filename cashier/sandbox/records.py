"""The sandbox's ``--state FILE``: an SQLite store (WAL) with one row per record.

Why not one JSON file: it was rewritten whole on every request (slower as it grew) and two
processes sharing it (two training tills) lost each other's approvals. Here a request writes
only the records it changed, in one short transaction, so the cost per request does not depend
on how many records are stored and several processes can share the file.

The shape the family modules see stays plain: ``family(name)`` is a mapping whose dict values
are *collections* (``family("transactions")["invoices"]``), each of whose items is one row;
any other value (a flag, a counter, a short list) is one row of its own. Items handed out are
plain dicts: a handler may change them in place. Every row a request reads is remembered with
the text it was read as, and at the end of the request (``flush``) those whose text changed are
written. Another process's writes are noticed (``PRAGMA data_version``) at the start of the next
request, which then reads afresh.
"""

from __future__ import annotations

import contextvars
import json
import sqlite3
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS slot (
    family TEXT NOT NULL, name TEXT NOT NULL, collection INTEGER NOT NULL, value TEXT,
    PRIMARY KEY (family, name)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS item (
    family TEXT NOT NULL, name TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (family, name, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
"""
#: Seconds a writer waits for another process's transaction before giving up.
BUSY_TIMEOUT_MS = 10_000

RowKey = tuple[str, str, str | None]  # (family, slot name, item key or None for a slot value)


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class UnitOfWork:
    """The rows one request touched (with the text they were read as) and deleted."""

    def __init__(self) -> None:
        self.touched: dict[RowKey, tuple[Any, str | None]] = {}
        self.deleted: set[RowKey] = set()
        self.cleared: set[tuple[str, str]] = set()
        self.closed = False

    def touch(self, key: RowKey, value: Any, original: str | None) -> None:
        if key not in self.touched:
            self.touched[key] = (value, original)
        elif self.touched[key][0] is not value:
            self.touched[key] = (value, self.touched[key][1])
        self.deleted.discard(key)

    def delete(self, key: RowKey) -> None:
        self.touched.pop(key, None)
        self.deleted.add(key)


_CURRENT: contextvars.ContextVar[UnitOfWork | None] = contextvars.ContextVar("sandbox_unit",
                                                                             default=None)


class Collection(MutableMapping[str, Any]):
    """``family[name]`` when it is a collection: each item is a row, read when first asked for."""

    def __init__(self, store: RecordStore, family: str, name: str) -> None:
        self._store = store
        self._family = family
        self._name = name
        self._items: dict[str, Any] = {}
        self._texts: dict[str, str] = {}
        self._missing: set[str] = set()
        self._complete = False

    def _load(self, key: str) -> bool:
        if key in self._items:
            return True
        if self._complete or key in self._missing:
            return False
        row = self._store.db.execute("SELECT value FROM item WHERE family=? AND name=? AND key=?",
                                     (self._family, self._name, key)).fetchone()
        if row is None:
            self._missing.add(key)
            return False
        self._items[key] = json.loads(row[0])
        self._texts[key] = row[0]
        return True

    def _load_all(self) -> None:
        if self._complete:
            return
        for key, text in self._store.db.execute(
                "SELECT key, value FROM item WHERE family=? AND name=?", (self._family, self._name)):
            if key not in self._items:
                self._items[key] = json.loads(text)
                self._texts[key] = text
        self._missing.clear()
        self._complete = True

    def __getitem__(self, key: str) -> Any:
        if not self._load(key):
            raise KeyError(key)
        value = self._items[key]
        self._store.unit().touch((self._family, self._name, key), value, self._texts.get(key))
        return value

    def __setitem__(self, key: str, value: Any) -> None:
        self._load(key)
        self._items[key] = value
        self._missing.discard(key)
        self._store.unit().touch((self._family, self._name, key), value, self._texts.get(key))

    def __delitem__(self, key: str) -> None:
        if not self._load(key):
            raise KeyError(key)
        del self._items[key]
        self._texts.pop(key, None)
        self._missing.add(key)
        self._store.unit().delete((self._family, self._name, key))

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._load(key)

    def __iter__(self) -> Iterator[str]:
        self._load_all()
        return iter(list(self._items))

    def __len__(self) -> int:
        self._load_all()
        return len(self._items)

    def __repr__(self) -> str:
        return f"Collection({self._family}.{self._name})"


class Family(MutableMapping[str, Any]):
    """``state.family(name)``: slots that are collections (dict values) or single values."""

    def __init__(self, store: RecordStore, name: str) -> None:
        self._store = store
        self._name = name
        self._values: dict[str, Any] = {}
        self._texts: dict[str, str | None] = {}
        for slot, collection, text in store.db.execute(
                "SELECT name, collection, value FROM slot WHERE family=?", (name,)):
            if collection:
                self._values[slot] = Collection(store, name, slot)
            else:
                self._values[slot] = json.loads(text)
                self._texts[slot] = text

    def __getitem__(self, slot: str) -> Any:
        value = self._values[slot]
        if isinstance(value, list):  # may be changed in place (appended to)
            self._store.unit().touch((self._name, slot, None), value, self._texts.get(slot))
        return value

    def __setitem__(self, slot: str, value: Any) -> None:
        unit = self._store.unit()
        if isinstance(value, dict | Collection):
            items = dict(value.items())
            collection = Collection(self._store, self._name, slot)
            if slot in self._values:
                # replacing a collection this process knows: its older items go. A slot not
                # seen here is only created: another process may be filling it right now.
                collection._complete = True
                unit.cleared.add((self._name, slot))
            self._values[slot] = collection
            self._texts.pop(slot, None)
            unit.touch((self._name, slot, None), collection, None)
            for key, item in items.items():
                collection[key] = item
            return
        self._values[slot] = value
        unit.touch((self._name, slot, None), value, self._texts.get(slot))

    def __delitem__(self, slot: str) -> None:
        del self._values[slot]
        self._texts.pop(slot, None)
        unit = self._store.unit()
        unit.cleared.add((self._name, slot))
        unit.delete((self._name, slot, None))

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._values))

    def __len__(self) -> int:
        return len(self._values)

    def setdefault(self, slot: str, default: Any = None) -> Any:
        """Like ``dict.setdefault``, but a dict default comes back as the collection it became."""
        if slot not in self._values:
            self[slot] = default
        return self[slot]

    def set_read(self, slot: str, value: Any) -> None:
        """A value another path already wrote (an atomic counter): cache it, nothing to flush."""
        self._values[slot] = value
        self._texts[slot] = dumps(value)

    def __repr__(self) -> str:
        return f"Family({self._name})"


class RecordStore:
    """One SQLite file shared by every process that serves the same sandbox state."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():  # owner-only, like every file beside the journal (SQLite
            self.path.touch(mode=0o600)  # gives its -wal and -shm the same mode)
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False,
                                  timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            self.db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise ValueError(f"{self.path} is not a sandbox state store ({exc})") from None
        self._families: dict[str, Family] = {}
        self._default = UnitOfWork()
        self._version = self._data_version()

    def close(self) -> None:
        self.db.close()

    # ---- reading ------------------------------------------------------------------------------
    def _data_version(self) -> int:
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

    def refresh(self) -> bool:
        """Forget what was read when another process wrote since; True when it had."""
        version = self._data_version()
        if version == self._version:
            return False
        self._version = version
        self._families.clear()
        return True

    def family(self, name: str) -> Family:
        found = self._families.get(name)
        if found is None:
            found = self._families[name] = Family(self, name)
        return found

    def meta(self, key: str) -> Any:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def is_empty(self) -> bool:
        return self.db.execute("SELECT 1 FROM slot LIMIT 1").fetchone() is None

    # ---- units of work ----------------------------------------------------------------------------
    def unit(self) -> UnitOfWork:
        current = _CURRENT.get()
        return current if current is not None and not current.closed else self._default

    @contextmanager
    def request(self) -> Iterator[UnitOfWork]:
        """One request's unit of work: fresh reads if another process wrote, a flush at the end."""
        if _CURRENT.get() is not None and not _CURRENT.get().closed:  # type: ignore[union-attr]
            yield self.unit()  # nested (a part calling another): the outer unit flushes
            return
        self.refresh()
        unit = UnitOfWork()
        token = _CURRENT.set(unit)
        try:
            yield unit
        finally:
            try:
                self.flush()
            finally:
                unit.closed = True
                _CURRENT.reset(token)

    def flush(self, meta: dict[str, Any] | None = None) -> int:
        """Write the current unit's changed rows (and the default unit's) in one transaction."""
        units = [u for u in (self.unit(), self._default) if u.touched or u.deleted or u.cleared]
        writes: list[tuple[str, tuple[Any, ...]]] = []
        for unit in dict.fromkeys(units):
            for family, slot in unit.cleared:
                writes.append(("DELETE FROM item WHERE family=? AND name=?", (family, slot)))
            for family, slot, key in unit.deleted:
                if key is None:
                    writes.append(("DELETE FROM slot WHERE family=? AND name=?", (family, slot)))
                else:
                    writes.append(("DELETE FROM item WHERE family=? AND name=? AND key=?",
                                   (family, slot, key)))
            for (family, slot, key), (value, original) in unit.touched.items():
                if key is None and isinstance(value, Collection):
                    writes.append(("INSERT OR REPLACE INTO slot VALUES (?, ?, 1, NULL)", (family, slot)))
                    continue
                text = dumps(value)
                if text == original:
                    continue
                if key is None:
                    writes.append(("INSERT OR REPLACE INTO slot VALUES (?, ?, 0, ?)",
                                   (family, slot, text)))
                    fam = self._families.get(family)
                    if fam is not None and fam._values.get(slot) is value:
                        fam._texts[slot] = text
                else:
                    writes.append(("INSERT OR REPLACE INTO item VALUES (?, ?, ?, ?)",
                                   (family, slot, key, text)))
                    self._ensure_collection(family, slot, writes)
                    collection = self._cached_collection(family, slot)
                    if collection is not None and collection._items.get(key) is value:
                        collection._texts[key] = text
                unit.touched[(family, slot, key)] = (value, text)
            unit.deleted.clear()
            unit.cleared.clear()
        for key, value in (meta or {}).items():
            writes.append(("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, dumps(value))))
        if not writes:
            return 0
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for sql, args in writes:
                self.db.execute(sql, args)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self._default.touched.clear()
        return len(writes)

    def _cached_collection(self, family: str, slot: str) -> Collection | None:
        fam = self._families.get(family)
        value = fam._values.get(slot) if fam is not None else None
        return value if isinstance(value, Collection) else None

    def _ensure_collection(self, family: str, slot: str,
                           writes: list[tuple[str, tuple[Any, ...]]]) -> None:
        writes.append(("INSERT OR IGNORE INTO slot VALUES (?, ?, 1, NULL)", (family, slot)))

    # ---- counters and whole-store operations ---------------------------------------------------------
    def next_sequence(self, name: str) -> int:
        """An atomic counter across processes (authorization codes, references, batch ids)."""
        row = self.db.execute(
            "INSERT INTO slot VALUES ('sequences', ?, 0, '1') ON CONFLICT (family, name) "
            "DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) RETURNING value",
            (name,)).fetchone()
        value = int(row[0])
        self.family("sequences").set_read(name, value)
        return value

    def clear(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            for table in ("slot", "item", "meta"):
                self.db.execute(f"DELETE FROM {table}")
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self._families.clear()
        for unit in (self.unit(), self._default):
            unit.touched.clear()
            unit.deleted.clear()
            unit.cleared.clear()

    def export(self) -> dict[str, dict[str, Any]]:
        """Everything, as plain data (tests, the card-number scan)."""
        data: dict[str, dict[str, Any]] = {}
        for family, slot, collection, text in self.db.execute(
                "SELECT family, name, collection, value FROM slot"):
            data.setdefault(family, {})[slot] = {} if collection else json.loads(text)
        for family, slot, key, text in self.db.execute("SELECT family, name, key, value FROM item"):
            data.setdefault(family, {}).setdefault(slot, {})[key] = json.loads(text)
        return data

    def import_data(self, data: dict[str, dict[str, Any]]) -> None:
        """Load a JSON state of an earlier version (one transaction)."""
        for family, slots in data.items():
            fam = self.family(family)
            for slot, value in slots.items():
                fam[slot] = value
