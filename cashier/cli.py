"""The ``cashier`` command's core: the headless sub-commands for scripts, and the window by default.

The window is not imported here (``cashier/`` never imports ``ui/``): the ``cashier`` program is
``ui.launch:main``, which hands ``main`` the function that opens the window. ``python -m
cashier.cli`` runs the sub-commands only. Each group of sub-commands lives in
``cashier.commands.<name>`` and exposes ``register(subparsers)``; a handler returns the exit
code. Bad arguments get one clear line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from cashier.config import ProfileError, command_profile, load_profile
from cashier.errors import CashierError
from cashier.logs import setup_logging
from cashier.redact import redact
from cashier.version import version_line

#: Opens the window: ``open_window(profile_path=..., smoke=...)`` returns the exit code.
WindowOpener = Callable[..., int]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # one line, like every other refusal (`--help` shows the usage)
        print(f"cashier: error: {message} (see `{self.prog} --help`)", file=sys.stderr)
        raise SystemExit(2)


def _options_parser() -> _Parser:
    """The options that come before any sub-command (all the window's start takes)."""
    parser = _Parser(prog="cashier", description="Cashier: the payment counter.")
    parser.add_argument("--version", action="store_true", help="print version, till and profile hash")
    parser.add_argument("--profile", help="till profile TOML (default: env CASHIER_PROFILE, "
                                          "or training mode when neither is set)")
    parser.add_argument("--smoke", action="store_true",
                        help="open the window offscreen in training mode, run one sale, exit")
    parser.add_argument("--verbose", "-v", action="store_true", help="log more")
    return parser


def parse_arguments(raw: Sequence[str]) -> argparse.Namespace:
    """The command line read. With no sub-command named (the window's start) the sub-commands'
    modules are not loaded at all: the first key waits on nothing it does not use."""
    if not {"-h", "--help"} & set(raw):
        args, rest = _options_parser().parse_known_args(raw)
        if not rest:
            return args
    return build_parser().parse_args(raw)


def build_parser() -> argparse.ArgumentParser:
    # the modules under cashier/commands that add sub-commands, in the order --help lists them
    # (here, not at the top: the window's start loads none of them)
    from cashier.commands import (
        catalog,
        chargeapi,
        credentials,
        drawer,
        giftcard,
        journal,
        manager,
        offline,
        payments,
        qr,
        sandbox,
        store,
        ticket,
        update,
    )

    parser = _options_parser()
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for module in (sandbox, credentials, payments, journal, chargeapi, giftcard, qr, manager, store,
                   catalog, drawer, ticket, update, offline):
        module.register(sub)
    return parser


def _log_file(args: argparse.Namespace) -> Path | None:
    """The profile's log file; None when the profile is unusable (the command says why). The
    profile loaded here is the one the command then runs on (``command_profile``)."""
    try:
        return command_profile(args).resolved_log_dir / "cashier.log"
    except ProfileError:
        return None


def disk_full(exc: BaseException, profile_path: str | None = None) -> bool:
    """The disk holding the journal is full (``cashier.journal.recorder.disk_full``, THE rule:
    SQLite's "full", the OS's ENOSPC or EDQUOT, or an I/O error on a disk with almost no room)."""
    from cashier.journal.recorder import disk_full as full

    try:
        journal: Path | None = load_profile(profile_path).resolved_journal_path
    except Exception:  # the last line of defence asks: it must not fail in turn
        journal = None
    return full(exc, journal)


def read_only_journal(exc: BaseException) -> bool:
    """SQLite could open the journal but not write it: the file alone is on a read-only mount
    (its folder is writable, so the open went through)."""
    return isinstance(exc, sqlite3.OperationalError) and "readonly" in str(exc).lower()


def _journal_path(profile_path: str | None) -> str:
    try:
        return str(load_profile(profile_path).resolved_journal_path)
    except ProfileError:
        return "(the profile's journal)"


def undecodable_argument(argv: Sequence[str]) -> str | None:
    """The first argument that was not valid UTF-8, named as the user typed it (its option, or
    its place); None when every one is text. Python keeps such bytes as lone surrogates, which
    would fail later, half-way through a command, with a ticket already open."""
    for i, arg in enumerate(argv):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            if arg.startswith("-") and "=" in arg:
                return arg.split("=", 1)[0].encode("utf-8", "replace").decode()
            if i and argv[i - 1].startswith("-"):
                return argv[i - 1].encode("utf-8", "replace").decode()
            return f"argument {i + 1}"
    return None


def main(argv: Sequence[str] | None = None, *, open_window: WindowOpener | None = None) -> int:
    """Run one sub-command, or open the window through ``open_window`` when none is given."""
    raw = list(sys.argv[1:] if argv is None else argv)
    bad = undecodable_argument(raw)
    if bad is not None:  # before anything is parsed, opened or written
        print(f"cashier: error: {bad}: is not valid UTF-8 text; nothing was done", file=sys.stderr)
        return 2
    args = parse_arguments(raw)
    # a one-shot command's standard error is its own (a refusal is one line); the window's and a
    # server's logs go there as well as to the log file
    handler = getattr(args, "handler", None)
    setup_logging(verbose=args.verbose, log_file=_log_file(args),
                  console=handler is None or bool(getattr(args, "serves", False)))
    try:
        if args.version:
            print(version_line(args.profile))
            return 0
        if handler is not None:
            return int(handler(args))
        if open_window is None:
            print("cashier: the window opens from the cashier program (ui.launch); "
                  "this entry runs sub-commands only", file=sys.stderr)
            return 2
        return open_window(profile_path=args.profile, smoke=args.smoke)
    except CashierError as exc:
        print(f"cashier: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # last line of defence: readable, redacted, logged
        if disk_full(exc, args.profile):  # one line, no traceback: the cashier must not charge again
            print("cashier: the disk holding the journal is full: payments already sent stay "
                  "unknown (checking with the host); free space, then run `cashier recover`",
                  file=sys.stderr)
            return 3
        if read_only_journal(exc):  # one line, no traceback: nothing was sent (intent first)
            print(f"cashier: journal_path {_journal_path(args.profile)}: cannot be written "
                  "(read-only file, folder or mount); give the till write access to the file "
                  "and its folder, or move the journal", file=sys.stderr)
            return 2

        logging.getLogger("cashier").exception("unexpected error")
        print(f"cashier: unexpected error: {redact(str(exc))} (details in the log)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
