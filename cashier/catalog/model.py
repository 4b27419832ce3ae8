"""The catalog a till sells from: one immutable version, indexed by sku, barcode and name.

Why immutable: a price changed at the store arrives as a new ``Catalog``; a line already on a
ticket keeps the sku, version and unit price it was sold at (the journal holds them), so nothing
here is ever updated in place. The indices are built once per version, so the counter's search
per keystroke and a barcode's lookup never scan what they need not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from cashier.discounts import DEFAULT_REASONS, Promotion
from cashier.errors import ValidationError

#: The tax class of a till without a store: the profile's one ``tax_rate`` (the rule's name is
#: the money rules', ``cashier.money.DEFAULT_TAX_CLASS``: a typed line's class too).
from cashier.money import DEFAULT_TAX_CLASS as DEFAULT_TAX_CLASS

if TYPE_CHECKING:
    from cashier.config import TillProfile

#: A sku: letters, digits and ``_ . -``, 1 to 32 of them (it rides in a CSV, a URL and a barcode).
SKU_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
#: A barcode as a scanner types it.
BARCODE_PATTERN = re.compile(r"^[0-9A-Za-z-]{1,32}$")
NAME_MAX = 40
#: The category of a till without a store (its profile's ``products``).
DEFAULT_CATEGORY = "products"


def check_sku(sku: str, field_name: str = "sku") -> str:
    if not SKU_PATTERN.fullmatch(sku):
        raise ValidationError(field_name, "must be 1 to 32 letters, digits, '_', '.' or '-'")
    return sku


@dataclass(frozen=True)
class TaxClass:
    """A tax class: its name and its rate in percent (``10`` is 10 %)."""

    name: str
    rate: Decimal


@dataclass(frozen=True)
class Category:
    """A category of the grid: its order in the row and its buttons' colour (``#RRGGBB``)."""

    name: str
    order: int = 0
    colour: str = "#5B6B7B"


@dataclass(frozen=True)
class Modifier:
    """A choice on a product ("extra shot" +0.50, "no sugar" 0.00)."""

    name: str
    price_change: Decimal = Decimal(0)


@dataclass(frozen=True)
class Product:
    """One sku. A variant names its parent (``variant_of``): the grid shows the parent's button
    and asks which variant; the variant is what is sold (its own sku, price and barcodes)."""

    sku: str
    name: str
    price: Decimal
    category: str = DEFAULT_CATEGORY
    tax_class: str = DEFAULT_TAX_CLASS
    barcodes: tuple[str, ...] = ()
    active: bool = True
    variant_of: str | None = None
    modifiers: tuple[Modifier, ...] = ()
    favourite: bool = False

    @property
    def barcode(self) -> str:
        """The first barcode (what a till without a store's profile had as its one barcode)."""
        return self.barcodes[0] if self.barcodes else ""


