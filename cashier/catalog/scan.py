"""What a scanned or typed code sells (issue #37): a sku, a barcode, a price-embedded EAN-13.

One place for the rules the command line (``cashier ticket new --sku/--barcode``) and the Sale
screen's scanner share, so a code is found, or refused, the same way at both.

A price-embedded EAN-13 (a label printed by a scale or the deli's printer) is 13 digits: a
prefix the till's profile names (``price_embedded_prefixes``, two digits, e.g. ``23``), five
digits of item code (the product's sku), five of price in the currency's minor units, and the
EAN check digit (verified). It sells the product at the label's price.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from cashier.catalog.model import BARCODE_PATTERN, SKU_PATTERN, Catalog, Product
from cashier.errors import ValidationError
from cashier.money import from_minor

#: ``SKU`` or ``SKUxQTY`` (``--sku``): a trailing ``x`` and 1 to 3 digits is the quantity.
_SKU_ITEM = re.compile(r"^(?P<sku>.+?)(?:x(?P<qty>[0-9]{1,3}))?$")
#: A price-embedded prefix: two digits (2 + 5 + 5 + 1 = the 13 of an EAN-13).
PREFIX_PATTERN = re.compile(r"^[0-9]{2}$")


@dataclass(frozen=True)
class Found:
    """A product a code found, and the label's price when the code carried one (None: the
    catalog's price)."""

    product: Product
    price: Decimal | None = None


def ean13_check_digit(first12: str) -> int:
    """The EAN-13 check digit of the first twelve digits (weights 1, 3, 1, 3, ... from the left)."""
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12))
    return (10 - total % 10) % 10


def parse_sku_item(text: str, field: str = "--sku") -> tuple[str, int]:
    """``"LATTE-L"`` or ``"LATTE-Lx2"``: the sku and how many (1 to 999)."""
    match = _SKU_ITEM.match(text.strip())
    sku = match["sku"] if match else ""
    if not SKU_PATTERN.fullmatch(sku):
        raise ValidationError(field, "must be SKU or SKUxQTY, e.g. LATTE-Lx2 (a sku is 1 to 32 "
                                     "letters, digits, '_', '.' or '-')")
    quantity = int(match["qty"]) if match and match["qty"] else 1
    if not 1 <= quantity <= 999:
        raise ValidationError(field, "quantity must be a whole number from 1 to 999")
    return sku, quantity


def by_sku(catalog: Catalog, sku: str, field: str = "--sku") -> Product:
    """The active product of ``sku`` in the catalog sold from now, else one line naming it."""
    product = catalog.product(sku)
    if product is None or not product.active:
        raise ValidationError(field, "no product has sku {sku} in catalog version {version} "
                                     "(or it is not sold any more)", sku=sku, version=catalog.version)
    return product


def find_barcode(catalog: Catalog, code: str, prefixes: Sequence[str], currency: str,
                 field: str = "--barcode") -> Found:
    """A barcode as scanned: a product's barcode first, then a price-embedded EAN-13 of one of
    ``prefixes`` (its check digit verified, its item code a sku: as printed, then without its
    leading zeros). Anything else is one line naming the field and the rule."""
    code = code.strip()
    if not BARCODE_PATTERN.fullmatch(code):
        raise ValidationError(field, "must be 1 to 32 letters, digits or '-', as a scanner types it")
    product = catalog.by_barcode(code)
    if product is not None:
        return Found(product)
    if len(code) == 13 and code.isascii() and code.isdigit() and code[:2] in prefixes:
        if ean13_check_digit(code[:12]) != int(code[12]):
            raise ValidationError(field, "{code}: its check digit is wrong (an EAN-13's last digit "
                                         "checks the twelve before it): scan it again", code=code)
        item = code[2:7]
        found = catalog.product(item) or catalog.product(item.lstrip("0") or "0")
        if found is None or not found.active:
            raise ValidationError(field, "{code}: a price-embedded label whose item code {item} is "
                                         "no product's sku in catalog version {version}", code=code,
                                  item=item, version=catalog.version)
        return Found(found, from_minor(int(code[7:12]), currency))
    shown = ", ".join(prefixes) or "none"
    raise ValidationError(field, "no product has barcode {code} in catalog version {version} (nor "
                                 "is it a price-embedded EAN-13 of this till's prefixes: {prefixes})",
                          code=code, version=catalog.version, prefixes=shown)


def scanned(catalog: Catalog, code: str, prefixes: Sequence[str], currency: str) -> Found | None:
    """The Sale screen's scanner: what ``find_barcode`` finds, None when nothing (the digits then
    stay the amount typed, as a scanner's Return on a code no product has always did)."""
    try:
        return find_barcode(catalog, code, prefixes, currency, field="barcode")
    except ValidationError:
        return None
