"""``cashier charge|link|customer``: one JSON object, exit codes like ``cashier sale``."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from cashier.cli import main
from cashier.sandbox.chargeapi.testcards import TEST_CARDS
from tests.support.charge_api import Served

PAN = "4242424242424242"
DECLINE = next(c.number for c in TEST_CARDS if c.outcome == "insufficient_funds")


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str,
        stdin: str | None = None) -> tuple[int, dict[str, Any]]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) <= 1, out
    return code, json.loads(out[0]) if out else {}


def test_phone_order_refund_and_no_card_number_anywhere(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    code, sale = run(capsys, monkeypatch, "charge", "phone-order", "--amount", "12.34",
                     stdin=f"{PAN}\n12/55\n123\n")
    assert code == 0 and sale["outcome"] == "approved" and sale["card"] == "424242XXXXXX4242"
    assert sale["object"]["amount"] == 1234
    charge_id = sale["object"]["id"]
    code, refund = run(capsys, monkeypatch, "charge", "refund", charge_id, "--amount", "2.34")
    assert code == 0 and refund["object"]["amount"] == 234 and refund["operation"] == "refund"
    code, shown = run(capsys, monkeypatch, "charge", "show", charge_id)
    assert code == 0 and shown["object"]["amountRefunded"] == 234
    written = [p for p in (tmp_path / "xdg-data").rglob("*") if p.is_file()]
    assert written, "the journal and the sandbox state live under the data dir"
    for path in written:
        assert PAN.encode() not in path.read_bytes(), path


def test_decline_is_exit_1_and_bad_input_exit_2(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(capsys, monkeypatch, "charge", "phone-order", "--amount", "5",
                    stdin=f"{DECLINE}\n01/40\n")
    assert code == 1 and out["outcome"] == "declined" and out["error"]["code"] == "insufficient_funds"
    code, out = run(capsys, monkeypatch, "charge", "phone-order", "--amount", "5", stdin=f"{PAN}\n13/40\n")
    assert code == 1 and out["error"]["code"] == "invalid_expiry_month"
    assert main(["charge", "create", "--amount", "1.001", "--card-token", "tok_x"]) == 2
    assert "--amount" in capsys.readouterr().err
    assert main(["charge", "create", "--amount", "1", "--card-token", "tok_x", "--customer", "cust_x"]) == 2
    assert "exactly one" in capsys.readouterr().err
    code, out = run(capsys, monkeypatch, "charge", "create", "--amount", "1", "--card-token", "tok_missing")
    assert code == 2 and out["outcome"] == "error"


def test_customer_saved_card_and_charge(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    code, created = run(capsys, monkeypatch, "customer", "create", "--email", "zoe@example.com")
    customer = created["object"]["id"]
    code, card = run(capsys, monkeypatch, "customer", "add-card", customer, "--stdin", "--default",
                     stdin="5555 5555 5555 4444\n09/2050\n")
    assert code == 0 and card["object"]["last4"] == "4444"
    code, found = run(capsys, monkeypatch, "customer", "find", "--email", "ZOE@example.com")
    assert [c["id"] for c in found["customers"]] == [customer]
    assert found["customers"][0]["defaultCardId"] == card["object"]["id"]
    code, auth = run(capsys, monkeypatch, "charge", "create", "--amount", "30", "--customer", customer,
                     "--authorize")
    assert code == 0 and auth["object"]["captured"] is False and auth["operation"] == "authorization"
    code, cap = run(capsys, monkeypatch, "charge", "capture", auth["object"]["id"])
    assert code == 0 and cap["object"]["captured"] is True


def test_payment_link_commands(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, link = run(capsys, monkeypatch, "link", "create", "--amount", "9.99", "--name", "Cake",
                     "--max-charges", "1")
    assert code == 0 and link["object"]["active"] is True and link["object"]["amount"] == 999
    link_id = link["object"]["id"]
    code, off = run(capsys, monkeypatch, "link", "deactivate", link_id)
    assert code == 0 and off["object"]["active"] is False
    code, on = run(capsys, monkeypatch, "link", "reactivate", link_id)
    assert on["object"]["active"] is True
    code, paid = run(capsys, monkeypatch, "charge", "phone-order", "--amount", "9.99", "--link", link_id,
                     stdin=f"{PAN}\n12/55\n")
    assert code == 0
    code, shown = run(capsys, monkeypatch, "link", "show", link_id)
    assert [c["id"] for c in shown["charges"]] == [paid["object"]["id"]]
    assert shown["object"]["active"] is False and shown["object"]["successfulCharges"] == 1
    code, refused = run(capsys, monkeypatch, "link", "reactivate", link_id)
    assert code == 2 and "cannot be reactivated" in refused["error"]["message"]
    code, missing = run(capsys, monkeypatch, "link", "show", "pl_nope")
    assert code == 2 and missing["error"]["status"] == 404


def test_real_mode_reads_the_key_from_the_environment(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                      served: Served) -> None:
    profile = tmp_path / "till.toml"
    profile.write_text(f'[till]\ntill_id = "t1"\ntraining = true\ncharge_api_url = "{served.url}"\n')
    assert main(["--profile", str(profile), "customer", "find", "--email", "a@example.com"]) == 2
    assert "CASHIER_CHARGE_API_SECRET_KEY" in capsys.readouterr().err
    monkeypatch.setenv("CASHIER_CHARGE_API_SECRET_KEY", "sk_test_realmode")
    code, created = run(capsys, monkeypatch, "--profile", str(profile), "customer", "create",
                        "--email", "a@example.com")
    assert code == 0
    account = served.sim.data["accounts"]["test:realmode"]
    assert created["object"]["id"] in account["objects"]
    monkeypatch.setenv("CASHIER_CHARGE_API_SECRET_KEY", "sk_live_realmode")
    assert main(["--profile", str(profile), "customer", "find", "--email", "a@example.com"]) == 2
    assert "live key is refused in training" in capsys.readouterr().err
