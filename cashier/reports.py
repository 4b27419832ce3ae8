"""X and Z reports: the day's figures from the journal, and their CSV, PDF and printed forms.

X is "now" for the open drawer session (or, with none open, since the last close) and changes
nothing; Z is a closed session's, built at the close and kept with it. Both are read with a few
GROUP BY queries over the session's time window, so a day of 20,000 tickets is a few milliseconds
(``make bench``: ``z_report_ms``).

``tickets`` counts each paid ticket once (however many tenders paid it) and each payment
taken outside a ticket (a Charge API charge, a tab captured from the Journal) as one.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from cashier.drawer import Drawer, Session
from cashier.errors import DrawerRefused
from cashier.journal.recorder import JournalRecorder, corrections_figure, iso
from cashier.money import from_minor, round_money, tax_of, to_minor
from cashier.pdf import text_pdf
from cashier.printing.layout import report_lines
from cashier.text import write_csv

#: The tenders of the report; every one is always present (zero when unused).
TENDERS = ("card", "giftcard", "qr", "cash", "charge_api")  # the ticket's words (ticket_model)
_TENDER_OF_KIND = {"sale": "card", "manual_sale": "card", "authorization": "card",
                   "manual_authorization": "card", "giftcard_sale": "giftcard", "qr": "qr",
                   "cash": "cash", "charge": "charge_api"}
_MONEY_STATES = ("approved", "captured")
_UNRESOLVED = ("intent", "sent", "unknown", "voiding")

class _Sum:
    __slots__ = ("count", "minor")

    def __init__(self) -> None:
        self.count = 0
        self.minor = 0

    def add(self, count: int, minor: int) -> None:
        self.count += count
        self.minor += minor

    def out(self, currency: str) -> dict[str, Any]:
        return {"count": self.count, "amount": str(from_minor(self.minor, currency))}


def _classify(kind: str, op: str | None, moved: bool, row: Any) -> tuple[str, str, int] | None:
    """(what, tender, minor units) of a group of money-moving entries; what is sale, refund or
    open (an authorization not yet captured). Mirrors the journal's running totals."""
    if kind == "charge":
        if op == "charge":
            return "sale", "charge_api", int(row["approved"])
        if op == "capture":
            return "sale", "charge_api", int(row["captured"])
        if op == "refund":
            return "refund", "charge_api", int(row["refunded"])
        if op == "authorization" and not moved:
            return "open", "charge_api", int(row["approved"])
        return None
    if kind == "refund":
        return "refund", "card", int(row["approved"])
    if kind == "cash":
        return ("refund" if op == "refund" else "sale"), "cash", int(row["approved"])
    if kind in ("authorization", "manual_authorization"):
        if int(row["captured"]):
            return "sale", "card", int(row["captured"])
        return "open", "card", int(row["approved"])
    tender = _TENDER_OF_KIND.get(kind)
    return None if tender is None else ("sale", tender, int(row["approved"]))


