"""Report rows: what the X and Z reports read from the journal (the rules are in
``cashier.reports``; the SQL on the journal file is here)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, NamedTuple

from cashier.journal.datastore import Datastore
from cashier.money import DEFAULT_TAX_CLASS

_QUERY = """
SELECT {hour} kind, op, state, COALESCE(card_type, '') AS brand, COALESCE(clerk, '') AS clerk,
       (captured_minor > 0 OR refunded_minor > 0) AS moved, COUNT(*) AS n,
       SUM(requested_minor) AS requested, SUM(approved_minor) AS approved,
       SUM(captured_minor) AS captured, SUM(refunded_minor) AS refunded,
       SUM(tip_minor) AS tip, SUM(tax_minor) AS tax, (ticket_id IS NULL) AS loose
FROM entries WHERE till_id = :till AND created_at >= :start AND created_at < :end {hours}
GROUP BY {group} kind, op, state, COALESCE(card_type, ''), COALESCE(clerk, ''),
         (captured_minor > 0 OR refunded_minor > 0), (ticket_id IS NULL)
"""
_GROUPS = _QUERY.format(hour="", hours="", group="")
#: The same groups by the UTC hour each entry was created in (``2026-11-29T14``): the day's
#: charts place each hour in the till's local time. Read from the index in this very order
#: (journal v15, ``entries_report_hours``): the hours' condition only names the index's hour
#: (an entry in the window is in its hours), so SQLite sums the groups as it reads, no sort.
_GROUPS_BY_HOUR = _QUERY.format(
    hour="substr(created_at, 1, 13) AS hour,", group="substr(created_at, 1, 13),",
    hours="AND substr(created_at, 1, 13) BETWEEN substr(:start, 1, 13) AND substr(:end, 1, 13)")
#: A ticket paid in several tenders is one ticket: its tenders are counted once, by ticket, in
#: the window a tender took its money. A paid ticket no tender took money for (a comp, issue #38:
#: paid with nothing to pay, whatever tenders it had before, a declined card among them) counts
#: when it closed in the window: every paid ticket once, whatever entries it has.
_TICKETS_QUERY = """
SELECT COUNT(*) FROM (
  SELECT ticket_id FROM entries
  WHERE till_id = ? AND created_at >= ? AND created_at < ? AND ticket_id IS NOT NULL
    AND state IN ('approved', 'captured') AND kind != 'refund' AND COALESCE(op, '') != 'refund'
  UNION
  SELECT t.id FROM tickets t
  WHERE t.till_id = ? AND t.state = 'paid' AND t.closed_at >= ? AND t.closed_at < ?
    AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.ticket_id = t.id
                    AND e.state IN ('approved', 'captured') AND e.kind != 'refund'
                    AND COALESCE(e.op, '') != 'refund'))
"""
#: The tax the tickets paid in the window charged, and which of them a discount, a promotion, a
#: price override or cash rounding touched (issue #38), in one read of the window's tickets (in
#: the order of the index on when they closed, journal v15, so each ticket's lines are summed as
#: read, no sort) and their lines. A ticket a discount touched comes as its own row (``priced``):
#: the report reads it whole and prices it by the one rule (``journal.tickets.priced``). The
#: others: each ticket's lines summed by tax class and rate (a line from before issue #37: the
#: default class at the ticket's rate) with its tax rule, the tax worked out per ticket and class
#: by ``money.tax_by_class``. Its tender entries carry their share of it as sent to the host; the
#: report counts it once, from here. Tickets of one class alike (the same class, rate, rule and
#: subtotal: the same tax) come as one row with their number (``tickets``) and no ``ticket``; a
#: ticket of several classes comes as its own row, its classes read apart
#: (``_TICKET_CLASSES_QUERY``). Issue #42: a day of 20,000 tickets is a few rows, not 20,000.
_TICKET_TAX_QUERY = """
WITH day AS (
  SELECT t.id AS ticket, t.tax_included,
         MIN(COALESCE(l.tax_class, :default_class)) AS tax_class,
         MAX(COALESCE(l.tax_class, :default_class)) AS last_class,
         MIN(COALESCE(l.tax_rate, t.tax_rate)) AS tax_rate,
         MAX(COALESCE(l.tax_rate, t.tax_rate)) AS last_rate,
         SUM(l.quantity * l.unit_price_minor) AS subtotal,
         (t.promotions IS NOT NULL OR t.rounding_minor != 0 OR MAX(l.list_price_minor IS NOT NULL)
          OR EXISTS (SELECT 1 FROM ticket_discounts d WHERE d.ticket_id = t.id)) AS priced
  FROM tickets t LEFT JOIN ticket_lines l ON l.ticket_id = t.id AND l.removed = 0
  WHERE t.till_id = :till AND t.state = 'paid' AND t.closed_at >= :start AND t.closed_at < :end
  GROUP BY t.closed_at, t.id)
SELECT subtotal, CASE WHEN priced OR tax_class != last_class OR tax_rate != last_rate THEN ticket
                    END AS ticket, priced, tax_class, tax_rate, tax_included, COUNT(*) AS tickets
