"""``make hostile``: bad inputs and faults replayed through the command line and a socket sandbox.

Seeded and bounded (``CASHIER_HOSTILE_INPUTS``, ``CASHIER_HOSTILE_FAULTS``,
``CASHIER_HOSTILE_SEED``); the suite runs a short slice. Every bad input must be refused with
exit 2, one line on stderr, nothing on stdout, nothing sent and nothing journaled. Every fault
round sells on a real-till profile while the sandbox drops, times out or resets, or the journal's
writer fails after the request left; halfway the journal file is replaced by a new one. At the
end the host's ledger and the journals must agree, nobody's charge amended, nothing unresolved.
Printed: inputs tried, faults injected, discrepancies found (goal 0) and card numbers found at
rest (goal 0).
"""

from __future__ import annotations

import errno
import io
import json
import logging
import os
import random
import sqlite3
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from datetime import UTC, datetime
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.cli import main
from cashier.journal.aio import Journal
from cashier.journal.model import State
from cashier.journal.recorder import JournalRecorder
from cashier.redact import luhn_ok
from tests.flows.conftest import write_profile
from tests.pans import card_numbers_at_rest, card_numbers_in

pytestmark = pytest.mark.socket
INPUTS = int(os.environ.get("CASHIER_HOSTILE_INPUTS", "24"))
FAULTS = int(os.environ.get("CASHIER_HOSTILE_FAULTS", "8"))
SEED = int(os.environ.get("CASHIER_HOSTILE_SEED", "20261123"))
SALE_PATH = "/api/rest/v1/transactions/sale"
STATUS_PATH = "/api/rest/v1/transactions/invoice"
SCRIPTS = {"fullwidth": 0xFF10, "arabic": 0x0660, "devanagari": 0x0966, "persian": 0x06F0}
TEST_CARDS = ("4321000000001119", "5432000000003332", "373400000002221", "6011013928534509")


# ---- bad inputs --------------------------------------------------------------------------------
def bad_amount(rng: random.Random) -> str:
    whole, cents = str(rng.randint(1, 99999)), f"{rng.randint(0, 99):02d}"
    kind = rng.choice(("separator", "exponent", "script", "decimals", "huge", "points", "sign",
                       "word", "empty"))
    if kind == "separator":
        at = rng.randint(1, max(1, len(whole) - 1)) if len(whole) > 1 else 1
        return whole[:at] + rng.choice(",_ '") + whole[at:] + "." + cents
    if kind == "exponent":
        return f"{rng.randint(1, 9)}{rng.choice('eE')}{rng.choice(['', '+'])}{rng.randint(1, 4)}"
    if kind == "script":
        zero = SCRIPTS[rng.choice(sorted(SCRIPTS))]
        return "".join(chr(zero + int(c)) if c.isdigit() else c for c in f"{whole}.{cents}")
    if kind == "decimals":
        return f"{whole}.{cents}{rng.randint(1, 9)}"
    if kind == "huge":
        return str(rng.randint(2_000_000_000, 10 ** 12)) + rng.choice(("", ".00", ".99"))
    if kind == "points":
        return f"{whole}.{cents}.{rng.randint(0, 9)}"
    if kind == "sign":
        return rng.choice("-+") + f"{whole}.{cents}"
    if kind == "word":
        return rng.choice(("NaN", "Infinity", "-inf", "0x1F", "1/2", "12$", "$12", "½"))
    return rng.choice(("", " ", "."))


def luhn_number(rng: random.Random) -> str:
    while True:
        digits = str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9))
                                                  for _ in range(rng.randint(12, 18)))
        if luhn_ok(digits):
            return digits


