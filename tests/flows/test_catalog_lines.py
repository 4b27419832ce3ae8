"""Ticket lines from the catalog and per-item tax (issue #37), through the in-process sandbox: each
line journals its sku, catalog version, unit price, tax class and rate; a price changed while the
ticket is open never changes a line already on it; the ticket's tax is the sum by class (one
rounding per class), the receipt prints each rate, the X report breaks it down by class, and the
host is asked for the ticket's tax (``amount.tax``) across its tenders."""

from __future__ import annotations

import dataclasses
from decimal import Decimal as D
from typing import Any

import pytest

from cashier.catalog import Catalog, Category, Modifier, Product, TaxClass
from cashier.errors import ValidationError
from cashier.flows.payments import KeyedCard
from cashier.flows.ticket import Tender, TicketSession, TicketSettings, load, receipt_lines, refund_ticket
from tests.support.tills import open_drawer

VISA = KeyedCard("4321000000001119", "1228")
EXTRA = Modifier("extra shot", D("0.50"))
LATTE = Product("LATTE", "Latte", D("4.00"), category="coffee", tax_class="standard",
                barcodes=("2001",), modifiers=(EXTRA, Modifier("no sugar")))
BREAD = Product("BREAD", "Bread", D("2.50"), category="bakery", tax_class="reduced", barcodes=("2002",))


def catalog(version: int, latte_price: str = "4.00", **kw: Any) -> Catalog:
    latte = dataclasses.replace(LATTE, price=D(latte_price))
    return Catalog.of_products(version, [latte, BREAD], [Category("coffee"), Category("bakery")],
                               [TaxClass("standard", D("8.25")), TaxClass("reduced", D("5"))])


def sells(till: Any, cat: Catalog) -> None:
    """The store's pull, as the till's catalog copy swaps it in (a newer version, whole)."""
    assert till.ctx.catalog.replace(cat)


async def test_each_line_journals_what_it_was_sold_as_and_keeps_it(make_till: Any) -> None:
    till = await make_till("HD")
    sells(till, catalog(3))
    s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("8.25")))
    await s.add_product(LATTE, modifiers=(EXTRA,))
    await s.add_product(BREAD, quantity=2)
    await s.add_line("Tea", D("1.00"))  # typed: the till's default class, at the ticket's rate
    sells(till, catalog(4, latte_price="5.00"))  # a price changed at the store, ticket open
    t = await s.add_product(LATTE)
    shown = t.as_dict()["lines"]
    assert [(x["sku"], x["catalog_version"], x["unit_price"], x["tax_class"], x["tax_rate"])
            for x in shown] == [("LATTE", 3, "4.50", "standard", "8.25"),
                                ("BREAD", 3, "2.50", "reduced", "5"),
                                (None, None, "1.00", "standard", "8.25"),
                                ("LATTE", 4, "5.00", "standard", "8.25")]
    assert shown[0]["modifiers"] == ["extra shot"] and "modifiers" not in shown[1]
    # read back from the journal file, not the writer's held copy: the same
    again = (await load(till.ctx, s.id)).as_dict()["lines"]
    assert again == shown
    # tax by class, each rounded once: standard 10.50 * 8.25 % = 0.86625, reduced 5.00 * 5 % = 0.25
    assert [(x.tax_class, x.base, x.tax) for x in t.taxes] == [
        ("reduced", D("5.00"), D("0.25")), ("standard", D("10.50"), D("0.87"))]
    assert (t.subtotal, t.tax, t.total) == (D("15.50"), D("1.12"), D("16.62"))
    paid = await s.pay(Tender("card", card=VISA))
    assert paid.state == "paid"
    (tender,) = paid.tenders
    host = (await till.ledger())[tender.invoice or ""]
    assert (host["requestedAmount"], host["tax"]) == ("16.62", "1.12")  # amount.tax: the ticket's
    receipt = "\n".join(receipt_lines(paid, width=40))
    assert "Tax 5%" in receipt and "Tax 8.25%" in receipt and "+ extra shot" in receipt


