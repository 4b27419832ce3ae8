"""Issue #46 (round 4): a gift card number can be read from standard input (``-``), as a payment
card's is, so it never shows in ``ps``: ``giftcard ... --card -`` and ``ticket new|pay
--gift-card -`` (after a payment card's ``--card -`` when both are read there)."""

from __future__ import annotations

import json

from tests.support.forked_cli import run_cashier
from tests.support.tills import cashier

GIFT = "2664650000001234"
CARD = "4321000000001119"


def test_gift_card_numbers_are_read_from_standard_input(env: dict[str, str]) -> None:
    activated = run_cashier("giftcard", "activate", "--card", "-", "--amount", "30.00", env=env,
                            stdin=GIFT + "\n")
    assert activated.returncode == 0, activated.stderr
    assert json.loads(activated.stdout)["card"] == "266465XXXXXX1234"
    balance = run_cashier("giftcard", "balance", "--card", "-", "--no-history", env=env,
                          stdin=GIFT + "\n")
    assert json.loads(balance.stdout)["balance"] == "30.00", balance.stderr
    paid = run_cashier("ticket", "new", "--amount", "5.00", "--pay", "giftcard", "--gift-card", "-",
                       env=env, stdin=GIFT + "\n")
    assert paid.returncode == 0, paid.stderr
    assert json.loads(paid.stdout)["state"] == "paid"
    # both numbers on standard input: the payment card's line first, then the gift card's
    both = run_cashier("ticket", "new", "--amount", "7.00", "--pay", "card=2.00", "--pay", "giftcard",
                       "--card", "-", "--exp", "1230", "--gift-card", "-", env=env,
                       stdin=f"{CARD}\n{GIFT}\n")
    assert both.returncode == 0, both.stderr
    ticket = json.loads(both.stdout)
    assert ticket["state"] == "paid"
    assert sorted(t["kind"] for t in ticket["tenders"]) == ["card", "giftcard"]
    left = run_cashier("giftcard", "balance", "--card", "-", "--no-history", env=env,
                       stdin=GIFT + "\n")
    assert json.loads(left.stdout)["balance"] == "20.00"
    exported = cashier("journal", "export", "--format", "json", env=env).stdout
    assert GIFT not in exported and CARD not in exported


def test_an_empty_standard_input_is_one_line_naming_the_argument(env: dict[str, str]) -> None:
    for argv, field in ((["giftcard", "reload", "--card", "-", "--amount", "5.00"], "--card"),
                        (["ticket", "new", "--amount", "5.00", "--pay", "giftcard", "--gift-card", "-"],
                         "--gift-card")):
        done = run_cashier(*argv, env=env, stdin="")
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and not done.stdout and len(lines) == 1, done.stderr
        assert lines[0] == f"cashier: {field}: -: standard input gave no card number (one line)"
