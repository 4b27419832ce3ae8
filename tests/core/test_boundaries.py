"""The core runs without the window; the ``cashier`` program (ui.launch) opens the window."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_command_line_core_loads_no_window_and_no_qt(tmp_path: Path) -> None:
    script = ("import sys\nfrom cashier.cli import main\nrc = main(['--version'])\n"
              "print(rc, sorted({m.split('.')[0] for m in sys.modules} & {'ui', 'PySide6', 'qasync'}))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         cwd=ROOT, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-1000:]
    assert out.stdout.splitlines()[-1] == "0 []"


def test_without_a_window_the_core_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    from cashier.cli import main

    assert main([]) == 2
    assert "ui.launch" in capsys.readouterr().err


def test_the_cashier_program_hands_the_window_to_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.launch

    opened: list[dict[str, Any]] = []

    def run_gui(**kw: Any) -> int:
        opened.append(kw)
        return 0

    monkeypatch.setattr(ui.launch, "run_gui", run_gui)
    assert ui.launch.main(["--smoke"]) == 0
    assert opened == [{"profile_path": None, "smoke": True}]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["cashier"] == "ui.launch:main"
    assert "from ui.launch import main" in (ROOT / "packaging" / "entry.py").read_text()
