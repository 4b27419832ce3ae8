"""The window takes a signed update by itself: "ready" while the drawer is open, "installed"
after the drawer closes (the core decides; the status bar says so)."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cashier.updates.layout import Layout
from cashier.updates.publish import init_keys, publish
from cashier.updates.till import UpdateSource
from tests.support.ui_harness import UiHarness
from tests.support.updates import Quiet, fake_archive


@pytest.fixture
def repository(tmp_path: Path) -> Iterator[tuple[Path, Path, str]]:
    keys, repo = tmp_path / "keys", tmp_path / "repo"
    init_keys(keys)
    repo.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Quiet, directory=str(repo)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield keys, repo, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_update_waits_for_the_drawer_then_installs(ui: UiHarness, make_gui: Callable[..., Any],
                                                   repository: tuple[Path, Path, str],
                                                   tmp_path: Path) -> None:
    from ui.updates import watch_updates

    keys, repo, url = repository
    layout = Layout(tmp_path / "opt")
    layout.folder("0.1.0").mkdir(parents=True)
    (layout.folder("0.1.0") / "cashier").write_text("#!/bin/sh\nexit 0\n")
    layout.switch("0.1.0")
    archives = tmp_path / "archives"
    archives.mkdir()
    publish(fake_archive(archives, "0.2.0"), keys, repo)
    gui = make_gui(start=False, update_url=url, till_id="till-7", manager_rules={"close_drawer": False})
    source = UpdateSource(url=url, name="cashier-till-7", channel="stable", current="0.1.0",
                          trusted_root=keys / "root.json", state=layout.state)
    watcher = watch_updates(gui, source, layout)
    assert watcher is not None and watcher.running is not None
    ui.run(watcher.running)  # the check at start: the drawer is open, so it only gets ready
    assert watcher.pill.isVisible() and watcher.pill.text() == "update 0.2.0 ready"
    assert layout.current() == "0.1.0"
    desk = gui.cashdesk
    result = desk.close_drawer("100.00", clerk=str(gui.profile.clerk_id))
    assert result.closed
    ui.until(lambda: watcher.pill.text() == "update 0.2.0 installed", what="installed after close")
    assert layout.current() == "0.2.0"
