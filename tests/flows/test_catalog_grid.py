"""The Sale screen's product grid without Qt: categories, the letters typed, pages, the question a
variant or a modifier asks, and a newer catalog arriving while the grid is open."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cashier.catalog import Catalog, Category, Product
from cashier.flows.catalog_grid import Ask, CatalogGrid, Pick
from tests.support.catalogs import NO_SUGAR, OAT, SHOT, cafe


def names(grid: CatalogGrid) -> list[str]:
    return [p.name for p in grid.view().products]


def test_the_first_category_opens_with_its_favourites_first() -> None:
    grid = CatalogGrid(cafe())
    view = grid.view()
    assert [c.name for c in view.categories] == ["Coffee", "Bakery", "Drinks", "Shop"]
    assert view.category == "Coffee" and view.choice is None and not view.filtered
    assert names(grid) == ["Espresso", "Americano", "Cappuccino", "Latte"]  # variants under Latte
    assert grid.view() is view  # nothing changed: the window draws nothing again
    grid.select("Bakery")
    assert names(grid) == ["Croissant", "Bagel", "Blueberry muffin"]
    grid.step_category(1)
    assert grid.category == "Drinks"
    grid.step_category(-3)
    assert grid.category == "Shop" and names(grid) == ["Coffee beans 1kg", "Mug"]  # not the inactive


def test_letters_filter_across_categories_and_return_takes_the_first() -> None:
    grid = CatalogGrid(cafe())
    grid.set_filter("  co ")
    view = grid.view()
    assert view.filtered and view.filter == "co"
    # names that start with the letters first, then those that hold them
    assert names(grid) == ["Coffee beans 1kg"]  # the discontinued mug is not sold
    grid.set_filter("e")
    # names that start with the letters first, then those that hold them (favourites first)
    assert names(grid)[:3] == ["Espresso", "Americano", "Bagel"]
    first = grid.first()
    assert first is not None and first.name == "Espresso"
    grid.set_filter("lat")
    assert names(grid) == ["Latte"] and grid.first() is not None
    grid.set_filter("zz")
    assert names(grid) == [] and grid.first() is None
    grid.set_filter("")
    assert names(grid)[0] == "Espresso" and grid.first() is None  # no letters: Return is not the grid's


def test_a_plain_product_is_picked_at_once() -> None:
    grid = CatalogGrid(cafe())
    grid.select("Bakery")
    bagel = grid.view().products[1]
    assert grid.press(bagel) == Pick(bagel)
    assert grid.choice is None


def test_a_variant_asks_which_then_its_modifiers_and_esc_backs_out() -> None:
    grid = CatalogGrid(cafe())
    latte = next(p for p in grid.view().products if p.sku == "LAT")
    assert grid.press(latte) is None
    choice = grid.view().choice
    assert choice is not None and choice.ask is Ask.VARIANT
    assert [p.name for p in choice.options] == ["Latte small", "Latte large"]
    assert grid.option(7) is None and grid.choice is choice  # no such option: still asking
    assert grid.option(2) is None  # the large one; the latte's modifiers are asked next
    choice = grid.view().choice
    assert choice is not None and choice.ask is Ask.MODIFIER and choice.options == (SHOT, OAT, NO_SUGAR)
    assert choice.sold.sku == "LAT-L"
    assert grid.back() and grid.choice is not None and grid.choice.ask is Ask.VARIANT  # one step back
    grid.option(1)
    grid.option(1)
    grid.option(2)
    grid.option(1)  # ticked twice: not taken
    grid.option(2)
    grid.option(2)
    pick = grid.confirm()
    assert pick is not None and pick.product.sku == "LAT-S" and pick.modifiers == (OAT,)
    assert grid.choice is None
    # Esc on the first question: nothing is added
    grid.press(latte)
    assert grid.back() and grid.choice is None
    assert not grid.back()  # nothing asked


def test_modifiers_alone_ask_once_and_return_adds_without_any() -> None:
    grid = CatalogGrid(cafe())
    espresso = grid.view().products[0]
    assert grid.press(espresso) is None
    assert grid.confirm() == Pick(espresso, ())
    grid.press(espresso)
    grid.option(2)
    grid.option(1)
    assert grid.confirm() == Pick(espresso, (SHOT, NO_SUGAR))  # the catalog's order, not the keys'
    assert grid.confirm() is None  # asked once: nothing more to add


def test_pages_of_buttons_and_the_window_saying_how_many_fit() -> None:
    products = [Product(f"P{i:03d}", f"Item {i:03d}", Decimal(1), "All") for i in range(40)]
    grid = CatalogGrid(Catalog.of_products(1, products, [Category("All")]), per_page=16)
    view = grid.view()
    assert view.pages == 3 and names(grid)[0] == "Item 000" and len(view.products) == 16
    grid.turn(1)
    grid.turn(1)
    grid.turn(1)  # past the last: stays
    assert grid.page == 2 and len(grid.view().products) == 8
    grid.fit(10)  # the window grew smaller: the page holding the first button shown
    assert grid.view().products[0].name == "Item 030" and grid.view().pages == 4
    grid.turn(-9)
    assert grid.page == 0
    grid.turn(2)
    grid.set_filter("item 01")  # new letters: the first page of what they find
    assert grid.page == 0 and len(grid.view().products) == 10
    grid.select("All")
    grid.set_filter("")
    grid.turn(1)
    grid.step_category(1)  # one category: round to itself, the page kept
    assert grid.page == 1


def test_a_newer_catalog_redraws_and_keeps_the_category_and_the_question() -> None:
    grid = CatalogGrid(cafe(1))
    grid.select("Bakery")
    latte = grid.catalog.product("LAT")
    assert latte is not None
    grid.press(latte)
    grid.option(2)
    grid.option(1)
    before = grid.view()
    assert not grid.sync(grid.catalog)  # the same version: nothing to do
    assert grid.sync(cafe(2, latte_large="4.10"))
    after = grid.view()
    assert after is not before and after.version == 2 and after.category == "Bakery"
    assert after.choice is not None and after.choice.ask is Ask.MODIFIER
    pick = grid.confirm()
    # what is added is the new version's: a price changed at the store counts from the next line
    assert pick is not None and pick.product.price == Decimal("4.10") and pick.modifiers == (SHOT,)


def test_a_newer_catalog_without_the_category_or_the_product_drops_them() -> None:
    grid = CatalogGrid(cafe(1))
    grid.select("Shop")
    mug = grid.catalog.product("ESP")
    assert mug is not None
    grid.press(mug)
    smaller = Catalog.of_products(2, [Product("TEA", "Green tea", Decimal("2.30"), "Drinks")],
                                  [Category("Drinks", 1)])
    assert grid.sync(smaller)
    view = grid.view()
    assert view.category == "Drinks" and view.choice is None and names(grid) == ["Green tea"]
    assert grid.sync(Catalog(3, ()))  # an empty catalog: no category, no buttons
    assert grid.view().category is None and names(grid) == []
    grid.step_category(1)
    assert grid.view().pages == 1


def test_a_till_without_a_store_shows_its_profile_as_one_category() -> None:
    from cashier.config import load_profile

    profile = load_profile(None, training=True)
    grid = CatalogGrid(Catalog.from_profile(profile))
    view = grid.view()
    assert [c.name for c in view.categories] == ["products"]
    assert sorted(p.name for p in view.products) == sorted(p.name for p in profile.products)


# ---- the grid's keys, as the Sale screen's model tells them (cashier.flows.sale_entry) ---------
def _entry() -> Any:
    from cashier.flows.sale_entry import SaleEntry
    from cashier.money import CentsBuffer

    return SaleEntry(CentsBuffer(), CentsBuffer(), catalog=cafe())


def test_return_with_letters_adds_the_first_product_and_never_charges() -> None:
    from cashier.flows.sale_entry import Act, Key

    e = _entry()
    assert e.grid is not None
    e.grid.set_filter("bag")  # the window's line name, as the letters are typed
    assert e.key(Key.RETURN) is Act.PICK
    pick = e.take_pick()
    assert pick is not None and pick.product.sku == "BAG" and e.take_pick() is None
    e.grid.set_filter("zzz")
    assert e.key(Key.RETURN) is Act.NO_MATCH  # not a charge: the cashier was naming a product
    e.grid.set_filter("bag")
    for d in "150":
        e.key(Key.DIGIT, d)
        e.amount.push(d)
    assert e.key(Key.RETURN) is Act.AMOUNT  # a price typed: Return is the quick path again
    e.grid.set_filter("")
    assert e.key(Key.RETURN) is Act.AMOUNT
    # a till without products: letters only name the line, and Return is what it was
    from cashier.flows.sale_entry import SaleEntry
    from cashier.money import CentsBuffer

    bare = SaleEntry(CentsBuffer(), CentsBuffer(), catalog=Catalog(0, ()))
    assert bare.grid is not None
    bare.grid.set_filter("tea")
    assert bare.key(Key.RETURN) is Act.AMOUNT


def test_the_panel_takes_the_keys_while_it_asks() -> None:
    from cashier.flows.sale_entry import Act, Key

    e = _entry()
    assert e.grid is not None
    e.grid.set_filter("latte")
    assert e.key(Key.RETURN) is Act.GRID  # the sizes asked
    assert e.key(Key.TEXT, "x") is Act.GRID and e.key(Key.DIGIT, "0") is Act.GRID  # nothing typed
    assert e.key(Key.DIGIT, "1", on_tip=True) is Act.AMOUNT  # the keyed tip is not the panel's
    assert e.key(Key.DIGIT, "1") is Act.GRID  # the small one: its modifiers next
    assert e.key(Key.DIGIT, "2") is Act.GRID
    assert e.key(Key.RETURN) is Act.PICK
    pick = e.take_pick()
    assert pick is not None and pick.product.sku == "LAT-S" and pick.modifiers == (OAT,)
    e.grid.press(e.grid.catalog.product("LAT"))
    assert e.key(Key.ESCAPE) is Act.GRID and e.grid.choice is None
    assert e.key(Key.ESCAPE) is Act.NAME_CLEAR  # nothing asked: Esc clears as before
    assert e.key(Key.PAGE_DOWN) is Act.GRID and e.grid.category == "Bakery"
    assert e.key(Key.PAGE_UP) is Act.GRID and e.grid.category == "Coffee"
    assert e.key(Key.DOWN) is Act.GRID and e.key(Key.UP) is Act.GRID


def test_a_scan_finds_the_catalogs_product() -> None:
    from cashier.flows.sale_entry import Act, Key
    from tests.support.catalogs import CROISSANT_BARCODE

    e = _entry()
    for d in CROISSANT_BARCODE:
        e.key(Key.DIGIT, d)
        e.amount.push(d)
    assert e.key(Key.RETURN) is Act.SCAN
    assert e.product is not None and e.product.name == "Croissant"


def test_a_letter_narrows_what_the_letters_before_it_found() -> None:
    """The search per keystroke looks only through the last letter's matches: the same products
    as a search of the whole catalog, in the same order."""
    catalog = cafe()
    grid = CatalogGrid(catalog)
    for text in ("c", "co", "cof", "coffee b", "o", "or", "e", "es"):
        grid.set_filter(text)
        assert list(grid.view().products) == catalog.search(text, limit=96)[:grid.per_page], text
    held = catalog.holding("co")
    assert [p.name for _, p in catalog.holding("cof", held)] == ["Coffee beans 1kg"]
    assert catalog.category_buttons("Bakery") == tuple(catalog.in_category("Bakery"))
    assert catalog.category_buttons("nothing") == ()


async def test_a_pick_becomes_a_ticket_line_of_its_name_and_modifiers(make_till: Any) -> None:
    """``TicketSession.add_product`` on a real till: the product's name and its modifiers', its
    price with their changes, its sku and the catalog version it was sold from."""
    from cashier.flows.ticket import TicketSession, TicketSettings

    till = await make_till("HD")
    s = await TicketSession.start(till.ctx, TicketSettings())
    catalog = cafe()
    till.ctx.catalog.replace(catalog)  # the till sells from the café: the line is that version's
    latte = catalog.product("LAT-L")
    assert latte is not None
    await s.add_product(latte, modifiers=(SHOT, NO_SUGAR))
    ticket = await s.add_product(catalog.product("BAG"), quantity=2)  # type: ignore[arg-type]
    assert [(line.name, line.modifiers, line.unit_price, line.quantity) for line in ticket.lines] == [
        ("Latte large", ("Extra shot", "No sugar"), Decimal("4.40"), 1), ("Bagel", (), Decimal("2.40"), 2)]
    assert [(line.sku, line.catalog_version) for line in ticket.lines] == [("LAT-L", 1), ("BAG", 1)]


def test_a_variant_without_modifiers_of_its_own_asks_none() -> None:
    """The modifiers asked are the sold sku's (the ticket refuses another's): a size with none is
    added at once, whatever its product offers."""
    d = Decimal
    catalog = Catalog.of_products(1, [
        Product("TEA", "Tea", d("2.00"), "Drinks", modifiers=(SHOT,)),
        Product("TEA-S", "Tea small", d("2.00"), "Drinks", variant_of="TEA"),
        Product("TEA-L", "Tea large", d("2.50"), "Drinks", variant_of="TEA", modifiers=(OAT,))],
        [Category("Drinks")])
    grid = CatalogGrid(catalog)
    tea = catalog.product("TEA")
    assert tea is not None and grid.press(tea) is None
    pick = grid.option(1)
    assert pick is not None and pick.product.sku == "TEA-S" and pick.modifiers == ()
    grid.press(tea)
    assert grid.option(2) is None and grid.choice is not None and grid.choice.options == (OAT,)
