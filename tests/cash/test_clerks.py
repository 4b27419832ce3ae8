"""Clerks in the profile, signing in, the manager rules, and a session surviving a restart."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest

from cashier.cashdesk import CashDesk, open_recorder
from cashier.clerks import Action, ManagerRules, Roster, SignInError
from cashier.config import ProfileError, load_profile
from cashier.drawer import Drawer
from cashier.errors import DrawerRefused
from tests.support.profiles import pin_hash


def test_clerks_beside_a_till_table_and_sign_in(tmp_path: Path) -> None:
    path = tmp_path / "till.toml"
    path.write_text(f'[till]\ntill_id = "t1"\ntraining = true\n\n[[clerks]]\nid = 7\nname = "Ann"\n'
                    f'pin_hash = "{pin_hash("4321")}"\n\n[manager_rules]\npay_ins = true\n')
    profile = load_profile(path)
    roster = profile.roster
    assert roster.enabled and roster.sign_in("4321").name == "Ann"
    assert roster.needs_manager(Action.PAY_IN)
    with pytest.raises(SignInError, match="no clerk"):
        roster.sign_in("4322")
    with pytest.raises(SignInError, match="not a manager"):
        roster.manager(7, "4321")


@pytest.mark.parametrize("clerks,rule", [
    ('[[clerks]]\nid = 1\nname = "A"\npin_hash = "1234"\n', "never a PIN"),
    (f'[[clerks]]\nid = 1\nname = "A"\npin_hash = "{pin_hash("1111")}"\n'
     f'[[clerks]]\nid = 1\nname = "B"\npin_hash = "{pin_hash("1111")}"\n', "unique"),
    (f'[[clerks]]\nid = 1\nname = "A"\npin_hash = "{pin_hash("1111")}"\nrole = "owner"\n', "cashier"),
    ('[manager_rules]\nover_short_tolerance = "-1"\n', "greater than or equal"),
])
def test_bad_clerks_are_refused_with_the_field(tmp_path: Path, clerks: str, rule: str) -> None:
    path = tmp_path / "till.toml"
    path.write_text('training = true\n' + clerks)
    with pytest.raises(ProfileError, match=rule):
        load_profile(path)


def test_safe_defaults_and_a_till_without_clerks() -> None:
    rules = ManagerRules()
    assert rules.needs_manager(Action.PAY_OUT) and rules.needs_manager(Action.VOID)
    assert rules.needs_manager(Action.REFUND, Decimal("0.01")) and not rules.needs_manager(Action.PAY_IN)
    assert rules.needs_manager(Action.CLOSE_DRAWER) and rules.needs_manager(Action.CLOSE_BATCH)
    assert not rules.needs_manager(Action.OVER_SHORT, Decimal("-5.00"))
    assert rules.needs_manager(Action.OVER_SHORT, Decimal("-5.01"))
    bare = Roster([], rules, manager_pin_hash=pin_hash("1234"))
    assert not bare.needs_manager(Action.PAY_OUT)  # today's behaviour without clerks
    assert bare.needs_manager(Action.OVER_SHORT, Decimal("9.00"))  # but missing cash needs a manager
    assert bare.manager(None, "1234").is_manager
    with pytest.raises(SignInError):
        bare.manager(None, "9999")


def test_a_restarted_till_continues_its_session(make_desk: Callable[..., CashDesk], tmp_path: Path) -> None:
    desk = make_desk()
    opened = desk.open(clerk="101", float_amount="75.00")
    desk.pay_in("5.00", "coins", clerk="101")
    desk.recorder.close()
    profile = load_profile(tmp_path / "till.toml")
    again = Drawer(open_recorder(profile), profile.roster)
    session = again.current()
    assert session is not None and session.id == opened.id and session.float == Decimal("75.00")
    assert again.balance(session).expected == Decimal("80.00")
    with pytest.raises(DrawerRefused, match="already open"):
        again.open(clerk="102", float_amount="1.00")
    with pytest.raises(DrawerRefused, match="more than 2 decimals"):
        again.pay_in("1.005", "x", clerk="102")
    with pytest.raises(DrawerRefused, match="more than the drawer"):
        again.pay_out("500.00", "x", clerk="102", manager=profile.roster.get("102"))
    again.recorder.close()
