"""The ``cashier`` program: the core's command line, with the window as its default.

The console script and the packaged till start here, so the core (``cashier/``) never imports the
window: ``cashier.cli`` runs the headless sub-commands and is handed ``run_gui`` to open the window.
"""

from __future__ import annotations

from collections.abc import Sequence

from cashier.cli import main as run_command_line
from ui.app import run_gui


def main(argv: Sequence[str] | None = None) -> int:
    return run_command_line(argv, open_window=run_gui)


if __name__ == "__main__":
    raise SystemExit(main())