def bad_command(rng: random.Random, folder: Path, good_profile: Path) -> tuple[list[str], str]:
    """One bad command line and what it is (for the report)."""
    past = datetime.now(UTC).replace(day=1)
    month, year = (past.month - 2) % 12 + 1, past.year - (1 if past.month <= 1 else 0)
    profile = ["--profile", str(good_profile)]
    kind = rng.choice(("amount", "amount", "amount", "tip", "expired", "token", "profile",
                       "journal"))
    if kind == "amount":
        command = rng.choice((["sale"], ["auth"], ["refund"], ["qr", "pay"],
                              ["giftcard", "reload", "--card", "2664654648774"]))
        # --amount=VALUE: how a script passes any value, a leading "-" included
        return [*profile, *command, f"--amount={bad_amount(rng)}"], "amount"
    if kind == "tip":
        amount = D(rng.randint(100, 9999)) / 100
        return [*profile, "sale", "--amount", str(amount), "--tip",
                str(amount + D(rng.randint(1, 5000)) / 100)], "tip"
    if kind == "expired":
        return [*profile, "sale", "--amount", "5.00", "--card", rng.choice(TEST_CARDS), "--exp",
                f"{month:02d}{year % 100:02d}"], "expiry"
    if kind == "token":
        return [*profile, "sale", "--amount", "3.00", "--token",
                rng.choice((*TEST_CARDS, luhn_number(rng)))], "token"
    if kind == "profile":
        path = folder / f"bad-{rng.randrange(10 ** 9)}.toml"
        what = rng.choice(("bytes", "secret", "loopback", "unnamed"))
        text = good_profile.read_text()
        if what == "bytes":
            path.write_bytes(bytes(rng.randrange(256) for _ in range(512)))
        elif what == "secret":
            field = rng.choice(("hmac_key_id", "terminal_id", "company_name", "timeouts.note"))
            secret = f'"sk_live_{"x" * rng.randint(8, 30)}"'
            if field == "timeouts.note":  # a field no model knows, in a nested table
                path.write_text(text + f"note = {secret}\n")
            else:
                path.write_text(text.replace('terminal_id = "1742"\n', "").replace(
                    "[till.timeouts]", f"{field} = {secret}\n[till.timeouts]"))
        elif what == "loopback":
            host = rng.choice(("127.attacker.example", "127.0.0.1.evil.example",
                               "localhost.evil.example", "127.0.0.1@evil.example"))
            path.write_text("\n".join(line for line in text.splitlines()
                                      if not line.startswith("host_url"))
                            .replace("[till.timeouts]", f'host_url = "http://{host}/api"\n'
                                                        "[till.timeouts]") + "\n")
        else:
            path.write_text(text.replace('till_id = "chaos"\n', ""))
        return ["--profile", str(path), "sale", "--amount", "5.00"], f"profile:{what}"
    journal = folder / f"broken-{rng.randrange(10 ** 9)}.sqlite"
    what = rng.choice(("bytes", "text", "other", "directory"))
    if what == "bytes":
        journal.write_bytes(bytes(rng.randrange(256) for _ in range(4096)))
    elif what == "text":
        journal.write_text("not a journal\n" * 100)
    elif what == "other":
        conn = sqlite3.connect(journal)
        conn.execute("CREATE TABLE other (x)")
        conn.commit()
        conn.close()
    else:
        journal.mkdir()
    path = write_profile(folder / f"j-{journal.name}.toml", host_url=_host(good_profile),
                         journal=journal)
    return ["--profile", str(path), "sale", "--amount", "5.00"], f"journal:{what}"


def _host(profile: Path) -> str:
    return next(line.split('"')[1] for line in profile.read_text().splitlines()
                if line.startswith("host_url"))


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit_:  # argparse refusing a malformed command line
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()


