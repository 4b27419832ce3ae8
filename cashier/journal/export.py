"""Export the journal as JSON (entries and events) or CSV (entries), for an accountant or support.

Nothing secret can come out: the journal never held a full card number, and tokens are written
as stored (digits as letters, see ``encode_token``), so an export passes the same card-data scan.
"""

from __future__ import annotations

import json
from typing import Any

from cashier.journal.model import money
from cashier.journal.recorder import JournalRecorder, iso, utc_now
from cashier.journal.ticket_model import Ticket
from cashier.journal.tokens import decode_token
from cashier.text import write_csv

#: Amount columns are exported in major units, as text, next to their currency.
_AMOUNTS = ("requested", "approved", "tip", "tax", "captured", "refunded", "pending")


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in row.items() if not k.endswith("_minor")}
    for name in _AMOUNTS:
        out[name] = str(money(row.get(f"{name}_minor"), row["currency"]))
    out["has_token"] = bool(decode_token(row.get("token")))
    out.pop("token", None)
    out["training"] = bool(row.get("training"))
    return out


def _ticket(recorder: JournalRecorder, ticket_id: int) -> dict[str, Any]:
    """A ticket as ``cashier ticket show`` prints it: lines, totals and each tender."""
    return Ticket.of(recorder.ticket(ticket_id)).as_dict()


def export_json(recorder: JournalRecorder, *, with_events: bool = True) -> str:
    data: dict[str, Any] = {
        "till_id": recorder.till_id, "exported_at": iso(utc_now()),
        "entries": [_plain(r) for r in recorder.all_rows()],
        "tickets": [_ticket(recorder, int(r["id"])) for r in recorder.all_ticket_rows()],
    }
    if with_events:
        data["events"] = [{"id": e.id, "entry_id": e.entry_id, "at": e.at, "actor": e.actor,
                           "type": e.type, "data": e.data} for e in recorder.events()]
    return json.dumps(data, indent=1, sort_keys=True, default=str)


#: Columns the journal itself fills with numbers: they stay numbers in a spreadsheet.
_NUMBERS = (*_AMOUNTS, "id", "ticket_id", "attempts", "batch_no")


def export_csv(recorder: JournalRecorder) -> str:
    """One row per entry, spreadsheet-safe (``cashier.text.write_csv``)."""
    rows = [_plain(r) for r in recorder.all_rows()]
    if not rows:
        return ""
    header = list(rows[0])
    return write_csv(header, ([row.get(name) for name in header] for row in rows),
                     numeric=[name for name in _NUMBERS if name in header], lineterminator="\n")
