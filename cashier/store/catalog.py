"""The store's catalog in its PostgreSQL: every version kept, every write checked here.

Rows (store migration 5): ``catalog_rows`` holds each product, category and tax class as it was
from version ``since`` until the version that replaced it (``until``, NULL: it still is);
``catalog_versions`` says who made each version, from which till, when and what changed.
Version N is every row with ``since <= N`` and (``until`` NULL or ``> N``): earlier versions stay
readable, and a write touches only the rows it changes (a price change on a 20,000-product
catalog is one row retired and one written). A till that holds version N asks for what changed
after it: the current rows with ``since > N`` (nothing is ever deleted; a product leaves the
counter by ``active = false``, its sku lives on in journals).

Writes take one advisory lock, so versions follow each other without gaps, and check the
result with the catalog's rules (``cashier.catalog.rules``) whoever sent them: a category or tax
class that exists, a barcode one active product's, a variant one level deep.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store's side only: a till reads this module's wire forms without psycopg
    from psycopg import AsyncConnection
    from psycopg_pool import AsyncConnectionPool

from cashier.catalog.model import Catalog, Category, Product, TaxClass, check_sku
from cashier.catalog.promotion_sheet import read_promotions
from cashier.catalog.rules import (
    catalog_from_wire,
    category_from_wire,
    category_to_wire,
    check_name,
    check_price,
    product_from_wire,
    product_to_wire,
    promotion_to_wire,
    reason_to_wire,
    tax_class_from_wire,
    tax_class_to_wire,
)
from cashier.catalog.sheet import read_sheet
from cashier.discounts import DEFAULT_REASONS, Promotion
from cashier.errors import ValidationError

#: pg_advisory_xact_lock key of catalog writes (one version at a time).
CATALOG_LOCK = 7_346_215_037
PRODUCT, CATEGORY, TAX_CLASS = "product", "category", "tax_class"
#: issue #38: the promotions and the discount reasons, in the same rows and versions
PROMOTION, REASON = "promotion", "reason"
#: The largest spreadsheet the store takes (a 20,000-product catalog is about 2 MiB).
SHEET_MAX = 32 * 1024 * 1024
_NOW = "until IS NULL"


@dataclass(frozen=True)
class ProductChange:
    """What the Manager screen or ``set-price`` changes on one product (None: unchanged)."""

    sku: str
    price: Decimal | None = None
    name: str | None = None
    category: str | None = None
    active: bool | None = None

    def applied(self, product: Product) -> Product:
        return replace(product,
                       price=product.price if self.price is None else check_price(self.price),
                       name=product.name if self.name is None else check_name(self.name),
                       category=product.category if self.category is None else
                       check_name(self.category, "category"),
                       active=product.active if self.active is None else self.active)


def change_from_wire(body: dict[str, Any]) -> ProductChange:
    """A change as a request sends it: the sku and at least one of price, name, category,
    active, each checked by its rule."""
    sku = body.get("sku")
    if not isinstance(sku, str):
        raise ValidationError("sku", "must be text")
    price, name, category, active = (body.get(k) for k in ("price", "name", "category", "active"))
    if price is not None and not isinstance(price, str):
        raise ValidationError("price", "must be text such as 3.50")
    if active is not None and not isinstance(active, bool):
        raise ValidationError("active", "must be true or false")
    for key, value in (("name", name), ("category", category)):
        if value is not None and not isinstance(value, str):
            raise ValidationError(key, "must be text")
    if price is None and name is None and category is None and active is None:
        raise ValidationError("change", "must change the price, name, category or active")
    return ProductChange(check_sku(sku), None if price is None else check_price(price),
                         None if name is None else check_name(name),
                         None if category is None else check_name(category, "category"), active)


def change_to_wire(change: ProductChange) -> dict[str, Any]:
    out: dict[str, Any] = {"sku": change.sku}
    for key in ("price", "name", "category", "active"):
        value = getattr(change, key)
        if value is not None:
            out[key] = str(value) if isinstance(value, Decimal) else value
    return out


def sheets_to_wire(products: bytes, promotions: bytes) -> dict[str, Any]:
    """A products sheet and a promotions sheet in one import request (JSON: each file's bytes
    as base64, so a file with bad UTF-8 reaches the sheet's rule and is refused with its line)."""
    return {"products": base64.b64encode(products).decode("ascii"),
            "promotions": base64.b64encode(promotions).decode("ascii")}


def sheets_from_wire(body: dict[str, Any]) -> tuple[bytes, bytes]:
    """``sheets_to_wire`` read back."""
    out: list[bytes] = []
    for key in ("products", "promotions"):
        value = body.get(key)
        if not isinstance(value, str):
            raise ValidationError(key, "must be the sheet's bytes as base64")
        try:
            out.append(base64.b64decode(value, validate=True))
        except (binascii.Error, ValueError):
            raise ValidationError(key, "must be the sheet's bytes as base64") from None
    return out[0], out[1]


@dataclass(frozen=True)
class Written:
    """A write's outcome: the version the catalog is at (new, or the same when nothing changed)."""

    version: int
    changed: int

    def as_dict(self) -> dict[str, Any]:
        return {"version": self.version, "changed": self.changed}


#: What a catalog row holds: a reason is its word.
Item = Product | Category | TaxClass | Promotion | str


def _row_data(kind: str, item: Item) -> dict[str, Any]:
    if kind == PROMOTION:
        assert isinstance(item, Promotion)
        return promotion_to_wire(item)
    if kind == REASON:
        assert isinstance(item, str)
        return reason_to_wire(item)
    if kind == PRODUCT:
        assert isinstance(item, Product)
        return product_to_wire(item)
    if kind == CATEGORY:
        assert isinstance(item, Category)
        return category_to_wire(item)
    assert isinstance(item, TaxClass)
    return tax_class_to_wire(item)


def _key(item: Item) -> str:
    if isinstance(item, str):
        return item
    return item.sku if isinstance(item, Product) else item.name


class StoreCatalog:
    """The catalog's reads and writes on the store's pool."""

    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self.pool = pool

    # ---- reads ------------------------------------------------------------------------------
    async def latest(self, conn: AsyncConnection[Any] | None = None) -> int:
        if conn is None:
            async with self.pool.connection() as c:
                return await self.latest(c)
        cur = await conn.execute("SELECT COALESCE(max(version), 0) FROM catalog_versions")
        row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def wire(self, *, version: int | None = None, after: int = 0) -> str:
        """The JSON a till pulls: version ``version`` whole (default: the newest), or with
        ``after`` only what changed since that version (``"full": false``). Built by PostgreSQL
        as text: a 20,000-product catalog is never parsed on its way through."""
        async with self.pool.connection() as conn:
            await conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                latest = await self.latest(conn)
                at = latest if version is None else version
                if not 0 <= at <= latest:
                    raise ValidationError("version", f"must be a version of the catalog, 0 to "
                                                     f"{latest}")
                full = after <= 0 or version is not None or after > latest
                args: tuple[int, ...]
                if full:
                    where, args = "since <= %s AND (until IS NULL OR until > %s)", (at, at)
                else:
                    where, args = f"since > %s AND {_NOW}", (after,)
                cur = await conn.execute(
                    "SELECT kind, COALESCE(json_agg(data ORDER BY key), '[]')::text "
                    f"FROM catalog_rows WHERE {where} GROUP BY kind", args)
                parts = {str(k): str(v) for k, v in await cur.fetchall()}
                cur = await conn.execute("SELECT made_at, made_by FROM catalog_versions "
                                         "WHERE version = %s", (at,))
                made = await cur.fetchone()
            finally:
                await conn.execute("COMMIT")
        head = json.dumps({"version": at, "full": full,
                           "made_at": made[0].isoformat() if made else None,
                           "made_by": made[1] if made else None})
        reasons = parts.get(REASON) or (json.dumps([reason_to_wire(r) for r in DEFAULT_REASONS])
                                        if full else "[]")  # a new store's three
        return (head[:-1] + f', "products": {parts.get(PRODUCT, "[]")}, "categories": '
                f'{parts.get(CATEGORY, "[]")}, "tax_classes": {parts.get(TAX_CLASS, "[]")}, '
                f'"promotions": {parts.get(PROMOTION, "[]")}, "reasons": {reasons}}}')

    async def catalog(self, version: int | None = None) -> Catalog:
        """One version as a ``Catalog`` (back office export, tests)."""
        return catalog_from_wire(json.loads(await self.wire(version=version)))

    async def versions(self) -> list[dict[str, Any]]:
        async with self.pool.connection() as conn:
            cur = await conn.execute("SELECT version, made_at, made_by, till_id, change FROM "
                                     "catalog_versions ORDER BY version DESC LIMIT 200")
            return [{"version": int(v), "made_at": at.isoformat(), "made_by": by, "till": till,
                     "change": change} for v, at, by, till, change in await cur.fetchall()]

    async def _current(self, conn: AsyncConnection[Any], kind: str,
                       keys: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
        if keys is None:
            cur = await conn.execute(f"SELECT key, data FROM catalog_rows WHERE kind = %s AND "
                                     f"{_NOW}", (kind,))
        else:
            cur = await conn.execute(f"SELECT key, data FROM catalog_rows WHERE kind = %s AND "
                                     f"{_NOW} AND key = ANY(%s)", (kind, list(keys)))
        return {str(k): dict(v) for k, v in await cur.fetchall()}

    # ---- writes -----------------------------------------------------------------------------
    async def seed(self, catalog: Catalog, *, made_by: str) -> Written:
        """A store without a catalog starts with ``catalog`` as its first version (``make
        store``: the training café and shop); a store that has one keeps it."""
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (CATALOG_LOCK,))
            latest = await self.latest(conn)
            if latest:
                return Written(latest, 0)
            items: list[tuple[str, Item]] = [
                *((CATEGORY, c) for c in catalog.categories),
                *((TAX_CLASS, t) for t in catalog.tax_classes),
                *((PRODUCT, p) for p in catalog.products),
                *((PROMOTION, p) for p in catalog.promotions),
                *((REASON, r) for r in catalog.reasons)]
            return await self._write(conn, items, made_by, None, "the first catalog")

    async def add_category(self, name: str, colour: str | None, *, made_by: str,
                           till_id: str | None) -> Written:
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (CATALOG_LOCK,))
            current = await self._current(conn, CATEGORY)
            if name in current:
                raise ValidationError("NAME", f"{name!r} is a category already")
            order = max((int(c.get("order", 0)) for c in current.values()), default=0) + 1
            category = category_from_wire({"name": name, "order": order,
                                           "colour": colour or "#5B6B7B"}, "category")
            return await self._write(conn, [(CATEGORY, category)], made_by, till_id,
                                     f"category {category.name} added")

    async def add_tax_class(self, name: str, rate: Decimal, *, made_by: str,
                            till_id: str | None) -> Written:
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (CATALOG_LOCK,))
            tax = tax_class_from_wire({"name": name, "rate": str(rate)}, "tax_class")
            if tax.name in await self._current(conn, TAX_CLASS, [tax.name]):
                raise ValidationError("NAME", f"{tax.name!r} is a tax class already")
            return await self._write(conn, [(TAX_CLASS, tax)], made_by, till_id,
                                     f"tax class {tax.name} added at {tax.rate} %")

    async def add_reason(self, word: str, *, made_by: str, till_id: str | None) -> Written:
        """A discount reason the store's list gains (a store that never wrote one holds the
        three it started with: they are written with it)."""
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (CATALOG_LOCK,))
            held = await self._current(conn, REASON)
            if word in held or (not held and word in DEFAULT_REASONS):
                raise ValidationError("WORD", f"{word!r} is a reason already")
            words = [*(() if held else DEFAULT_REASONS), word]
            return await self._write(conn, [(REASON, w) for w in words], made_by, till_id,
                                     f"reason {word} added")

    async def import_sheet(self, data: bytes, *, made_by: str, till_id: str | None,
                           promotions: bytes | None = None) -> Written:
        """A spreadsheet whole: checked to its end against the newest version, then one new
        version holding every row that changed (``cashier.catalog.sheet``). With a promotions
        sheet (``cashier.catalog.promotion_sheet``): it is the store's promotions from this
        version on (one it no longer lists ends), checked against the products as imported;
        both sheets go in one version, or neither."""
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (CATALOG_LOCK,))
            rows = {kind: list((await self._current(conn, kind)).values())
                    for kind in (PRODUCT, CATEGORY, TAX_CLASS)}
            current = catalog_from_wire({"version": 0, "products": rows[PRODUCT],
                                         "categories": rows[CATEGORY],
                                         "tax_classes": rows[TAX_CLASS]}, checked=False)
            products = read_sheet(data, current)
            items: list[tuple[str, Item]] = [(PRODUCT, p) for p in products]
            ended: list[tuple[str, str, dict[str, Any]]] = []
            what = f"import of {len(products)} rows"
            if promotions is not None:
                skus = {p.sku for p in current.products} | {p.sku for p in products}
                promos = read_promotions(promotions, skus, {c.name for c in current.categories})
                items += [(PROMOTION, p) for p in promos]
                listed = {p.name for p in promos}
                ended = [(PROMOTION, name, {**data, "active": False})
                         for name, data in (await self._current(conn, PROMOTION)).items()
                         if name not in listed and data.get("active", True) is not False]
                what += f" and {len(promos)} promotions"
            return await self._write(conn, items, made_by, till_id, what, extra=ended)

    async def add_product(self, raw: dict[str, Any], *, made_by: str,
                          till_id: str | None) -> Written:
        product = product_from_wire(raw, "product")
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (CATALOG_LOCK,))
            if await self._current(conn, PRODUCT, [product.sku]):
                raise ValidationError("sku", f"{product.sku} is a product already")
            await self._check(conn, [product])
            return await self._write(conn, [(PRODUCT, product)], made_by, till_id,
                                     f"product {product.sku} added")

    async def change_product(self, change: ProductChange, *, made_by: str,
                             till_id: str | None) -> Written:
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (CATALOG_LOCK,))
            held = await self._current(conn, PRODUCT, [change.sku])
            if not held:
                raise ValidationError("sku", f"{change.sku} is not a product of the catalog")
            before = product_from_wire(held[change.sku], "product")
            after = change.applied(before)
            await self._check(conn, [after])
            what = ", ".join(f"{k} {getattr(before, k)} -> {getattr(after, k)}"
                             for k in ("price", "name", "category", "active")
                             if getattr(before, k) != getattr(after, k))
            return await self._write(conn, [(PRODUCT, after)], made_by, till_id,
                                     f"{change.sku}: {what or 'unchanged'}")

    async def _check(self, conn: AsyncConnection[Any], products: Sequence[Product]) -> None:
        """The rules that look at the rest of the catalog, for products written one at a time."""
        categories = set(await self._current(conn, CATEGORY))
        taxes = set(await self._current(conn, TAX_CLASS))
        for p in products:
            if p.category not in categories:
                raise ValidationError("category", f"{p.category!r} is not a category of the "
                                                  "catalog")
            if p.tax_class not in taxes:
                raise ValidationError("tax_class", f"{p.tax_class!r} is not a tax class of the "
                                                   "catalog")
            if p.variant_of is not None:
                parent = await self._current(conn, PRODUCT, [p.variant_of])
                if p.variant_of == p.sku or not parent:
                    raise ValidationError("variant_of", f"{p.variant_of} is not another sku of "
                                                        "the catalog")
                if parent[p.variant_of].get("variant_of"):
                    raise ValidationError("variant_of", f"{p.variant_of} is itself a variant")
            if p.active and p.barcodes:
                cur = await conn.execute(
                    "SELECT key, b FROM catalog_rows, jsonb_array_elements_text(data->'barcodes') "
                    f"AS b WHERE kind = 'product' AND {_NOW} AND (data->>'active')::boolean "
                    "AND key <> %s AND b = ANY(%s) LIMIT 1", (p.sku, list(p.barcodes)))
                clash = await cur.fetchone()
                if clash is not None:
                    raise ValidationError("barcodes", f"{clash[1]} is {clash[0]}'s barcode "
                                                      "already")

    async def _write(self, conn: AsyncConnection[Any], items: Iterable[tuple[str, Item]],
                     made_by: str, till_id: str | None, change: str,
                     extra: Iterable[tuple[str, str, dict[str, Any]]] = ()) -> Written:
        """One new version holding the items (and ``extra`` rows as kind, key, data) that differ
        from the newest (none: no version)."""
        from psycopg.types.json import Jsonb  # the store's side only (a till has no psycopg)

        latest = await self.latest(conn)
        by_kind: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        for kind, item in items:
            by_kind.setdefault(kind, []).append((_key(item), _row_data(kind, item)))
        for kind, key, data in extra:
            by_kind.setdefault(kind, []).append((key, data))
        fresh: list[tuple[str, str, dict[str, Any]]] = []
        for kind, rows in by_kind.items():
            held = await self._current(conn, kind, [k for k, _ in rows])
            fresh += [(kind, k, d) for k, d in rows if held.get(k) != d]
        if not fresh:
            return Written(latest, 0)
        version = latest + 1
        await conn.execute("INSERT INTO catalog_versions (version, made_by, till_id, change) "
                           "VALUES (%s, %s, %s, %s)", (version, made_by, till_id, change[:500]))
        async with conn.cursor() as cur:
            await cur.executemany(
                f"UPDATE catalog_rows SET until = %s WHERE kind = %s AND key = %s AND {_NOW}",
                [(version, kind, key) for kind, key, _ in fresh])
        async with conn.cursor().copy("COPY catalog_rows (kind, key, since, data) FROM STDIN") as cp:
            for kind, key, data in fresh:
                await cp.write_row((kind, key, version, Jsonb(data)))
        return Written(version, len(fresh))
