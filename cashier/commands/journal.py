"""``cashier journal export|unresolved``: the till's journal for support and accounting."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def _recorder(args: argparse.Namespace) -> Any:
    from cashier.config import command_profile
    from cashier.journal.recorder import JournalRecorder

    profile = command_profile(args)
    return JournalRecorder(profile.resolved_journal_path, till_id=profile.till_id,
                        till_number=profile.till_number, currency=profile.currency,
                        training=profile.is_training)


def export_command(args: argparse.Namespace) -> int:
    from cashier.journal.export import export_csv, export_json
    from cashier.output import check_output, write_output

    to_file = args.output not in (None, "-")
    if to_file:  # refused before the journal is read
        check_output(args.output, force=args.force)
    recorder = _recorder(args)
    try:
        text = export_json(recorder) if args.format == "json" else export_csv(recorder)
    finally:
        recorder.close()
    if not to_file:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
        return 0
    target = write_output(args.output, text.encode("utf-8"), force=args.force)
    print(f"wrote {target}", file=sys.stderr)
    return 0


def unresolved_command(args: argparse.Namespace) -> int:
    import json

    recorder = _recorder(args)
    try:
        rows = [e.as_dict() for e in recorder.unresolved()]
    finally:
        recorder.close()
    print(json.dumps({"unresolved": rows}, sort_keys=True))
    return 0 if not rows else 3


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("journal", help="export or inspect the till's journal")
    sub = parser.add_subparsers(dest="journal_command")
    export = sub.add_parser("export", help="entries (and events, in JSON) as JSON or CSV")
    export.add_argument("--format", choices=("json", "csv"), default="json",
                        help="json (default) or csv (opens safely in a spreadsheet)")
    export.add_argument("--output", metavar="FILE", help="write to FILE, a new file (default: stdout)")
    export.add_argument("--force", action="store_true", help="replace FILE when it exists")
    export.set_defaults(handler=export_command)
    unresolved = sub.add_parser("unresolved", help="entries recovery still has to finish")
    unresolved.set_defaults(handler=unresolved_command)

    def usage(args: argparse.Namespace) -> int:
        parser.print_usage(sys.stderr)
        print("cashier journal: error: choose export or unresolved", file=sys.stderr)
        return 2

    parser.set_defaults(handler=usage)
