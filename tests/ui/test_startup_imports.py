"""What the window's start-up must not load: segno (~2 MB) comes with the first QR code; the
journal and the flows (``cashier.entry_rules`` brings the journal package, ~54 ms) come with the
runtime after the first paint."""

from __future__ import annotations

import subprocess
import sys


def test_screens_import_without_segno_or_the_runtime() -> None:
    # the flows' typed events (``cashier.flows.events``) are light by design and pages subscribe
    # to them; the flows themselves (host client, httpx) wait for the runtime
    script = ("import sys\nfrom ui.pages import all_pages\nall_pages()\n"
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
                         env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "CASHIER_TILL_ID": "t1"})
    assert out.returncode == 0, out.stderr[-1000:]
    assert out.stdout.split() == ["False"]