def build_report(recorder: JournalRecorder, drawer: Drawer, *, kind: str, session: Session | None,
                 start: str, end: str) -> dict[str, Any]:
    """The report of this till's entries created in [start, end), with the session's cash."""
    cur = recorder.currency
    by_tender = {t: _Sum() for t in TENDERS}
    refunds, voids, opened, tickets = _Sum(), _Sum(), _Sum(), _Sum()
    refunds_by_tender: dict[str, _Sum] = defaultdict(_Sum)
    by_brand: dict[str, _Sum] = defaultdict(_Sum)
    by_clerk: dict[str, dict[str, _Sum]] = defaultdict(lambda: {"sales": _Sum(), "tips": _Sum()})
    tax = tip = unresolved = 0
    for row in recorder.report_groups(start, end):
        n, state = int(row["n"]), row["state"]
        if state in _UNRESOLVED:
            unresolved += n
            continue
        if state == "voided":
            voids.add(n, int(row["requested"]))
            continue
        if state not in _MONEY_STATES:
            continue
        part = _classify(row["kind"], row["op"], bool(row["moved"]), row)
        if part is None or not part[2]:
            continue
        what, tender, minor = part
        if what == "open":
            opened.add(n, minor)
        elif what == "refund":
            refunds.add(n, minor)
            refunds_by_tender[tender].add(n, minor)
        else:
            tickets.add(n if row["loose"] else 0, minor)  # tenders of a ticket: counted below
            by_tender[tender].add(n, minor)
            tax += int(row["tax"])
            tip += int(row["tip"])
            clerk = row["clerk"] or "(none)"
            by_clerk[clerk]["sales"].add(n, minor)
            by_clerk[clerk]["tips"].add(n if row["tip"] else 0, int(row["tip"]))
            if tender == "card":
                by_brand[row["brand"] or "unknown"].add(n, minor)
    tickets.count += recorder.report_ticket_count(start, end)
    for row in recorder.report_ticket_tax(start, end):
        tax += to_minor(tax_of(from_minor(int(row["subtotal"]), cur), Decimal(row["tax_rate"]),
                               bool(row["tax_included"]), cur), cur)
    tax_refunded = sum(_tax_refunded(row, cur) for row in recorder.report_ticket_refunds(start, end))
    corrected, corrected_amount = corrections_figure(recorder.report_corrections(start, end), cur)
    report: dict[str, Any] = {
        "type": kind, "till": recorder.till_id, "currency": cur, "from": start,
        "training": bool(recorder.training),
        "to": session.closed_at if kind == "z" and session and session.closed_at else end.rstrip("~"),
        "session": session.id if session else None,
        "tickets": tickets.count, "net": str(from_minor(tickets.minor - refunds.minor, cur)),
        "gross": str(from_minor(tickets.minor, cur)),
        # net, as the net sales: the tax the refunds gave back is taken off (and said)
        "tax": str(from_minor(tax - tax_refunded, cur)),
        "tax_refunded": str(from_minor(tax_refunded, cur)), "tips": str(from_minor(tip, cur)),
        "refunds": refunds.out(cur), "voids": voids.out(cur),
        "by_tender": {t: s.out(cur) for t, s in by_tender.items()},
        "refunds_by_tender": {t: s.out(cur) for t, s in sorted(refunds_by_tender.items())},
        "by_card_brand": {b: s.out(cur) for b, s in sorted(by_brand.items())},
        "by_clerk": {c: {"count": v["sales"].count, "amount": str(from_minor(v["sales"].minor, cur)),
                         "tips": str(from_minor(v["tips"].minor, cur)),
                         "name": _clerk_name(drawer, c)}
                     for c, v in sorted(by_clerk.items())},
        "open_authorizations": opened.out(cur),
        "unresolved": unresolved,
        # entries the host held otherwise than the journal had them: how many, and the money the
        # corrections added to the net (signed: a sale voided at the host takes its amount off)
        "corrections": {"count": corrected, "amount": str(corrected_amount)},
        "cash": None,
    }
    if session is not None:
        balance = drawer.balance(session)
        moves = drawer.moves(session)
        report["cash"] = {
            "float": str(balance.float), "cash_sales": str(balance.cash_sales),
            "cash_refunds": str(balance.cash_refunds), "pay_ins": str(balance.pay_ins),
            "pay_outs": str(balance.pay_outs), "expected": str(balance.expected),
            "counted": None if session.counted is None else str(session.counted),
            "over_short": None if session.over_short is None else str(session.over_short),
            "reason": session.reason, "approved_by": session.approved_by,
            "no_sales": balance.no_sales,
            "moves": [m for m in moves if m["type"] in ("pay_in", "pay_out", "no_sale")],
        }
    return report


def _tax_refunded(row: Any, cur: str) -> int:
    """The tax a ticket's refunds gave back (minor units): its tax in the share of what it cost
    before the tip that the refunds returned (a whole refund: all of it; lines: their tax, as
    ``flows.ticket.refund_plan`` priced them; the tip given back carries no tax)."""
    subtotal = from_minor(int(row["subtotal"] or 0), cur)
    ticket_tax = tax_of(subtotal, Decimal(row["tax_rate"]), bool(row["tax_included"]), cur)
    before_tip = to_minor(subtotal if row["tax_included"] else subtotal + ticket_tax, cur)
    if not before_tip or not ticket_tax:
        return 0
    back = min(int(row["refunded"] or 0), before_tip)
    return to_minor(round_money(ticket_tax * back / before_tip, cur), cur)


def _clerk_name(drawer: Drawer, clerk: str) -> str:
    for known in drawer.roster.clerks:
        if str(known.id) == clerk:
            return known.name
    return ""


