"""Issue 14: refunds above an amount, voids, cancelling a ticket with approved tenders and the batch
close need a manager on a till with clerks; refused with nothing journaled or sent, and the
approving manager journaled. Against the in-process sandbox."""

from __future__ import annotations

import json
import os
import subprocess
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest

from cashier.clerks import Clerk, ManagerRules, Roster
from cashier.errors import ManagerNeeded
from cashier.flows.batch import close_batch
from cashier.flows.payments import KeyedCard, refund, sale
from cashier.flows.recovery import void
from cashier.flows.ticket import Tender, TicketSession, TicketSettings, refund_ticket
from cashier.journal.model import Kind, State
from tests.support.forked_cli import run_cashier
from tests.support.profiles import pin_hash, write_till

CASHIER, MANAGER = 101, 102


def with_clerks(till: Any, **rules: Any) -> Roster:
    """The till gets Alice (cashier, PIN 1111, signed in) and Bob (manager, PIN 2222)."""
    roster = Roster([Clerk(id=CASHIER, name="Alice", pin_hash=pin_hash("1111")),
                     Clerk(id=MANAGER, name="Bob", pin_hash=pin_hash("2222"), role="manager")],
                    ManagerRules(**rules))
    till.ctx.roster = roster
    till.ctx.clerk_id = CASHIER
    return roster


async def approvals(till: Any) -> list[tuple[str, str, str]]:
    return [(e.actor, e.data["_note"]["action"], e.data["_note"]["amount"])
            for e in await till.journal.events() if e.type == "manager_approved"]


async def test_refund_above_the_amount_needs_a_manager(make_till: Any) -> None:
    till = await make_till("LG")
    roster = with_clerks(till, refund_above=D("10.00"))
    paid = (await sale(till.ctx, D("30.00"))).entry
    with pytest.raises(ManagerNeeded, match=r"a refund of \$12\.00"):
        await refund(till.ctx, D("12.00"), original_invoice=paid.invoice)
    assert await till.journal.search(kinds=["refund"]) == []  # nothing journaled
    assert list(await till.ledger()) == [paid.invoice]  # nothing sent
    small = await refund(till.ctx, D("10.00"), original_invoice=paid.invoice)
    assert small.outcome == "approved" and await approvals(till) == []
    with pytest.raises(ManagerNeeded):  # only a manager approves
        await refund(till.ctx, D("12.00"), manager=roster.get(CASHIER))
    big = await refund(till.ctx, D("12.00"), manager=roster.manager(MANAGER, "2222"))
    assert big.outcome == "approved"
    assert await approvals(till) == [(str(MANAGER), "refund", "12.00")]


async def test_void_needs_a_manager_unless_a_manager_signed_in_with_a_pin(make_till: Any) -> None:
    till = await make_till("LG")
    roster = with_clerks(till)
    paid = (await sale(till.ctx, D("20.00"))).entry
    with pytest.raises(ManagerNeeded, match="void"):
        await void(till.ctx, str(paid.invoice))
    assert (await till.journal.get(paid.id)).state is State.APPROVED
    assert (await till.journal.pending_jobs()) == []
    assert (await till.ledger())[str(paid.invoice)]["state"] == "sale"
    done = await void(till.ctx, str(paid.invoice), manager=roster.manager(None, "2222"))
    assert done.outcome == "voided"
    assert await approvals(till) == [(str(MANAGER), "void", "20.00")]
    other = (await sale(till.ctx, D("5.00"))).entry
    till.ctx.clerk_id = MANAGER  # the manager's number alone approves nothing (issue #26)
    with pytest.raises(ManagerNeeded, match="void"):
        await void(till.ctx, str(other.invoice))
    till.ctx.signed_in = roster.sign_in("2222")  # a manager signed in with their own PIN does
    assert (await void(till.ctx, str(other.invoice))).outcome == "voided"


async def test_cancel_with_approved_tenders_needs_a_manager(make_till: Any) -> None:
    till = await make_till("LG")
    roster = with_clerks(till)
    empty = await TicketSession.start(till.ctx, TicketSettings())
    await empty.add_line("Socks", D("4.00"))
    assert (await empty.cancel()).state == "cancelled"  # nothing taken: no manager asked
    session = await TicketSession.start(till.ctx, TicketSettings())
    await session.add_line("Shoes", D("80.00"))
    await session.pay(Tender("card", amount=D("50.00")))
    with pytest.raises(ManagerNeeded, match=r"cancelling a ticket of \$50\.00"):
        await session.cancel()
    assert (await session.refresh()).state == "open"
    assert [r["state"] for r in (await till.ledger()).values()] == ["sale"]
    ticket = await session.cancel(manager=roster.manager(MANAGER, "2222"))
    assert ticket.state == "cancelled" and [t.outcome for t in ticket.tenders] == ["voided"]
    assert [r["state"] for r in (await till.ledger()).values()] == ["voided"]
    # the cancel's approval covers its void: journaled once, as the cancel
    assert await approvals(till) == [(str(MANAGER), "cancel_ticket", "50.00")]