async def test_a_split_ticket_sends_its_tax_once_across_its_tenders(make_till: Any) -> None:
    till = await make_till("HD")
    open_drawer(till.rt.profile)
    sells(till, catalog(1))
    s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("8.25")))
    await s.add_product(LATTE, quantity=3)
    t = await s.add_product(BREAD, quantity=3)
    assert (t.tax, t.total) == (D("1.37"), D("20.87"))  # 0.99 + 0.375 -> 0.38
    await s.pay(Tender("card", D("10.00"), card=VISA))
    t = await s.pay(Tender("cash", D("20.00")))
    assert t.state == "paid"
    entries = {e.id: e for e in t.record.entries}
    card, cash = (entries[x.entry_id] for x in t.tenders)
    assert card.tax == D("0.66")  # 1.37 * 10.00 / 20.87 = 0.6564
    assert cash.tax == D("0.71")  # the rest of the ticket's tax rides on the tender paying the rest
    host = (await till.ledger())[card.invoice or ""]
    assert host["tax"] == "0.66"


async def test_refunding_a_line_gives_back_its_own_classs_tax(make_till: Any) -> None:
    till = await make_till("HD")
    sells(till, catalog(1))
    s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("8.25")))
    await s.add_product(LATTE, quantity=2)
    await s.add_product(BREAD, quantity=2)
    t = await s.pay(Tender("card", card=VISA))
    assert t.state == "paid" and t.tax == D("0.91")  # 0.66 + 0.25
    back = await refund_ticket(till.ctx, t.id, lines=[1])  # the bread: 5.00 and its 5 %
    assert [e.approved for e in back.refunds] == [D("5.25")]


async def test_a_product_not_sold_now_or_an_unknown_modifier_adds_nothing(make_till: Any) -> None:
    till = await make_till("HD")
    sells(till, catalog(2))
    s = await TicketSession.start(till.ctx, TicketSettings())
    gone = Product("GONE", "Gone", D("1.00"))
    with pytest.raises(ValidationError, match="sku: GONE is not sold at this till"):
        await s.add_product(gone)
    with pytest.raises(ValidationError, match="modifier: oat milk is not a modifier of LATTE"):
        await s.add_product(LATTE, modifiers=(Modifier("oat milk", D("0.40")),))
    sells(till, Catalog.of_products(5, [dataclasses.replace(BREAD, active=False)],
                                    tax_classes=[TaxClass("reduced", D("5"))]))
    with pytest.raises(ValidationError, match="sku: BREAD is not sold"):
        await s.add_product(BREAD)
    assert (await load(till.ctx, s.id)).lines == ()


async def test_a_ticket_of_typed_lines_is_taxed_as_before(make_till: Any) -> None:
    """Only typed lines: one class, the till's one rate, rounded once on the subtotal, the
    receipt's one "Tax" row; and the host is asked for that tax."""
    till = await make_till("HD")
    s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("8.25")))
    await s.add_line("Coffee", D("3.50"), 2)
    t = await s.add_line("Bagel", D("1.00"))
    assert (t.tax, t.total) == (D("0.66"), D("8.66"))  # 8.00 * 8.25 % = 0.66
    assert [(x.tax_class, x.rate) for x in t.taxes] == [("standard", D("8.25"))]
    t = await s.pay(Tender("card", card=VISA))
    text = receipt_lines(t, width=32)
    assert [x for x in text if x.startswith("Tax")] == ["Tax" + "0.66".rjust(29)]
    assert (await till.ledger())[t.tenders[0].invoice or ""]["tax"] == "0.66"


