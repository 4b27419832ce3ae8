"""``cashier update ...``: signed updates (IT's guide, docs/guides/it.md, "Packaging a till").

- ``keys init DIR``: the signing keys and the trusted root (back office; DIR stays off the tills).
- ``publish ARCHIVE --keys DIR --repo REPO [--channel stable|pilot]``: add a version to REPO.
- ``check``: ``{"current", "available"}`` (available null when there is none for this till).
- ``apply``: download, verify, switch when the till is quiet: ``{"applied", "rolled_back",
  "current"}``.

Exit codes: 0 done; 1 a verified version waits (a payment or ticket open, the drawer open: one
line says which) or a new version failed its self-check and was rolled back; 2 refused
(tampered or expired metadata, a tampered archive, bad arguments: the version stays as it was);
3 the repository could not be reached.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cashier.errors import ValidationError

EXIT_DONE, EXIT_WAITING, EXIT_REFUSED, EXIT_UNREACHABLE = 0, 1, 2, 3


def _print(data: dict[str, Any]) -> None:
    from cashier.commands.payments import print_json

    print_json(data)


def _back_office() -> None:
    """Keys and publishing need ``tufup``'s repository tools, left out of a till's bundle."""
    try:
        import tufup.repo  # noqa: F401
    except ImportError:
        raise ValidationError("update", "keys and publishing run on the back office, from a "
                                        "source install of Cashier (not from a till)") from None


def keys_init_command(args: argparse.Namespace) -> int:
    from cashier.updates.publish import init_keys

    _back_office()
    made = init_keys(Path(args.dir))
    _print({"keys": str(Path(args.dir)), "files": [p.name for p in made]})
    return EXIT_DONE


def publish_command(args: argparse.Namespace) -> int:
    from cashier.updates.publish import publish

    _back_office()
    published = publish(Path(args.archive), Path(args.keys), Path(args.repo), args.channel)
    _print({"published": published.version, "channel": published.channel,
            "target": published.target, "repo": str(Path(args.repo))})
    return EXIT_DONE


def _guarded(action: Any) -> int:
    from cashier.updates.till import UpdateRefused, UpdateUnreachable, UpdateWaiting

    try:
        return int(action())
    except UpdateWaiting as exc:
        print(f"cashier: {exc}", file=sys.stderr)
        return EXIT_WAITING
    except UpdateRefused as exc:
        print(f"cashier: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    except UpdateUnreachable as exc:
        print(f"cashier: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE


def check_command(args: argparse.Namespace) -> int:
    from cashier.config import command_profile
    from cashier.updates.till import check, source_for_profile

    source = source_for_profile(command_profile(args))

    def run() -> int:
        _client, found = check(source)
        _print({"current": source.current, "available": found.version if found else None})
        return EXIT_DONE

    return _guarded(run)


def apply_command(args: argparse.Namespace) -> int:
    from cashier.cashdesk import open_recorder
    from cashier.config import command_profile
    from cashier.updates.layout import Layout
    from cashier.updates.service import apply_update
    from cashier.updates.till import source_for_profile

    profile = command_profile(args)
    source = source_for_profile(profile)
    layout = Layout.of_running_program()
    if layout is None:
        raise ValidationError("update apply", "this program was not installed from its Debian "
                                              "package (no versions folder beside it)")

    def run() -> int:
        recorder = open_recorder(profile)
        try:
            outcome = apply_update(source, layout, recorder, profile.roster)
        finally:
            recorder.close()
        _print(outcome.as_dict())
        return EXIT_WAITING if outcome.rolled_back else EXIT_DONE

    return _guarded(run)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("update", help="signed updates: keys, publish, check, apply")
    sub = parser.add_subparsers(dest="update_command")
    keys = sub.add_parser("keys", help="the signing keys (back office)")
    keys_sub = keys.add_subparsers(dest="keys_command")
    init = keys_sub.add_parser("init", help="make the keys and the trusted root in DIR")
    init.add_argument("dir", metavar="DIR", help="a new folder for the four signing keys, kept off the tills")
    init.set_defaults(handler=keys_init_command)
    keys.set_defaults(handler=lambda _a: _usage("keys init DIR"))
    publish = sub.add_parser("publish", help="add dist/cashier-<till_id>_<version>.tar.xz to REPO")
    publish.add_argument("archive", metavar="ARCHIVE", help="the till's archive from make package (.tar.xz)")
    publish.add_argument("--keys", required=True, metavar="DIR", help="the signing keys' folder")
    publish.add_argument("--repo", required=True, metavar="REPO", help="the update repository's folder")
    publish.add_argument("--channel", choices=("stable", "pilot"), default="stable",
                         help="stable (default: every till) or pilot (tills with update_channel = pilot)")
    publish.set_defaults(handler=publish_command)
    check = sub.add_parser("check", help="print {current, available}")
    check.set_defaults(handler=check_command)
    apply = sub.add_parser("apply", help="download, verify and switch when the till is quiet")
    apply.set_defaults(handler=apply_command)
    parser.set_defaults(handler=lambda _a: _usage("keys init, publish, check, apply"))


def _usage(choices: str) -> int:
    print(f"cashier update: error: choose a command: {choices}", file=sys.stderr)
    return EXIT_REFUSED
