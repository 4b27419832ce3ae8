"""Report rows: what the X and Z reports read from the journal (the rules are in
``cashier.reports``; the SQL on the journal file is here)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from cashier.journal.datastore import Datastore
from cashier.money import DEFAULT_TAX_CLASS

_QUERY = """
SELECT {hour} kind, op, state, COALESCE(card_type, '') AS brand, COALESCE(clerk, '') AS clerk,
       (captured_minor > 0 OR refunded_minor > 0) AS moved, COUNT(*) AS n,
       SUM(requested_minor) AS requested, SUM(approved_minor) AS approved,
       SUM(captured_minor) AS captured, SUM(refunded_minor) AS refunded,
       SUM(tip_minor) AS tip, SUM(tax_minor) AS tax, (ticket_id IS NULL) AS loose
FROM entries WHERE till_id = ? AND created_at >= ? AND created_at < ?
GROUP BY {group} kind, op, state, brand, clerk, moved, loose
"""
_GROUPS = _QUERY.format(hour="", group="")
#: The same groups by the UTC hour each entry was created in (``2026-11-29T14``): the day's
#: charts place each hour in the till's local time.
_GROUPS_BY_HOUR = _QUERY.format(hour="substr(created_at, 1, 13) AS hour,", group="hour,")
#: A ticket paid in several tenders is one ticket: its tenders are counted once, by ticket. A
#: comp (issue #38: paid with nothing to pay, no tender) counts when it closed in the window.
_TICKETS_QUERY = """
SELECT COUNT(*) FROM (
  SELECT ticket_id FROM entries
  WHERE till_id = ? AND created_at >= ? AND created_at < ? AND ticket_id IS NOT NULL
    AND state IN ('approved', 'captured') AND kind != 'refund' AND COALESCE(op, '') != 'refund'
  UNION
  SELECT t.id FROM tickets t
  WHERE t.till_id = ? AND t.state = 'paid' AND t.closed_at >= ? AND t.closed_at < ?
    AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.ticket_id = t.id))
"""
#: A ticket a discount, a promotion, a price override or cash rounding touched (issue #38).
_PRICED = """t.promotions IS NOT NULL OR t.rounding_minor != 0
  OR EXISTS (SELECT 1 FROM ticket_discounts d WHERE d.ticket_id = t.id)
  OR EXISTS (SELECT 1 FROM ticket_lines o WHERE o.ticket_id = t.id AND o.removed = 0
             AND o.list_price_minor IS NOT NULL)"""
#: The tax the tickets paid in the window charged: each ticket's lines summed by tax class and rate
#: (a line from before issue #37: the default class at the ticket's rate) with its tax rule, the
#: tax worked out per ticket and class by ``money.tax_by_class``. Its tender entries carry their
#: share of it as sent to the host; the report counts it once, from here. Tickets of one class
#: alike (the same class, rate, rule and subtotal: the same tax) come as one row with their number
#: (``tickets``) and no ``ticket``; a ticket of several classes comes as its own rows (issue #42:
#: a day of 20,000 tickets is a few hundred rows, not 20,000).
_TICKET_TAX_QUERY = f"""
WITH per AS (
  SELECT t.id AS ticket, COALESCE(l.tax_class, ?) AS tax_class,
         COALESCE(l.tax_rate, t.tax_rate) AS tax_rate, t.tax_included,
         SUM(l.quantity * l.unit_price_minor) AS subtotal
  FROM tickets t JOIN ticket_lines l ON l.ticket_id = t.id AND l.removed = 0
  WHERE t.till_id = ? AND t.state = 'paid' AND t.closed_at >= ? AND t.closed_at < ?
    AND NOT ({_PRICED})
  GROUP BY t.id, COALESCE(l.tax_class, ?), COALESCE(l.tax_rate, t.tax_rate)),
classes AS (SELECT *, COUNT(*) OVER (PARTITION BY ticket) AS n FROM per)
SELECT CASE WHEN n > 1 THEN ticket END AS ticket, tax_class, tax_rate, tax_included, subtotal,
       COUNT(*) AS tickets
