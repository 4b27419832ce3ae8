"""Signed updates end to end on small fake bundles: keys, publish (tufup), a loopback static
server, check, download and verify, the quiet-till rule, switch, self-check and rollback, and
the refusals (a tampered archive, tampered metadata, a version that lies about itself).

The frozen till does the same in tests/packaging/test_deb_updates.py (``make package-test``).
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from cashier.cli import main
from cashier.config import TillProfile, load_profile
from cashier.drawer import Drawer
from cashier.errors import ValidationError
from cashier.journal.recorder import JournalRecorder
from cashier.updates.layout import Layout
from cashier.updates.publish import init_keys, publish
from cashier.updates.service import apply_update, blockers
from cashier.updates.till import (
    UpdateRefused,
    UpdateSource,
    UpdateUnreachable,
    UpdateWaiting,
    check,
    self_check,
)
from tests.support.profiles import write_till
from tests.support.updates import NAME, Quiet, fake_archive


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("signing") / "keys"
    init_keys(folder)
    return folder


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A static server on loopback for ``repo``, as any web server would serve it."""
    repo = tmp_path / "repo"
    repo.mkdir()
    handler = functools.partial(Quiet, directory=str(repo))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield repo, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class Till(NamedTuple):
    layout: Layout
    store: JournalRecorder
    profile: TillProfile


@pytest.fixture
def till(tmp_path: Path) -> Iterator[Till]:
    """A till installed side by side at 0.1.0, with its journal."""
    layout = Layout(tmp_path / "opt")
    first = layout.folder("0.1.0")
    first.mkdir(parents=True)
    (first / "cashier").write_text("#!/bin/sh\nexit 0\n")
    (first / "cashier").chmod(0o755)
    layout.switch("0.1.0")
    profile = load_profile(write_till(tmp_path))
    store = JournalRecorder(profile.resolved_journal_path, till_id=profile.till_id, till_number=1,
                         currency="USD", training=True)
    yield Till(layout, store, profile)
    store.close()


def source(url: str, keys: Path, layout: Layout, *, current: str = "0.1.0",
           channel: str = "stable") -> UpdateSource:
    return UpdateSource(url=url, name=NAME, channel=channel, current=current,  # type: ignore[arg-type]
                        trusted_root=keys / "root.json", state=layout.state)


def notes(store: JournalRecorder, type_: str) -> list[dict[str, object]]:
    return [e.data["_note"] for e in store.events() if e.type == type_]


def test_keys_never_overwritten_and_kept_out_of_the_repository(keys: Path, tmp_path: Path) -> None:
    assert {p.name for p in keys.iterdir()} >= {"root", "targets", "snapshot", "timestamp", "root.json"}
    assert (keys / "root").stat().st_mode & 0o077 == 0
    with pytest.raises(ValidationError, match="is not empty"):
        init_keys(keys)
    archive = fake_archive(tmp_path, "0.2.0")
    with pytest.raises(ValidationError, match="out of the repository"):
        publish(archive, keys, keys.parent)


def test_publish_check_apply_switch_and_journal(keys: Path, served: tuple[Path, str], till: Till,
                                                tmp_path: Path) -> None:
    repo, url = served
    layout, store, profile = till
    src = source(url, keys, layout)
    with pytest.raises(UpdateUnreachable, match="404"):  # nothing published yet: no metadata
        check(src)
    published = publish(fake_archive(tmp_path, "0.2.0"), keys, repo)
    assert published.target == f"{NAME}/0.2.0/{NAME}_0.2.0.tar.xz"
    publish(fake_archive(tmp_path, "0.3.0"), keys, repo, channel="pilot")
    found = check(src)[1]
    assert found is not None and (found.version, found.channel) == ("0.2.0", "stable")
    outcome = apply_update(src, layout, store, profile.roster)
    assert outcome.as_dict() == {"applied": "0.2.0", "rolled_back": None, "current": "0.2.0"}
    assert layout.current() == "0.2.0" and layout.previous() == "0.1.0"
    assert notes(store, "update_installed") == [{"version": "0.2.0", "previous": "0.1.0"}]
    # a pilot till goes on to the pilot version; a second apply finds nothing newer
    pilot = source(url, keys, layout, current="0.2.0", channel="pilot")
    assert apply_update(pilot, layout, store, profile.roster).applied == "0.3.0"
    again = source(url, keys, layout, current="0.3.0", channel="pilot")
    assert apply_update(again, layout, store, profile.roster).applied is None


def test_publishing_an_older_or_the_same_version_is_refused(keys: Path, served: tuple[Path, str],
                                                             tmp_path: Path) -> None:
    repo, _url = served
    publish(fake_archive(tmp_path, "0.3.0"), keys, repo)
    older = tmp_path / "older"
    older.mkdir()
    for version in ("0.3.0", "0.2.0"):
        with pytest.raises(ValidationError, match=re.escape("0.3.0 is already published")):
            publish(fake_archive(older / version, version), keys, repo)


def test_a_busy_till_waits_and_says_for_what(keys: Path, served: tuple[Path, str], till: Till,
                                             tmp_path: Path) -> None:
    repo, url = served
    layout, store, profile = till
    publish(fake_archive(tmp_path, "0.2.0"), keys, repo)
    drawer = Drawer(store, profile.roster)
    drawer.open(clerk="101", float_amount="100.00")
    assert blockers(store, profile.roster) == ["the drawer to be closed"]
    waiting = "update 0.2.0 is ready and waits for the drawer to be closed"
    with pytest.raises(UpdateWaiting, match=re.escape(waiting)):
        apply_update(source(url, keys, layout), layout, store, profile.roster)
    assert layout.current() == "0.1.0"
    assert (layout.folder("0.2.0") / "cashier").exists()  # downloaded and verified: ready


