"""Issue #26 at the till, through the command line: only a PIN makes a
manager (``--clerk`` and ``CASHIER_CLERK_ID`` say who works), five wrong PINs lock the clerk
for a growing time and every try is journaled and shown to a manager, and the blind count stays
blind (a pay-out asks for the manager before it looks at the drawer)."""

from __future__ import annotations

import io
import json
import os
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from cashier.approvals import pin_guard
from cashier.clerks import Action
from cashier.cli import main
from cashier.config import load_profile
from cashier.errors import ManagerNeeded
from cashier.journal.pin_guard import lock_seconds
from tests.support.profiles import pin_hash, write_till


class Till:
    """The command line, in this process (``cashier.cli.main``): stdin, env and output as a
    shell gives them. Each call opens and closes the journal like a separate command does."""

    def __init__(self, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                 monkeypatch: pytest.MonkeyPatch) -> None:
        self.capsys, self.monkeypatch = capsys, monkeypatch
        for name in [k for k in os.environ if k.startswith("CASHIER_")]:
            monkeypatch.delenv(name)
        monkeypatch.setenv("CASHIER_PROFILE", str(write_till(tmp_path)))
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    def __call__(self, *args: str, pin: str | None = None,
                 env: dict[str, str] | None = None) -> tuple[int, str, str]:
        with self.monkeypatch.context() as patch:
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            patch.setattr("sys.stdin", io.StringIO("" if pin is None else pin + "\n"))
            self.capsys.readouterr()
            code = main(list(args))
            out = self.capsys.readouterr()
        return code, out.out, out.err


@pytest.fixture
def till(tmp_path: Path, capsys: pytest.CaptureFixture[str],
         monkeypatch: pytest.MonkeyPatch) -> Till:
    return Till(tmp_path, capsys, monkeypatch)


def test_a_clerk_number_never_makes_a_manager_and_the_count_stays_blind(till: Till) -> None:
    assert till("drawer", "open", "--float", "40.00", "--clerk", "101")[0] == 0
    # Bob (102) is a manager, but a number alone approves nothing: the pay-out waits
    code, out, _err = till("drawer", "pay-out", "--amount", "1.00", "--reason", "x", "--clerk", "102")
    assert code == 1 and "needs a manager" in json.loads(out)["waiting"]
    code, out, _err = till("drawer", "pay-out", "--amount", "1.00", "--reason", "x",
                           env={"CASHIER_CLERK_ID": "102"})
    assert code == 1 and "needs a manager" in json.loads(out)["waiting"]
    # the blind count: 40.00 and 40.01 (the drawer holds 40.00) answer the very same
    at_cash = till("drawer", "pay-out", "--amount", "40.00", "--reason", "x", "--clerk", "101")
    above = till("drawer", "pay-out", "--amount", "40.01", "--reason", "x", "--clerk", "101")
    assert at_cash == above and at_cash[0] == 1
    assert "40" not in at_cash[1] + at_cash[2]
    # with the manager's PIN the pay-out is compared with the drawer
    code, out, _err = till("drawer", "pay-out", "--amount", "40.01", "--reason", "x", "--clerk", "101",
                           "--manager", "102", pin="2222")
    assert code == 2 and "more than the drawer should hold" in out
    code, out, _err = till("drawer", "pay-out", "--amount", "1.00", "--reason", "x", "--clerk", "101",
                           "--manager", "102", pin="2222")
    assert code == 0 and json.loads(out)["approved_by"] == "102"
    # 36.00 short, beyond the tolerance: --clerk 102 does not approve it, the session waits
    code, out, _err = till("drawer", "close", "--counted", "3.00", "--reason", "short",
                           "--clerk", "102")
    closing = json.loads(out)
    assert code == 1 and closing["closed"] is False and "needs a manager" in closing["waiting"]