@dataclass(frozen=True)
class Catalog:
    """One version of the store's catalog. ``version`` 0 is a till's profile, without a store."""

    version: int
    products: tuple[Product, ...]
    categories: tuple[Category, ...] = ()
    tax_classes: tuple[TaxClass, ...] = ()
    #: whether the store's prices include the tax (issue #37); None: the till's profile says
    #: (``prices_include_tax``), as for a till without a store
    prices_include_tax: bool | None = None
    #: the promotions the till applies by themselves as lines change (issue #38)
    promotions: tuple[Promotion, ...] = ()
    #: the reasons a discount or a price override may give (issue #38: a new store's three)
    reasons: tuple[str, ...] = DEFAULT_REASONS
    _by_sku: dict[str, Product] = field(default_factory=dict, init=False, repr=False, compare=False)
    _by_barcode: dict[str, Product] = field(default_factory=dict, init=False, repr=False,
                                            compare=False)
    _names: tuple[tuple[str, Product], ...] = field(default=(), init=False, repr=False,
                                                    compare=False)
    _variants: dict[str, tuple[Product, ...]] = field(default_factory=dict, init=False,
                                                      repr=False, compare=False)
    _by_category: dict[str, tuple[Product, ...]] | None = field(default=None, init=False,
                                                                 repr=False, compare=False)

    def __post_init__(self) -> None:
        by_sku = {p.sku: p for p in self.products}
        by_barcode = {code: p for p in self.products if p.active for code in p.barcodes}
        variants: dict[str, list[Product]] = {}
        for p in self.products:
            if p.variant_of is not None and p.active:
                variants.setdefault(p.variant_of, []).append(p)
        # what the grid and the search show: active products that are not a variant of another
        shown = [p for p in self.products if p.active and p.variant_of is None]
        shown.sort(key=lambda p: (not p.favourite, p.name.casefold()))
        object.__setattr__(self, "_by_sku", by_sku)
        object.__setattr__(self, "_by_barcode", by_barcode)
        object.__setattr__(self, "_names", tuple((p.name.casefold(), p) for p in shown))
        object.__setattr__(self, "_variants", {k: tuple(v) for k, v in variants.items()})

    def product(self, sku: str) -> Product | None:
        return self._by_sku.get(sku)

    def by_barcode(self, code: str) -> Product | None:
        return self._by_barcode.get(code)

    def variants(self, sku: str) -> tuple[Product, ...]:
        """The active variants of a product (empty: it is sold as itself)."""
        return self._variants.get(sku, ())

    def tax_rate(self, tax_class: str) -> Decimal:
        for tc in self.tax_classes:
            if tc.name == tax_class:
                return tc.rate
        raise ValidationError("tax_class", "is not one of the catalog's tax classes")

    def in_category(self, category: str) -> list[Product]:
        """The category's buttons, favourites first, then by name."""
        return [p for _, p in self._names if p.category == category]

    def category_buttons(self, category: str) -> tuple[Product, ...]:
        """``in_category``, every category's made in one pass the first time one is asked (the
        counter switches categories often; a version is never changed)."""
        if self._by_category is None:
            grouped: dict[str, list[Product]] = {}
            for _, p in self._names:
                grouped.setdefault(p.category, []).append(p)
            object.__setattr__(self, "_by_category", {k: tuple(v) for k, v in grouped.items()})
        assert self._by_category is not None
        return self._by_category.get(category, ())

    def holding(self, text: str, within: Sequence[tuple[str, Product]] | None = None,
                ) -> tuple[tuple[str, Product], ...]:
        """The (name, product) pairs ``search`` looks through whose name holds ``text``, in its
        order; ``within``: the pairs a shorter text found (a letter typed only narrows them)."""
        needle = text.strip().casefold()
        return tuple(pair for pair in (self._names if within is None else within) if needle in pair[0])

    def search(self, text: str, limit: int = 50,
               within: Sequence[tuple[str, Product]] | None = None) -> list[Product]:
        """Products whose name holds ``text`` (any case), names that start with it first
        (``within``: only among these pairs, from ``holding``)."""
        needle = text.strip().casefold()
        if not needle:
            return []
        starts: list[Product] = []
        holds: list[Product] = []
        for name, p in (self._names if within is None else within):
            at = name.find(needle)
            if at == 0:
                starts.append(p)
                if len(starts) >= limit:
                    break
            elif at > 0 and len(holds) < limit:
                holds.append(p)
        return (starts + holds)[:limit]

    def find(self, text: str, limit: int = 200) -> list[Product]:
        """The Manager screen's search: every product, inactive ones and variants too, whose sku
        or name holds ``text`` (any case), by sku; empty text: the first ``limit`` by sku."""
        needle = text.strip().casefold()
        found = [p for p in self.products
                 if not needle or needle in p.sku.casefold() or needle in p.name.casefold()]
        return sorted(found, key=lambda p: p.sku)[:limit]

    def sorted_categories(self) -> list[Category]:
        return sorted(self.categories, key=lambda c: (c.order, c.name.casefold()))

    @classmethod
    def of_products(cls, version: int, products: Iterable[Product],
                    categories: Sequence[Category] = (),
                    tax_classes: Sequence[TaxClass] = ()) -> Catalog:
        return cls(version, tuple(products), tuple(categories), tuple(tax_classes))

    @classmethod
    def from_profile(cls, profile: TillProfile) -> Catalog:
        """A till without a store: its profile's ``products`` and one tax class at ``tax_rate``.
        A product's sku is its barcode (the profile's products have no sku of their own)."""
        products = [Product(sku=p.barcode if SKU_PATTERN.fullmatch(p.barcode) else f"P{i}",
                            name=p.name, price=p.price, barcodes=(p.barcode,))
                    for i, p in enumerate(profile.products, start=1)]
        return cls(0, tuple(products), (Category(DEFAULT_CATEGORY),),
                   (TaxClass(DEFAULT_TAX_CLASS, profile.tax_rate),))


class CatalogSource:
    """Where a till's flows and window read the catalog it sells from now. A pull from the store
    swaps in a new version whole (one attribute assignment: a reader on another thread sees the
    old version or the new one, never a mix); a line already on a ticket keeps what it was sold at.
    """

    def __init__(self, catalog: Catalog) -> None:
        self._catalog = catalog

    def current(self) -> Catalog:
        return self._catalog

    def replace(self, catalog: Catalog) -> bool:
        """Take a newer version; an older or equal one is ignored (pulls may cross). True when taken."""
        if catalog.version <= self._catalog.version and self._catalog.version != 0:
            return False
        self._catalog = catalog
        return True