def test_a_version_failing_its_self_check_rolls_back_journaled(keys: Path, served: tuple[Path, str],
                                                                till: Till, tmp_path: Path) -> None:
    repo, url = served
    layout, store, profile = till
    publish(fake_archive(tmp_path, "0.2.0", exit_code=1), keys, repo)
    outcome = apply_update(source(url, keys, layout), layout, store, profile.roster)
    assert outcome.as_dict() == {"applied": None, "rolled_back": "0.2.0", "current": "0.1.0"}
    assert layout.current() == "0.1.0"
    rolled = notes(store, "update_rolled_back")
    assert len(rolled) == 1 and rolled[0]["version"] == "0.2.0" and rolled[0]["back_to"] == "0.1.0"
    assert str(rolled[0]["reason"]).startswith("exit 1")
    # the failed version is not tried again at the next check; a newer one is
    again = apply_update(source(url, keys, layout), layout, store, profile.roster)
    assert again.as_dict() == {"applied": None, "rolled_back": None, "current": "0.1.0"}
    publish(fake_archive(tmp_path / "fixed", "0.2.1"), keys, repo)
    assert apply_update(source(url, keys, layout), layout, store, profile.roster).applied == "0.2.1"


def test_self_check_runs_the_program_with_smoke(tmp_path: Path) -> None:
    program = tmp_path / "cashier"
    program.write_text("#!/bin/sh\n[ \"$1\" = --smoke ] && [ \"$CASHIER_TRAINING\" = true ]\n")
    program.chmod(0o755)
    assert self_check(program) == (True, "ok")
    assert self_check(tmp_path / "missing")[0] is False


def _flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_tampered_archive_is_refused_and_nothing_changes(keys: Path, served: tuple[Path, str],
                                                            till: Till, tmp_path: Path) -> None:
    repo, url = served
    layout, store, profile = till
    publish(fake_archive(tmp_path, "0.2.0"), keys, repo)
    _flip_a_byte(repo / "targets" / NAME / "0.2.0" / f"{NAME}_0.2.0.tar.xz")
    refused = "update 0.2.0 archive refused: LengthOrHashMismatchError"
    with pytest.raises(UpdateRefused, match=re.escape(refused)):
        apply_update(source(url, keys, layout), layout, store, profile.roster)
    assert layout.current() == "0.1.0" and layout.installed() == ["0.1.0"]


def test_tampered_metadata_is_refused(keys: Path, served: tuple[Path, str], till: Till,
                                      tmp_path: Path) -> None:
    repo, url = served
    layout, _store, _profile = till
    publish(fake_archive(tmp_path, "0.2.0"), keys, repo)
    targets = repo / "metadata" / "targets.json"
    signed = json.loads(targets.read_text())
    signed["signed"]["targets"][f"{NAME}/0.2.0/{NAME}_0.2.0.tar.xz"]["length"] += 1
    targets.write_text(json.dumps(signed))
    with pytest.raises(UpdateRefused, match="update metadata refused"):
        check(source(url, keys, layout))
    assert layout.current() == "0.1.0"


def test_an_archive_that_lies_about_its_version_is_refused(keys: Path, served: tuple[Path, str],
                                                            till: Till, tmp_path: Path) -> None:
    repo, url = served
    layout, store, profile = till
    publish(fake_archive(tmp_path, "0.2.0", stamped="0.1.5"), keys, repo)
    with pytest.raises(UpdateRefused, match=re.escape("the archive says it is version 0.1.5")):
        apply_update(source(url, keys, layout), layout, store, profile.roster)
    assert layout.installed() == ["0.1.0"]


def test_the_command_line_publishes_and_refuses_a_bad_name_in_one_line(
        keys: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``cashier update publish`` (the frozen till's commands run in make package-test)."""
    repo = tmp_path / "repo"
    bad = tmp_path / "cashier.tar.xz"
    bad.write_bytes(b"x")
    assert main(["update", "publish", str(bad), "--keys", str(keys), "--repo", str(repo)]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "cashier: ARCHIVE: cashier.tar.xz is not named cashier-<till_id>_<version>.tar.xz "
        "(as `make package` names it)"]
    archive = fake_archive(tmp_path, "0.2.0")
    assert main(["update", "publish", str(archive), "--keys", str(keys), "--repo", str(repo),
                 "--channel", "pilot"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["published"], out["channel"]) == ("0.2.0", "pilot")


async def test_the_store_service_serves_the_repository_at_updates(keys: Path, tmp_path: Path) -> None:
    """``cashier store serve --updates REPO``: the same files under /updates, no token needed."""
    import httpx

    from cashier.store.app import StoreApp
    from cashier.store.database import StoreDatabase

    repo = tmp_path / "repo"
    publish(fake_archive(tmp_path, "0.2.0"), keys, repo)
    app = StoreApp(StoreDatabase("postgresql://nobody@127.0.0.1:1/none"), updates=repo)
    transport = httpx.ASGITransport(app=app.asgi)
    async with httpx.AsyncClient(transport=transport, base_url="http://store") as client:
        timestamp = await client.get("/updates/metadata/timestamp.json")
        archive = await client.get(f"/updates/targets/{NAME}/0.2.0/{NAME}_0.2.0.tar.xz")
        missing = await client.get("/updates/metadata/2.root.json")
    assert timestamp.status_code == 200
    assert timestamp.content == (repo / "metadata" / "timestamp.json").read_bytes()
    assert archive.content == (repo / "targets" / NAME / "0.2.0" / f"{NAME}_0.2.0.tar.xz").read_bytes()
    assert missing.status_code == 404  # TUF asks for the next root; none is the usual answer
