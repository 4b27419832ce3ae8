"""``make hostile``, the catalog's spreadsheet (issue #37): seeded bad files, each a good file
with one cell, byte or line spoiled (a formula, a long or card-number name, a price of another
form, a duplicate, an unknown reference, bad UTF-8, a stray quote, a NUL, a cell count off).

Rounds: ``CASHIER_HOSTILE_CATALOG`` (default 60: the fast suite's slice; ``make hostile``: 2000);
seed: ``CASHIER_HOSTILE_SEED``. Every file is read by the import's own rules
(``cashier.catalog.sheet.read_sheet``): it is either taken whole or refused with one line naming
the line and the column (``SheetError``), never another exception; a refused file's line is one
the file has; no card number is ever taken into a product. Printed: files tried, refused, taken.
"""

from __future__ import annotations

import os
import random
from decimal import Decimal

import pytest

from cashier.catalog import Catalog, Category, TaxClass
from cashier.catalog.sheet import HEADER, SheetError, read_sheet
from cashier.text import has_card_number

pytestmark = pytest.mark.socket
SEED = int(os.environ.get("CASHIER_HOSTILE_SEED", "20261123"))
ROUNDS = int(os.environ.get("CASHIER_HOSTILE_CATALOG", "60"))
FRAME = Catalog(1, (), (Category("Coffee"), Category("Shop")),
                (TaxClass("reduced", Decimal(10)), TaxClass("standard", Decimal(20))))
SPOILS = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", " =x", "x" * 41, "4111 1111 1111 1111",
          "４１１１１１１１１１１１１１１１", "-1.00", "1.005", "1e3", "NaN", "1,50", "", "Cakes",
          "gold", "maybe", "LAT", "1111", '"', "a\x00b", "\u202e", "x=1;y", "Extra=1.005",
          "Extra=abc", "0" * 40, "4006381333908"]


def _good(rng: random.Random) -> list[list[str]]:
    rows = []
    for i in range(rng.randint(1, 8)):
        rows.append([f"S{i}", f"Item {i}", f"{rng.randint(0, 999)}.{rng.randint(0, 99):02d}",
                     rng.choice(["Coffee", "Shop"]), rng.choice(["reduced", "standard"]),
                     f"{1000 + i}" if rng.random() < 0.5 else "", rng.choice(["yes", "no", ""]),
                     "S0" if i and rng.random() < 0.2 else "",
                     "Extra=+0.50;None=0" if rng.random() < 0.3 else ""])
    return rows


def _csv(rows: list[list[str]]) -> bytes:
    def cell(c: str) -> str:
        return '"' + c.replace('"', '""') + '"' if any(x in c for x in ',"\n') else c
    return ("\n".join(",".join(cell(c) for c in r) for r in [list(HEADER), *rows]) + "\n").encode()


def test_seeded_bad_spreadsheets_are_taken_whole_or_refused_with_line_and_column() -> None:
    rng = random.Random(SEED)
    refused = taken = 0
    for _ in range(ROUNDS):
        rows = _good(rng)
        how = rng.random()
        if how < 0.6:  # one cell spoiled
            row = rng.choice(rows)
            row[rng.randrange(len(HEADER))] = rng.choice(SPOILS)
            data = _csv(rows)
        elif how < 0.75:  # a row twice (a duplicate sku or barcode)
            rows.append(list(rng.choice(rows)))
            data = _csv(rows)
        elif how < 0.9:  # bytes: bad UTF-8, a NUL, a stray quote
            raw = bytearray(_csv(rows))
            at = rng.randrange(len(HEADER), len(raw))
            raw[at:at] = rng.choice([b"\xff", b"\xc3", b"\x00", b'"', b"\xed\xa0\x80"])
            data = bytes(raw)
        else:  # a cell count off
            victim = rng.choice(rows)
            if rng.random() < 0.5:
                victim.append("extra")
            else:
                victim.pop()
            data = _csv(rows)
        lines = data.count(b"\n") + 1
        try:
            products = read_sheet(data, FRAME)
        except SheetError as exc:
            refused += 1
            assert 1 <= exc.line <= lines and exc.column and "\n" not in str(exc), str(exc)
            continue
        taken += 1
        for p in products:
            assert not has_card_number(p.name) and not has_card_number(p.sku)
            assert all(not has_card_number(code) or len(code) == 13 for code in p.barcodes)
            assert len(p.name) <= 40 and p.price >= 0 and p.price == p.price.quantize(Decimal("0.01"))
    print(f"\ncatalog sheets: {ROUNDS} tried, {refused} refused, {taken} taken (seed {SEED})")
    assert refused > 0
