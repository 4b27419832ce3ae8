"""Both journal connections keep a small page cache: a till open all day does not grow by it."""

from __future__ import annotations

from pathlib import Path

from cashier.journal.recorder import CACHE_KIB, JournalRecorder


def test_writer_and_reader_cap_their_page_cache(tmp_path: Path) -> None:
    writer = JournalRecorder(tmp_path / "j.sqlite")
    reader = JournalRecorder(tmp_path / "j.sqlite", reader=True)
    try:
        for store in (writer, reader):
            assert store.conn.execute("PRAGMA cache_size").fetchone()[0] == -CACHE_KIB
        assert CACHE_KIB <= 1024
    finally:
        reader.close()
        writer.close()


def test_a_new_journal_is_owner_only(tmp_path: Path) -> None:
    """The journal holds the store's records: a new file and the folder made for it are 0600/0700."""

    store = JournalRecorder(tmp_path / "till" / "journal.sqlite")
    try:
        assert (tmp_path / "till").stat().st_mode & 0o777 == 0o700
        assert (tmp_path / "till" / "journal.sqlite").stat().st_mode & 0o777 == 0o600
    finally:
        store.close()