async def test_prices_with_the_tax_in_them_per_the_store(make_till: Any) -> None:
    till = await make_till("HD")
    sells(till, dataclasses.replace(catalog(6), prices_include_tax=True))
    s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("8.25")))  # profile: added
    await s.add_product(LATTE, quantity=2)
    t = await s.add_product(BREAD)
    # 8.00 * 8.25 / 108.25 = 0.6097, 2.50 * 5 / 105 = 0.1190
    assert (t.record.tax_included, t.tax, t.total) == (True, D("0.73"), D("10.50"))
    t = await s.pay(Tender("card", card=VISA))
    host = (await till.ledger())[t.tenders[0].invoice or ""]
    assert (host["requestedAmount"], host["tax"]) == ("10.50", "0.73")
    assert "Tax included 8.25%" in "\n".join(receipt_lines(t, width=40))


async def test_the_x_report_breaks_the_tax_down_by_class(make_till: Any) -> None:
    from cashier.cashdesk import open_recorder
    from cashier.drawer import Drawer
    from cashier.reports import report_csv, report_text, x_report

    till = await make_till("HD")
    open_drawer(till.rt.profile)
    sells(till, catalog(1))
    for _ in range(2):  # two tickets: 0.33 + 0.13 each, by class; the day's tax is their sum
        s = await TicketSession.start(till.ctx, TicketSettings(tax_rate=D("8.25")))
        await s.add_product(LATTE)
        await s.add_product(BREAD, quantity=1)
        await s.add_line("Tea", D("0.10"))  # typed: the standard class at 8.25 %
        assert (await s.pay(Tender("cash", D("20.00")))).tax == D("0.47")  # 0.3383->0.34, 0.125->0.13
    store = open_recorder(till.rt.profile)
    try:
        report = x_report(store, Drawer(store, till.rt.profile.roster))
    finally:
        store.close()
    assert report["tax"] == "0.94"
    assert report["tax_by_class"] == [{"tax_class": "reduced", "rate": "5", "tax": "0.26"},
                                      {"tax_class": "standard", "rate": "8.25", "tax": "0.68"}]
    text = "\n".join(report_text(report, 42))
    assert "standard 8.25%" in text and "reduced 5%" in text
    assert "tax_by_class,standard 8.25%,,0.68" in report_csv(report).splitlines()


async def test_a_scan_at_the_sale_screen_resolves_through_the_catalog(make_till: Any) -> None:
    """SaleEntry's barcode path: the catalog sold from now (``by_barcode``), then a price-embedded
    label of the profile's prefixes; not the profile's product list."""
    from cashier.catalog.scan import ean13_check_digit
    from cashier.flows.sale_entry import Act, Key, SaleEntry
    from cashier.money import CentsBuffer

    till = await make_till("HD")
    sells(till, catalog(7))
    e = SaleEntry(CentsBuffer(), CentsBuffer(), prefixes=("23",),
                  context=lambda: (till.ctx, TicketSettings(tax_rate=D("8.25"))))

    def scan(code: str) -> Act:
        for digit in code:
            e.key(Key.DIGIT, digit)
        return e.key(Key.RETURN)

    assert scan("2002") is Act.SCAN and e.found is not None and e.found.product.sku == "BREAD"
    t = await e.add_scanned()
    label = "2300000"  # item code 00000: no product's sku, nothing added
    assert scan(label + "00125" + str(ean13_check_digit(label + "00125"))) is Act.AMOUNT
    sells(till, Catalog.of_products(8, [*catalog(8).products, Product(
        "00077", "Cheese by weight", D("18.00"), tax_class="reduced")],
        tax_classes=catalog(8).tax_classes))
    code = "230007700349"
    code += str(ean13_check_digit(code))
    assert scan(code) is Act.SCAN and e.found is not None and e.found.price == D("3.49")
    t = await e.add_scanned()
    assert [(x.sku, x.catalog_version, x.unit_price, x.tax_class) for x in t.lines] == [
        ("BREAD", 7, D("2.50"), "reduced"), ("00077", 8, D("3.49"), "reduced")]
    bad = code[:-1] + str((int(code[-1]) + 1) % 10)
    assert scan(bad) is Act.AMOUNT  # a wrong check digit finds nothing: the digits stay typed
    e.amount.clear()
    assert scan("4006381333931") is Act.AMOUNT  # the profile's list is not asked any more