async def test_ticket_refund_above_the_amount_needs_a_manager(make_till: Any) -> None:
    till = await make_till("LG")
    roster = with_clerks(till, refund_above=D("25.00"))
    session = await TicketSession.start(till.ctx, TicketSettings())
    await session.add_line("Coat", D("40.00"))
    paid = await session.pay(Tender("card"))
    assert paid.state == "paid"
    with pytest.raises(ManagerNeeded, match=r"a refund of \$40\.00"):
        await refund_ticket(till.ctx, paid.id)
    assert [e for e in await till.journal.search(limit=50) if e.kind is Kind.REFUND] == []
    back = await refund_ticket(till.ctx, paid.id, manager=roster.manager(MANAGER, "2222"))
    assert [e.approved for e in back.refunds] == [D("40.00")]
    assert (str(MANAGER), "refund", "40.00") in await approvals(till)


async def test_batch_close_needs_a_manager(make_till: Any) -> None:
    till = await make_till("HD")
    roster = with_clerks(till)
    await sale(till.ctx, D("15.00"), card=KeyedCard("4321000000001119", "1228"))
    with pytest.raises(ManagerNeeded, match="closing the batch"):
        await close_batch(till.ctx)
    batch_no, _rec = await close_batch(till.ctx, manager=roster.manager(MANAGER, "2222"))
    assert batch_no == 1  # the refused close closed nothing
    assert [a[:2] for a in await approvals(till)] == [(str(MANAGER), "close_batch")]


async def test_a_till_without_clerks_asks_no_manager(make_till: Any) -> None:
    till = await make_till("LG")
    assert till.ctx.roster is not None and not till.ctx.roster.enabled
    paid = (await sale(till.ctx, D("30.00"))).entry
    assert (await refund(till.ctx, D("20.00"), original_invoice=paid.invoice)).outcome == "approved"
    other = (await sale(till.ctx, D("30.00"))).entry  # a refunded sale is never voided (#46)
    assert (await void(till.ctx, str(other.invoice))).outcome == "voided"
    assert await approvals(till) == []


def test_cli_void_needs_manager_with_pin_on_stdin(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["CASHIER_PROFILE"] = str(write_till(tmp_path))

    def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return run_cashier(*args, stdin=stdin, env=env)

    sold = run("sale", "--amount", "9.00")
    assert sold.returncode == 0, sold.stderr
    invoice = json.loads(sold.stdout)["invoice"]
    refused = run("void", "--invoice", invoice)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.strip().count("\n") == 0 and "void" in refused.stderr
    assert "manager" in refused.stderr
    wrong = run("void", "--invoice", invoice, "--manager", str(MANAGER), stdin="1111\n")
    assert wrong.returncode == 2 and "wrong manager PIN" in wrong.stderr
    done = run("void", "--invoice", invoice, "--manager", str(MANAGER), stdin="2222\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcome"] == "voided"


async def test_charge_api_refund_above_the_amount_needs_a_manager(make_till: Any) -> None:
    from cashier.flows.card_not_present import refund_charge

    till = await make_till("LG")
    roster = with_clerks(till, refund_above=D("5.00"))
    gw = till.ctx.charge_api
    paid = await gw.charge(D("10.00"), "USD",
                           card=(await gw.client.create_token("4242424242424242", "12", "2040")).id)
    assert paid.result is not None
    before = len(await till.journal.search(limit=50))
    with pytest.raises(ManagerNeeded, match=r"a refund of \$8\.00"):
        await refund_charge(till.ctx, paid.entry, D("8.00"))
    assert len(await till.journal.search(limit=50)) == before  # nothing journaled
    assert (await gw.client.get_charge(paid.result.id))["amountRefunded"] == 0  # nothing sent
    back = await refund_charge(till.ctx, paid.entry, D("8.00"), manager=roster.manager(MANAGER, "2222"))
    assert back.outcome == "approved"
    assert await approvals(till) == [(str(MANAGER), "refund", "8.00")]
