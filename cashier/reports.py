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
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from cashier.drawer import Drawer, Session
from cashier.errors import DrawerRefused
from cashier.journal.recorder import JournalRecorder, corrections_figure, iso
from cashier.journal.tickets import DiscountFigures, TicketRecord, discounts_data, priced
from cashier.money import from_minor, percent_text, tax_by_class, to_minor
from cashier.pdf import PdfChart, text_pdf
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


#: The report's tax "class" of a sale outside a ticket (``cashier sale --tax``): keyed, no rate.
KEYED_TAX = "keyed"
TaxKey = tuple[str, Decimal | None]


def _class_order(item: tuple[TaxKey, int]) -> tuple[str, Decimal]:
    (name, rate), _minor = item
    return name, Decimal(-1) if rate is None else rate


def ticket_tax_by_class(rows: Iterable[Any], currency: str) -> dict[TaxKey, int]:
    """The tax the tickets charged, by (class, rate), in minor units: each ticket's classes taxed by
    the one rule (``money.tax_by_class``, as the ticket itself was), then added up across tickets,
    so the report's tax is exactly the sum of what the tickets charged. Tickets alike (the same
    classes, rates, subtotals and tax rule) are taxed alike, so each kind is worked out once and
    counted as many times as there are such tickets (``report_ticket_tax``'s ``tickets``)."""
    per_ticket: dict[Any, list[tuple[str, str, int]]] = defaultdict(list)
    kinds: list[tuple[bool, tuple[tuple[str, str, int], ...], int]] = []
    included: dict[Any, bool] = {}
    for row in rows:
        part = (str(row["tax_class"]), str(row["tax_rate"]), int(row["subtotal"]))
        if row["ticket"] is None:  # tickets of this one class alike: as many as ``tickets``
            kinds.append((bool(row["tax_included"]), (part,), int(row["tickets"])))
        else:
            per_ticket[row["ticket"]].append(part)
            included[row["ticket"]] = bool(row["tax_included"])
    alike: dict[tuple[bool, tuple[tuple[str, str, int], ...]], int] = defaultdict(int)
    for tax_included, parts, tickets in kinds:
        alike[(tax_included, parts)] += tickets
    for ticket, classes in per_ticket.items():
        alike[(included[ticket], tuple(sorted(classes)))] += 1
    out: dict[TaxKey, int] = {}
    for (tax_included, parts), tickets in alike.items():
        for t in tax_by_class(((name, Decimal(rate), from_minor(minor, currency))
                               for name, rate, minor in parts), tax_included, currency):
            key = (t.tax_class, t.rate)
            out[key] = out.get(key, 0) + to_minor(t.tax, currency) * tickets
    return out


def discount_figures(records: Iterable[TicketRecord], currency: str) -> tuple[dict[str, Any],
                                                                           dict[TaxKey, int]]:
    """The paid tickets ``records`` a discount touched: their ``DiscountFigures`` and their tax by
    (class, rate) in minor units, each ticket priced by the one rule (``journal.tickets.priced``)."""
    figures = DiscountFigures()
    taxes: dict[TaxKey, int] = {}
    for record in records:
        figures.add(discounts_data(record), currency)
        for t in priced(record).taxes:
            key = (t.tax_class, t.rate)
            taxes[key] = taxes.get(key, 0) + to_minor(t.tax, currency)
    return figures.out(currency), taxes


def money_parts(rows: Iterable[Any]) -> Iterator[tuple[str, str, int, int, Any]]:
    """(what, tender, count, minor units, row) of each group of the report's rows: what is
    ``sale``, ``refund``, ``open`` (an authorization not yet captured), ``void`` or ``unresolved``;
    groups that moved no money are left out. THE rule every report figure is summed by (the X and
    Z reports here, the day's charts in ``cashier.day_report``)."""
    for row in rows:
        n, state = int(row["n"]), row["state"]
        if state in _UNRESOLVED:
            yield "unresolved", "", n, 0, row
            continue
        if state == "voided":
            yield "void", "", n, int(row["requested"]), row
            continue
        if state == "declined_on_forward":  # stored, then declined by the host: owed, not taken
            yield "declined_on_forward", "", n, int(row["requested"]), row
            continue
        if state not in _MONEY_STATES:
            continue
        part = _classify(row["kind"], row["op"], bool(row["moved"]), row)
        if part is None or not part[2]:
            continue
        what, tender, minor = part
        yield what, tender, n, minor, row


