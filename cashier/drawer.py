"""The cash drawer session: float, cash tenders, pay-ins and pay-outs, no sale, the blind close.

Everything is in the journal (tables ``drawer_sessions`` and ``drawer_moves``, plus an event in
the event log for each move), so a till restarted mid-session simply continues the open one.
One open session per till is enforced by the database (a partial unique index).

The cash a session holds comes from the journal's ``cash`` entries of this till created while
the session is open: op ``sale`` (cash taken, ``approved`` = tendered minus change) and op
``refund`` (cash given back). Expected = float + cash sales - cash refunds + pay-ins - pay-outs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from cashier.clerks import Action, Clerk, Roster, manager_needed
from cashier.errors import DrawerRefused, ManagerNeeded, ValidationError
from cashier.journal.recorder import JournalRecorder
from cashier.money import from_minor, parse_amount, to_minor
from cashier.text import free_text

MAX_REASON = 120


@dataclass(frozen=True, slots=True)
class Session:
    id: int
    till_id: str
    currency: str
    state: str  # open | counted (waiting for a manager) | closed
    opened_at: str
    opened_by: str
    float: Decimal
    float_counts: dict[str, int]
    closed_at: str | None
    closed_by: str | None
    counted: Decimal | None
    over_short: Decimal | None
    reason: str | None
    approved_by: str | None


@dataclass(frozen=True, slots=True)
class Balance:
    """What the drawer should hold, from the journal."""

    float: Decimal
    cash_sales: Decimal
    cash_sales_count: int
    cash_refunds: Decimal
    cash_refunds_count: int
    pay_ins: Decimal
    pay_outs: Decimal
    no_sales: int

    @property
    def expected(self) -> Decimal:
        return self.float + self.cash_sales - self.cash_refunds + self.pay_ins - self.pay_outs

    def over_short(self, counted: Decimal) -> Decimal:
        """What a count says against the journal: over (> 0), short (< 0) or balanced (0)."""
        return counted - self.expected

    def verdict(self, counted: Decimal) -> str:
        """A count in one word: over, short or balanced."""
        over_short = self.over_short(counted)
        return "over" if over_short > 0 else "short" if over_short < 0 else "balanced"


@dataclass(frozen=True, slots=True)
class CloseResult:
    session: Session
    balance: Balance
    counted: Decimal
    over_short: Decimal
    closed: bool
    report: dict[str, Any] | None
    #: why the session is not closed yet (a manager is needed), else None
    waiting: str | None = None
    #: the same refusal with its action and amount, for a window to say in its own language
    needed: ManagerNeeded | None = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        b = self.balance
        return {"session": self.session.id, "state": self.session.state, "float": str(b.float),
                "cash_sales": str(b.cash_sales), "cash_refunds": str(b.cash_refunds),
                "pay_ins": str(b.pay_ins), "pay_outs": str(b.pay_outs), "expected": str(b.expected),
                "counted": str(self.counted), "over_short": str(self.over_short),
                "reason": self.session.reason, "approved_by": self.session.approved_by,
                "closed": self.closed, "waiting": self.waiting, "report": self.report}


def _session(row: Any) -> Session:
    cur = row["currency"]

    def opt(column: str) -> Decimal | None:
        return None if row[column] is None else from_minor(int(row[column]), cur)

    return Session(id=int(row["id"]), till_id=row["till_id"], currency=cur, state=row["state"],
                   opened_at=row["opened_at"], opened_by=row["opened_by"],
                   float=from_minor(int(row["float_minor"]), cur),
                   float_counts=json.loads(row["float_counts"] or "{}"), closed_at=row["closed_at"],
                   closed_by=row["closed_by"], counted=opt("counted_minor"),
                   over_short=opt("over_short_minor"), reason=row["reason"],
                   approved_by=row["approved_by"])


#: The most a drawer movement or count may be: a till's drawer, not the host's payment limit.
DRAWER_MAX = Decimal("1000000")


def parse_cash(text: str | Decimal, currency: str, field: str, *, allow_zero: bool = True) -> Decimal:
    """A cash amount by the one amount rule (``cashier.money.parse_amount``), at most
    ``DRAWER_MAX``; refused as the drawer refuses (exit 2 on the command line)."""
    try:
        return parse_amount(text, currency, field, allow_zero=allow_zero, maximum=DRAWER_MAX)
    except ValidationError as exc:
        raise DrawerRefused(str(exc)) from None


def count_denominations(counts: dict[str, int], currency: str) -> Decimal:
    """A float counted by denomination: ``{"20.00": 3, "0.25": 8}`` -> 62.00."""
    total = Decimal(0)
    for denomination, pieces in counts.items():
        value = parse_cash(denomination, currency, "denomination", allow_zero=False)
        if not isinstance(pieces, int) or isinstance(pieces, bool) or not 0 <= pieces <= 100000:
            raise DrawerRefused(f"denomination {denomination}: the count must be 0 to 100000 pieces")
        total += value * pieces
    return total


def _reason(reason: str | None, *, required: bool, field: str = "reason") -> str | None:
    text = (reason or "").strip()
    if not text:
        if required:
            raise DrawerRefused(f"{field}: is required (say what the cash is for)")
        return None
    if len(text) > MAX_REASON:
        raise DrawerRefused(f"{field}: must be at most {MAX_REASON} characters")
    try:
        return free_text(field, text)
    except ValidationError as exc:
        raise DrawerRefused(str(exc)) from None


class Drawer:
    """The cash drawer of one till, on the till's journal (its recorder)."""

    def __init__(self, recorder: JournalRecorder, roster: Roster) -> None:
        self.recorder = recorder
        self.roster = roster
        self.currency = recorder.currency

    # ---- reading ---------------------------------------------------------------------------
    def current(self) -> Session | None:
        """The open (or counted, waiting for a manager) session of this till."""
        row = self.recorder.drawer_current()
        return None if row is None else _session(row)

    def get(self, session_id: int) -> Session:
        row = self.recorder.drawer_session(session_id)
        if row is None:
            raise DrawerRefused(f"session: no drawer session {session_id} at this till")
        return _session(row)

    def last_closed(self) -> Session | None:
        row = self.recorder.drawer_last_closed()
        return None if row is None else _session(row)

    def require_open(self) -> Session:
        session = self.current()
        if session is None:
            raise DrawerRefused("drawer: no open drawer session (open one with a float first)")
        return session

    def balance(self, session: Session) -> Balance:
        cur = session.currency
        until = session.closed_at or "9999"
        cash = self.recorder.drawer_cash(session.till_id, session.opened_at, until)
        moves = self.recorder.drawer_move_sums(session.id)
        return Balance(float=session.float,
                       cash_sales=from_minor(cash.get("sale", (0, 0))[1], cur),
                       cash_sales_count=cash.get("sale", (0, 0))[0],
                       cash_refunds=from_minor(cash.get("refund", (0, 0))[1], cur),
                       cash_refunds_count=cash.get("refund", (0, 0))[0],
                       pay_ins=from_minor(moves.get("pay_in", (0, 0))[1], cur),
                       pay_outs=from_minor(moves.get("pay_out", (0, 0))[1], cur),
                       no_sales=moves.get("no_sale", (0, 0))[0])

    def moves(self, session: Session) -> list[dict[str, Any]]:
        return [{"at": r["at"], "type": r["type"], "amount": str(from_minor(int(r["amount_minor"]),
                                                                            session.currency)),
                 "reason": r["reason"], "clerk": r["clerk"], "approved_by": r["approved_by"]}
                for r in self.recorder.drawer_moves(session.id)]

    # ---- writing ---------------------------------------------------------------------------
    def _approver(self, action: Action, clerk: str, manager: Clerk | None,
                  amount: Decimal = Decimal(0)) -> str | None:
        """Who approved ``action``: None when no approval is needed; raises when one is. Only a
        manager whose PIN was checked approves: the acting ``clerk``'s number never does."""
        if not self.roster.needs_manager(action, amount):
            return None
        if manager is not None and manager.is_manager:
            return str(manager.id)
        raise manager_needed(action, amount, self.currency)

    def open(self, *, clerk: str, float_amount: Decimal | str | None = None,
             counts: dict[str, int] | None = None) -> Session:
        if (float_amount is None) == (counts is None):
            raise DrawerRefused("float: give the float as one amount or counted by denomination")
        value = (count_denominations(counts, self.currency) if counts is not None
                 else parse_cash(float_amount or "", self.currency, "float"))
        now = self.recorder.journal_now()
        with self.recorder.drawer_tx():
            session_id = self.recorder.drawer_open_session(clerk=clerk, float_amount=value,
                                                        counts=counts or {}, at=now)
            self.recorder.drawer_move(session_id, "float", clerk, amount=value, at=now)
        return self.get(session_id)

    def _move(self, type_: str, clerk: str, *, amount: Decimal = Decimal(0), reason: str | None = None,
              approved_by: str | None = None, entry_id: int | None = None) -> Session:
        session = self.require_open()
        if session.state != "open":
            raise DrawerRefused("drawer: the session is counted and waiting for a manager to close it")
        with self.recorder.drawer_tx():
            self.recorder.drawer_move(session.id, type_, clerk, amount=amount, reason=reason,
                                   approved_by=approved_by, entry_id=entry_id)
        return session

    def pay_in(self, amount: Decimal | str, reason: str | None, *, clerk: str,
               manager: Clerk | None = None) -> Session:
        value = parse_cash(amount, self.currency, "amount", allow_zero=False)
        text = _reason(reason, required=True)
        approver = self._approver(Action.PAY_IN, clerk, manager)
        return self._move("pay_in", clerk, amount=value, reason=text, approved_by=approver)

    def pay_out(self, amount: Decimal | str, reason: str | None, *, clerk: str,
                manager: Clerk | None = None) -> Session:
        """The manager is asked before the drawer is looked at: the answer to a clerk never
        depends on the expected cash (the blind count stays blind). Only with a manager's
        approval is the pay-out compared with what the drawer should hold (a till whose rules
        let clerks pay out alone never compares: the close's over/short shows it)."""
        value = parse_cash(amount, self.currency, "amount", allow_zero=False)
        text = _reason(reason, required=True)
        session = self.require_open()
        approver = self._approver(Action.PAY_OUT, clerk, manager)
        if manager is not None and manager.is_manager and value > self.balance(session).expected:
            raise DrawerRefused(f"amount: a pay-out of {value} is more than the drawer should hold")
        return self._move("pay_out", clerk, amount=value, reason=text, approved_by=approver)

    def no_sale(self, reason: str | None, *, clerk: str) -> Session:
        """The drawer opened without a sale: journaled with the clerk (the caller kicks it)."""
        return self._move("no_sale", clerk, reason=_reason(reason, required=True))

    def kicked(self, *, clerk: str, entry_id: int | None) -> Session | None:
        """A cash ticket opened the drawer; None when no session is open (nothing to record in)."""
        session = self.current()
        if session is None or session.state != "open":
            return None
        return self._move("kick", clerk, entry_id=entry_id)

    def count(self, counted: Decimal | str, *, clerk: str,
              manager: Clerk | None = None) -> tuple[Session, Balance, Decimal]:
        """The blind count: recorded before the expected amount is shown to anyone. Once shown, a
        count of another amount is a recount, which only a manager may approve (else the clerk
        could type the expected figure back in)."""
        value = parse_cash(counted, self.currency, "counted")
        session = self.require_open()
        last = self.recorder.drawer_last_move(session.id)
        if last is not None and last == ("count", to_minor(value, self.currency), clerk):
            return session, self.balance(session), value  # the same count again: recorded once
        counts = self.recorder.drawer_counts(session.id)
        approver: str | None = None
        if counts and counts[-1] != to_minor(value, self.currency):
            approver = self._recount_approver(clerk, manager)
        with self.recorder.drawer_tx():
            self.recorder.drawer_move(session.id, "count", clerk, amount=value, approved_by=approver)
        return session, self.balance(session), value

    def _recount_approver(self, clerk: str, manager: Clerk | None) -> str:
        if manager is not None and manager.is_manager:  # a PIN just checked: a clerk number never
            return str(manager.id)
        raise ManagerNeeded("manager: counting again after the expected amount was shown needs "
                            "a manager's PIN")

    def close(self, counted: Decimal | str, *, clerk: str, reason: str | None = None,
              manager: Clerk | None = None, report: Any = None) -> CloseResult:
        """Count, then close: a reason when over or short, a manager beyond the tolerance (and
        for any close when the profile says so). Without the manager the session waits, counted,
        and the result says so (``closed`` False, ``waiting`` why).

        ``report`` builds the Z report for the session (``cashier.reports.z_report``), stored
        with the session so a reprint shows the figures of the close."""
        session, balance, value = self.count(counted, clerk=clerk, manager=manager)
        over_short = balance.over_short(value)
        text = _reason(reason, required=over_short != 0)
        approvers: list[str] = []
        try:
            for action, amount in ((Action.CLOSE_DRAWER, Decimal(0)), (Action.OVER_SHORT, over_short)):
                approver = self._approver(action, clerk, manager, amount)
                if approver is not None and approver not in approvers:
                    approvers.append(approver)
        except ManagerNeeded as waiting:
            self.recorder.drawer_mark_counted(session.id, counted=value, over_short=over_short, reason=text)
            return CloseResult(self.get(session.id), balance, value, over_short, False, None,
                               waiting=str(waiting), needed=waiting)
        now = self.recorder.journal_now()
        with self.recorder.drawer_tx():
            self.recorder.drawer_close_session(session.id, clerk=clerk, at=now, expected=balance.expected,
                                            counted=value, over_short=over_short, reason=text,
                                            approved_by=",".join(approvers) or None)
            self.recorder.drawer_move(session.id, "close", clerk, amount=over_short.copy_abs(), reason=text,
                                   approved_by=",".join(approvers) or None, at=now)
        closed = self.get(session.id)
        built = report(closed) if report is not None else None
        if built is not None:
            self.recorder.drawer_save_report(session.id, built)
        return CloseResult(closed, self.balance(closed), value, over_short, True, built)

    def stored_report(self, session: Session) -> dict[str, Any] | None:
        return self.recorder.drawer_report(session.id)
