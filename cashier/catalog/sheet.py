"""The catalog as a spreadsheet: one row per sku, refused WHOLE at the first bad cell.

Columns (``HEADER``, in any order, each once): ``sku,name,price,category,tax_class,barcodes,
active,variant_of,modifiers``. ``barcodes``: any number, separated by ``|``. ``active``: yes or
no (empty: yes). ``variant_of``: the sku this row is a variant of (empty: none).
``modifiers``: ``NAME=CHANGE`` separated by ``;`` (``Extra shot=+0.50;No sugar=0``).

A refusal names the line (1 is the header), the column and the rule
(``line 7, price: must not be negative``): a file is checked to its end before the store takes
any of it, and the store takes all of it in one new version or none.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from decimal import Decimal

from cashier.catalog.model import Catalog, Product, check_sku
from cashier.catalog.rules import (
    BARCODE_SEPARATOR,
    check_name,
    check_price,
    check_product_sku,
    format_modifiers,
    parse_active,
    parse_barcodes,
    parse_modifiers,
)
from cashier.errors import ValidationError
from cashier.text import looks_like_formula, write_csv

HEADER = ("sku", "name", "price", "category", "tax_class", "barcodes", "active", "variant_of",
          "modifiers")
#: Most rows one file may hold.
MAX_ROWS = 100_000
MAX_CELL = 2000


class SheetError(ValidationError):
    """A bad file: ``line`` and ``column`` of the first bad cell (``field`` reads ``line N, COL``)."""

    def __init__(self, line: int, column: str, rule: str) -> None:
        super().__init__(f"line {line}, {column}", rule)
        self.line = line
        self.column = column


def decode(data: bytes) -> str:
    """The file's text (UTF-8, a spreadsheet's byte-order mark allowed); bad UTF-8 is refused
    with the line and column it is in."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[:exc.start]
        line = before.count(b"\n") + 1
        start = before.rfind(b"\n") + 1
        cells = next(csv.reader([before[start:].decode("utf-8", "replace")]), [""])
        header = next(csv.reader([data[:data.find(b"\n")].decode("utf-8", "replace")]), [])
        at = len(cells) - 1
        column = header[at].strip() if line > 1 and 0 <= at < len(header) else f"column {at + 1}"
        raise SheetError(line, column, "is not valid UTF-8 (save the file as CSV UTF-8)") from None


def read_sheet(data: bytes, current: Catalog) -> list[Product]:
    """Every row of the file as a product, checked against ``current`` (the store's newest
    version: its categories, tax classes and the barcodes of products not in the file)."""
    text = decode(data)
    if "\x00" in text:
        raise SheetError(text[:text.index("\x00")].count("\n") + 1, "file", "holds a NUL byte: "
                                                                            "not a CSV file")
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
    categories = {c.name for c in current.categories}
    tax_classes = {t.name for t in current.tax_classes}
    products: list[Product] = []
    lines: dict[str, int] = {}
    barcode_line: dict[str, tuple[int, str]] = {}
    line = 1
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise SheetError(reader.line_num, "row", f"is not CSV ({exc})") from None
        line = start
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(names):
            raise SheetError(line, "row", f"has {len(row)} cells: the header has {len(names)}")
        if len(products) >= MAX_ROWS:
            raise SheetError(line, "row", f"the file may hold at most {MAX_ROWS} products")
        product = _row(line, {name: row[i] for name, i in at.items()}, categories, tax_classes)
        if product.sku in lines:
            raise SheetError(line, "sku", f"{product.sku} is on line {lines[product.sku]} "
                                          "already: one row per sku")
        lines[product.sku] = line
        for code in product.barcodes:
            if code in barcode_line:
                raise SheetError(line, "barcodes", f"{code} is on line {barcode_line[code][0]} "
                                                   "already: a barcode scans one product")
            barcode_line[code] = (line, product.sku)
        products.append(product)
    if not products:
        raise SheetError(line + 1 if line > 1 else 2, "row", "the file holds no products")
    skus = set(lines) | {p.sku for p in current.products}
    for p in products:
        if p.variant_of is not None:
            parent = next((q for q in products if q.sku == p.variant_of), None) or \
                current.product(p.variant_of)
            if p.variant_of == p.sku or p.variant_of not in skus:
                raise SheetError(lines[p.sku], "variant_of",
                                 f"{p.variant_of} is not another sku of the file or the catalog")
            if parent is not None and parent.variant_of is not None:
                raise SheetError(lines[p.sku], "variant_of",
                                 f"{p.variant_of} is itself a variant (one level only)")
    for other in current.products:  # a barcode the file gives while another product keeps it
        if other.sku in lines or not other.active:
            continue
        for code in other.barcodes:
            if code in barcode_line:
                raise SheetError(barcode_line[code][0], "barcodes",
                                 f"{code} is {other.sku}'s barcode in the catalog already")
    return products


def _row(line: int, cells: dict[str, str], categories: set[str],
         tax_classes: set[str]) -> Product:
    for column in HEADER:
        cell = cells[column]
        if len(cell) > MAX_CELL:
            raise SheetError(line, column, f"must be at most {MAX_CELL} characters")
        if column == "price" and cell.strip().startswith("-") and \
                cell.strip()[1:].replace(".", "", 1).isdigit():
            raise SheetError(line, column, "must not be negative")
        if looks_like_formula(cell):
            raise SheetError(line, column, "looks like a formula (starts with = + - @): "
                                           "spreadsheets run those; remove the sign")
    try:
        sku = check_product_sku(cells["sku"].strip(), "sku")
        field = "name"
        name = check_name(cells["name"], field)
        field = "price"
        price: Decimal = check_price(cells["price"].strip(), field)
        field = "category"
        category = cells["category"].strip()
        if category not in categories:
            raise ValidationError(field, f"{category!r} is not a category of the catalog "
                                         "(cashier catalog category add)")
        field = "tax_class"
        tax_class = cells["tax_class"].strip()
        if tax_class not in tax_classes:
            raise ValidationError(field, f"{tax_class!r} is not a tax class of the catalog "
                                         "(cashier catalog tax-class add)")
        barcodes = parse_barcodes(cells["barcodes"], "barcodes")
        active = parse_active(cells["active"], "active")
        variant = cells["variant_of"].strip()
        variant_of = check_sku(variant, "variant_of") if variant else None
        modifiers = parse_modifiers(cells["modifiers"], "modifiers")
    except ValidationError as exc:
        column = exc.field if exc.field in HEADER else "sku"
        raise SheetError(line, column, exc.rule) from None
    return Product(sku=sku, name=name, price=price, category=category, tax_class=tax_class,
                   barcodes=barcodes, active=active, variant_of=variant_of, modifiers=modifiers)


def write_sheet(products: Iterable[Product]) -> str:
    """The catalog's products as the import reads them (one row per sku, by sku), through THE
    CSV writer of every export (``cashier.text.write_csv``)."""
    rows = [(p.sku, p.name, str(p.price), p.category, p.tax_class,
             BARCODE_SEPARATOR.join(p.barcodes), "yes" if p.active else "no", p.variant_of or "",
             format_modifiers(p.modifiers))
            for p in sorted(products, key=lambda p: p.sku)]
    return write_csv(HEADER, rows, numeric=("price",))
