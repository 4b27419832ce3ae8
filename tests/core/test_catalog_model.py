"""The catalog a till sells from: lookups, the grid's order, the search, a till without a store."""

from decimal import Decimal

import pytest

from cashier.catalog import Catalog, Category, Product, TaxClass, check_sku
from cashier.config import Product as ProfileProduct
from cashier.config import TillProfile
from cashier.errors import ValidationError


def _catalog() -> Catalog:
    return Catalog.of_products(3, [
        Product("LAT", "Latte", Decimal("3.50"), "coffee", "food", favourite=True),
        Product("LAT-S", "Latte small", Decimal("3.00"), "coffee", "food", ("111",), variant_of="LAT"),
        Product("LAT-L", "Latte large", Decimal("4.00"), "coffee", "food", ("112",), variant_of="LAT"),
        Product("AMR", "Americano", Decimal("2.50"), "coffee", "food", ("200",)),
        Product("MUG", "Mug", Decimal("9.00"), "shop", "standard", ("300",)),
        Product("OLD", "Old mug", Decimal("5.00"), "shop", "standard", ("301",), active=False),
    ], [Category("shop", 2), Category("coffee", 1)],
        [TaxClass("food", Decimal("5")), TaxClass("standard", Decimal("20"))])


def test_lookups_and_the_grid_order() -> None:
    c = _catalog()
    assert c.product("MUG") is not None and c.product("MUG").price == Decimal("9.00")  # type: ignore[union-attr]
    assert c.by_barcode("112") == c.product("LAT-L")
    assert c.by_barcode("301") is None  # an inactive product does not scan
    assert [p.sku for p in c.variants("LAT")] == ["LAT-S", "LAT-L"]
    assert [p.sku for p in c.in_category("coffee")] == ["LAT", "AMR"]  # favourite first, no variants
    assert [x.name for x in c.sorted_categories()] == ["coffee", "shop"]
    assert c.tax_rate("food") == Decimal("5")
    with pytest.raises(ValidationError, match="tax_class"):
        c.tax_rate("nope")


def test_search_puts_names_that_start_with_the_text_first() -> None:
    c = _catalog()
    assert [p.sku for p in c.search("MU")] == ["MUG"]
    assert [p.sku for p in c.search("a")] == ["AMR", "LAT"]  # Americano starts with a; Latte holds it
    assert c.search("  ") == []
    assert c.search("old") == []  # inactive


def test_a_till_without_a_store_sells_its_profile() -> None:
    profile = TillProfile(tax_rate=Decimal("7.5"),
                          products=[ProfileProduct(name="Tea", price=Decimal("2.00"),
                                                   barcode="4006381333931")])
    c = Catalog.from_profile(profile)
    assert c.version == 0
    tea = c.by_barcode("4006381333931")
    assert tea is not None and tea.name == "Tea" and tea.tax_class == "standard"
    assert c.tax_rate(tea.tax_class) == Decimal("7.5")


@pytest.mark.parametrize("sku", ["", "-a", "a b", "x" * 33, "é"])
def test_a_bad_sku_names_the_field(sku: str) -> None:
    with pytest.raises(ValidationError, match=r"^sku: "):
        check_sku(sku)


def test_a_source_takes_only_a_newer_version() -> None:
    from cashier.catalog import CatalogSource

    source = CatalogSource(Catalog(0, ()))
    assert source.replace(_catalog()) and source.current().version == 3
    assert not source.replace(Catalog(2, ()))  # a pull that crossed a newer one
    assert source.current().version == 3
