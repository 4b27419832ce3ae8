"""The training catalog: a small café and shop a new cashier rehearses on (issue #37).

Its products are a data file in the package (``training.csv``, in the import's own format: the
README's example at full size); its six categories and two tax classes are here. The training
till (no store) sells from it when its profile lists no ``products``; ``cashier store serve
--training-catalog`` (``make store``) starts an empty store with it.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from importlib import resources

from cashier.catalog.model import Catalog, Category, TaxClass
from cashier.catalog.sheet import read_sheet

CATEGORIES = (Category("Coffee", 1, "#8E5B3E"), Category("Tea", 2, "#5E8C4A"),
              Category("Cold drinks", 3, "#2F7DB3"), Category("Bakery", 4, "#C58B2B"),
              Category("Sandwiches", 5, "#A0483A"), Category("Shop", 6, "#6B5B95"))
TAX_CLASSES = (TaxClass("reduced", Decimal(10)), TaxClass("standard", Decimal(20)))


def training_sheet() -> bytes:
    return resources.files("cashier.catalog").joinpath("training.csv").read_bytes()


@cache
def training_catalog(version: int = 0) -> Catalog:
    """The café and shop, checked by the import's own rules (a bad row here fails a test)."""
    frame = Catalog(0, (), CATEGORIES, TAX_CLASSES)
    return Catalog(version, tuple(read_sheet(training_sheet(), frame)), CATEGORIES, TAX_CLASSES)