def build_report(recorder: JournalRecorder, drawer: Drawer, *, kind: str, session: Session | None,
                 start: str, end: str, groups: Sequence[Any] | None = None) -> dict[str, Any]:
    """The report of this till's entries created in [start, end), with the session's cash;
    ``groups``: the window's rows already read (the day report reads them by hour)."""
    cur = recorder.currency
    by_tender = {t: _Sum() for t in TENDERS}
    refunds, voids, opened, tickets = _Sum(), _Sum(), _Sum(), _Sum()
    declined_on_forward = _Sum()
    refunds_by_tender: dict[str, _Sum] = defaultdict(_Sum)
    by_brand: dict[str, _Sum] = defaultdict(_Sum)
    by_clerk: dict[str, dict[str, _Sum]] = defaultdict(lambda: {"sales": _Sum(), "tips": _Sum()})
    loose_tax = tip = unresolved = tax_refunded = 0
    for what, tender, n, minor, row in money_parts(
            recorder.report_groups(start, end) if groups is None else groups):
        if what == "unresolved":
            unresolved += n
        elif what == "void":
            voids.add(n, minor)
        elif what == "declined_on_forward":
            declined_on_forward.add(n, minor)
        elif what == "open":
            opened.add(n, minor)
        elif what == "refund":
            refunds.add(n, minor)
            refunds_by_tender[tender].add(n, minor)
            if not row["loose"]:  # a ticket's refund carries the tax it gave back (refund_tax)
                tax_refunded += int(row["tax"])
        else:
            tickets.add(n if row["loose"] else 0, minor)  # tenders of a ticket: counted below
            by_tender[tender].add(n, minor)
            if row["loose"]:  # a ticket's tenders carry its tax as sent: counted by ticket below
                loose_tax += int(row["tax"])
            tip += int(row["tip"])
            clerk = row["clerk"] or "(none)"
            by_clerk[clerk]["sales"].add(n, minor)
            by_clerk[clerk]["tips"].add(n if row["tip"] else 0, int(row["tip"]))
            if tender == "card":
                by_brand[row["brand"] or "unknown"].add(n, minor)
    tickets.count += recorder.report_ticket_count(start, end)
    taxed = recorder.report_ticket_tax(start, end)
    by_class = ticket_tax_by_class(taxed.rows, cur)
    discounts, priced_tax = discount_figures((recorder.ticket(i) for i in taxed.priced), cur)
    for key, minor in priced_tax.items():  # the tickets a discount touched: taxed after it
        by_class[key] = by_class.get(key, 0) + minor
    if loose_tax:  # a sale outside a ticket: the tax keyed with it, of no class
        by_class[(KEYED_TAX, None)] = by_class.get((KEYED_TAX, None), 0) + loose_tax
    tax = sum(by_class.values())
    corrected, corrected_amount = corrections_figure(recorder.report_corrections(start, end), cur)
    report: dict[str, Any] = {
        "type": kind, "till": recorder.till_id, "currency": cur, "from": start,
        "training": bool(recorder.training),
        "to": session.closed_at if kind == "z" and session and session.closed_at else end.rstrip("~"),
        "session": session.id if session else None,
        "tickets": tickets.count, "net": str(from_minor(tickets.minor - refunds.minor, cur)),
        "gross": str(from_minor(tickets.minor, cur)),
        # net, as the net sales: the tax the refunds gave back is taken off (and said); the
        # classes below are what the tickets charged
        "tax": str(from_minor(tax - tax_refunded, cur)),
        "tax_refunded": str(from_minor(tax_refunded, cur)), "tips": str(from_minor(tip, cur)),
        "tax_by_class": [{"tax_class": name, "rate": None if rate is None else percent_text(rate),
                          "tax": str(from_minor(minor, cur))}
                         for (name, rate), minor in sorted(by_class.items(), key=_class_order)],
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
        # issue #38: what discounts took off, by reason and clerk; promotions by name; price
        # overrides by the approving manager (what they took off the catalog's price); rounding
        "discounts": discounts,
        # card payments stored while the host was away and declined when forwarded: in no sale,
        # counted apart (the customer owes them; issue 40)
        "declined_on_forward": declined_on_forward.out(cur),
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
            "approved_by_name": ", ".join(_clerk_name(drawer, c) or c
                                          for c in (session.approved_by or "").split(",") if c),
            "no_sales": balance.no_sales,
            "moves": [m for m in moves if m["type"] in ("pay_in", "pay_out", "no_sale")],
        }
    return report


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
        "X REPORT": "INFORME X", "Z REPORT": "INFORME Z", "DAY REPORT": "INFORME DEL DÍA",
        "session": "sesión", "From": "Desde",
        "To": "Hasta", "*** TRAINING ***": "*** PRÁCTICA ***", "Summary": "Resumen",
        "Tickets": "Tickets", "Net sales": "Ventas netas", "Tax (net of refunds)":
        "Impuesto (neto de devoluciones)", "Tax given back by refunds": "Impuesto devuelto",
        "Tips": "Propinas", "Refunds": "Devoluciones", "Voids": "Anulaciones",
        "Open authorizations": "Autorizaciones abiertas", "Unresolved": "Sin resolver",
        "Corrections": "Correcciones", "Declined on forward": "Rechazados al reenviar",
        "By tender": "Por forma de pago", "card": "tarjeta",
        "gift card": "tarjeta de regalo", "qr": "QR", "cash": "efectivo",
        "phone/link": "teléfono/enlace", "By card brand": "Por marca de tarjeta",
        "unknown": "desconocida", "By clerk": "Por cajero", "(none)": "(ninguno)",
        "tips": "propinas", "Cash drawer": "Cajón", "float": "fondo",
        "cash sales": "ventas en efectivo", "cash refunds": "devoluciones en efectivo",
        "pay ins": "entradas", "pay outs": "salidas", "expected": "esperado",
        "counted": "contado", "over short": "sobrante/faltante", "reason": "motivo",
        "pay in": "entrada", "pay out": "salida", "no sale": "sin venta",
        "Discounts": "Descuentos", "Total": "Total", "Cash rounding": "Redondeo del efectivo",
        "clerk": "cajero", "promotion": "promoción",
        "override approved by": "precio cambiado, aprobado por",
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
    summary += [*_tax_rows(report), (w("Tips"), report["tips"]), (w("Refunds"), pair(report["refunds"])),
                (w("Voids"), pair(report["voids"])),
                (w("Open authorizations"), pair(report["open_authorizations"])),
                (w("Unresolved"), str(report["unresolved"])),
                (w("Corrections"), pair(report["corrections"]))]
    if "declined_on_forward" in report:  # kept before issue 40: none
        summary.append((w("Declined on forward"), pair(report["declined_on_forward"])))
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        (w("Summary"), summary),
        (w("By tender"), [(w(_TENDER_LABELS.get(t, t)), pair(v)) for t, v in report["by_tender"].items()]),
        (w("By card brand"), [(w(b), pair(v)) for b, v in report["by_card_brand"].items()]),
        (w("By clerk"), [(f"{w(c)} {v.get('name', '')}".strip(),
                          f"{v['count']} / {v['amount']} {w('tips')} {v['tips']}")
                         for c, v in report["by_clerk"].items()]),
    ]
    if report.get("discounts"):
        sections.append((w("Discounts"), _discount_rows(report["discounts"], language)))
    cash = report.get("cash")
    if cash:
        rows = [(w(label), str(cash[k])) for k, label in _CASH_LABELS.items() if cash.get(k) is not None]
        if cash.get("reason"):
            rows.append((w("reason"), str(cash["reason"])))
        if cash.get("approved_by"):  # who approved the close (its over/short): number and name
            rows.append((w("approved by"),
                         f"{cash['approved_by']} {cash.get('approved_by_name', '')}".strip()))
        rows += [(f"{w(_MOVE_LABELS.get(m['type'], m['type']))} {m['reason'] or ''}", m["amount"])
                 for m in cash["moves"]]
        sections.append((w("Cash drawer"), rows))
    return sections


