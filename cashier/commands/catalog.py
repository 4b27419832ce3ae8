"""``cashier catalog``: the store's catalog from the back office or a till (issue #37).

- ``import FILE.csv [--promotions P.csv]``: one new version with every row of the spreadsheet
  (and the promotions sheet, issue #38), or nothing (a bad file is refused whole: ``line N,
  COLUMN: rule``); ``export FILE.csv [--promotions P.csv] [--catalog-version N] [--force]``.
- ``category add NAME [--colour #RRGGBB]``, ``tax-class add NAME --rate PERCENT``, ``reason add
  WORD`` (a discount's reason; a new store starts with staff, damaged, loyalty).
- ``set-price SKU PRICE``.
- ``show [--sku SKU]``: the till's copy as one JSON object; ``sync``: pull the newest version
  now (exit 3 when the store could not be reached: the till sells from its copy).

Writes go to the store's PostgreSQL from the back office (``--database URL`` or
``CASHIER_STORE_DATABASE``), or from a till through the store with ``--manager ID`` (the PIN
on standard input, checked by the store against its own roster). Each prints
``{"version", "changed"}``; a till that wrote pulls the new version at once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from cashier.commands import arguments
from cashier.errors import CashierError, ValidationError

BACK_OFFICE = "back office"


def _back_office(args: argparse.Namespace) -> str | None:
    """The database URL when this runs in the back office (no ``--manager``), else None."""
    from cashier.commands.store import DATABASE_ENV, _database

    if getattr(args, "manager", None):
        if args.database:
            raise ValidationError("--manager", "give --manager (a till, through the store) or "
                                               "--database (the back office), not both")
        return None
    if args.database or os.environ.get(DATABASE_ENV):
        return _database(args)
    return None


def _on_database[T](dsn: str, work: Callable[[Any], Awaitable[T]]) -> T:
    from cashier.store.database import StoreDatabase
    from cashier.store.schema import migrate

    migrate(dsn)

    async def run() -> T:
        db = StoreDatabase(dsn, min_size=1, max_size=1)
        await db.open()
        try:
            return await work(db.catalog)
        finally:
            await db.close()

    return asyncio.run(run())


def _write(args: argparse.Namespace, on_database: Callable[[Any], Awaitable[Any]],
           through_store: Callable[[Any], dict[str, Any]]) -> int:
    """A catalog write, back office or from a till with a store manager's PIN."""
    from cashier.commands.payments import print_json

    dsn = _back_office(args)
    if dsn is not None:
        print_json(_on_database(dsn, on_database).as_dict())
        return 0
    if not getattr(args, "manager", None):
        raise ValidationError("--manager", "is required: a store manager's number (the PIN on "
                                           "standard input), or --database URL in the back office")
    from cashier.commands.store import _profile, _store_manager
    from cashier.store.catalog_pull import CatalogWriter

    profile = _profile(args)
    session = _store_manager(profile, args)
    with CatalogWriter(profile, session) as writer:
        written = through_store(writer)
    try:
        _follow(profile)  # this till's copy follows at once (else at its next pull)
    except CashierError as exc:
        logging.getLogger(__name__).warning("catalog written, not pulled yet: %s", exc)
    print_json({"version": written.get("version"), "changed": written.get("changed")})
    return 0


def _follow(profile: Any) -> Any:
    """This till pulls the newest version now (its copy follows what it just wrote)."""
    from cashier.store.catalog_pull import pull, till_source

    source = till_source(profile)
    return source, pull(profile, source)


