"""``cashier giftcard ...`` and ``cashier qr ...`` as a script runs them: separate processes, one
JSON object on stdout, exit codes, clear errors (never a traceback); one QR payment over a socket."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.profiles import write_profile
from tests.support.tills import cashier

NUMBER = "2664650000001234"


def run_json(*args: str, env: dict[str, str], code: int = 0) -> dict[str, Any]:
    done = cashier(*args, env=env)
    assert done.returncode == code, (done.stdout, done.stderr)
    assert done.stdout.count("\n") == 1  # one JSON object
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_training_gift_card_across_processes(env: dict[str, str]) -> None:
    act = run_json("giftcard", "activate", "--card", NUMBER, "--amount", "20.00", env=env)
    assert (act["outcome"], act["balance"], act["card"], act["training"]) == \
        ("approved", "20.00", "266465XXXXXX1234", True)
    rel = run_json("giftcard", "reload", "--token", act["token"], "--amount", "5.00", env=env)
    assert (rel["outcome"], rel["balance"]) == ("approved", "25.00")
    bal = run_json("giftcard", "balance", "--card", NUMBER, env=env)
    assert bal["balance"] == "25.00"
    assert [(h["type"], h["amount"]) for h in bal["history"]] == [("Activate", "20.00"), ("Reload", "5.00")]
    undone = run_json("giftcard", "cancel", "--invoice", rel["invoice"], env=env)
    assert (undone["outcome"], undone["balance"]) == ("voided", "20.00")
    declined = run_json("giftcard", "reload", "--card", "2664650000009999", "--amount", "5.00", env=env,
                        code=1)
    assert declined["outcome"] == "declined"
    cash = run_json("giftcard", "cashback", "--card", NUMBER, env=env)
    assert (cash["outcome"], cash["approved"]) == ("approved", "20.00")
    exported = cashier("journal", "export", "--format", "json", env=env)
    assert exported.returncode == 0 and NUMBER not in exported.stdout
    kinds = [e["kind"] for e in json.loads(exported.stdout)["entries"]]
    assert sorted(kinds) == sorted(["giftcard_activate", "giftcard_reload", "giftcard_reload",
                                    "giftcard_cashback"])
    recovered = run_json("recover", env=env)
    assert recovered == {"resolved": [], "still_open": []}


def test_allocate_prints_the_new_number_only_when_asked(env: dict[str, str]) -> None:
    hidden = run_json("giftcard", "allocate", "--amount", "15.00", env=env)
    assert hidden["outcome"] == "approved" and "new_card_number" not in hidden
    shown = run_json("giftcard", "allocate", "--amount", "15.00", "--show-number", env=env)
    number = shown["new_card_number"]
    assert number.isdigit() and number.endswith(shown["card"][-4:])
    assert number not in cashier("journal", "export", "--format", "json", env=env).stdout
    again = run_json("giftcard", "balance", "--card", number, "--no-history", env=env)
    assert (again["balance"], again["history"]) == ("15.00", None)


@pytest.mark.parametrize("args,text", [
    (["giftcard", "reload", "--card", "12345", "--amount", "5"], "card: a gift card number must be 13 to 19"),
    (["giftcard", "reload", "--card", NUMBER, "--amount", "5.001"], "--amount"),
    (["giftcard", "reload", "--card", NUMBER, "--token", "123", "--amount", "5"], "card: give a gift card"),
    (["giftcard", "reload", "--amount", "5"], "card: Host Direct has no PIN pad"),
    (["giftcard", "deactivate", "--card", NUMBER, "--reason", "x" * 40], "reason: must be 1 to 32"),
    (["giftcard", "cancel", "--invoice", "12ab"], "--invoice: must be 1 to 10 digits"),
    (["giftcard", "cancel", "--invoice", "999"], "invoice: is not in this till's journal"),
    (["giftcard", "reload", "--card", NUMBER], "the following arguments are required: --amount"),
    (["giftcard"], "choose activate"),
    (["qr", "pay", "--amount", "abc"], "--amount: must be a number"),
    (["qr", "pay", "--amount", "5", "--wait", "0"], "--wait: must be more than 0"),
    (["qr", "pay", "--amount", "5", "--tax", "6"], "tax: must not be more than the amount"),
    (["qr", "status", "--invoice", "42"], "invoice: is not in this till's journal"),
    (["qr"], "choose pay, status or cancel"),
])
def test_bad_arguments_get_a_clear_line_and_no_traceback(env: dict[str, str], tmp_path: Path,
                                                         args: list[str], text: str) -> None:
    hd = write_profile(tmp_path / "hd.toml", host_url=None, option="HD", journal=tmp_path / "hd.sqlite")
    done = cashier("--profile", str(hd), *args, env=env)
    assert done.returncode == 2, done.stdout
    assert text in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_training_qr_not_paid_in_time_then_status_and_cancel(env: dict[str, str]) -> None:
    done = cashier("qr", "pay", "--amount", "3.00", "--wait", "0.3", env=env)
    assert done.returncode == 1, done.stderr
    out = json.loads(done.stdout)
    assert (out["outcome"], out["response_code"], out["approved"]) == ("voided", "C", "0.00")
    assert out["qr_code"] in done.stderr  # shown to the person at the till while it waited
    status = run_json("qr", "status", "--invoice", out["invoice"], env=env)
    assert (status["outcome"], status["host_status"]) == ("voided", "cancelled")
    again = run_json("qr", "cancel", "--invoice", out["invoice"], env=env)
    assert again["message"] == "already cancelled"


@pytest.mark.socket
def test_qr_paid_over_a_real_socket_then_reversed(serve_sandbox: Any, env: dict[str, str],
                                                  tmp_path: Path) -> None:
    served = serve_sandbox("HD")
    profile = write_profile(tmp_path / "p.toml", host_url=served.api, option="HD",
                            journal=tmp_path / "s.sqlite")
    env = {**env, "CASHIER_ACCESS_TOKEN": "SOCKET-TOKEN"}
    proc = subprocess.Popen([sys.executable, "-m", "cashier.cli", "--profile", str(profile), "qr", "pay",
                             "--amount", "7.00", "--wait", "30"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert "QR code for 7.00" in line, line
        code = line.strip().rsplit(" ", 1)[-1]
        with served.control() as control:
            paid = control.post("/_sandbox/qrpayments/pay", json={"qrCode": code})
        assert paid.status_code == 200
        stdout, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    out = json.loads(stdout)
    assert (out["outcome"], out["approved"], out["qr_code"]) == ("approved", "7.00", code)
    undone = run_json("--profile", str(profile), "qr", "cancel", "--invoice", out["invoice"], env=env)
    assert (undone["outcome"], undone["response_code"], undone["approved"]) == ("voided", "T", "7.00")