#: The discounts' parts as the report's text and CSV name them (issue #38).
DISCOUNT_PARTS = (("by_reason", "reason"), ("by_clerk", "clerk"), ("promotions", "promotion"),
                  ("overrides_by_manager", "override approved by"))


def _discount_rows(d: dict[str, Any], language: str = "en") -> list[tuple[str, str]]:
    rows = [(report_word("Total", language), d["total"])]
    for part, label in DISCOUNT_PARTS:
        rows += [(f"{report_word(label, language)} {name}", f"{v['count']} / {v['amount']}")
                 for name, v in d[part].items()]
    rows.append((report_word("Cash rounding", language),
                 f"{d['cash_rounding']['count']} / {d['cash_rounding']['amount']}"))
    return rows


def _tax_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The tax by class under the total (issue #37): ``  standard 8.25%``; an older report kept
    at a close before classes has none."""
    return [(f"  {c['tax_class']}" + (f" {c['rate']}%" if c["rate"] is not None else ""), c["tax"])
            for c in report.get("tax_by_class", [])]


def title_of(report: dict[str, Any], language: str = "en") -> str:
    name = report_word({"z": "Z REPORT", "day": "DAY REPORT"}.get(report["type"], "X REPORT"), language)
    session = f" {report_word('session', language)} {report['session']}" if report.get("session") else ""
    return f"{name} {report['till']}{session}"


def report_text(report: dict[str, Any], width: int, language: str = "en", *, store: str = "",
                clerk: str = "") -> list[str]:
    """The report as it prints and shows, in ``language`` (en or es), its times as the till's
    clock reads them (never an ISO stamp); ``store`` and ``clerk`` (who printed or exported it)
    head it when given, under the till's name (issue #39: a PDF says whose it is)."""
    lines = report_lines(title_of(report, language), _sections(report, language), width)
    marks = [report_word("*** TRAINING ***", language).center(width)[:width]] \
        if report.get("training") else []
    heading = [f"{report_word(name, language):<6}{value}"[:width] for name, value in
               (("Store", store), ("Till", report["till"] if store or clerk else ""), ("Clerk", clerk))
               if value]
    return [*marks, *heading, f"{report_word('From', language)} {report_time(report['from'])}"[:width],
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
    for c in report.get("tax_by_class", []):
        rows.append(["tax_by_class", c["tax_class"] + (f" {c['rate']}%" if c["rate"] is not None
                                                       else ""), "", c["tax"]])
    for name in ("refunds", "voids", "open_authorizations", "corrections",
                 "declined_on_forward"):
        rows.append(["summary", name, report[name]["count"], report[name]["amount"]])
    rows.append(["summary", "unresolved", report["unresolved"], ""])
    for section in ("by_tender", "refunds_by_tender", "by_card_brand"):
        for name, value in report[section].items():
            rows.append([section, name, value["count"], value["amount"]])
    for clerk, value in report["by_clerk"].items():
        named = f"{clerk} {value.get('name', '')}".strip()
        rows.append(["by_clerk", named, value["count"], value["amount"]])
        rows.append(["tips_by_clerk", clerk, "", value["tips"]])
    discounts = report.get("discounts")
    if discounts:
        rows.append(["discounts", "total", "", discounts["total"]])
        for part, _label in DISCOUNT_PARTS:
            for name, value in discounts[part].items():
                rows.append([f"discounts_{part}", name, value["count"], value["amount"]])
        rows.append(["discounts", "cash_rounding", discounts["cash_rounding"]["count"],
                     discounts["cash_rounding"]["amount"]])
    cash = report.get("cash")
    if cash:
        for name in ("float", "cash_sales", "cash_refunds", "pay_ins", "pay_outs", "expected", "counted",
                     "over_short"):
            rows.append(["cash", name, "", "" if cash[name] is None else cash[name]])
        rows.append(["cash", "reason", "", cash.get("reason") or ""])
        for move in cash["moves"]:
            rows.append([move["type"], move["reason"] or "", 1, move["amount"]])
    return write_csv(["section", "name", "count", "amount"], rows, numeric=("count", "amount"))


def report_pdf(report: dict[str, Any], charts: list[PdfChart] | None = None, *, store: str = "",
               clerk: str = "") -> bytes:
    """The report as a PDF, headed by the store's name, the till and the clerk who exported it
    (the drawer's part names who approved the close's over/short), then its charts
    (``cashier.day_report.pdf_charts``) as drawings."""
    return text_pdf(report_text(report, 72, store=store, clerk=clerk), title=title_of(report),
                    charts=charts)