def _read_file(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise ValidationError("FILE", f"{path} cannot be read ({exc.strerror or exc})") from None


def import_command(args: argparse.Namespace) -> int:
    data = _read_file(args.file)
    promotions = None if args.promotions is None else _read_file(args.promotions)
    return _write(args,
                  lambda c: c.import_sheet(data, made_by=BACK_OFFICE, till_id=None,
                                           promotions=promotions),
                  lambda w: w.import_sheet(data, promotions))


def reason_add_command(args: argparse.Namespace) -> int:
    from cashier.catalog.rules import check_reason_word

    word = check_reason_word(args.word, "WORD")
    return _write(args,
                  lambda c: c.add_reason(word, made_by=BACK_OFFICE, till_id=None),
                  lambda w: w.add_reason(word))


def category_add_command(args: argparse.Namespace) -> int:
    from cashier.catalog.rules import check_colour, check_name

    name = check_name(args.name, "NAME")
    colour = None if args.colour is None else check_colour(args.colour)
    return _write(args,
                  lambda c: c.add_category(name, colour, made_by=BACK_OFFICE, till_id=None),
                  lambda w: w.add_category(name, colour))


def tax_class_add_command(args: argparse.Namespace) -> int:
    from cashier.catalog.rules import check_name, check_rate

    name = check_name(args.name, "NAME")
    rate = check_rate(args.rate)
    return _write(args,
                  lambda c: c.add_tax_class(name, rate, made_by=BACK_OFFICE, till_id=None),
                  lambda w: w.add_tax_class(name, str(rate)))


def set_price_command(args: argparse.Namespace) -> int:
    from cashier.catalog.model import check_sku
    from cashier.catalog.rules import check_price
    from cashier.store.catalog import ProductChange

    change = ProductChange(check_sku(args.sku, "SKU"), price=check_price(args.price, "PRICE"))
    return _write(args,
                  lambda c: c.change_product(change, made_by=BACK_OFFICE, till_id=None),
                  lambda w: w.change(change))


def export_command(args: argparse.Namespace) -> int:
    from cashier.catalog.rules import catalog_from_wire
    from cashier.catalog.sheet import write_sheet
    from cashier.commands.payments import print_json
    from cashier.output import check_output, write_output

    check_output(args.file, force=args.force, field="FILE")
    if args.promotions is not None:
        check_output(args.promotions, force=args.force, field="--promotions")
    dsn = _back_office(args)
    if dsn is not None:
        catalog = _on_database(dsn, lambda c: c.catalog(args.catalog_version))
    elif args.catalog_version is not None:
        from cashier.commands.store import _profile
        from cashier.store.outbox import answer, store_client

        profile = _profile(args)
        import httpx

        from cashier.store import StoreUnreachable

        with store_client(profile, timeout_s=30.0) as client:
            try:
                response = client.get("/v1/catalog", params={"version": args.catalog_version})
            except httpx.HTTPError as exc:
                raise StoreUnreachable(f"store: cannot reach it ({type(exc).__name__})") from None
            catalog = catalog_from_wire(answer(response))
    else:
        catalog = _till_catalog(args)
    write_output(args.file, write_sheet(catalog.products).encode(), force=args.force,
                 field="FILE")
    done: dict[str, Any] = {"version": catalog.version, "products": len(catalog.products),
                            "file": args.file}
    if args.promotions is not None:
        from cashier.catalog.promotion_sheet import write_promotions

        write_output(args.promotions, write_promotions(catalog.promotions).encode(),
                     force=args.force, field="--promotions")
        done.update(promotions=len(catalog.promotions), promotions_file=args.promotions)
    print_json(done)
    return 0


def _till_catalog(args: argparse.Namespace) -> Any:
    from cashier.config import command_profile
    from cashier.store.catalog_pull import catalog_at_start

    return catalog_at_start(command_profile(args))


def show_command(args: argparse.Namespace) -> int:
    from cashier.catalog.model import check_sku
    from cashier.catalog.rules import category_to_wire, product_to_wire, tax_class_to_wire
    from cashier.commands.payments import print_json
    from cashier.discounts import promotion_data

    catalog = _till_catalog(args)
    products = catalog.products
    if args.sku is not None:
        product = catalog.product(check_sku(args.sku, "--sku"))
        if product is None:
            raise ValidationError("--sku", f"{args.sku} is not a product of this till's catalog")
        products = (product,)
    print_json({"version": catalog.version,
                "products": [product_to_wire(p) for p in products],
                "categories": [category_to_wire(c) for c in catalog.sorted_categories()],
                "tax_classes": [tax_class_to_wire(t) for t in catalog.tax_classes],
                "promotions": [promotion_data(p) for p in catalog.promotions],
                "reasons": list(catalog.reasons)})
    return 0


def sync_command(args: argparse.Namespace) -> int:
    from cashier.commands.payments import print_json
    from cashier.commands.store import _profile

    _source, result = _follow(_profile(args))
    print_json(result.as_dict())
    return 0 if result.reached else 3


def _writer_options(parser: argparse.ArgumentParser) -> None:
    from cashier.commands.store import DATABASE_ENV

    parser.add_argument("--database", help=f"back office: the store's postgresql:// URL (or "
                                           f"{DATABASE_ENV})")
    parser.add_argument("--manager", help="from a till: a store manager's number (the PIN on "
                                          "standard input, checked by the store)")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("catalog", help="the store's catalog: products, categories, "
                                                   "tax classes",
                                   description="The store's catalog, from the back office or "
                                               "this till.")
    sub = parser.add_subparsers(dest="catalog_command")
    imp = sub.add_parser("import", help="a spreadsheet (CSV) as the next version, whole or not")
    imp.add_argument("file", metavar="FILE.csv", help="the spreadsheet: one row per sku (UTF-8 CSV)")
    imp.add_argument("--promotions", metavar="PROMOTIONS.csv",
                     help="the promotions sheet too: one row per promotion, the store's "
                          "promotions from this version on (same version as FILE.csv)")
    _writer_options(imp)
    imp.set_defaults(handler=import_command)
    exp = sub.add_parser("export", help="the catalog as a spreadsheet (CSV)")
    exp.add_argument("file", metavar="FILE.csv", help="where to write the spreadsheet")
    exp.add_argument("--catalog-version", type=arguments.number(0, 10 ** 9), default=None,
                     metavar="N", help="an earlier version (default: the newest)")
    exp.add_argument("--promotions", metavar="PROMOTIONS.csv",
                     help="write the promotions sheet too")
    exp.add_argument("--force", action="store_true", help="replace FILE.csv if it exists")
    exp.add_argument("--database", help="back office: the store's postgresql:// URL")
    exp.set_defaults(handler=export_command, manager=None)
    category = sub.add_parser("category", help="categories")
    category_sub = category.add_subparsers(dest="category_command")
    cat_add = category_sub.add_parser("add", help="a new category")
    cat_add.add_argument("name", metavar="NAME", help="the category's name, as products name it")
    cat_add.add_argument("--colour", help="its buttons' colour, #RRGGBB")
    _writer_options(cat_add)
    cat_add.set_defaults(handler=category_add_command)
    category.set_defaults(handler=lambda _a: _usage(category, "category", "add"))
    tax = sub.add_parser("tax-class", help="tax classes")
    tax_sub = tax.add_subparsers(dest="tax_command")
    tax_add = tax_sub.add_parser("add", help="a new tax class")
    tax_add.add_argument("name", metavar="NAME", help="the tax class's name, as products name it")
    tax_add.add_argument("--rate", required=True, help="its rate in percent, e.g. 8.25")
    _writer_options(tax_add)
    tax_add.set_defaults(handler=tax_class_add_command)
    tax.set_defaults(handler=lambda _a: _usage(tax, "tax-class", "add"))
    reason = sub.add_parser("reason", help="the reasons a discount or a price override gives")
    reason_sub = reason.add_subparsers(dest="reason_command")
    reason_add = reason_sub.add_parser("add", help="a new reason")
    reason_add.add_argument("word", metavar="WORD", help="the reason: one lower-case word, as "
                                                         "--reason names it")
    _writer_options(reason_add)
    reason_add.set_defaults(handler=reason_add_command)
    reason.set_defaults(handler=lambda _a: _usage(reason, "reason", "add"))
    price = sub.add_parser("set-price", help="a product's new price")
    price.add_argument("sku", metavar="SKU", help="the product's sku")
    price.add_argument("price", metavar="PRICE", help="its new price, such as 3.40")
    _writer_options(price)
    price.set_defaults(handler=set_price_command)
    show = sub.add_parser("show", help="this till's copy of the catalog, as JSON")
    show.add_argument("--sku", help="one product")
    show.set_defaults(handler=show_command)
    sync = sub.add_parser("sync", help="pull the store's newest catalog now")
    sync.set_defaults(handler=sync_command)
    parser.set_defaults(handler=lambda _a: _usage(parser, "catalog", "import, export, category "
                                                  "add, tax-class add, reason add, set-price, show, sync"))


def _usage(parser: argparse.ArgumentParser, name: str, choices: str) -> int:
    parser.print_usage(sys.stderr)
    print(f"cashier {name}: error: choose a command: {choices}", file=sys.stderr)
    return 2
