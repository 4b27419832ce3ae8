"""Issue #37 at the store, on the real throwaway PostgreSQL and ``cashier store serve`` over a
socket, through the real command line: the back office and a store manager at a till write the
catalog, every change is a version with who and when (earlier ones readable), a till token only
reads, a bad file is refused whole, and tills follow the newest version (also while a ticket is
open, and sell from their copy while the store is away)."""

from __future__ import annotations

import asyncio
import json
import os
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from cashier.catalog.till_copy import CopySource
from cashier.config import STORE_KEYRING_SERVICE, load_profile
from cashier.journal.ticket_model import TicketSettings
from cashier.store.catalog_pull import catalog_at_start, pull, till_source
from tests.support.store import add_till, cashier, put_manager

pytestmark = pytest.mark.socket
SHEET = ("sku,name,price,category,tax_class,barcodes,active,variant_of,modifiers\n"
         "LAT,Latte,3.20,Coffee,reduced,,yes,,Extra shot=+0.50;No sugar=0\n"
         "LAT-L,Latte large,3.60,Coffee,reduced,1111|1112,yes,LAT,\n"
         "MUG,Mug,9.00,Shop,standard,3000,yes,,\n")


def _till_env(tmp_path: Path, store_url: str, token: str, till: str = "T1") -> dict[str, str]:
    profile = tmp_path / f"{till}.toml"
    profile.write_text("\n".join([
        "[till]", f'till_id = "{till}"', "till_number = 1", 'processing_option = "HD"',
        'host_url = "https://host.example/api"', f'store_url = "{store_url}"',
        f'journal_path = "{tmp_path / (till + ".sqlite")}"', 'terminal_id = "1742"']) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASHIER_")}
    env.update(CASHIER_PROFILE=str(profile), CASHIER_STORE_TOKEN=token,
               CASHIER_ACCESS_TOKEN="T", XDG_DATA_HOME=str(tmp_path),
               PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    return env


def _ok(done: Any) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def _versions(dsn: str) -> list[tuple[int, str, str | None]]:
    with psycopg.connect(dsn) as conn:
        return [(int(v), str(by), till) for v, by, till in conn.execute(
            "SELECT version, made_by, till_id FROM catalog_versions ORDER BY version")]


def test_back_office_writes_versions_a_till_reads_and_a_manager_writes_from_a_till(
        serve_store: Any, store_dsn: str, tmp_path: Path) -> None:
    store = serve_store()
    db = ("--database", store_dsn)
    assert _ok(cashier("catalog", "category", "add", "Coffee", "--colour", "#8e5b3e", *db)) == {
        "version": 1, "changed": 1}
    _ok(cashier("catalog", "category", "add", "Shop", *db))
    _ok(cashier("catalog", "tax-class", "add", "reduced", "--rate", "10", *db))
    _ok(cashier("catalog", "tax-class", "add", "standard", "--rate", "20", *db))
    sheet = tmp_path / "in.csv"
    sheet.write_text(SHEET)
    assert _ok(cashier("catalog", "import", str(sheet), *db)) == {"version": 5, "changed": 3}
    again = cashier("catalog", "category", "add", "Coffee", *db)
    assert again.returncode == 2 and "NAME: 'Coffee' is a category already" in again.stderr
    bad_colour = cashier("catalog", "category", "add", "Tea", "--colour", "red", *db)
    assert bad_colour.returncode == 2 and "--colour: must be a colour as #RRGGBB" in bad_colour.stderr
    bad_rate = cashier("catalog", "tax-class", "add", "x", "--rate", "101", *db)
    assert bad_rate.returncode == 2 and "--rate: must be a percentage" in bad_rate.stderr
    assert _ok(cashier("catalog", "set-price", "MUG", "9.50", *db))["version"] == 6
    unknown = cashier("catalog", "set-price", "NOPE", "1.00", *db)
    assert unknown.returncode == 2 and "sku: NOPE is not a product" in unknown.stderr
    three = cashier("catalog", "set-price", "MUG", "9.505", *db)
    assert three.returncode == 2 and "PRICE: has more than 2 decimals" in three.stderr
    assert [v[1] for v in _versions(store_dsn)] == ["back office"] * 6

    # earlier versions stay readable: version 5 had the mug at 9.00
    out = tmp_path / "v5.csv"
    assert _ok(cashier("catalog", "export", str(out), "--catalog-version", "5", *db))["version"] == 5
    assert "MUG,Mug,9.00,Shop,standard,3000,yes,," in out.read_text()
    now = tmp_path / "now.csv"
    _ok(cashier("catalog", "export", str(now), *db))
    assert "MUG,Mug,9.50," in now.read_text()
    assert _ok(cashier("catalog", "import", str(now), *db)) == {"version": 6, "changed": 0}
    exists = cashier("catalog", "export", str(now), *db)
    assert exists.returncode == 2 and "already exists" in exists.stderr

    # a till token reads the catalog and never writes it
    token = add_till(store_dsn, "T1")
    env = _till_env(tmp_path, store.url, token)
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as till:
        body = till.get("/v1/catalog").json()
        assert body["version"] == 6 and body["full"] is True and len(body["products"]) == 3
        assert till.get("/v1/catalog", params={"after": 5}).json()["products"] == [
            {"sku": "MUG", "name": "Mug", "price": "9.50", "category": "Shop",
             "tax_class": "standard", "barcodes": ["3000"], "active": True, "variant_of": None,
             "modifiers": []}]
        refused = till.post("/v1/catalog/change", json={"sku": "MUG", "price": "1.00"})
        assert refused.status_code == 403 and "needs a store manager" in refused.json()["message"]
        assert till.post("/v1/catalog/import", content=SHEET).status_code == 403
        assert till.get("/v1/catalog", params={"version": "99"}).status_code == 422
        versions = till.get("/v1/catalog/versions").json()["versions"]
        assert versions[0]["version"] == 6 and "price 9.00 -> 9.50" in versions[0]["change"]
        assert versions[0]["made_at"]
    no_manager = cashier("catalog", "set-price", "MUG", "1.00", env=env)
    assert no_manager.returncode == 2 and "--manager: is required" in no_manager.stderr

    # the till's copy: pulled by `catalog sync`, shown by `catalog show`
    assert _ok(cashier("catalog", "sync", env=env)) == {"version": 6, "changed": True}
    shown = _ok(cashier("catalog", "show", "--sku", "LAT-L", env=env))
    assert shown["version"] == 6 and shown["products"] == [
        {"sku": "LAT-L", "name": "Latte large", "price": "3.60", "category": "Coffee",
         "tax_class": "reduced", "barcodes": ["1111", "1112"], "active": True,
         "variant_of": "LAT", "modifiers": []}]
    assert shown["tax_classes"] == [{"name": "reduced", "rate": "10"},
                                    {"name": "standard", "rate": "20"}]
    missing = cashier("catalog", "show", "--sku", "NOPE", env=env)
    assert missing.returncode == 2 and "--sku: NOPE is not a product" in missing.stderr

    # a store manager at the till: the store checks the PIN, records who, and the till follows
    put_manager(store_dsn, "102", "2222", "Bob")
    wrong = cashier("catalog", "set-price", "LAT", "3.40", "--manager", "102", env=env,
                    stdin="9999\n")
    assert wrong.returncode == 2 and "pin: not accepted" in wrong.stderr
    assert _ok(cashier("catalog", "set-price", "LAT", "3.40", "--manager", "102", env=env,
                       stdin="2222\n")) == {"version": 7, "changed": 1}
    assert _versions(store_dsn)[-1] == (7, "manager 102", "T1")
    assert _ok(cashier("catalog", "show", "--sku", "LAT", env=env))["products"][0]["price"] == "3.40"
    _ok(cashier("catalog", "category", "add", "Tea", "--manager", "102", env=env, stdin="2222\n"))
    _ok(cashier("catalog", "tax-class", "add", "zero", "--rate", "0", "--manager", "102", env=env,
                stdin="2222\n"))
    tea = tmp_path / "tea.csv"
    tea.write_text(SHEET.splitlines()[0] + "\nTEA,Tea,2.00,Tea,zero,,yes,,\n")
    assert _ok(cashier("catalog", "import", str(tea), "--manager", "102", env=env,
                       stdin="2222\n")) == {"version": 10, "changed": 1}
    full = _ok(cashier("catalog", "show", env=env))
    assert full["version"] == 10 and {p["sku"] for p in full["products"]} == {
        "LAT", "LAT-L", "MUG", "TEA"}
    mine = tmp_path / "till.csv"
    assert _ok(cashier("catalog", "export", str(mine), env=env))["products"] == 4
    earlier = tmp_path / "till-v5.csv"  # an earlier version, through the store with the till token
    assert _ok(cashier("catalog", "export", str(earlier), "--catalog-version", "5", env=env)
               )["version"] == 5
    assert "MUG,Mug,9.00," in earlier.read_text() and "TEA" not in earlier.read_text()


#: each after the header and one good row (line 2): the file is refused whole, its good row too
BAD_FILES = [
    (b"LAT,=1+2,3.20,Coffee,reduced,,yes,,\n", "line 3, name: looks like a formula"),
    (b"LAT," + b"x" * 41 + b",3.20,Coffee,reduced,,yes,,\n", "line 3, name: must be at most 40"),
    (b"LAT,Latte,-1.00,Coffee,reduced,,yes,,\n", "line 3, price: must not be negative"),
    (b"LAT,Latte,1.005,Coffee,reduced,,yes,,\n", "line 3, price: has more than 2 decimals"),
    (b"LAT,Latte,1.00,Coffee,reduced,,yes,,\nLAT,Latte,1.00,Coffee,reduced,,yes,,\n",
     "line 4, sku: LAT is on line 3 already"),
    (b"LAT,Latte,1.00,Coffee,reduced,5,yes,,\nESP,Espresso,1.00,Coffee,reduced,5,yes,,\n",
     "line 4, barcodes: 5 is on line 3 already"),
    (b"LAT,Latte,1.00,Cakes,reduced,,yes,,\n", "line 3, category: 'Cakes' is not a category"),
    (b"LAT,Latte,1.00,Coffee,gold,,yes,,\n", "line 3, tax_class: 'gold' is not a tax class"),
    (b"LAT,Latt\xff,1.00,Coffee,reduced,,yes,,\n", "line 3, name: is not valid UTF-8"),
]


def test_every_bad_file_is_refused_whole_nothing_imported(serve_store: Any, store_dsn: str,
                                                          tmp_path: Path) -> None:
    store = serve_store()
    db = ("--database", store_dsn)
    back_office = {**os.environ, "CASHIER_STORE_DATABASE": store_dsn}  # the URL off the line
    _ok(cashier("catalog", "category", "add", "Coffee", env=back_office))
    _ok(cashier("catalog", "tax-class", "add", "reduced", "--rate", "10", *db))
    token = add_till(store_dsn, "T1")
    put_manager(store_dsn, "102", "2222")
    env = _till_env(tmp_path, store.url, token)
    header = SHEET.splitlines()[0].encode() + b"\n"
    good = b"OK1,Fine,1.00,Coffee,reduced,,yes,,\n"
    for i, (rows, expected) in enumerate(BAD_FILES):
        path = tmp_path / f"bad{i}.csv"
        path.write_bytes(header + good + rows)
        back = cashier("catalog", "import", str(path), *db)
        assert back.returncode == 2 and expected in back.stderr, (expected, back.stderr)
        assert back.stderr.count("\n") == 1
        via_till = cashier("catalog", "import", str(path), "--manager", "102", env=env,
                           stdin="2222\n")
        assert via_till.returncode == 2 and expected in via_till.stderr, via_till.stderr
    assert [v for v, _, _ in _versions(store_dsn)] == [1, 2]  # nothing imported
    with psycopg.connect(store_dsn) as conn:
        assert conn.execute("SELECT count(*) FROM catalog_rows WHERE kind = 'product'"
                            ).fetchone() == (0,)


def test_a_price_change_reaches_a_till_with_a_ticket_open_and_one_whose_store_is_away(
        serve_store: Any, store_dsn: str, tmp_path: Path, memory_keyring: Any) -> None:
    from cashier.flows.ticket import TicketSession
    from cashier.runtime import open_runtime

    store = serve_store()
    db = ("--database", store_dsn)
    _ok(cashier("catalog", "category", "add", "Coffee", *db))
    _ok(cashier("catalog", "category", "add", "Shop", *db))
    _ok(cashier("catalog", "tax-class", "add", "reduced", "--rate", "10", *db))
    _ok(cashier("catalog", "tax-class", "add", "standard", "--rate", "20", *db))
    sheet = tmp_path / "in.csv"
    sheet.write_text(SHEET)
    _ok(cashier("catalog", "import", str(sheet), *db))
    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", add_till(store_dsn, "T1"))
    profile = load_profile(None, training=False, till_id="T1", till_number=1,
                           host_url="https://host.example/api", terminal_id="1742",
                           store_url=store.url, journal_path=tmp_path / "T1.sqlite")

    async def sell() -> None:
        async with await open_runtime(profile) as rt:
            catalog = rt.ctx.catalog
            assert catalog.current().version == 5  # pulled as the till opened
            latte = catalog.current().product("LAT")
            assert latte is not None and latte.price == Decimal("3.20")
            session = await TicketSession.start(rt.ctx, TicketSettings())
            await session.add_line(latte.name, latte.price)
            # the manager changes the price while the ticket is open
            await asyncio.to_thread(cashier, "catalog", "set-price", "LAT", "3.60", *db)
            result = await asyncio.to_thread(pull, profile, catalog)
            assert result.as_dict() == {"version": 6, "changed": True}
            assert catalog.current().product("LAT").price == Decimal("3.60")  # type: ignore[union-attr]
            ticket = await session.refresh()
            assert [line.unit_price for line in ticket.lines] == [Decimal("3.20")]  # kept
            assert catalog.current().product("MUG") is not None  # the rest kept from the copy

    asyncio.run(sell())
    # the store away: a price change in its database waits; the till sells from its copy
    store.kill()
    _ok(cashier("catalog", "set-price", "LAT", "3.90", *db))

    async def away() -> None:
        async with await open_runtime(profile) as rt:
            held = rt.ctx.catalog.current()
            assert held.version == 6 and held.product("LAT").price == Decimal("3.60")  # type: ignore[union-attr]
            result = await asyncio.to_thread(pull, profile, rt.ctx.catalog)
            assert not result.reached and "cannot reach" in result.message

    asyncio.run(away())
    store.start()
    # a command's till: what changed goes into the copy; the catalog is built only when read
    source = till_source(profile)
    assert isinstance(source, CopySource) and source.held_version() == 6
    assert pull(profile, source).as_dict() == {"version": 7, "changed": True}
    assert not source.loaded and source.held_version() == 7
    assert source.current().product("LAT").price == Decimal("3.90")  # type: ignore[union-attr]
    assert catalog_at_start(profile).version == 7


def test_a_till_without_a_store_sells_its_profile_or_the_training_catalog(tmp_path: Path) -> None:
    from cashier.config import Product as ProfileProduct

    trainee = load_profile(None, journal_path=tmp_path / "t.sqlite")
    assert trainee.is_training and catalog_at_start(trainee).product("LAT") is not None
    own = load_profile(None, journal_path=tmp_path / "o.sqlite", tax_rate=Decimal("7"),
                       products=[ProfileProduct(name="Tea", price=Decimal("2.00"), barcode="42")])
    catalog = catalog_at_start(own)
    assert catalog.version == 0 and [p.name for p in catalog.products] == ["Tea"]
    assert catalog.tax_rate("standard") == Decimal("7")


def test_the_windows_till_takes_a_new_price_within_seconds(serve_store: Any, store_dsn: str,
                                                           tmp_path: Path,
                                                           memory_keyring: Any) -> None:
    """The window's pusher hears the catalog's newest version at each contact (every 2 s) and
    the follower pulls at once: no minute's wait for a price."""
    import time

    from cashier.runtime import open_runtime

    store = serve_store()
    db = ("--database", store_dsn)
    _ok(cashier("catalog", "category", "add", "Coffee", *db))
    _ok(cashier("catalog", "category", "add", "Shop", *db))
    _ok(cashier("catalog", "tax-class", "add", "reduced", "--rate", "10", *db))
    _ok(cashier("catalog", "tax-class", "add", "standard", "--rate", "20", *db))
    sheet = tmp_path / "in.csv"
    sheet.write_text(SHEET)
    _ok(cashier("catalog", "import", str(sheet), *db))
    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", add_till(store_dsn, "T1"))
    profile = load_profile(None, training=False, till_id="T1", till_number=1,
                           host_url="https://host.example/api", terminal_id="1742",
                           store_url=store.url, journal_path=tmp_path / "T1.sqlite")

    async def window() -> None:
        async with await open_runtime(profile) as rt:
            rt.start_store_push()
            assert rt.ctx.catalog.current().version == 5
            await asyncio.to_thread(cashier, "catalog", "set-price", "MUG", "11.00", *db)
            deadline = time.monotonic() + 15
            while rt.ctx.catalog.current().version < 6 and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            mug = rt.ctx.catalog.current().product("MUG")
            assert mug is not None and mug.price == Decimal("11.00")

    asyncio.run(window())


def test_make_stores_service_starts_an_empty_store_with_the_training_catalog(
        store_dsn: str) -> None:
    from tests.support.store import ServedStore

    store = ServedStore(store_dsn, "--training-catalog").start()
    try:
        token = add_till(store_dsn, "T1")
        with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as till:
            body = till.get("/v1/catalog").json()
        assert body["version"] == 1 and body["made_by"] == "training catalog"
        assert len(body["products"]) == 65 and len(body["categories"]) == 6
        assert {t["name"] for t in body["tax_classes"]} == {"reduced", "standard"}
        # issue #38: a happy hour and a quantity price, and a new store's three reasons
        assert {p["name"] for p in body["promotions"]} == {"Happy hour", "3 cookies for 4.50"}
        assert [r["name"] for r in body["reasons"]] == ["damaged", "loyalty", "staff"]
    finally:
        assert store.stop() == 0
    _ok(cashier("catalog", "set-price", "LAT", "3.30", "--database", store_dsn))
    store.start()  # a store that has a catalog keeps it
    try:
        assert [v for v, _, _ in _versions(store_dsn)] == [1, 2]
    finally:
        store.stop()
    usage = cashier("catalog")
    assert usage.returncode == 2 and "choose a command: import, export" in usage.stderr


def test_changes_at_once_make_versions_one_after_another(store_dsn: str, tmp_path: Path) -> None:
    """Four managers' changes at the same moment, in processes of their own: four versions
    without a gap or a lost change (one writer at a time: the catalog's advisory lock)."""
    from concurrent.futures import ThreadPoolExecutor

    db = ("--database", store_dsn)
    _ok(cashier("catalog", "category", "add", "Coffee", *db))
    _ok(cashier("catalog", "category", "add", "Shop", *db))
    _ok(cashier("catalog", "tax-class", "add", "reduced", "--rate", "10", *db))
    _ok(cashier("catalog", "tax-class", "add", "standard", "--rate", "20", *db))
    sheet = tmp_path / "in.csv"
    sheet.write_text(SHEET)
    _ok(cashier("catalog", "import", str(sheet), *db))
    prices = {"LAT": "3.30", "LAT-L": "3.70", "MUG": "9.90"}
    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(lambda kv: cashier("catalog", "set-price", kv[0], kv[1], *db),
                             [*prices.items(), ("MUG", "9.90")]))
    assert all(d.returncode == 0 for d in done), [d.stderr for d in done]
    answers = [json.loads(d.stdout) for d in done]
    assert {a["version"] for a in answers} == {6, 7, 8}  # the same price twice: one version
    assert sorted(a["changed"] for a in answers) == [0, 1, 1, 1]
    assert [v for v, _, _ in _versions(store_dsn)] == list(range(1, 9))
    out = tmp_path / "out.csv"
    _ok(cashier("catalog", "export", str(out), *db))
    text = out.read_text()
    assert all(f"{sku},{name}," in text for sku, name in (("LAT", "Latte"), ("MUG", "Mug")))
    assert ",3.30," in text and ",3.70," in text and ",9.90," in text


#: issue #38: a promotions sheet
PROMOS = ("name,kind,skus,category,quantity,price,buy,get,percent,amount,threshold,days,start,"
          "end,stacks\n"
          "Happy hour,category_percent,,Coffee,,,,,20,,,mon|tue|wed|thu|fri,16:00,18:00,no\n"
          "2 mugs for 15,quantity_price,MUG,,2,15.00,,,,,,,,,no\n")


def _frame(db: tuple[str, ...]) -> None:
    _ok(cashier("catalog", "category", "add", "Coffee", *db))
    _ok(cashier("catalog", "category", "add", "Shop", *db))
    _ok(cashier("catalog", "tax-class", "add", "reduced", "--rate", "10", *db))
    _ok(cashier("catalog", "tax-class", "add", "standard", "--rate", "20", *db))


def test_promotions_and_reasons_live_in_the_store_catalog_and_reach_the_till(
        serve_store: Any, store_dsn: str, tmp_path: Path, memory_keyring: Any) -> None:
    """Issue #38: the promotions and the discount reasons are the store's catalog's (same
    versions, same store manager): a new store's three reasons, ``reason add`` both ways, a
    promotions sheet imported beside the products (one version), exported and imported back
    unchanged, and a till's copy that keeps them (an ended promotion leaves it)."""
    store = serve_store()
    db = ("--database", store_dsn)
    token = add_till(store_dsn, "T1")
    env = _till_env(tmp_path, store.url, token)
    memory_keyring.set_password(STORE_KEYRING_SERVICE, "T1", token)
    profile = load_profile(None, training=False, till_id="T1", till_number=1,
                           host_url="https://host.example/api", terminal_id="1742",
                           store_url=store.url, journal_path=tmp_path / "T1.sqlite")
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as till:
        fresh = till.get("/v1/catalog").json()  # a new store: its three reasons, no promotion
        assert fresh["reasons"] == [{"name": "staff"}, {"name": "damaged"}, {"name": "loyalty"}]
        assert fresh["promotions"] == []
    _frame(db)
    products, promos = tmp_path / "in.csv", tmp_path / "promos.csv"
    products.write_text(SHEET)
    promos.write_text(PROMOS)
    # both sheets in ONE version (5): the products and the promotions that name them
    assert _ok(cashier("catalog", "import", str(products), "--promotions", str(promos), *db)
               ) == {"version": 5, "changed": 5}
    assert _ok(cashier("catalog", "reason", "add", "Manager", *db)) == {"version": 6,
                                                                         "changed": 4}
    again = cashier("catalog", "reason", "add", "staff", *db)
    assert again.returncode == 2 and "WORD: 'staff' is a reason already" in again.stderr
    bad = cashier("catalog", "reason", "add", "two words", *db)
    assert bad.returncode == 2 and "WORD: must be one word" in bad.stderr

    # the till pulls them with the catalog and keeps them in its copy
    assert _ok(cashier("catalog", "sync", env=env)) == {"version": 6, "changed": True}
    shown = _ok(cashier("catalog", "show", env=env))
    assert shown["reasons"] == ["damaged", "loyalty", "manager", "staff"]
    assert shown["promotions"] == [
        {"name": "2 mugs for 15", "kind": "quantity_price", "skus": ["MUG"], "quantity": 2,
         "price": "15.00"},
        {"name": "Happy hour", "kind": "category_percent", "days": [0, 1, 2, 3, 4],
         "percent": "20", "start": "16:00", "end": "18:00", "category": "Coffee"}]

    # a store manager at the till adds a reason through the store
    put_manager(store_dsn, "102", "2222")
    assert _ok(cashier("catalog", "reason", "add", "price-match", "--manager", "102", env=env,
                       stdin="2222\n")) == {"version": 7, "changed": 1}
    assert _versions(store_dsn)[-1] == (7, "manager 102", "T1")
    assert "price-match" in _ok(cashier("catalog", "show", env=env))["reasons"]

    # export both sheets and import them back: nothing changes (the round trip is exact)
    out, out_promos = tmp_path / "out.csv", tmp_path / "out-promos.csv"
    assert _ok(cashier("catalog", "export", str(out), "--promotions", str(out_promos), *db)
               )["promotions"] == 2
    assert out_promos.read_text().splitlines()[1:] == [
        "2 mugs for 15,quantity_price,MUG,,2,15.00,,,,,,,,,no",
        "Happy hour,category_percent,,Coffee,,,,,20,,,mon|tue|wed|thu|fri,16:00,18:00,no"]
    assert _ok(cashier("catalog", "import", str(out), "--promotions", str(out_promos), *db)
               ) == {"version": 7, "changed": 0}

    # a promotions sheet without happy hour ends it: a till that pulls what changed drops it
    source = till_source(profile)
    assert isinstance(source, CopySource)
    assert {p.name for p in source.current().promotions} == {"2 mugs for 15", "Happy hour"}
    out_promos.write_text(PROMOS.splitlines()[0] + "\n" + PROMOS.splitlines()[2] + "\n")
    assert _ok(cashier("catalog", "import", str(out), "--promotions", str(out_promos),
                       "--manager", "102", env=env, stdin="2222\n")) == {"version": 8,
                                                                         "changed": 1}
    assert pull(profile, source).version == 8
    assert [p.name for p in source.current().promotions] == ["2 mugs for 15"]
    assert source.current().promotions[0].price == Decimal("15.00")
    with httpx.Client(base_url=store.url, headers={"Authorization": f"Bearer {token}"}) as till:
        earlier = till.get("/v1/catalog", params={"version": 7}).json()  # still readable
        assert {p["name"] for p in earlier["promotions"]} == {"2 mugs for 15", "Happy hour"}
    # and a till that opens from its copy has the same
    assert [p.name for p in till_source(profile).current().promotions] == ["2 mugs for 15"]


#: each after the header and one good row (line 2): refused whole, the products sheet too
BAD_PROMOTIONS = [
    (b"Two,quantity_price,NOPE,,2,1.00,,,,,,,,,no\n", "line 3, skus: NOPE is not a sku"),
    (b"Two,quantity_price,MUG,,2,1.005,,,,,,,,,no\n", "line 3, price: has more than 2 decimals"),
    (b"Two,quantity_price,MUG,,2,-1.00,,,,,,,,,no\n", "line 3, price: must not be negative"),
    (b"Two,category_percent,,Cakes,,,,,10,,,,,,no\n", "line 3, category: 'Cakes' is not a"),
    (b"Two,category_percent,,Coffee,,,,,10,,,someday,,,no\n", "line 3, days: days are mon"),
    (b"Two,category_percent,,Coffee,,,,,10,,,,25:00,,no\n", "line 3, start: must be a time"),
    (b"Two,category_percent,,Coffee,,,,,10,,,,18:00,16:00,no\n", "line 3, end: must be after"),
    (b"Two,raffle,MUG,,,,,,,,,,,,no\n", "line 3, kind: must be one of quantity_price"),
    (b"Two,buy_x_get_y,MUG,,,,0,1,,,,,,,no\n", "line 3, kind: buy X get Y needs X and Y"),
    (b"Fine,quantity_price,MUG,,2,1.00,,,,,,,,,no\n", "line 3, name: Fine is on line 2 already"),
    (b"=HYPERLINK(1),quantity_price,MUG,,2,1.00,,,,,,,,,no\n", "line 3, name: looks like a"),
    (b"Tw\xff,quantity_price,MUG,,2,1.00,,,,,,,,,no\n", "line 3, name: is not valid UTF-8"),
]


def test_every_bad_promotions_sheet_is_refused_whole_nothing_imported(
        serve_store: Any, store_dsn: str, tmp_path: Path) -> None:
    """Issue #38: a bad promotions sheet is refused whole (line, column, rule), its products
    sheet with it, back office and through the store alike."""
    store = serve_store()
    db = ("--database", store_dsn)
    _frame(db)
    token = add_till(store_dsn, "T1")
    put_manager(store_dsn, "102", "2222")
    env = _till_env(tmp_path, store.url, token)
    products = tmp_path / "in.csv"
    products.write_text(SHEET)
    header = PROMOS.splitlines()[0].encode() + b"\n"
    good = b"Fine,quantity_price,MUG,,2,15.00,,,,,,,,,no\n"
    for i, (rows, expected) in enumerate(BAD_PROMOTIONS):
        path = tmp_path / f"bad{i}.csv"
        path.write_bytes(header + good + rows)
        back = cashier("catalog", "import", str(products), "--promotions", str(path), *db)
        assert back.returncode == 2 and expected in back.stderr, (expected, back.stderr)
        assert back.stderr.count("\n") == 1
        via_till = cashier("catalog", "import", str(products), "--promotions", str(path),
                           "--manager", "102", env=env, stdin="2222\n")
        assert via_till.returncode == 2 and expected in via_till.stderr, via_till.stderr
    assert [v for v, _, _ in _versions(store_dsn)] == [1, 2, 3, 4]  # nothing imported