# ---- the run -------------------------------------------------------------------------------------
def test_hostile(serve_sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(SEED)
    served = serve_sandbox("LG")
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "HOSTILE-TOKEN")
    root = logging.getLogger()
    monkeypatch.setattr(root, "_cashier_configured", True, raising=False)  # no handlers added
    monkeypatch.setattr(root, "handlers", [])  # nor those an earlier in-process run left
    journals = [tmp_path / "journal-1.sqlite", tmp_path / "journal-2.sqlite"]
    profiles = [write_profile(tmp_path / f"till-{i}.toml", host_url=served.api, journal=j,
                              host_s=5.0) for i, j in enumerate(journals, 1)]
    control = served.control()
    outputs: list[str] = []
    discrepancies: list[str] = []

    def ledger() -> dict[str, dict[str, Any]]:
        return {r["invoice"]: r for r in control.get("/_sandbox/ledger").json()["invoices"]}

    def entries(journal: Path) -> int:
        if not journal.exists():
            return 0
        store = JournalRecorder(journal, reader=True)
        try:
            return len(store.all_rows())
        finally:
            store.close()

    # a good sale first, so "nothing journaled" is measured against a journal in use
    code, out, err = run(["--profile", str(profiles[0]), "sale", "--amount", "1.00"])
    assert code == 0, err
    tried = 0
    for _ in range(INPUTS):
        argv, what = bad_command(rng, tmp_path, profiles[0])
        before_host, before_journal = len(ledger()), entries(journals[0])
        code, out, err = run(argv)
        tried += 1
        outputs.append(out + err)
        lines = [line for line in err.splitlines() if line.strip()]
        if code != 2 or len(lines) != 1 or out or "Traceback" in err:
            discrepancies.append(f"{what} {argv[-4:]!r}: exit {code}, {len(lines)} lines: {err[:200]!r}")
        if len(ledger()) != before_host or entries(journals[0]) != before_journal:
            discrepancies.append(f"{what} {argv[-4:]!r}: something was sent or journaled")
    # two of them as real processes too: exit code and stderr of the installed command
    for argv in (["sale", "--amount", "12,50"], ["sale", "--amount", "3.00", "--token", TEST_CARDS[0]]):
        done = subprocess.run([sys.executable, "-m", "cashier.cli", "--profile", str(profiles[0]),
                               *argv], capture_output=True, text=True, env=dict(os.environ))
        tried += 1
        outputs.append(done.stdout + done.stderr)
        if done.returncode != 2 or len(done.stderr.strip().splitlines()) != 1:
            discrepancies.append(f"process {argv!r}: exit {done.returncode} {done.stderr[:200]!r}")

    # ---- faults -------------------------------------------------------------------------------
    injected = 0
    real_transition = Journal.transition
    for i in range(FAULTS):
        profile = profiles[0] if i < FAULTS // 2 else profiles[1]  # journal replaced halfway
        fault = rng.choice(("drop_after_commit", "timeout_504", "timeout_504_nocommit", "reset",
                            "delay", "journal_full", "status_reset"))
        rules: list[dict[str, Any]] = []
        if fault == "timeout_504_nocommit":
            rules.append({"path": SALE_PATH, "action": "timeout_504", "commit": False, "count": 1})
        elif fault == "status_reset":
            rules += [{"path": SALE_PATH, "action": "drop_after_commit", "count": 1},
                      {"path": STATUS_PATH, "action": "reset", "count": 3}]
        elif fault == "delay":
            rules.append({"path": SALE_PATH, "action": "delay", "delay_ms": 20, "count": 1})
        elif fault != "journal_full":
            rules.append({"path": SALE_PATH, "action": fault, "count": 1})
        if rules:
            assert control.post("/_sandbox/faults", json={"rules": rules}).status_code == 200

        def full(self: Journal, entry_id: int, state: State | str, **kw: Any) -> Any:
            if State(state) is not State.SENT:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_transition(self, entry_id, state, **kw)

        if fault == "journal_full":
            monkeypatch.setattr(Journal, "transition", full)
        amount = str(D(rng.randint(100, 50000)) / 100)
        code, out, err = run(["--profile", str(profile), "sale", "--amount", amount])
        monkeypatch.setattr(Journal, "transition", real_transition)
        control.delete("/_sandbox/faults")
        injected += 1
        outputs.append(out + err)
        if "Traceback" in err or not out:
            discrepancies.append(f"fault {fault}: no result ({err[:200]!r})")
            continue
        result = json.loads(out)
        held = ledger().get(result["invoice"] or "")
        if result["outcome"] in ("error", "declined") and held and held["state"] == "sale":
            discrepancies.append(f"fault {fault}: said {result['outcome']} but the host charged "
                                 f"{result['invoice']}")
        if code != {"approved": 0, "declined": 1, "error": 2, "unknown": 3}[result["outcome"]]:
            discrepancies.append(f"fault {fault}: exit {code} for {result['outcome']}")
    for profile in profiles:
        code, out, err = run(["--profile", str(profile), "recover"])
        if code != 0:
            discrepancies.append(f"recover left entries open: {out[:300]} {err[:200]}")

    # ---- the host and the journals agree ---------------------------------------------------------
    held = ledger()
    mine: dict[str, D] = {}
    for journal in journals:
        store = JournalRecorder(journal, reader=True)
        for entry in store.search(limit=100_000):
            if entry.invoice in mine:
                discrepancies.append(f"invoice {entry.invoice} issued by both journals")
            if entry.state is State.APPROVED:
                mine[str(entry.invoice)] = entry.approved
        store.close()
    host = {i: D(r["approvedAmount"]) for i, r in held.items() if r["state"] == "sale"}
    for invoice in sorted(set(host) | set(mine)):
        if host.get(invoice) != mine.get(invoice):
            discrepancies.append(f"invoice {invoice}: host {host.get(invoice)} journal "
                                 f"{mine.get(invoice)}")
    at_rest = card_numbers_at_rest(tmp_path) + [n for o in outputs for n in card_numbers_in(o)]
    control.close()
    print(f"\nhostile: inputs tried {tried}, faults injected {injected}, discrepancies found "
          f"{len(discrepancies)}, card numbers found at rest {len(at_rest)} (seed {SEED})")
    assert not discrepancies, "\n".join(discrepancies[:20])
    assert not at_rest