FROM day WHERE priced OR subtotal IS NOT NULL
GROUP BY subtotal, tax_rate, tax_class, tax_included, 2
"""
#: The lines of tickets of several classes (``_TICKET_TAX_QUERY``'s rows with a ``ticket`` and
#: no discount), summed by class and rate: one row per ticket and class.
_TICKET_CLASSES_QUERY = """
SELECT t.id AS ticket, COALESCE(l.tax_class, ?) AS tax_class,
       COALESCE(l.tax_rate, t.tax_rate) AS tax_rate, t.tax_included,
       SUM(l.quantity * l.unit_price_minor) AS subtotal, 1 AS tickets
FROM tickets t JOIN ticket_lines l ON l.ticket_id = t.id AND l.removed = 0
WHERE t.id IN ({tickets})
GROUP BY t.id, 2, 3
"""
#: How many tickets one ``_TICKET_CLASSES_QUERY`` names (SQLite's variables are limited).
_CLASSES_AT_ONCE = 500

#: What the tickets paid in the window sold, line by line, grouped by product and category: the
#: line's sku (issue #37; its name as last sold), a typed line by its name
#: (``cashier.day_report.product_key``); the category as the line was sold in (issue #38; NULL for
#: a typed line or one from before journal v14). One read for both charts (issue #42).
_LINES_QUERY = """
SELECT COALESCE(l.sku, l.name) AS product, l.category AS category, MAX(l.name) AS name,
       SUM(l.quantity) AS quantity, SUM(l.quantity * l.unit_price_minor) AS minor
FROM tickets t JOIN ticket_lines l ON l.ticket_id = t.id AND l.removed = 0
WHERE t.till_id = ? AND t.state = 'paid' AND t.closed_at >= ? AND t.closed_at < ?
GROUP BY COALESCE(l.sku, l.name), l.category
"""
#: The corrections of this till's entries created in the window (whenever they were found).
_CORRECTIONS_QUERY = """
SELECT v.data FROM events v JOIN entries e ON e.id = v.entry_id
WHERE v.type = 'correction' AND e.till_id = ? AND e.created_at >= ? AND e.created_at < ?
"""


class TicketTax(NamedTuple):
    """The window's paid tickets for the report's tax (``ReportRecorder.report_ticket_tax``)."""

    #: by tax class and rate (``cashier.reports.ticket_tax_by_class`` reads them)
    rows: list[sqlite3.Row]
    #: the tickets a discount, a promotion, a price override or cash rounding touched, by id
    priced: list[int]


class ReportRecorder:
    """The reports' reads, on the journal's datastore (its connection; nothing written)."""

    def __init__(self, store: Datastore) -> None:
        self.conn = store.conn
        self.till_id = store.till_id

    def _window(self, start: str, end: str) -> dict[str, str]:
        return {"till": self.till_id, "start": start, "end": end}

    def report_groups(self, start: str, end: str) -> list[sqlite3.Row]:
        """This till's entries created in [start, end), grouped for the reports."""
        return list(self.conn.execute(_GROUPS, self._window(start, end)))

    def report_groups_by_hour(self, start: str, end: str) -> list[sqlite3.Row]:
        """The same groups, each also by the UTC hour its entries were created in (``hour``)."""
        return list(self.conn.execute(_GROUPS_BY_HOUR, self._window(start, end)))

    def report_lines(self, start: str, end: str) -> list[sqlite3.Row]:
        """What the tickets paid in [start, end) sold: name, quantity and minor units by product
        and category."""
        return list(self.conn.execute(_LINES_QUERY, (self.till_id, start, end)))

    def report_ticket_count(self, start: str, end: str) -> int:
        """Tickets with a tender that moved money in [start, end), and the paid tickets no tender
        took money for (comps) closed in it: each paid ticket once."""
        window = (self.till_id, start, end)
        return int(self.conn.execute(_TICKETS_QUERY, window + window).fetchone()[0])

    def report_ticket_tax(self, start: str, end: str) -> TicketTax:
        """The tickets paid in [start, end): by tax class and rate, their tax rule and the lines'
        amount (minor units), tickets of one class alike as one row (``ticket`` None, how many
        in ``tickets``); apart, those a discount, promotion, price override or cash rounding
        touched (taxed from the whole ticket, after them)."""
        args = {**self._window(start, end), "default_class": DEFAULT_TAX_CLASS}
        rows, priced, several = [], [], []
        for row in self.conn.execute(_TICKET_TAX_QUERY, args):
            if row["priced"]:
                priced.append(int(row["ticket"]))
            elif row["ticket"] is not None:
                several.append(int(row["ticket"]))
            else:
                rows.append(row)
        for at in range(0, len(several), _CLASSES_AT_ONCE):
            chunk = several[at:at + _CLASSES_AT_ONCE]
            query = _TICKET_CLASSES_QUERY.format(tickets=", ".join("?" * len(chunk)))
            rows += self.conn.execute(query, (DEFAULT_TAX_CLASS, *chunk))
        return TicketTax(rows, sorted(priced))

    def report_corrections(self, start: str, end: str) -> list[dict[str, Any]]:
        """The correction events of this till's entries created in [start, end): a report counts
        the money where it was taken, so its corrections are those of its entries."""
        return [json.loads(r[0]) for r in self.conn.execute(_CORRECTIONS_QUERY,
                                                             (self.till_id, start, end))]
