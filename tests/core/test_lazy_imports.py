"""The lazy loads the core keeps, each measured (docs/architecture.md): what the start-up and a
live till must not load. The window's start registers every sub-command first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("httpx", "keyring", "cashier.sandbox.app", "cashier.flows.base", "cashier.journal.recorder",
         "cashier.host.client", "cashier.chargeapi.client", "rich", "click", "pygments")


def _loaded(script: str, tmp: Path, **env: str) -> list[str]:
    probe = f"{script}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                         cwd=ROOT, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp),
                                        "XDG_DATA_HOME": str(tmp / "data"), **env})
    assert out.returncode == 0, out.stderr[-1500:]
    return out.stdout.split()


def test_registering_the_sub_commands_loads_nothing_heavy(tmp_path: Path) -> None:
    assert _loaded("from cashier.cli import build_parser\nbuild_parser()", tmp_path) == []


def test_a_live_till_with_its_token_in_the_environment_loads_no_sandbox_nor_keyring(
        tmp_path: Path) -> None:
    script = (
        "import asyncio\nfrom cashier.config import load_profile\nfrom cashier.runtime import open_runtime\n"
        "async def main():\n"
        "    p = load_profile(None, training=False, till_id='t1', till_number=1, "
        "host_url='http://127.0.0.1:9/api/rest/v1', "
        f"terminal_id='1', journal_path={str(tmp_path / 'j.sqlite')!r})\n"
        "    rt = await open_runtime(p)\n    await rt.close()\n"
        "asyncio.run(main())")
    loaded = _loaded(script, tmp_path, CASHIER_ACCESS_TOKEN="t")
    assert "cashier.host.client" in loaded and "httpx" in loaded  # the probe really ran the till
    assert "cashier.sandbox.app" not in loaded and "keyring" not in loaded
    # httpx's own command line (installed here with the test tools) is never loaded by the till
    assert not {"rich", "click", "pygments"} & set(loaded), loaded


def test_a_till_runs_without_the_stores_database_driver() -> None:
    """The frozen till leaves psycopg out (the store's side only): a till's runtime, its catalog
    copy and pull, and its commands import without it (the package tests caught a till that
    could not start once the catalog's store module imported psycopg at the top)."""
    code = ("import sys\n"
            "sys.modules['psycopg'] = None\n"
            "sys.modules['psycopg_pool'] = None\n"
            "import cashier.cli, cashier.runtime\n"
            "from cashier.store.catalog_pull import till_source\n"
            "import cashier.commands.payments, cashier.commands.ticket, cashier.commands.catalog\n"
            "import cashier.commands.drawer, cashier.commands.offline\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]


def test_reading_the_profile_looks_for_no_pydantic_plugins(tmp_path: Path) -> None:
    """pydantic's plugin search reads every installed distribution's entry points (~12 ms of
    CPU a start): the till has none to load (``cashier/__init__.py``)."""
    script = ("from cashier.config import load_profile\nload_profile()\n"
              "import pydantic.plugin._loader as loader\nprint(loader._plugins is None)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         cwd=ROOT, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
                                        "XDG_DATA_HOME": str(tmp_path / "data")})
    assert out.returncode == 0, out.stderr[-1500:]
    assert out.stdout.split() == ["True"]  # never searched
