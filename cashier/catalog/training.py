"""The training catalog: a small café and shop a new cashier rehearses on (issue #37).

Its products are a data file in the package (``training.csv``, in the import's own format: the
README's example at full size); its six categories and two tax classes are here; its promotions
(issue #38: a happy hour, 20 % off the cold drinks 16:00 to 18:00 on weekdays, and 3 cookies for
4.50) are ``training_promotions.csv``, in the promotions sheet's format. The training
till (no store) sells from it when its profile lists no ``products``; ``cashier store serve
--training-catalog`` (``make store``) starts an empty store with it.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from importlib import resources

from cashier.catalog.model import Catalog, Category, TaxClass
from cashier.catalog.promotion_sheet import read_promotions
from cashier.catalog.sheet import read_sheet

CATEGORIES = (Category("Coffee", 1, "#8E5B3E"), Category("Tea", 2, "#5E8C4A"),
              Category("Cold drinks", 3, "#2F7DB3"), Category("Bakery", 4, "#C58B2B"),
              Category("Sandwiches", 5, "#A0483A"), Category("Shop", 6, "#6B5B95"))
TAX_CLASSES = (TaxClass("reduced", Decimal(10)), TaxClass("standard", Decimal(20)))


def training_sheet() -> bytes:
    return resources.files("cashier.catalog").joinpath("training.csv").read_bytes()


def training_promotions_sheet() -> bytes:
    return resources.files("cashier.catalog").joinpath("training_promotions.csv").read_bytes()


@cache
def training_catalog(version: int = 0) -> Catalog:
    """The café and shop, checked by the import's own rules (a bad row here fails a test)."""
    frame = Catalog(0, (), CATEGORIES, TAX_CLASSES)
    products = tuple(read_sheet(training_sheet(), frame))
    promotions = read_promotions(training_promotions_sheet(), {p.sku for p in products},
                                 {c.name for c in CATEGORIES})
    return Catalog(version, products, CATEGORIES, TAX_CLASSES, promotions=tuple(promotions))
