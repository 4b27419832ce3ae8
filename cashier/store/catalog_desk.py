"""The Manager screen's Catalog part, without Qt: search the till's catalog, change a product's
price, name, category or active flag, add a product. The window only shows and asks; the rules
are the catalog's (``cashier.catalog.rules``), the store checks them again, and every write needs
a store manager's session (the PIN the store checks against its own roster).

Blocking calls (the network): the window runs them off its loop (``asyncio.to_thread``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from cashier.catalog.model import Catalog, CatalogSource, Product, check_sku
from cashier.catalog.rules import (
    BARCODE_SEPARATOR,
    check_name,
    check_price,
    product_from_wire,
)
from cashier.config import TillProfile
from cashier.errors import CashierError, ValidationError
from cashier.store.catalog import ProductChange
from cashier.store.catalog_pull import CatalogWriter, pull

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Saved:
    """A change the store took: its new version and the product's sku."""

    version: int
    sku: str


class CatalogDesk:
    def __init__(self, profile: TillProfile, source: CatalogSource) -> None:
        self.profile = profile
        self.source = source

    @property
    def catalog(self) -> Catalog:
        return self.source.current()

    @property
    def linked(self) -> bool:
        """Whether this till's catalog is the store's (else it is its profile's: read only)."""
        return bool(self.profile.store_url) and not self.profile.is_training

    def find(self, text: str) -> list[Product]:
        return self.catalog.find(text)

    def category_names(self) -> list[str]:
        return [c.name for c in self.catalog.sorted_categories()]

    def tax_class_names(self) -> list[str]:
        return [t.name for t in self.catalog.tax_classes]

    def change_of(self, sku: str, *, name: str, price: str, category: str,
                  active: bool) -> ProductChange:
        """The fields as the window's form holds them, as a change of what differs (refused:
        the first field that breaks its rule, or nothing changed)."""
        product = self.catalog.product(check_sku(sku))
        if product is None:
            raise ValidationError("sku", f"{sku} is not a product of this till's catalog")
        new_name = check_name(name)
        new_price = check_price(price.strip())
        new_category = check_name(category, "category")
        change = ProductChange(
            product.sku,
            price=None if new_price == product.price else new_price,
            name=None if new_name == product.name else new_name,
            category=None if new_category == product.category else new_category,
            active=None if active == product.active else active)
        if change == ProductChange(product.sku):
            raise ValidationError("change", "nothing to change: edit the price, name, category "
                                            "or active")
        return change

    def product_of(self, *, sku: str, name: str, price: str, category: str, tax_class: str,
                   barcodes: str) -> Product:
        """A new product from the form (every rule checked; the store checks them again)."""
        raw: dict[str, Any] = {
            "sku": sku.strip(), "name": name, "price": price.strip(), "category": category,
            "tax_class": tax_class, "active": True,
            "barcodes": [c.strip() for c in barcodes.split(BARCODE_SEPARATOR) if c.strip()]}
        product = product_from_wire(raw, "product")
        if self.catalog.product(product.sku) is not None:
            raise ValidationError("sku", f"{product.sku} is a product already")
        return product

    def change(self, session: str, change: ProductChange) -> Saved:
        with CatalogWriter(self.profile, session) as writer:
            answer = writer.change(change)
        return self._follow(answer, change.sku)

    def add(self, session: str, product: Product) -> Saved:
        with CatalogWriter(self.profile, session) as writer:
            answer = writer.add_product(product)
        return self._follow(answer, product.sku)

    def _follow(self, answer: dict[str, Any], sku: str) -> Saved:
        """The till takes what it just wrote at once (the next sale charges it); a pull that
        fails now is the follower's to repeat: the store has the change either way."""
        version = int(answer.get("version") or 0)
        try:
            pull(self.profile, self.source)
        except CashierError as exc:
            log.warning("catalog: version %s written, not pulled yet: %s", version, exc)
        return Saved(version, sku)
