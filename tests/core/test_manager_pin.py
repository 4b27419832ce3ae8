"""The manager PIN: only a salted hash is kept; ``cashier manager-pin`` makes the profile line."""

import io
import tomllib
from pathlib import Path

import pytest

from cashier.cli import main
from cashier.manager_pin import TRAINING_PIN_HASH, effective_hash, hash_pin, verify_pin


def test_hash_verifies_and_salts_differ() -> None:
    first, second = hash_pin("4321"), hash_pin("4321")
    assert first != second  # a fresh salt each time
    assert verify_pin("4321", first) and verify_pin("4321", second)
    assert not verify_pin("4322", first)
    assert not verify_pin("4321", "scrypt$broken")


def test_training_till_without_a_hash_uses_1234_and_a_live_one_stays_locked() -> None:
    assert effective_hash(None, training=True) == TRAINING_PIN_HASH
    assert verify_pin("1234", TRAINING_PIN_HASH)
    assert effective_hash(None, training=False) is None


def test_command_prints_a_profile_line_and_never_the_pin(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("987654\n"))
    assert main(["manager-pin", "--stdin"]) == 0
    out = capsys.readouterr().out
    assert "987654" not in out
    stored = tomllib.loads(out)["manager_pin_hash"]
    assert verify_pin("987654", stored)


def test_command_refuses_a_short_pin(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("12\n"))
    assert main(["manager-pin", "--stdin"]) == 2
    assert "4 to 8 digits" in capsys.readouterr().err


def test_command_says_how_a_clerk_uses_the_hash_too(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    """Clerks need ``pin_hash``: the printed clerk line, pasted into a ``[[clerks]]`` table, signs
    that clerk in with the PIN typed."""
    from cashier.config import load_profile

    monkeypatch.setattr("sys.stdin", io.StringIO("24680\n"))
    assert main(["manager-pin", "--stdin"]) == 0
    out = capsys.readouterr().out
    assert "[[clerks]]" in out
    clerk_line = next(line for line in out.splitlines() if line.startswith("pin_hash = "))
    profile = tmp_path / "till.toml"
    profile.write_text(f'training = true\n\n[[clerks]]\nid = 5\nname = "Bo"\n{clerk_line}\n')
    assert load_profile(profile).roster.sign_in("24680").id == 5


def test_the_product_hashes_at_its_own_cost_and_a_cheaper_stored_hash_still_verifies(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The tests' clerks are hashed at a lower scrypt cost (tests/support/profiles.py): the
    product's own hashes, and ``cashier manager-pin``'s line, keep the production cost, and a
    stored hash of any cost is checked at the cost it names."""
    from tests.support.profiles import TEST_PIN_N, pin_hash

    assert hash_pin("4321").split("$")[1:4] == ["16384", "8", "1"]
    monkeypatch.setattr("sys.stdin", io.StringIO("987654\n"))
    assert main(["manager-pin", "--stdin"]) == 0
    stored = tomllib.loads(capsys.readouterr().out)["manager_pin_hash"]
    assert stored.split("$")[1:4] == ["16384", "8", "1"]
    cheap = pin_hash("5678")
    assert cheap.split("$")[1:4] == [str(TEST_PIN_N), "8", "1"] and TEST_PIN_N < 2**14
    assert verify_pin("5678", cheap) and not verify_pin("5679", cheap)