def x_report(recorder: JournalRecorder, drawer: Drawer) -> dict[str, Any]:
    """Now: the open session, or everything since the last close. Changes nothing."""
    session = drawer.current()
    if session is not None:
        start = session.opened_at
    else:
        last = drawer.last_closed()
        start = last.closed_at or "" if last else ""
    return build_report(recorder, drawer, kind="x", session=session, start=start,
                        end=iso(recorder.clock()) + "~")


def z_report(recorder: JournalRecorder, drawer: Drawer, session: Session | None = None) -> dict[str, Any]:
    """A closed session's report: the one kept at its close, else built again from the journal."""
    session = session or drawer.last_closed()
    if session is None:
        raise DrawerRefused("session: no closed drawer session yet (a Z report comes with the close)")
    if session.state != "closed" or session.closed_at is None:
        raise DrawerRefused(f"session: drawer session {session.id} is not closed (use the X report)")
    return build_report(recorder, drawer, kind="z", session=session, start=session.opened_at,
                        end=session.closed_at)


# ---- forms ------------------------------------------------------------------------------------
#: The reports' words in Spanish (the keys are the English words, as printed): a manager reads
#: the report on screen in the window's language; the command line and the printer keep English.
REPORT_WORDS: dict[str, dict[str, str]] = {
    "es": {
        "X REPORT": "INFORME X", "Z REPORT": "INFORME Z", "session": "sesión", "From": "Desde",
        "To": "Hasta", "*** TRAINING ***": "*** PRÁCTICA ***", "Summary": "Resumen",
        "Tickets": "Tickets", "Net sales": "Ventas netas", "Tax (net of refunds)":
        "Impuesto (neto de devoluciones)", "Tax given back by refunds": "Impuesto devuelto",
        "Tips": "Propinas", "Refunds": "Devoluciones", "Voids": "Anulaciones",
        "Open authorizations": "Autorizaciones abiertas", "Unresolved": "Sin resolver",
        "Corrections": "Correcciones", "By tender": "Por forma de pago", "card": "tarjeta",
        "gift card": "tarjeta de regalo", "qr": "QR", "cash": "efectivo",
        "phone/link": "teléfono/enlace", "By card brand": "Por marca de tarjeta",
        "unknown": "desconocida", "By clerk": "Por cajero", "(none)": "(ninguno)",
        "tips": "propinas", "Cash drawer": "Cajón", "float": "fondo",
        "cash sales": "ventas en efectivo", "cash refunds": "devoluciones en efectivo",
        "pay ins": "entradas", "pay outs": "salidas", "expected": "esperado",
        "counted": "contado", "over short": "sobrante/faltante", "reason": "motivo",
        "pay in": "entrada", "pay out": "salida", "no sale": "sin venta",
    },
}
#: How a tender reads on a printed, PDF or on-screen report (the counter's words for it).
_TENDER_LABELS = {"giftcard": "gift card", "charge_api": "phone/link"}
_CASH_LABELS = {"float": "float", "cash_sales": "cash sales", "cash_refunds": "cash refunds",
                "pay_ins": "pay ins", "pay_outs": "pay outs", "expected": "expected",
                "counted": "counted", "over_short": "over short"}
_MOVE_LABELS = {"pay_in": "pay in", "pay_out": "pay out", "no_sale": "no sale"}


def report_word(text: str, language: str = "en") -> str:
    """``text`` in the report's language (the English word when the table has none)."""
    return REPORT_WORDS.get(language, {}).get(text, text)


