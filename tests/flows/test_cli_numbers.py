"""Issue #46 (round 4): every integer and JSON argument of the command line is read by one rule
(``cashier.commands.arguments``): too many digits, past what SQLite holds, other scripts' or
superscript digits, JSON nested thousands deep give one line naming the argument, exit 2, nothing
on stdout, nothing journaled; never a traceback."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cashier.commands import arguments
from cashier.errors import ValidationError
from tests.support.tills import cashier

HUGE = "9223372036854775808"  # 2**63: one past what SQLite holds
DIGITS_5000 = "1" * 5000  # past Python's 4,300-digit limit for int()
DEEP = "[" * 2000 + "]" * 2000
DEEP_OBJECT = '{"a": ' * 2000 + "1" + "}" * 2000

CASES = [
    (["report", "z", "--session", HUGE], "--session"),
    (["report", "z", "--session", "99999999999999999999"], "--session"),
    (["report", "z", "--session", DIGITS_5000], "--session"),
    (["ticket", "refund", "1", "--line", DIGITS_5000], "--line"),
    (["ticket", "refund", "1", "--line", "\u2460"], "--line"),  # circled 1: isdigit(), not int()
    (["ticket", "refund", "1", "--line", "\u00b2"], "--line"),  # superscript 2
    (["ticket", "show", "\u00b2"], "TICKET"),
    (["ticket", "show", DIGITS_5000], "TICKET"),
    (["receipt", "print", "\u2460"], "ticket"),
    (["drawer", "open", "--counts", DEEP], "--counts"),
    (["drawer", "open", "--counts", DEEP_OBJECT], "--counts"),
    (["drawer", "open", "--counts", '{"20.00": ' + DIGITS_5000 + "}"], "--counts"),
    (["drawer", "open", "--counts", '{"20.00": NaN}'], "--counts"),
    (["pin-failures", "--manager", "-", "--limit", HUGE], "--limit"),
    (["sale", "--amount", "1.00", "--invoice", "\u00b9\u00b2"], "--invoice"),
    (["refund", "--amount", "1.00", "--original-invoice", "\u00b2"], "--original-invoice"),
    (["link", "create", "--amount", "1.00", "--max-charges", HUGE], "--max-charges"),
    (["store", "add-till", "T1", "--number", HUGE], "--number"),
    (["sandbox", "serve", "--port", DIGITS_5000], "--port"),
]


def _journal(env: dict[str, str]) -> tuple[int, int, int]:
    """Entries, events and tickets in the journal."""
    done = cashier("journal", "export", "--format", "json", env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    return len(data["entries"]), len(data["events"]), len(data["tickets"])


def test_numbers_and_json_past_any_bound_give_one_line_naming_the_argument(
        env: dict[str, str]) -> None:
    assert cashier("sale", "--amount", "1.00", env=env).returncode == 0  # a journal in use
    before = _journal(env)
    for argv, field in CASES:
        done = cashier(*argv, env=env)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, (argv[:4], done.stderr[-2000:])
        assert field in lines[0] and "Traceback" not in done.stderr and "unexpected" not in lines[0]
        assert len(lines[0]) < 300 and not done.stdout, (argv[:4], lines[0][:300], done.stdout)
    assert _journal(env) == before


def test_the_good_numbers_still_work(env: dict[str, str]) -> None:
    opened = cashier("drawer", "open", "--counts", '{"20.00": 2, "0.25": 4}', env=env)
    assert opened.returncode == 0, opened.stderr
    assert json.loads(opened.stdout)["float"] == "41.00"
    sold = json.loads(cashier("sale", "--amount", "1.00", env=env).stdout)
    shown = cashier("receipt", "print", sold["invoice"], env=env)  # 0100000001: its zero kept
    assert sold["invoice"].startswith("0") and shown.returncode in (0, 3), shown.stderr
    assert json.loads(shown.stdout)["ticket"] == sold["invoice"]


@pytest.mark.parametrize("text", ["", " 7", "+7", "-7", "1_000", "0x10", "7.0", "\u0663", "\uff17",
                                  "\u00b2", "\u2460", HUGE, DIGITS_5000])
def test_the_one_integer_rule_takes_ascii_digits_within_the_bound_only(text: str) -> None:
    with pytest.raises(ValidationError, match="--n: must be a whole number from 1 to 99"):
        arguments.whole_number(text, "--n", low=1, high=99)
    with pytest.raises(argparse.ArgumentTypeError):
        arguments.number(1, 99)(text)


def test_the_json_rule_counts_depth_outside_strings(tmp_path: Path) -> None:
    assert arguments.json_value('{"[[[[": "]]]]"}', "f", example="{}") == {"[[[[": "]]]]"}
    assert arguments.counts('{"20.00": 3}') == {"20.00": 3}
    for bad in ("[]", "3", '"x"', "{", '{"a": Infinity}', '{"a": [[1]]}'):
        with pytest.raises(argparse.ArgumentTypeError, match="must be JSON such as"):
            arguments.counts(bad)


def test_a_gift_card_number_in_another_dress_is_refused_before_it_is_sent(
        env: dict[str, str]) -> None:
    """Superscript or Arabic-Indic digits pass ``str.isdigit``: they were sent to the host as a
    gift card number (refused there, NOT IN CARDRANGE)."""
    before = _journal(env)
    for number in ("\u00b2\u2076\u2076\u2074\u2076\u2075" + "\u2070" * 6 + "\u00b9\u00b2\u00b3\u2074",
                   "".join(chr(0x0660 + int(c)) for c in "2664650000001234")):
        done = cashier("giftcard", "balance", "--card", number, env=env)
        assert done.returncode == 2 and not done.stdout, done.stdout
        assert done.stderr == "cashier: card: a gift card number must be 13 to 19 digits\n"
    assert _journal(env) == before
