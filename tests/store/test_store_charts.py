"""Issue #42, the store part: two tills' training days pushed to a real store (PostgreSQL over a
socket); a store manager's totals answer the store's money taken by hour and by clerk, and the
core's ``store_report`` draws one bar per till whose figures are each till's own journal's."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from cashier.clerks import ManagerRules, Roster
from cashier.config import STORE_KEYRING_SERVICE, load_profile
from cashier.day_report import Figure, build_day_report, day_window, store_report
from cashier.drawer import Drawer
from cashier.journal.recorder import JournalRecorder
from cashier.money import to_minor
from cashier.store.close import store_totals
from cashier.store.outbox import push_pending
from tests.support.store import add_till, manager_session, put_manager
from tests.support.training_day import write_day

pytestmark = pytest.mark.socket


def test_the_store_charts_one_bar_per_till_and_its_hours(serve_store: Any, store_dsn: str,
                                                         tmp_path: Path, memory_keyring: Any) -> None:
    store = serve_store()
    today = datetime.now().astimezone().date()
    start, end = day_window(today)
    days = {}
    for number, till, tickets in ((1, "T1", 14), (2, "T2", 9)):
        memory_keyring.set_password(STORE_KEYRING_SERVICE, till, add_till(store_dsn, till))
        profile = load_profile(None, training=False, till_id=till, till_number=number,
                               processing_option="HD", host_url="http://127.0.0.1:1/api/rest/v1",
                               store_url=store.url,
                               journal_path=tmp_path / f"{till}.sqlite")
        recorder = JournalRecorder(profile.resolved_journal_path, till_id=till, till_number=number)
        recorder.clock = lambda: datetime.fromisoformat(start)
        write_day(recorder, today, tickets=tickets, seed=number,
                  clerks=(f"{number}01", f"{number}02"), catalog=number == 1)
        days[till] = build_day_report(recorder, Drawer(recorder, Roster([], ManagerRules())), start,
                                      end, business_date=today.isoformat())
        recorder.close()
        assert push_pending(profile, 10.0) is not None
    put_manager(store_dsn, "4", "4444")
    session = manager_session(profile, "4", "4444")
    answer = store_totals(profile, today.isoformat(), None, session)
    report = store_report(answer)
    assert report is not None
    tills = report.chart("tills")
    assert tills is not None and tills.labels == ("T1", "T2")
    for i, till in enumerate(tills.labels):
        own = days[till]
        tenders = own.chart("tenders")
        assert tenders is not None
        gross = to_minor(Decimal(own.totals["gross"]), "USD")
        assert tills.series[0].figures[i] == Figure(tenders.total().count, gross)
        refunds = own.totals["refunds"]
        assert tills.series[1].figures[i] == Figure(refunds["count"],
                                                    to_minor(Decimal(refunds["amount"]), "USD"))
    # the store's hours: each hour the sum of the tills' own hours, to the cent
    hours = report.chart("by_hour")
    assert hours is not None
    for h in range(24):
        mine = [c.series[0].figures[h] for d in days.values() if (c := d.chart("by_hour"))]
        assert hours.series[0].figures[h] == Figure(sum(f.count for f in mine),
                                                     sum(f.minor for f in mine))
    clerks = report.chart("clerks")
    assert clerks is not None and set(clerks.labels) == {"101", "102", "201", "202"}
    assert clerks.total() == tills.total(0)
    # the store's discounts (T1's catalog day: promotions and cashiers' discounts): what the
    # tills' own reports say, to the cent
    discounts = report.chart("discounts")
    own_discounts = days["T1"].discounts
    assert discounts is not None and own_discounts is not None and days["T2"].discounts is None
    assert discounts.labels == own_discounts.labels
    assert discounts.series[0].figures == own_discounts.series[0].figures
    assert discounts.total().minor == to_minor(Decimal(days["T1"].totals["discounts"]["total"]),
                                               "USD") > 0
    # a till's own answer: no store charts
    assert store_report(store_totals(profile, today.isoformat())) is None