def test_five_wrong_pins_lock_the_clerk_and_every_try_is_shown_to_the_manager(
        till: Till, tmp_path: Path) -> None:
    carol = f'\n[[clerks]]\nid = 103\nname = "Carol"\npin_hash = "{pin_hash("3333")}"\nrole = "manager"\n'
    till.monkeypatch.setenv("CASHIER_PROFILE", str(write_till(tmp_path, extra=carol)))
    assert till("drawer", "open", "--float", "40.00", "--clerk", "101")[0] == 0
    for n in range(5):
        code, _out, err = till("drawer", "pay-in", "--amount", "1.00", "--reason", "x",
                               "--clerk", "101", "--manager", "102", pin=f"900{n}")
        assert code == 2 and "wrong manager PIN" in err and err.count("\n") == 1
    code, _out, err = till("drawer", "pay-in", "--amount", "1.00", "--reason", "x",
                           "--clerk", "101", "--manager", "102", pin="2222")  # right, but locked
    assert code == 2 and "clerk 102 is locked for" in err and "after 5 wrong PINs" in err
    # the locked PIN opens no other prompt either (a guesser locked out of 102 would go on
    # guessing 102's PIN at the any-manager prompt): there it is checked against the managers
    # not locked, and wrong for them
    code, _out, err = till("pin-failures", "--manager", "-", pin="2222")
    assert code == 2 and "no manager of this till has that PIN" in err
    # another manager (Carol) at the any-manager prompt sees every try
    code, out, err = till("pin-failures", "--manager", "-", pin="3333")
    assert code == 0, err
    failures = json.loads(out)["failures"]
    assert [(f["clerk"], f["command"], f["locked"]) for f in failures] == (
        [("any", "pin-failures", False), ("102", "drawer pay-in", True)]
        + [("102", "drawer pay-in", False)] * 5)
    assert all(datetime.fromisoformat(f["at"]) for f in failures)
    assert till("pin-failures", "--manager", "101", pin="1111")[0] == 2  # a cashier sees nothing


def test_the_lock_grows_and_the_right_pin_after_it_starts_afresh(tmp_path: Path) -> None:
    profile = load_profile(write_till(tmp_path))
    from cashier.cashdesk import open_recorder

    open_recorder(profile).close()  # the journal exists
    now = [datetime(2026, 11, 23, 10, 0, tzinfo=UTC)]
    guard = pin_guard(profile.resolved_journal_path, clock=lambda: now[0])
    roster = profile.roster

    def attempt(pin: str) -> str:
        try:
            return str(guard.check(roster, "102", pin, "test").id)
        except Exception as exc:  # the refusal's text is what is checked
            return str(exc)

    assert [attempt("0000") for _ in range(5)] == ["pin: wrong manager PIN"] * 5
    assert attempt("2222") == "pin: clerk 102 is locked for 31 s after 5 wrong PINs"
    now[0] += timedelta(seconds=31)
    assert attempt("0000") == "pin: wrong manager PIN"  # the sixth: locked for twice as long
    assert attempt("2222").startswith(f"pin: clerk 102 is locked for {lock_seconds(6) + 1} s")
    now[0] += timedelta(seconds=lock_seconds(6) + 1)
    assert attempt("2222") == "102"
    assert attempt("0000") == "pin: wrong manager PIN"  # the count started afresh
    assert attempt("2222") == "102"
    assert [lock_seconds(n) for n in (5, 6, 7, 8)] == [30, 60, 120, 240]


def test_a_clerk_signed_in_with_a_pin_approves_and_a_number_alone_never(tmp_path: Path) -> None:
    profile = load_profile(write_till(tmp_path), clerk_id=102)
    roster = profile.roster
    bob = roster.sign_in("2222")
    with pytest.raises(ManagerNeeded):
        roster.approver(Action.REFUND, Decimal("50.00"), None)  # CASHIER_CLERK_ID=102 alone
    assert roster.approver(Action.REFUND, Decimal("50.00"), None, bob) == bob
    alice = roster.sign_in("1111")
    with pytest.raises(ManagerNeeded):
        roster.approver(Action.REFUND, Decimal("50.00"), None, alice)