FROM classes GROUP BY 1, tax_class, tax_rate, tax_included, subtotal
"""
#: The paid tickets a discount, a promotion, a price override or cash rounding touched (issue #38):
#: the report reads each whole and prices it by the one rule (``journal.tickets.priced``).
_PRICED_TICKETS_QUERY = f"""
SELECT t.id FROM tickets t
WHERE t.till_id = ? AND t.state = 'paid' AND t.closed_at >= ? AND t.closed_at < ? AND ({_PRICED})
ORDER BY t.id
"""

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
#: The refunds given back on paid tickets in the window (by when the refund was made): each
#: ticket's tax rule, subtotal and tip, and what its refunds gave back, so the report's tax is
#: net of what the refunds returned of it.
_TICKET_REFUND_QUERY = """
SELECT t.id AS ticket, t.tax_rate, t.tax_included, t.tip_minor AS tip,
       (SELECT SUM(l.quantity * l.unit_price_minor) FROM ticket_lines l
        WHERE l.ticket_id = t.id AND l.removed = 0) AS subtotal,
       SUM(e.approved_minor) AS refunded
FROM entries e JOIN tickets t ON t.id = e.ticket_id
WHERE e.till_id = ? AND e.created_at >= ? AND e.created_at < ? AND t.state = 'paid'
  AND e.state IN ('approved', 'captured') AND (e.kind = 'refund' OR COALESCE(e.op, '') = 'refund')
GROUP BY t.id
"""

#: The corrections of this till's entries created in the window (whenever they were found).
_CORRECTIONS_QUERY = """
SELECT v.data FROM events v JOIN entries e ON e.id = v.entry_id
WHERE v.type = 'correction' AND e.till_id = ? AND e.created_at >= ? AND e.created_at < ?
"""


class ReportRecorder:
    """The reports' reads, on the journal's datastore (its connection; nothing written)."""

    def __init__(self, store: Datastore) -> None:
        self.conn = store.conn
        self.till_id = store.till_id

    def report_groups(self, start: str, end: str) -> list[sqlite3.Row]:
        """This till's entries created in [start, end), grouped for the reports."""
        return list(self.conn.execute(_GROUPS, (self.till_id, start, end)))

    def report_groups_by_hour(self, start: str, end: str) -> list[sqlite3.Row]:
        """The same groups, each also by the UTC hour its entries were created in (``hour``)."""
        return list(self.conn.execute(_GROUPS_BY_HOUR, (self.till_id, start, end)))

    def report_lines(self, start: str, end: str) -> list[sqlite3.Row]:
        """What the tickets paid in [start, end) sold: name, quantity and minor units by product
        and category."""
        return list(self.conn.execute(_LINES_QUERY, (self.till_id, start, end)))

    def report_ticket_count(self, start: str, end: str) -> int:
        """Tickets with a tender that moved money in [start, end), and comps closed in it (each
        ticket once)."""
        window = (self.till_id, start, end)
        return int(self.conn.execute(_TICKETS_QUERY, window + window).fetchone()[0])

    def report_ticket_tax(self, start: str, end: str) -> list[sqlite3.Row]:
        """The tickets paid in [start, end), by tax class and rate: their tax rule and the lines'
        amount (minor units); tickets of one class alike as one row (``ticket`` None, how many
        in ``tickets``)."""
        return list(self.conn.execute(_TICKET_TAX_QUERY, (DEFAULT_TAX_CLASS, self.till_id, start, end,
                                                          DEFAULT_TAX_CLASS)))

    def report_priced_tickets(self, start: str, end: str) -> list[int]:
        """The tickets paid in [start, end) that a discount, promotion, price override or cash
        rounding touched (the rest are taxed from their lines' sums)."""
        return [int(r[0]) for r in self.conn.execute(_PRICED_TICKETS_QUERY, (self.till_id, start, end))]

    def report_ticket_refunds(self, start: str, end: str) -> list[sqlite3.Row]:
        """Each paid ticket refunded in [start, end): its tax rule, subtotal, tip and what its
        refunds in the window gave back (minor units)."""
        return list(self.conn.execute(_TICKET_REFUND_QUERY, (self.till_id, start, end)))

    def report_corrections(self, start: str, end: str) -> list[dict[str, Any]]:
        """The correction events of this till's entries created in [start, end): a report counts
        the money where it was taken, so its corrections are those of its entries."""
        return [json.loads(r[0]) for r in self.conn.execute(_CORRECTIONS_QUERY,
                                                             (self.till_id, start, end))]
