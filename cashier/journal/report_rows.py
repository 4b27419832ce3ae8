"""Report rows: what the X and Z reports read from the journal (the rules are in
``cashier.reports``; the SQL on the journal file is here)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from cashier.journal.datastore import Datastore

_QUERY = """
SELECT kind, op, state, COALESCE(card_type, '') AS brand, COALESCE(clerk, '') AS clerk,
       (captured_minor > 0 OR refunded_minor > 0) AS moved, COUNT(*) AS n,
       SUM(requested_minor) AS requested, SUM(approved_minor) AS approved,
       SUM(captured_minor) AS captured, SUM(refunded_minor) AS refunded,
       SUM(tip_minor) AS tip, SUM(tax_minor) AS tax, (ticket_id IS NULL) AS loose
FROM entries WHERE till_id = ? AND created_at >= ? AND created_at < ?
GROUP BY kind, op, state, brand, clerk, moved, loose
"""
#: A ticket paid in several tenders is one ticket: its tenders are counted once, by ticket.
_TICKETS_QUERY = """
SELECT COUNT(DISTINCT ticket_id) FROM entries
WHERE till_id = ? AND created_at >= ? AND created_at < ? AND ticket_id IS NOT NULL
  AND state IN ('approved', 'captured') AND kind != 'refund' AND COALESCE(op, '') != 'refund'
"""
#: The tax the tickets paid in the window charged: each ticket's subtotal and tax rule (its tender
#: entries carry no tax of their own), the tax worked out per ticket by ``money.tax_of``.
_TICKET_TAX_QUERY = """
SELECT t.tax_rate, t.tax_included, SUM(l.quantity * l.unit_price_minor) AS subtotal
FROM tickets t JOIN ticket_lines l ON l.ticket_id = t.id AND l.removed = 0
WHERE t.till_id = ? AND t.state = 'paid' AND t.closed_at >= ? AND t.closed_at < ?
GROUP BY t.id
"""
#: The refunds given back on paid tickets in the window (by when the refund was made): each
#: ticket's tax rule, subtotal and tip, and what its refunds gave back, so the report's tax is
#: net of what the refunds returned of it.
_TICKET_REFUND_QUERY = """
SELECT t.tax_rate, t.tax_included, t.tip_minor AS tip,
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
        return list(self.conn.execute(_QUERY, (self.till_id, start, end)))

    def report_ticket_count(self, start: str, end: str) -> int:
        """Tickets with a tender that moved money in [start, end) (each ticket once)."""
        return int(self.conn.execute(_TICKETS_QUERY, (self.till_id, start, end)).fetchone()[0])

    def report_ticket_tax(self, start: str, end: str) -> list[sqlite3.Row]:
        """Each ticket paid in [start, end): its tax rule and subtotal (minor units)."""
        return list(self.conn.execute(_TICKET_TAX_QUERY, (self.till_id, start, end)))

    def report_ticket_refunds(self, start: str, end: str) -> list[sqlite3.Row]:
        """Each paid ticket refunded in [start, end): its tax rule, subtotal, tip and what its
        refunds in the window gave back (minor units)."""
        return list(self.conn.execute(_TICKET_REFUND_QUERY, (self.till_id, start, end)))

    def report_corrections(self, start: str, end: str) -> list[dict[str, Any]]:
        """The correction events of this till's entries created in [start, end): a report counts
        the money where it was taken, so its corrections are those of its entries."""
        return [json.loads(r[0]) for r in self.conn.execute(_CORRECTIONS_QUERY,
                                                             (self.till_id, start, end))]