def report_time(iso_time: str) -> str:
    """A journal time (ISO 8601, UTC) as the till's clock reads it: ``2026-11-29 14:05``."""
    try:
        moment = datetime.fromisoformat(iso_time)
    except ValueError:
        return iso_time  # "" before the first close: the report starts at the journal's start
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _sections(report: dict[str, Any], language: str = "en") -> list[tuple[str, list[tuple[str, str]]]]:
    def w(text: str) -> str:
        return report_word(text, language)

    def pair(v: dict[str, Any]) -> str:
        return f"{v['count']} / {v['amount']}"

    summary = [(w("Tickets"), str(report["tickets"])), (w("Net sales"), report["net"]),
               (w("Tax (net of refunds)"), report["tax"])]
    if Decimal(report.get("tax_refunded") or 0):
        summary.append((w("Tax given back by refunds"), str(report["tax_refunded"])))
    summary += [(w("Tips"), report["tips"]), (w("Refunds"), pair(report["refunds"])),
                (w("Voids"), pair(report["voids"])),
                (w("Open authorizations"), pair(report["open_authorizations"])),
                (w("Unresolved"), str(report["unresolved"])),
                (w("Corrections"), pair(report["corrections"]))]
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        (w("Summary"), summary),
        (w("By tender"), [(w(_TENDER_LABELS.get(t, t)), pair(v)) for t, v in report["by_tender"].items()]),
        (w("By card brand"), [(w(b), pair(v)) for b, v in report["by_card_brand"].items()]),
        (w("By clerk"), [(f"{w(c)} {v.get('name', '')}".strip(),
                          f"{v['count']} / {v['amount']} {w('tips')} {v['tips']}")
                         for c, v in report["by_clerk"].items()]),
    ]
    cash = report.get("cash")
    if cash:
        rows = [(w(label), str(cash[k])) for k, label in _CASH_LABELS.items() if cash.get(k) is not None]
        if cash.get("reason"):
            rows.append((w("reason"), str(cash["reason"])))
        rows += [(f"{w(_MOVE_LABELS.get(m['type'], m['type']))} {m['reason'] or ''}", m["amount"])
                 for m in cash["moves"]]
        sections.append((w("Cash drawer"), rows))
    return sections


def title_of(report: dict[str, Any], language: str = "en") -> str:
    name = report_word("Z REPORT" if report["type"] == "z" else "X REPORT", language)
    session = f" {report_word('session', language)} {report['session']}" if report.get("session") else ""
    return f"{name} {report['till']}{session}"


def report_text(report: dict[str, Any], width: int, language: str = "en") -> list[str]:
    """The report as it prints and shows, in ``language`` (en or es), its times as the till's
    clock reads them (never an ISO stamp)."""
    lines = report_lines(title_of(report, language), _sections(report, language), width)
    marks = [report_word("*** TRAINING ***", language).center(width)[:width]] \
        if report.get("training") else []
    return [*marks, f"{report_word('From', language)} {report_time(report['from'])}"[:width],
            f"{report_word('To', language)} {report_time(report['to'])}"[:width], *lines]


def report_csv(report: dict[str, Any]) -> str:
    """section,name,count,amount rows a spreadsheet opens safely: text cells that would start a
    formula get a leading ``'`` (``cashier.text.write_csv``); count and amount stay numbers."""
    rows: list[list[Any]] = []
    rows.append(["report", report["type"], "", ""])
    if report.get("training"):
        rows.append(["report", "TRAINING", "", "no real money moved"])
    rows.append(["report", "session", "", report.get("session") or ""])
    rows.append(["report", "from", "", report["from"]])
    rows.append(["report", "to", "", report["to"]])
    for name in ("tickets",):
        rows.append(["summary", name, report[name], ""])
    for name in ("net", "gross", "tax", "tax_refunded", "tips"):
        rows.append(["summary", name, "", report.get(name, "")])  # kept before #39: no tax_refunded
    for name in ("refunds", "voids", "open_authorizations", "corrections"):
        rows.append(["summary", name, report[name]["count"], report[name]["amount"]])
    rows.append(["summary", "unresolved", report["unresolved"], ""])
    for section in ("by_tender", "refunds_by_tender", "by_card_brand"):
        for name, value in report[section].items():
            rows.append([section, name, value["count"], value["amount"]])
    for clerk, value in report["by_clerk"].items():
        named = f"{clerk} {value.get('name', '')}".strip()
        rows.append(["by_clerk", named, value["count"], value["amount"]])
        rows.append(["tips_by_clerk", clerk, "", value["tips"]])
    cash = report.get("cash")
    if cash:
        for name in ("float", "cash_sales", "cash_refunds", "pay_ins", "pay_outs", "expected", "counted",
                     "over_short"):
            rows.append(["cash", name, "", "" if cash[name] is None else cash[name]])
        rows.append(["cash", "reason", "", cash.get("reason") or ""])
        for move in cash["moves"]:
            rows.append([move["type"], move["reason"] or "", 1, move["amount"]])
    return write_csv(["section", "name", "count", "amount"], rows, numeric=("count", "amount"))


def report_pdf(report: dict[str, Any]) -> bytes:
    return text_pdf(report_text(report, 72), title=title_of(report))
