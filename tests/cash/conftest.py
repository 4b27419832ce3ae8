"""A till profile and journal for the drawer and printer tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cashier.cashdesk import CashDesk, open_recorder
from cashier.config import TillProfile, load_profile
from tests.support.loopback_printer import LoopbackPrinter
from tests.support.profiles import write_till


@pytest.fixture
def loopback() -> Iterator[LoopbackPrinter]:
    printer = LoopbackPrinter()
    yield printer
    printer.close()


@pytest.fixture
def make_desk(tmp_path: Path) -> Iterator[Callable[..., CashDesk]]:
    made: list[CashDesk] = []

    def make(**kw: Any) -> CashDesk:
        profile: TillProfile = load_profile(write_till(tmp_path, **kw))
        desk = CashDesk(profile, open_recorder(profile))
        made.append(desk)
        return desk

    yield make
    for desk in made:
        desk.close()
        desk.recorder.close()
