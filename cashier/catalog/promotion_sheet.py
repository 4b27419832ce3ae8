"""The catalog's promotions as a spreadsheet (issue #38): one row per promotion, refused WHOLE.

Columns (``HEADER``, in any order, each once): ``name,kind,skus,category,quantity,price,buy,
get,percent,amount,threshold,days,start,end,stacks``. ``kind``: ``quantity_price`` (``quantity``
of the ``skus`` for ``price``), ``buy_x_get_y`` (of ``buy`` + ``get`` units the ``get`` cheapest
free), ``category_percent`` (``percent`` off the ``category``'s lines or the ``skus``),
``spend_discount`` (``percent`` or ``amount`` off a ticket of ``threshold`` or more). ``skus``:
separated by ``|``. ``days``: ``mon|tue|wed|thu|fri`` (empty: every day); ``start``/``end``:
``16:00`` (from start to before end; empty: all day). ``stacks``: yes or no (empty: no).

The same refusal as the products sheet (``cashier.catalog.sheet``): the line, the column and
the rule of the first bad cell, and nothing imported. The money in a promotion follows the
catalog's price rule (``rules.check_price``); what it does is ``cashier.discounts.Promotion``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Collection, Iterable
from datetime import time
from decimal import Decimal

from cashier.catalog.rules import BARCODE_SEPARATOR, check_name, check_price, check_rate, parse_active
from cashier.catalog.sheet import MAX_CELL, SheetError, decode
from cashier.discounts import PROMOTION_KINDS, Promotion, PromotionKind
from cashier.errors import ValidationError
from cashier.text import looks_like_formula, write_csv

HEADER = ("name", "kind", "skus", "category", "quantity", "price", "buy", "get", "percent",
          "amount", "threshold", "days", "start", "end", "stacks")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MAX_PROMOTIONS = 1000
_CLOCK = re.compile(r"^([01][0-9]|2[0-3]):([0-5][0-9])$", re.ASCII)
_WHOLE = re.compile(r"^[0-9]{1,4}$", re.ASCII)


def read_promotions(data: bytes, skus: Collection[str], categories: Collection[str],
                    ) -> list[Promotion]:
    """Every row as a promotion, checked against the catalog's ``skus`` and ``categories`` (as
    the products sheet imported beside it leaves them)."""
    text = decode(data)
    if "\x00" in text:
        raise SheetError(text[:text.index("\x00")].count("\n") + 1, "file",
                         "holds a NUL byte: not a CSV file")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise SheetError(1, "header", f"is missing: the first line names the columns "
                                      f"{','.join(HEADER)}") from None
    except csv.Error as exc:
        raise SheetError(1, "header", f"is not CSV ({exc})") from None
    names = [h.strip() for h in header]
    for name in names:
        if name not in HEADER:
            raise SheetError(1, name[:40] or "header", f"is not a column (the columns: "
                                                       f"{','.join(HEADER)})")
    for name in HEADER:
        if names.count(name) != 1:
            raise SheetError(1, name, "must be a column of the header, once")
    at = {name: names.index(name) for name in HEADER}
    promotions: list[Promotion] = []
    lines: dict[str, int] = {}
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise SheetError(reader.line_num, "row", f"is not CSV ({exc})") from None
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(names):
            raise SheetError(start, "row", f"has {len(row)} cells: the header has {len(names)}")
        if len(promotions) >= MAX_PROMOTIONS:
            raise SheetError(start, "row", f"the file may hold at most {MAX_PROMOTIONS} "
                                           "promotions")
        promo = _row(start, {name: row[i] for name, i in at.items()}, skus, categories)
        if promo.name in lines:
            raise SheetError(start, "name", f"{promo.name} is on line {lines[promo.name]} "
                                            "already: one row per promotion")
        lines[promo.name] = start
        promotions.append(promo)
    return promotions


def _row(line: int, cells: dict[str, str], skus: Collection[str],
         categories: Collection[str]) -> Promotion:
    for column in HEADER:
        if len(cells[column]) > MAX_CELL:
            raise SheetError(line, column, f"must be at most {MAX_CELL} characters")
        cell = cells[column].strip()
        if column in ("price", "percent", "amount", "threshold") and cell.startswith("-") and \
                cell[1:].replace(".", "", 1).isdigit():
            raise SheetError(line, column, "must not be negative")
        if looks_like_formula(cells[column]):
            raise SheetError(line, column, "looks like a formula (starts with = + - @): "
                                           "spreadsheets run those; remove the sign")
    column = "name"
    try:
        name = check_name(cells["name"], "name")
        column = "kind"
        kind = cells["kind"].strip()
        if kind not in PROMOTION_KINDS:
            raise ValidationError(column, f"must be one of {', '.join(PROMOTION_KINDS)}")
        column = "skus"
        listed = tuple(s.strip() for s in cells["skus"].split(BARCODE_SEPARATOR) if s.strip())
        for sku in listed:
            if sku not in skus:
                raise ValidationError(column, f"{sku} is not a sku of the catalog")
        column = "category"
        category = cells["category"].strip() or None
        if category is not None and category not in categories:
            raise ValidationError(column, f"{category!r} is not a category of the catalog")
        if kind != "spend_discount" and not listed and category is None:
            column = "skus"
            raise ValidationError(column, "name the skus or the category it applies to")
        numbers: dict[str, int] = {}
        for column in ("quantity", "buy", "get"):
            cell = cells[column].strip()
            if cell and not _WHOLE.fullmatch(cell):
                raise ValidationError(column, "must be a whole number")
            numbers[column] = int(cell or 0)
        money: dict[str, Decimal] = {}
        for column in ("price", "amount", "threshold"):
            cell = cells[column].strip()
            money[column] = check_price(cell, column) if cell else Decimal(0)
        column = "percent"
        percent = check_rate(cells[column].strip(), column) if cells[column].strip() else Decimal(0)
        column = "days"
        days: list[int] = []
        for word in (d.strip().lower() for d in cells[column].split(BARCODE_SEPARATOR)):
            if not word:
                continue
            if word not in DAYS:
                raise ValidationError(column, f"days are {'|'.join(DAYS)}")
            days.append(DAYS.index(word))
        clock: dict[str, time | None] = {}
        for column in ("start", "end"):
            cell = cells[column].strip()
            match = _CLOCK.fullmatch(cell)
            if cell and match is None:
                raise ValidationError(column, "must be a time of day as 16:00")
            clock[column] = time(int(match[1]), int(match[2])) if match else None
        if clock["start"] and clock["end"] and clock["end"] <= clock["start"]:
            raise ValidationError("end", "must be after start")
        column = "stacks"
        stacks = parse_active(cells[column], column) if cells[column].strip() else False
        column = "kind"
        typed: PromotionKind = kind
        return Promotion(name, typed, skus=listed, category=category, quantity=numbers["quantity"],
                         price=money["price"], buy=numbers["buy"], get=numbers["get"],
                         percent=percent, amount=money["amount"], threshold=money["threshold"],
                         days=tuple(sorted(set(days))), start=clock["start"], end=clock["end"],
                         stacks=stacks)
    except ValidationError as exc:
        raise SheetError(line, exc.field if exc.field in HEADER else column, exc.rule) from None


def write_promotions(promotions: Iterable[Promotion]) -> str:
    """The promotions as ``read_promotions`` reads them (by name), through THE CSV writer."""
    def amount(value: Decimal) -> str:
        return str(value) if value else ""

    rows = [(p.name, p.kind, BARCODE_SEPARATOR.join(p.skus), p.category or "",
             str(p.quantity) if p.quantity else "", amount(p.price), str(p.buy) if p.buy else "",
             str(p.get) if p.get else "", amount(p.percent), amount(p.amount),
             amount(p.threshold), BARCODE_SEPARATOR.join(DAYS[d] for d in p.days),
             p.start.isoformat(timespec="minutes") if p.start else "",
             p.end.isoformat(timespec="minutes") if p.end else "", "yes" if p.stacks else "no")
            for p in sorted(promotions, key=lambda p: p.name)]
    return write_csv(HEADER, rows, numeric=("price", "percent", "amount", "threshold"))
