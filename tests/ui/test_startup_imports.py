"""What the window's start-up must not load: segno (~2 MB) comes with the first QR code; the
journal and the flows (``cashier.entry_rules`` brings the journal package, ~54 ms) come with the
runtime after the first paint."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_screens_import_without_segno_or_the_runtime() -> None:
    # the flows' typed events (``cashier.flows.events``) are light by design and pages subscribe
    # to them; the flows themselves (host client, httpx) wait for the runtime
    script = ("import sys\nfrom ui.pages import all_pages\n[entry.load() for entry in all_pages()]\n"
              "print('segno' in sys.modules, 'ui.pages.qr' in sys.modules,\n"
              "      'cashier.journal' in sys.modules, 'cashier.flows.base' in sys.modules,\n"
              "      'httpx' in sys.modules, 'cashier.sandbox' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr[-1000:]
    assert out.stdout.split() == ["False", "True", "False", "False", "False", "False"]


def test_the_program_and_its_profile_load_without_pydantic_settings() -> None:
    """The ``CASHIER_*`` environment is read by ``cashier.config.environment_overrides``:
    pydantic-settings cost the window's start ~55 ms of CPU (decision 017, round 2)."""
    script = ("import sys\nimport ui.launch\nfrom cashier.config import load_profile\nload_profile()\n"
              "print('pydantic_settings' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin",
                              "CASHIER_TILL_ID": "t1"})
    assert out.returncode == 0, out.stderr[-1000:]
    assert out.stdout.split() == ["False"]


#: What the first paint does without (decision 017, "The window's start, round 2"): e-mailed
#: receipts and the update watcher start after it, the profile is read without pydantic-settings,
#: the screens other than Sale have their modules imported when they are built, the reports
#: with the first report.
NOT_BEFORE_THE_FIRST_PAINT = ("pydantic_settings", "cashier.mail.outbox", "smtplib", "ui.updates",
                              "cashier.reports", "cashier.day_report",
                              "cashier.updates.service", *(f"ui.pages.{name}" for name in (
                                  "tabs", "giftcard", "qr", "phone_link", "journal", "manager",
                                  "settings", "drawer", "reports")), "ui.widgets.qrcode")
_AT_FIRST_PAINT = """
import os, sys
import ui.app as app
real = app.build_gui
def build(*args, **kwargs):
    gui = real(*args, **kwargs)
    def painted():
        print(*[name for name in sys.argv[1:] if name in sys.modules], "|", gui.mail is None,
              gui.updates is None, len(gui.window.built_pages()), flush=True)
        os._exit(0)
    gui.window.first_paint.connect(painted)  # before the start-up's own slots
    return gui
app.build_gui = build
from ui.launch import main
main([])
"""


def test_the_first_paint_comes_before_mail_updates_and_the_other_screens_modules(tmp_path: Path) -> None:
    """The real program (``ui.launch``) up to its first paint: the Sale screen is there (the
    control), what the paint does not need is not imported yet, nor started."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path),
               XDG_CACHE_HOME=str(tmp_path), PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    names = ["ui.pages.sale", *NOT_BEFORE_THE_FIRST_PAINT]
    out = subprocess.run([sys.executable, "-c", _AT_FIRST_PAINT, *names], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    loaded, _, started = out.stdout.partition("|")
    assert loaded.split() == ["ui.pages.sale"], f"imported before the first paint: {loaded}"
    assert started.split() == ["True", "True", "1"]  # no mail desk, no update watcher, one screen
