"""THE catalog's rules: what a product, a category, a tax class and a modifier may hold.

One place for the spreadsheet import (``sheet``), the store (which checks every write again,
whoever sent it), the command line and the Manager screen. Each rule raises one
``ValidationError`` naming the field and the rule; the sheet puts the line number in front.
The wire form (``*_to_wire``/``*_from_wire``) is the JSON the store answers and the till keeps.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from cashier.catalog.model import (
    BARCODE_PATTERN,
    NAME_MAX,
    Catalog,
    Category,
    Modifier,
    Product,
    TaxClass,
    check_sku,
)
from cashier.discounts import (
    DEFAULT_REASONS,
    REASON_PATTERN,
    Promotion,
    promotion_data,
    promotion_of,
)
from cashier.errors import ValidationError
from cashier.money import parse_amount
from cashier.text import (
    CARD_RULE,
    free_text,
    has_card_number_strict,
    is_card_number,
    looks_like_formula,
)

COLOUR_PATTERN = re.compile(r"^#[0-9A-Fa-f]{6}$")
#: Modifiers in one cell: ``NAME=CHANGE`` separated by ``;`` (``Extra shot=0.50;No sugar=0``);
#: a change may be signed (``Oat milk=+0.40``, ``No milk=-0.20``).
MODIFIER_SEPARATOR = ";"
BARCODE_SEPARATOR = "|"
_CHANGE = re.compile(r"^([+-]?)([0-9]+(?:\.[0-9]+)?)$")
MAX_MODIFIERS = 20
MAX_BARCODES = 20
#: The catalog's prices follow the money rule for this currency's decimals (two).
CATALOG_CURRENCY = "USD"
MAX_RATE = Decimal(100)


def check_name(text: str, field: str = "name") -> str:
    """A product's, category's, tax class's or modifier's name: printable, no card number, 1 to
    40 characters, never starting like a formula (a name is printed and exported)."""
    if not isinstance(text, str):
        raise ValidationError(field, "must be text")
    cleaned = free_text(field, text).strip()
    if not cleaned:
        raise ValidationError(field, "must hold a printable character")
    if len(cleaned) > NAME_MAX:
        raise ValidationError(field, f"must be at most {NAME_MAX} characters")
    if looks_like_formula(cleaned) or looks_like_formula(text):
        raise ValidationError(field, "must not start with = + - @ (a spreadsheet runs it)")
    return cleaned


def check_modifier_name(text: str, field: str = "modifiers") -> str:
    """A modifier's name: a name, without the cell's ``;`` and ``=`` (it must export as it is)."""
    name = check_name(text, field)
    if MODIFIER_SEPARATOR in name or "=" in name:
        raise ValidationError(field, "a modifier's name must not hold ';' or '='")
    return name


def check_price(text: str | Decimal, field: str = "price") -> Decimal:
    """A catalog price: the money rule (digits, at most two decimals, not negative); zero is
    allowed (a free glass of water, a product sold only with its modifiers)."""
    return parse_amount(text, CATALOG_CURRENCY, field, allow_zero=True)


def check_product_sku(sku: str, field: str = "sku") -> str:
    """``model.check_sku``, and never a card number (a sku rides on ticket lines and receipts)."""
    check_sku(sku, field)
    if is_card_number(sku):
        raise ValidationError(field, CARD_RULE)
    return sku


def is_gtin13(code: str) -> bool:
    """A valid EAN-13 (GTIN-13): 13 digits, the last the check digit of weights 1 and 3."""
    if len(code) != 13 or not code.isascii() or not code.isdigit():
        return False
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(code[:12]))
    return (10 - total % 10) % 10 == int(code[12])


def check_barcode(code: str, field: str = "barcodes") -> str:
    """A barcode as a scanner types it, never a card number: a Luhn-valid run of 13 to 19 digits
    is refused unless it is a valid EAN-13 (one in ten EAN-13s passes Luhn too; a product's
    code is not a card's)."""
    if not BARCODE_PATTERN.fullmatch(code):
        raise ValidationError(field, "each must be 1 to 32 letters, digits or '-'")
    if has_card_number_strict(code) and not is_gtin13(code):
        raise ValidationError(field, CARD_RULE)
    return code


def check_colour(text: str, field: str = "--colour") -> str:
    if not COLOUR_PATTERN.fullmatch(text):
        raise ValidationError(field, "must be a colour as #RRGGBB (e.g. #C0392B)")
    return text.upper()


def check_rate(text: str | Decimal, field: str = "--rate") -> Decimal:
    """A tax rate in percent: 0 to 100, at most four decimals (``config.TillProfile.tax_rate``)."""
    try:
        value = Decimal(text.strip()) if isinstance(text, str) else Decimal(text)
    except InvalidOperation:
        raise ValidationError(field, "must be a percentage such as 8.25") from None
    if not value.is_finite() or not 0 <= value <= MAX_RATE:
        raise ValidationError(field, "must be a percentage from 0 to 100")
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and -exponent > 4:
        raise ValidationError(field, "must have at most 4 decimals")
    return value


def parse_active(text: str, field: str = "active") -> bool:
    word = text.strip().lower()
    if word in ("", "yes", "true", "1"):
        return True
    if word in ("no", "false", "0"):
        return False
    raise ValidationError(field, "must be yes or no")


def parse_barcodes(text: str, field: str = "barcodes") -> tuple[str, ...]:
    codes = tuple(c.strip() for c in text.split(BARCODE_SEPARATOR) if c.strip())
    if len(codes) > MAX_BARCODES:
        raise ValidationError(field, f"must hold at most {MAX_BARCODES} barcodes")
    if len(set(codes)) != len(codes):
        raise ValidationError(field, "names one barcode twice")
    return tuple(check_barcode(c, field) for c in codes)


def parse_change(text: str, field: str = "modifiers") -> Decimal:
    match = _CHANGE.fullmatch(text.strip())
    if match is None:
        raise ValidationError(field, "each must be NAME=CHANGE, the change like 0.50, +0.50 or "
                                     "-0.20")
    amount = parse_amount(match.group(2), CATALOG_CURRENCY, field, allow_zero=True)
    return -amount if match.group(1) == "-" else amount


def parse_modifiers(text: str, field: str = "modifiers") -> tuple[Modifier, ...]:
    """``Extra shot=0.50;No sugar=0`` (an empty cell: none)."""
    out: list[Modifier] = []
    for part in (p for p in text.split(MODIFIER_SEPARATOR) if p.strip()):
        name, eq, change = part.partition("=")
        if not eq:
            raise ValidationError(field, "each must be NAME=CHANGE (e.g. Extra shot=0.50)")
        out.append(Modifier(check_modifier_name(name, field), parse_change(change, field)))
    if len(out) > MAX_MODIFIERS:
        raise ValidationError(field, f"must hold at most {MAX_MODIFIERS} modifiers")
    if len({m.name.casefold() for m in out}) != len(out):
        raise ValidationError(field, "names one modifier twice")
    return tuple(out)


def format_change(change: Decimal) -> str:
    return f"+{change}" if change > 0 else str(change)


def format_modifiers(modifiers: tuple[Modifier, ...]) -> str:
    return MODIFIER_SEPARATOR.join(f"{m.name}={format_change(m.price_change)}" for m in modifiers)


# ---- the wire: what the store answers and the till keeps ----------------------------------------
def product_to_wire(p: Product) -> dict[str, Any]:
    return {"sku": p.sku, "name": p.name, "price": str(p.price), "category": p.category,
            "tax_class": p.tax_class, "barcodes": list(p.barcodes), "active": p.active,
            "variant_of": p.variant_of,
            "modifiers": [{"name": m.name, "price_change": str(m.price_change)}
                          for m in p.modifiers]}


def product_from_wire(raw: Mapping[str, Any], field: str = "products") -> Product:
    """A product as the store or a request sends it, every rule checked."""
    if not isinstance(raw, Mapping):
        raise ValidationError(field, "each must be an object")

    def text(key: str, default: str | None = None) -> str:
        value = raw.get(key, default)
        if not isinstance(value, str):
            raise ValidationError(f"{field}.{key}", "must be text")
        return value

    barcodes = raw.get("barcodes", [])
    if not isinstance(barcodes, list) or not all(isinstance(b, str) for b in barcodes):
        raise ValidationError(f"{field}.barcodes", "must be a list of barcodes")
    mods = raw.get("modifiers", [])
    if not isinstance(mods, list) or not all(isinstance(m, Mapping) for m in mods):
        raise ValidationError(f"{field}.modifiers", "must be a list of {name, price_change}")
    variant_of = raw.get("variant_of")
    if variant_of is not None:
        variant_of = check_sku(text("variant_of"), f"{field}.variant_of")
    active = raw.get("active", True)
    if not isinstance(active, bool):
        raise ValidationError(f"{field}.active", "must be true or false")
    modifiers = tuple(Modifier(check_modifier_name(str(m.get("name", "")), f"{field}.modifiers"),
                               parse_change(str(m.get("price_change", "")), f"{field}.modifiers"))
                      for m in mods)
    codes = parse_barcodes(BARCODE_SEPARATOR.join(barcodes), f"{field}.barcodes")
    return Product(sku=check_product_sku(text("sku"), f"{field}.sku"),
                   name=check_name(text("name"), f"{field}.name"),
                   price=check_price(text("price"), f"{field}.price"),
                   category=check_name(text("category"), f"{field}.category"),
                   tax_class=check_name(text("tax_class"), f"{field}.tax_class"),
                   barcodes=codes, active=active, variant_of=variant_of, modifiers=modifiers)


def category_to_wire(c: Category) -> dict[str, Any]:
    return {"name": c.name, "order": c.order, "colour": c.colour}


def category_from_wire(raw: Mapping[str, Any], field: str = "categories") -> Category:
    if not isinstance(raw, Mapping):
        raise ValidationError(field, "each must be an object")
    order = raw.get("order", 0)
    if not isinstance(order, int) or isinstance(order, bool) or not 0 <= order <= 10_000:
        raise ValidationError(f"{field}.order", "must be a whole number from 0 to 10000")
    return Category(check_name(str(raw.get("name", "")), f"{field}.name"), order,
                    check_colour(str(raw.get("colour", "#5B6B7B")), f"{field}.colour"))


def tax_class_to_wire(t: TaxClass) -> dict[str, Any]:
    return {"name": t.name, "rate": str(t.rate)}


def tax_class_from_wire(raw: Mapping[str, Any], field: str = "tax_classes") -> TaxClass:
    if not isinstance(raw, Mapping):
        raise ValidationError(field, "each must be an object")
    return TaxClass(check_name(str(raw.get("name", "")), f"{field}.name"),
                    check_rate(str(raw.get("rate", "")), f"{field}.rate"))


def catalog_from_wire(body: dict[str, Any], *, checked: bool = True) -> Catalog:
    """A pulled (or stored) version as a ``Catalog``; ``checked``: every rule again (what comes
    over the network), else trusted (the till's own copy, the store's own rows)."""
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ValidationError("version", "must be a whole number")
    for key in ("products", "categories", "tax_classes"):
        if not isinstance(body.get(key, []), list):
            raise ValidationError(key, "must be a list")
    if checked:
        products = tuple(product_from_wire(p) for p in body.get("products", []))
    else:
        products = tuple(trusted_product(p) for p in body.get("products", []))
    for key in ("promotions", "reasons"):
        if not isinstance(body.get(key, []), list):
            raise ValidationError(key, "must be a list")
    promotions = tuple(promo for promo in (promotion_from_wire(p, checked=checked)
                                           for p in body.get("promotions", []))
                       if promo is not None)
    reasons = tuple(reason_from_wire(r) for r in body.get("reasons", []))
    return Catalog(version, products,
                   tuple(category_from_wire(c) for c in body.get("categories", [])),
                   tuple(tax_class_from_wire(t) for t in body.get("tax_classes", [])),
                   promotions=promotions, reasons=reasons or DEFAULT_REASONS)


def promotion_to_wire(promo: Promotion, *, active: bool = True) -> dict[str, Any]:
    """A promotion as the store keeps it and the till pulls it (``discounts.promotion_data``);
    ``active`` false: ended (a later version's row, so a till that pulls what changed drops it)."""
    return {**promotion_data(promo), "active": active}


def promotion_from_wire(raw: Mapping[str, Any], *, checked: bool = True,
                        field: str = "promotions") -> Promotion | None:
    """A promotion of the wire; None: one that ended (``"active": false``)."""
    if not isinstance(raw, Mapping):
        raise ValidationError(field, "each must be an object")
    if raw.get("active", True) is False:
        return None
    try:
        promo = promotion_of(dict(raw))
    except ValidationError:
        raise
    except (KeyError, TypeError, ValueError, ArithmeticError):
        raise ValidationError(field, "must be a promotion as the store writes it") from None
    if checked:
        check_name(promo.name, f"{field}.name")
        for sku in promo.skus:
            check_sku(sku, f"{field}.skus")
        if promo.category is not None:
            check_name(promo.category, f"{field}.category")
    return promo


def reason_to_wire(reason: str) -> dict[str, Any]:
    return {"name": reason}


def reason_from_wire(raw: Mapping[str, Any], field: str = "reasons") -> str:
    if not isinstance(raw, Mapping):
        raise ValidationError(field, "each must be an object")
    return check_reason_word(str(raw.get("name", "")), f"{field}.name")


def check_reason_word(text: str, field: str = "WORD") -> str:
    """A new reason of the store's list: one lower-case word (letters, digits, ``-`` ``_``, at
    most 24), as a cashier types it after ``--reason``."""
    word = text.strip().lower()
    if not REASON_PATTERN.fullmatch(word):
        raise ValidationError(field, "must be one word: a letter, then letters, digits, '-' or "
                                     "'_' (at most 24)")
    return word


#: A trusted product's fields before the wire's are laid on (a field added to ``Product`` with a
#: default is there too).
_PRODUCT_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Product)
                     if f.default is not dataclasses.MISSING}


def trusted_product(raw: dict[str, Any]) -> Product:
    """A product the store already checked (its answer, the till's copy of it): built without
    the rules again, and without the dataclass's field-by-field init (a 20,000-product pull
    builds them all; ``catalog_pull_s``)."""
    mods = raw.get("modifiers")
    barcodes = raw.get("barcodes")
    product = object.__new__(Product)
    product.__dict__.update(_PRODUCT_DEFAULTS)
    product.__dict__.update(
        sku=raw["sku"], name=raw["name"], price=Decimal(raw["price"]), category=raw["category"],
        tax_class=raw["tax_class"], barcodes=tuple(barcodes) if barcodes else (),
        active=raw.get("active", True) is True, variant_of=raw.get("variant_of"),
        modifiers=tuple(Modifier(m["name"], Decimal(m["price_change"])) for m in mods)
        if mods else ())
    if not isinstance(product.sku, str) or not isinstance(product.name, str):
        raise TypeError("sku and name must be text")
    return product
