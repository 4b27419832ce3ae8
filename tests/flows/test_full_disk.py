"""Issue 11 item 3: once a request may have reached the host, a local failure is "unknown"."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess
import sys
import time
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.journal.aio import Journal
from cashier.journal.model import State
from cashier.journal.recorder import JournalRecorder
from tests.support.profiles import write_profile


async def test_a_failure_journaling_the_answer_leaves_the_sale_unknown(
        make_till: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fault injected in the journal's writer after the request left (in-process)."""
    from cashier.flows.payments import sale
    from cashier.flows.recovery import recover

    till = await make_till("LG")
    real = Journal.transition

    async def full_disk(self: Journal, entry_id: int, state: State | str, **kw: Any) -> Any:
        if State(state) is not State.SENT:
            raise OSError(errno.ENOSPC, "No space left on device")
        return await real(self, entry_id, state, **kw)

    monkeypatch.setattr(Journal, "transition", full_disk)
    result = await sale(till.ctx, D("4.00"))
    assert result.outcome == "unknown" and "checking with the host" in result.message
    monkeypatch.setattr(Journal, "transition", real)
    (entry,) = await till.journal.unresolved()
    assert entry.state is State.SENT
    report = await recover(till.ctx)
    assert not report.still_open
    assert (await till.journal.get(entry.id)).state is State.APPROVED  # the host had charged it


def _fill(folder: Path, name: str = "filler") -> Path:
    filler = folder / name
    with contextlib.suppress(OSError), open(filler, "wb") as out:
        while True:
            out.write(b"\0" * 4096)
            out.flush()
            os.fsync(out.fileno())
    return filler


@pytest.mark.socket
def test_full_disk_after_the_request_left(serve_sandbox: Any, tmp_path: Path) -> None:
    """A real, nearly full file system (tmpfs, as root): the sale says unknown, exit 3; recover
    on the still-full disk says so in one line; once space is freed recover settles it."""
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small file system (the in-process test covers it)")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        served = serve_sandbox("LG")
        journal = disk / "journal.sqlite"
        profile = write_profile(tmp_path / "till.toml", host_url=served.api, journal=journal)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
        env["CASHIER_ACCESS_TOKEN"] = "DISK-TOKEN"
        cli = [sys.executable, "-m", "cashier.cli", "--profile", str(profile)]
        assert subprocess.run([*cli, "sale", "--amount", "1.00"], env=env,
                              capture_output=True).returncode == 0
        with served.control() as control:
            control.post("/_sandbox/faults", json={"path": "/api/rest/v1/transactions/sale",
                                                   "action": "delay", "delay_ms": 2500, "count": 1})
        proc = subprocess.Popen([*cli, "sale", "--amount", "9.00"], env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # wait until the sale is journaled SENT
            store = JournalRecorder(journal, reader=True)
            sent = [e for e in store.unresolved() if e.state is State.SENT]
            store.close()
            if sent:
                break
            time.sleep(0.05)
        filler = _fill(disk)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 3, (out, err)
        assert json.loads(out)["outcome"] == "unknown" and "checking with the host" in out
        assert "Traceback" not in err
        more = _fill(disk, "filler-2")  # what the closing journal gave back (its WAL) is taken too
        still = subprocess.run([*cli, "recover"], env=env, capture_output=True, text=True)
        lines = still.stderr.strip().splitlines()
        assert still.returncode in (2, 3) and len(lines) == 1 and "full" in lines[0], still.stderr
        filler.unlink()
        more.unlink()
        done = subprocess.run([*cli, "recover"], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        store = JournalRecorder(journal, reader=True)
        nine = [e for e in store.search() if e.requested == D("9.00")]
        store.close()
        assert [e.state for e in nine] == [State.APPROVED]
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)
