"""``cashier ticket new --sku SKU[xQTY] --barcode CODE`` (issue #37), the real command line: the
lines of the catalog the till sells from (a till without a store: its profile's products, version
0) in the order typed, each journaled with its sku, catalog version, unit price, tax class and rate
(``ticket show``, the journal export); a price-embedded EAN-13 sells at the label's price; an
unknown sku or barcode, a bad check digit: one line naming the option, nothing journaled."""

from __future__ import annotations

import json
from pathlib import Path

from cashier.catalog.scan import ean13_check_digit
from tests.support.profiles import write_profile
from tests.support.tills import cashier

PRODUCTS = ('tax_rate = "8.25"', 'price_embedded_prefixes = ["23"]',
            "[[till.products]]", 'name = "Milk 1l"', 'price = "1.29"', 'barcode = "4006381333931"',
            "[[till.products]]", 'name = "Cheese by weight"', 'price = "18.00"', 'barcode = "00042"')


def _profile(tmp_path: Path) -> str:
    return str(write_profile(tmp_path / "till.toml", host_url=None, journal=tmp_path / "j.sqlite",
                             extra=PRODUCTS))


def _label(item: str, cents: str, prefix: str = "23") -> str:
    code = prefix + item + cents
    return code + str(ean13_check_digit(code))


def test_skus_barcodes_and_a_weighed_label_in_the_order_typed(tmp_path: Path,
                                                              env: dict[str, str]) -> None:
    profile = _profile(tmp_path)
    assert cashier("--profile", profile, "drawer", "open", "--float", "100.00", env=env).returncode == 0
    label = _label("00042", "00349")  # 3.49 of cheese
    run = cashier("--profile", profile, "ticket", "new", "--sku", "00042x2", "--item", "Tea=1.00",
                  "--barcode", "4006381333931", "--barcode", label, "--pay", "cash=50.00", env=env)
    assert run.returncode == 0, run.stderr
    t = json.loads(run.stdout)
    lines = [(x["name"], x["quantity"], x["unit_price"], x["sku"], x["catalog_version"],
              x["tax_class"], x["tax_rate"]) for x in t["lines"]]
    assert lines == [("Cheese by weight", 2, "18.00", "00042", 0, "standard", "8.25"),
                     ("Tea", 1, "1.00", None, None, "standard", "8.25"),
                     ("Milk 1l", 1, "1.29", "4006381333931", 0, "standard", "8.25"),
                     ("Cheese by weight", 1, "3.49", "00042", 0, "standard", "8.25")]
    # 41.78 at 8.25 %: 3.446850, rounded once -> 3.45, the ticket's only class
    assert (t["subtotal"], t["tax"], t["total"]) == ("41.78", "3.45", "45.23")
    assert t["taxes"] == [{"tax_class": "standard", "rate": "8.25", "base": "41.78", "tax": "3.45"}]
    shown = json.loads(cashier("--profile", profile, "ticket", "show", str(t["ticket"]), env=env).stdout)
    assert shown["lines"] == t["lines"]
    export = json.loads(cashier("--profile", profile, "journal", "export", env=env).stdout)
    (exported,) = export["tickets"]
    assert exported["lines"] == t["lines"]
    added = [e["data"] for e in export["events"] if e["type"] == "ticket_line_added"]
    assert [(d["sku"], d["catalog_version"], d["unit_price"], d["tax_class"], d["tax_rate"])
            for d in added][3] == ("00042", 0, "3.49", "standard", "8.25")
    (paid,) = [e["data"] for e in export["events"] if e["type"] == "ticket_paid"]
    assert paid["taxes"] == [{"tax_class": "standard", "rate": "8.25", "tax": "3.45"}]


def test_an_unknown_code_is_one_line_and_nothing_is_journaled(tmp_path: Path,
                                                             env: dict[str, str]) -> None:
    profile = _profile(tmp_path)
    cases = [
        (["--sku", "NOPE"], "--sku: no product has sku NOPE in catalog version 0"),
        (["--sku", "a b"], "--sku: must be SKU or SKUxQTY"),
        (["--sku", "00042x0"], "--sku: quantity must be a whole number from 1 to 999"),
        (["--barcode", "5901234123457"], "--barcode: no product has barcode 5901234123457"),
        (["--barcode", "12;rm"], "--barcode: must be 1 to 32 letters, digits or '-'"),
        (["--barcode", _label("00042", "00349")[:-1] + "0"], "its check digit is wrong"),
        (["--barcode", _label("00099", "00100")], "item code 00099 is no product's sku"),
        (["--barcode", _label("00042", "00100", prefix="24")], "this till's prefixes: 23"),
    ]
    for args, said in cases:
        run = cashier("--profile", profile, "ticket", "new", "--item", "Tea=1.00", *args, "--pay",
                      "card", env=env)
        assert run.returncode == 2, (args, run.stderr)
        (line,) = run.stderr.strip().splitlines()
        assert said in line, (args, line)
    listed = cashier("--profile", profile, "ticket", "list", env=env)
    assert json.loads(listed.stdout) == {"tickets": []}  # nothing added, nothing journaled
    export = json.loads(cashier("--profile", profile, "journal", "export", env=env).stdout)
    assert export["entries"] == [] and not [e for e in export["events"]
                                            if e["type"].startswith("ticket")]
