"""Catalogs for the counter's tests and pictures: a small café and shop with categories, a
favourite, variants and modifiers (the training till's own catalog is another's)."""

from __future__ import annotations

from decimal import Decimal

from cashier.catalog import Catalog, Category, Modifier, Product, TaxClass

SHOT = Modifier("Extra shot", Decimal("0.50"))
OAT = Modifier("Oat milk", Decimal("0.40"))
NO_SUGAR = Modifier("No sugar")
#: The croissant's barcode (a scanner types it, then Return).
CROISSANT_BARCODE = "7501031311309"


def cafe(version: int = 1, *, latte_large: str = "3.90") -> Catalog:
    """Espresso (a favourite, with modifiers), a latte in two sizes (the large one's price
    ``latte_large``) with the latte's modifiers, bakery, drinks and a shop shelf."""
    coffee, bakery, drinks, shop = "Coffee", "Bakery", "Drinks", "Shop"
    d = Decimal
    products = [
        Product("ESP", "Espresso", d("2.50"), coffee, modifiers=(SHOT, NO_SUGAR), favourite=True),
        Product("AME", "Americano", d("2.80"), coffee),
        Product("CAP", "Cappuccino", d("3.50"), coffee, modifiers=(SHOT, OAT, NO_SUGAR)),
        Product("LAT", "Latte", d("3.20"), coffee, modifiers=(SHOT, OAT, NO_SUGAR)),
        Product("LAT-S", "Latte small", d("3.20"), coffee, variant_of="LAT",
                modifiers=(SHOT, OAT, NO_SUGAR)),
        Product("LAT-L", "Latte large", d(latte_large), coffee, variant_of="LAT",
                modifiers=(SHOT, OAT, NO_SUGAR)),
        Product("CRO", "Croissant", d("2.20"), bakery, barcodes=(CROISSANT_BARCODE,), favourite=True),
        Product("MUF", "Blueberry muffin", d("2.60"), bakery),
        Product("BAG", "Bagel", d("2.40"), bakery),
        Product("OJ", "Orange juice", d("3.00"), drinks),
        Product("WAT", "Still water", d("1.50"), drinks),
        Product("TEA", "Green tea", d("2.30"), drinks),
        Product("BEANS", "Coffee beans 1kg", d("18.90"), shop, tax_class="reduced"),
        Product("MUG", "Mug", d("7.50"), shop),
        Product("OLD", "Discontinued mug", d("5.00"), shop, active=False),
    ]
    categories = [Category(coffee, 1, "#6F4E37"), Category(bakery, 2, "#E0A84C"),
                  Category(drinks, 3, "#2E7D9A"), Category(shop, 4, "#5B6B7B")]
    return Catalog.of_products(version, products, categories,
                               [TaxClass("standard", d("10")), TaxClass("reduced", d("4"))])

