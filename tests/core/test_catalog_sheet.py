"""The catalog's spreadsheet (issue #37): one row per sku, a round trip, and every bad file
refused whole with its line, column and rule (nothing of it taken)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from cashier.catalog import Catalog, Category, Modifier, Product, TaxClass
from cashier.catalog.sheet import HEADER, SheetError, read_sheet, write_sheet
from cashier.catalog.training import training_catalog

FRAME = Catalog(4, (Product("OLD", "Old mug", Decimal("5.00"), "Shop", "standard", ("999",)),),
                (Category("Coffee"), Category("Shop")),
                (TaxClass("reduced", Decimal(10)), TaxClass("standard", Decimal(20))))
GOOD = ("sku,name,price,category,tax_class,barcodes,active,variant_of,modifiers\n"
        "LAT,Latte,3.20,Coffee,reduced,,yes,,Extra shot=+0.50;No sugar=0\n"
        "LAT-L,Latte large,3.60,Coffee,reduced,111|112,yes,LAT,Oat milk=+0.40\n"
        "MUG,Mug,9.00,Shop,standard,300|4006381333924,no,,\n")


def refused(text: str | bytes) -> SheetError:
    data = text if isinstance(text, bytes) else text.encode()
    with pytest.raises(SheetError) as caught:
        read_sheet(data, FRAME)
    return caught.value


def test_a_good_file_reads_every_column_and_round_trips() -> None:
    products = read_sheet(GOOD.encode(), FRAME)
    assert [p.sku for p in products] == ["LAT", "LAT-L", "MUG"]
    large = products[1]
    assert large == Product("LAT-L", "Latte large", Decimal("3.60"), "Coffee", "reduced",
                            ("111", "112"), True, "LAT", (Modifier("Oat milk", Decimal("0.40")),))
    assert products[0].modifiers == (Modifier("Extra shot", Decimal("0.50")),
                                     Modifier("No sugar", Decimal(0)))
    assert products[2].active is False
    # an EAN-13 is a product's code even when it passes Luhn too (one in ten does)
    assert products[2].barcodes == ("300", "4006381333924")
    again = read_sheet(write_sheet(products).encode(), FRAME)
    assert sorted(again, key=lambda p: p.sku) == sorted(products, key=lambda p: p.sku)
    assert write_sheet(products).splitlines()[0] == ",".join(HEADER)
    # a spreadsheet's byte-order mark, columns in another order, a blank line
    shuffled = "\ufeffname,sku,price,category,tax_class,barcodes,active,variant_of,modifiers\n\n" \
               "Tea,TEA,2.00,Coffee,reduced,,,,\n"
    assert read_sheet(shuffled.encode(), FRAME)[0].sku == "TEA"


@pytest.mark.parametrize(("row", "column", "rule"), [
    ("LAT,=HYPERLINK(\"x\"),3.20,Coffee,reduced,,yes,,", "name", "looks like a formula"),
    ("LAT,Latte,3.20,Coffee,reduced,,yes,,@SUM(A1)", "modifiers", "looks like a formula"),
    ("LAT,+Latte,3.20,Coffee,reduced,,yes,,", "name", "looks like a formula"),
    ("LAT," + "x" * 41 + ",3.20,Coffee,reduced,,yes,,", "name", "at most 40 characters"),
    ("LAT,Latte,-3.20,Coffee,reduced,,yes,,", "price", "must not be negative"),
    ("LAT,Latte,3.205,Coffee,reduced,,yes,,", "price", "more than 2 decimals"),
    ("LAT,Latte,3.20,Cakes,reduced,,yes,,", "category", "'Cakes' is not a category"),
    ("LAT,Latte,3.20,Coffee,luxury,,yes,,", "tax_class", "'luxury' is not a tax class"),
    ("LAT,Latte,3.20,Coffee,reduced,,maybe,,", "active", "must be yes or no"),
    ("LAT,Latte,3.20,Coffee,reduced,,yes,NOPE,", "variant_of", "not another sku"),
    ("LAT,Latte,3.20,Coffee,reduced,,yes,,Extra shot", "modifiers", "NAME=CHANGE"),
    ("LAT,Latte,3.20,Coffee,reduced,4111 1111 1111 1111,yes,,", "barcodes", "1 to 32 letters"),
    ("LAT,Visa 4111111111111111,3.20,Coffee,reduced,,yes,,", "name", "card number"),
    ("T EA,Latte,3.20,Coffee,reduced,,yes,,", "sku", "1 to 32 letters"),
    ("LAT,Latte,3.20,Coffee,reduced,999,yes,,", "barcodes", "OLD's barcode in the catalog"),
    ("LAT,Latte,3.20,Coffee,reduced,4006381333908,yes,,", "barcodes", "card number"),
    ("LAT,Latte,3.20,Coffee,reduced,4111111111111111,yes,,", "barcodes", "card number"),
    ("4111111111111111,Latte,3.20,Coffee,reduced,,yes,,", "sku", "card number"),
    ("LAT,Latte,3.20,Coffee,reduced,,yes", "row", "has 7 cells"),
])
def test_a_bad_row_is_refused_with_its_line_column_and_rule(row: str, column: str,
                                                            rule: str) -> None:
    text = GOOD + (row.replace("LAT,", "TEA,", 1) if row.startswith("LAT,") else row) + "\n"
    error = refused(text)
    assert (error.line, error.column) == (5, column), str(error)
    assert rule in error.rule and str(error).startswith(f"line 5, {column}: ")


def test_duplicates_bad_utf8_and_bad_headers_are_refused_whole() -> None:
    dup = refused(GOOD + "LAT,Latte again,3.00,Coffee,reduced,,yes,,\n")
    assert (dup.line, dup.column) == (5, "sku") and "on line 2 already" in dup.rule
    code = refused(GOOD + "TEA,Tea,2.00,Coffee,reduced,7|112,yes,,\n")
    assert (code.line, code.column) == (5, "barcodes") and "112 is on line 3" in code.rule
    utf = refused(GOOD.encode() + b"TEA,T\xe9a,2.00,Coffee,reduced,,yes,,\n")
    assert (utf.line, utf.column) == (5, "name") and "not valid UTF-8" in utf.rule
    missing = refused("sku,name,price\nLAT,Latte,3.20\n")
    assert missing.line == 1 and missing.column == "category"
    extra = refused(GOOD.replace("modifiers\n", "modifiers,colour\n", 1))
    assert extra.line == 1 and extra.column == "colour"
    assert refused("").line == 1
    assert "no products" in refused(GOOD.splitlines()[0] + "\n").rule
    quoted = refused(GOOD + 'TEA,"Te"a,2.00,Coffee,reduced,,yes,,\n')
    assert quoted.line == 5 and "not CSV" in quoted.rule


def test_the_training_catalog_is_a_small_cafe_and_shop() -> None:
    catalog = training_catalog()
    assert 55 <= len(catalog.products) <= 70 and len(catalog.categories) == 6
    assert {t.name for t in catalog.tax_classes} == {"reduced", "standard"}
    assert catalog.variants("LAT") and catalog.product("LAT").modifiers  # type: ignore[union-attr]
    for p in catalog.products:  # no barcode could read as a card number at rest
        assert all(len(code) < 13 for code in p.barcodes)


# ---- the promotions sheet (issue #38) ------------------------------------------------------------
PROMOS = ("name,kind,skus,category,quantity,price,buy,get,percent,amount,threshold,days,start,"
          "end,stacks\n"
          "Happy hour,category_percent,,Coffee,,,,,20,,,mon|tue|wed|thu|fri,16:00,18:00,no\n"
          "3 for 5,quantity_price,LAT|MUG,,3,5.00,,,,,,,,,no\n"
          "Mug deal,buy_x_get_y,,Shop,,,2,1,,,,,,,yes\n"
          "Big spender,spend_discount,,,,,,,,2.50,30.00,sat|sun,,,no\n")


def test_a_promotions_sheet_reads_every_kind_and_round_trips() -> None:
    from datetime import time

    from cashier.catalog.promotion_sheet import read_promotions, write_promotions
    from cashier.discounts import Promotion, happy_hour

    skus, categories = {"LAT", "MUG"}, {"Coffee", "Shop"}
    promos = read_promotions(PROMOS.encode(), skus, categories)
    assert promos[0] == happy_hour("Coffee", Decimal(20))
    assert promos[1] == Promotion("3 for 5", "quantity_price", skus=("LAT", "MUG"), quantity=3,
                                  price=Decimal("5.00"))
    assert promos[2] == Promotion("Mug deal", "buy_x_get_y", category="Shop", buy=2, get=1,
                                  stacks=True)
    assert promos[3] == Promotion("Big spender", "spend_discount", amount=Decimal("2.50"),
                                  threshold=Decimal("30.00"), days=(5, 6))
    assert promos[0].start == time(16) and promos[0].end == time(18)
    again = write_promotions(promos)
    assert read_promotions(again.encode(), skus, categories) == sorted(promos,
                                                                       key=lambda p: p.name)
    assert write_promotions(read_promotions(again.encode(), skus, categories)) == again
    assert read_promotions(PROMOS.splitlines()[0].encode(), skus, categories) == []  # none: all end


def test_a_bad_promotions_sheet_names_its_line_column_and_rule() -> None:
    from cashier.catalog.promotion_sheet import read_promotions

    def bad(row: str) -> SheetError:
        with pytest.raises(SheetError) as caught:
            read_promotions((PROMOS + row).encode(), {"LAT", "MUG"}, {"Coffee", "Shop"})
        return caught.value

    assert (bad("X,quantity_price,TEA,,3,5.00,,,,,,,,,no\n").field
            == "line 6, skus")
    assert bad("X,quantity_price,,,3,5.00,,,,,,,,,no\n").rule.startswith("name the skus")
    assert bad("X,quantity_price,LAT,,1,5.00,,,,,,,,,no\n").field == "line 6, kind"
    assert bad("X,category_percent,,Coffee,,,,,101,,,,,,no\n").field == "line 6, percent"
    assert bad("X,category_percent,,Coffee,,,,,10,,,,,,maybe\n").field == "line 6, stacks"
    assert bad("X,category_percent,,Coffee,,,,,-5,,,,,,no\n").rule == "must not be negative"
    assert bad("X,spend_discount,,,,,,,,,30.00,,,,no\n").field == "line 6, kind"
    assert bad("X,quantity_price,LAT,,two,5.00,,,,,,,,,no\n").field == "line 6, quantity"
    assert bad("Happy hour,quantity_price,LAT,,3,5.00,,,,,,,,,no\n").rule.endswith(
        "on line 2 already: one row per promotion")
    with pytest.raises(SheetError) as caught:
        read_promotions(b"name,kind\n", set(), set())
    assert caught.value.field == "line 1, skus"


def test_a_tills_copy_keeps_promotions_and_reasons_and_drops_an_ended_one(tmp_path: Any) -> None:
    import json

    from cashier.catalog.rules import promotion_to_wire
    from cashier.catalog.till_copy import TillCatalogCopy, merged
    from cashier.discounts import DEFAULT_REASONS, happy_hour

    hour = happy_hour("Coffee")
    whole = {"version": 3, "full": True, "products": [], "categories": [], "tax_classes": [],
             "promotions": [promotion_to_wire(hour)], "reasons": [{"name": "staff"}]}
    changes = {"version": 4, "full": False, "promotions": [promotion_to_wire(hour, active=False)],
               "reasons": [{"name": "manager"}]}
    with TillCatalogCopy(tmp_path / "copy.sqlite") as copy:
        copy.save_whole(3, json.dumps(whole))
        held = copy.load()
        assert held is not None and held.promotions == (hour,) and held.reasons == ("staff",)
        copy.save_changes(4, changes)
        later = copy.load()
        assert later is not None and later.promotions == () and later.reasons == (
            "staff", "manager")
    assert merged(held, changes).promotions == () and merged(held, changes).reasons == (
        "staff", "manager")
    # a store that never wrote a reason: its three
    assert Catalog(1, ()).reasons == DEFAULT_REASONS


def test_the_training_catalog_has_a_happy_hour_and_a_quantity_price() -> None:
    from datetime import datetime

    from cashier.discounts import PriceLine, in_force, price_ticket

    catalog = training_catalog()
    assert {p.name for p in catalog.promotions} == {"Happy hour", "3 cookies for 4.50"}

    def line(sku: str, quantity: int = 1) -> PriceLine:
        p = catalog.product(sku)
        assert p is not None
        return PriceLine(p.price, quantity, p.tax_class, catalog.tax_rate(p.tax_class), p.sku,
                         p.category)

    monday_5pm, monday_noon = datetime(2026, 11, 23, 17), datetime(2026, 11, 23, 12)
    lines = [line("COL", 2), line("CCK", 3)]  # two colas 3.80, three cookies 5.40
    within = price_ticket(lines, promotions=in_force(catalog.promotions, monday_5pm))
    assert within.promotions == {"Happy hour": Decimal("0.76"), "3 cookies for 4.50": Decimal("0.90")}
    outside = price_ticket(lines, promotions=in_force(catalog.promotions, monday_noon))
    assert outside.promotions == {"3 cookies for 4.50": Decimal("0.90")}
