"""The store's catalog with 20,000 products (issue #37): a PostgreSQL cluster of its own (full
durability), ``cashier store serve`` over a socket, a till as this process.

- ``catalog_pull_s``: a till with no copy pulls the newest version whole: the request, the
  store's answer, every product checked, the till's SQLite copy written and the version taken
  (median of 3, each into a new copy).
- ``catalog_price_to_till_s``: a store manager changes a price from a till (``CatalogWriter``,
  signed in before), and the connected till pulls what changed and sells at the new price
  (median of 5). The window's follower asks every minute; this is the time from a pull to the
  price on the counter.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import statistics
import tempfile
import time
from decimal import Decimal
from pathlib import Path

GOALS = {"catalog_pull_s": ("<=", 2.0), "catalog_price_to_till_s": ("<=", 2.0)}
PRODUCTS = 20_000


def _catalog() -> object:
    from cashier.catalog.model import Catalog, Category, Modifier, Product, TaxClass

    categories = tuple(Category(f"Category {i}", i, "#336699") for i in range(12))
    products = tuple(
        Product(f"SKU{i:05d}", f"Product {i} {('Latte', 'Mug', 'Scone', 'Tea')[i % 4]}",
                Decimal(100 + i % 900) / 100, f"Category {i % 12}",
                ("reduced", "standard")[i % 2], (f"2{i:07d}",),
                modifiers=(Modifier("Extra", Decimal("0.50")),) if i % 5 == 0 else ())
        for i in range(PRODUCTS))
    return Catalog(0, products, categories,
                   (TaxClass("reduced", Decimal(10)), TaxClass("standard", Decimal(20))))


def run() -> dict[str, float]:
    from bench.bench_store import _serve
    from cashier.catalog.model import Catalog, CatalogSource
    from cashier.config import load_profile
    from cashier.manager_pin import hash_pin
    from cashier.store.catalog import ProductChange
    from cashier.store.catalog_pull import CatalogWriter, pull
    from cashier.store.close import sign_in_manager
    from cashier.store.database import StoreDatabase
    from cashier.store.localpg import LocalPostgres, free_port
    from cashier.store.schema import migrate

    base = Path(tempfile.mkdtemp(prefix="cashier-bench-catalog-"))
    base.chmod(0o755)
    cluster = LocalPostgres(base / "pg")
    out: dict[str, float] = {}
    proc = None
    saved = os.environ.get("CASHIER_STORE_TOKEN")
    try:
        dsn = cluster.start()
        migrate(dsn)

        async def prepare() -> str:
            db = StoreDatabase(dsn, min_size=1, max_size=1)
            await db.open()
            try:
                await db.catalog.seed(_catalog(), made_by="bench")  # type: ignore[arg-type]
                await db.add_manager("9", "Bench", hash_pin("9999"))
                return await db.add_till("B1")
            finally:
                await db.close()

        os.environ["CASHIER_STORE_TOKEN"] = asyncio.run(prepare())
        port = free_port()
        proc = _serve(dsn, port)
        pulls: list[float] = []
        for n in range(3):
            profile = load_profile(None, training=False, till_id="B1", till_number=1,
                                   host_url="https://host.example/api", terminal_id="1",
                                   store_url=f"http://127.0.0.1:{port}",
                                   journal_path=base / f"till{n}.sqlite")
            source = CatalogSource(Catalog.from_profile(profile))
            started = time.perf_counter()
            result = pull(profile, source, budget_s=30.0)
            pulls.append(time.perf_counter() - started)
            assert result.changed and len(source.current().products) == PRODUCTS
        out["catalog_pull_s"] = statistics.median(pulls)

        session = sign_in_manager(profile, "9", "9999")
        changes: list[float] = []
        with CatalogWriter(profile, session) as writer:
            for n in range(5):
                price = Decimal(f"{n + 1}.25")
                started = time.perf_counter()
                writer.change(ProductChange("SKU01234", price=price))
                pull(profile, source, budget_s=30.0)
                sold = source.current().product("SKU01234")
                changes.append(time.perf_counter() - started)
                assert sold is not None and sold.price == price
        out["catalog_price_to_till_s"] = statistics.median(changes)
    finally:
        if saved is None:
            os.environ.pop("CASHIER_STORE_TOKEN", None)
        else:
            os.environ["CASHIER_STORE_TOKEN"] = saved
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(15)
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)
    return out
