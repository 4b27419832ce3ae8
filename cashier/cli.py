"""The ``cashier`` command: the window by default, and headless sub-commands for scripts.

Each group of sub-commands lives in ``cashier.commands.<name>`` and exposes
``register(subparsers)``; a handler returns the process exit code. Bad arguments get one clear
line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from cashier.errors import CashierError

#: Modules under cashier/commands that add sub-commands (each is optional until it lands).
COMMAND_MODULES = ("sandbox", "credentials", "payments", "journal", "chargeapi", "giftcard", "qr",
                   "manager", "ticket")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"cashier: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cashier", description="Cashier: the payment counter.")
    parser.add_argument("--version", action="store_true", help="print version, till and profile hash")
    parser.add_argument("--profile", help="till profile TOML (default: env CASHIER_PROFILE, "
                                          "or training mode when neither is set)")
    parser.add_argument("--smoke", action="store_true",
                        help="open the window offscreen in training mode, run one sale, exit")
    parser.add_argument("--verbose", "-v", action="store_true", help="log more")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"cashier.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cashier.commands.{name}":
                continue
            raise
        module.register(sub)
    return parser


def _log_file(profile_path: str | None) -> Path | None:
    """The profile's log file; None when the profile is unusable (the command says why)."""
    from cashier.config import ProfileError, load_profile

    try:
        return load_profile(profile_path).resolved_log_dir / "cashier.log"
    except ProfileError:
        return None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from cashier.logs import setup_logging

    setup_logging(verbose=args.verbose, log_file=_log_file(args.profile))
    try:
        if args.version:
            from cashier.version import version_line

            print(version_line(args.profile))
            return 0
        handler = getattr(args, "handler", None)
        if handler is not None:
            return int(handler(args))
        from ui.app import run_gui

        return run_gui(profile_path=args.profile, smoke=args.smoke)
    except CashierError as exc:
        print(f"cashier: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # last line of defence: readable, redacted, logged
        from cashier.redact import redact

        logging.getLogger("cashier").exception("unexpected error")
        print(f"cashier: unexpected error: {redact(str(exc))} (details in the log)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
