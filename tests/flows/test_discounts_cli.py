"""``cashier ticket new ... --discount 10%|2.00 [--line N] --reason WORD [--manager ID]`` and
``--price SKU=PRICE`` (issue #38), the real command line on a till with clerks: a cashier's 10 %
goes through, 30 % needs the manager's PIN on stdin, a price override always does; bad input is
one line naming the option, exit 2, nothing journaled; the ticket's JSON carries ``discounts``
and ``rounding``."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.forked_cli import run_cashier
from tests.support.profiles import write_till

Run = Callable[..., subprocess.CompletedProcess[str]]
MILK = '\n[[products]]\nname = "Milk 1l"\nprice = "2.00"\nbarcode = "4006381333931"\n'


@pytest.fixture
def run(tmp_path: Path) -> Run:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["CASHIER_PROFILE"] = str(write_till(tmp_path, extra=MILK))

    def go(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return run_cashier(*args, stdin=stdin, env=env)
    return go


def tickets(run: Run) -> list[object]:
    out = run("ticket", "list")
    return list(json.loads(out.stdout)["tickets"])


def test_a_cashiers_ten_percent_and_a_managers_thirty(run: Run) -> None:
    go = run
    done = go("ticket", "new", "--item", "Tea=10.00", "--item", "Cake=5.00", "--discount", "10%",
              "--line", "1", "--reason", "staff", "--pay", "card")
    assert done.returncode == 0, done.stderr
    t = json.loads(done.stdout)
    assert t["discounts"] == [{"line": 1, "kind": "percent", "value": "10", "amount": "1.00",
                               "reason": "staff", "approved_by": None, "clerk": t["discounts"][0]["clerk"]}]
    assert (t["subtotal"], t["discount_total"], t["total"], t["rounding"]) == (
        "15.00", "1.00", "14.00", "0.00")
    refused = go("ticket", "new", "--item", "Tea=10.00", "--discount", "30%", "--reason", "loyalty",
                 "--pay", "card")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip() == ("cashier: manager: a discount of 30 % needs a manager's "
                                      "approval (a manager's PIN)")
    assert len(tickets(go)) == 1  # nothing journaled
    approved = go("ticket", "new", "--item", "Tea=10.00", "--discount", "30%", "--reason", "loyalty",
                  "--manager", "102", "--pay", "card", stdin="2222\n")
    assert approved.returncode == 0, approved.stderr
    t = json.loads(approved.stdout)
    assert (t["discounts"][0]["amount"], t["discounts"][0]["approved_by"], t["total"]) == (
        "3.00", "102", "7.00")
    shown = json.loads(go("ticket", "show", str(t["ticket"])).stdout)
    assert shown["discounts"] == t["discounts"]


def test_a_price_override_needs_the_managers_pin(run: Run) -> None:
    go = run
    refused = go("ticket", "new", "--sku", "4006381333931", "--price", "4006381333931=1.50",
                 "--reason", "damaged", "--pay", "card")
    assert refused.returncode == 2 and "a price override needs a manager" in refused.stderr
    done = go("ticket", "new", "--sku", "4006381333931", "--price", "4006381333931=1.50",
              "--reason", "damaged", "--manager", "102", "--pay", "card",
              stdin="2222\n")
    assert done.returncode == 0, done.stderr
    (line,) = json.loads(done.stdout)["lines"]
    assert (line["unit_price"], line["price_override"]) == ("1.50", {
        "before": "2.00", "after": "1.50", "reason": "damaged", "approved_by": "102"})


@pytest.mark.parametrize(("args", "said"), [
    (["--discount", "10%"], "--reason: give the reason"),
    (["--discount", "10%", "--reason", "friend"], "--reason: must be one of the store's reasons: "
                                                  "staff, damaged, loyalty"),
    (["--discount", "150%", "--reason", "staff"], "--discount: a percent must be more than 0"),
    (["--discount", "1.234", "--reason", "staff"], "--discount: has more than 2 decimals"),
    (["--discount", "5%", "--line", "3", "--reason", "staff"], "--line: the ticket has no line 3"),
    (["--line", "1"], "--line: goes with a --discount"),
    (["--price", "NOPE=1.00", "--reason", "staff"], "--price: NOPE is not a --sku or --barcode line"),
    (["--price", "x", "--reason", "staff"], "--price: must be SKU=PRICE"),
])
def test_bad_input_is_one_line_and_nothing_is_journaled(run: Run, args: list[str],
                                                       said: str) -> None:
    out = run("ticket", "new", "--item", "Tea=10.00", *args, "--pay", "card")
    assert out.returncode == 2, out.stderr
    assert said in out.stderr and out.stderr.strip().count("\n") == 0
    assert tickets(run) == []


def test_a_comp_on_the_command_line(run: Run) -> None:
    """Issue #38: a ticket discounted to 0.00 is closed as paid by a tender of no amount (no host,
    no drawer: none is open here); cash handed over for it is a slip, refused before anything is
    journaled."""
    go = run
    refused = go("ticket", "new", "--item", "Tea=10.00", "--discount", "100%", "--reason", "staff",
                 "--manager", "102", "--pay", "cash=5.00", stdin="2222\n")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip() == "cashier: cash: nothing remains to pay: give no amount"
    assert tickets(go) == []  # nothing journaled
    done = go("ticket", "new", "--item", "Tea=10.00", "--discount", "100%", "--reason", "staff",
              "--manager", "102", "--pay", "card", stdin="2222\n")
    assert done.returncode == 0, done.stderr
    t = json.loads(done.stdout)
    assert (t["state"], t["total"], t["discount_total"], t["tenders"]) == ("paid", "0.00", "10.00", [])
