"""The product grid on the Sale screen (issue #37), driven as a cashier drives it: letters typed
and Return, digits on the question's panel, Esc, Page Up/Down, clicks on the buttons; the lines
journaled through the real ticket; a newer catalog redrawn; the grid fits the till's screens."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.support.catalogs import CROISSANT_BARCODE, cafe
from tests.support.sale_screen import SaleDriver
from tests.support.screens import TITLE_BAR, layout_problems

#: The Sale screen's sizes (tests/ui/test_sale_fits.py)
SIZES = [(1024, 768, 1.0), (1024, 768, 1.25), (1280, 800, 1.5)]


def _grid_sale(ui: Any, make_gui: Any, **profile: Any) -> SaleDriver:
    gui = make_gui(**profile)
    sale = SaleDriver(ui, gui)
    gui.till.ctx.catalog.replace(cafe())
    sale.page.follow_catalog()
    return sale


def _lines(sale: SaleDriver) -> list[tuple[str, Decimal]]:
    """Each line as the ticket shows it: the product's name and its modifiers, its unit price."""
    t = sale.page.ticket
    return [] if t is None else [(", ".join([line.name, *line.modifiers]), line.unit_price)
                                 for line in t.lines]


def _done(ui: Any, sale: SaleDriver, count: int) -> None:
    page = sale.page
    ui.until(lambda: page.task is not None and page.task.done() and len(_lines(sale)) == count,
             what=f"{count} lines")


def test_letters_filter_the_grid_and_return_adds_the_first(ui: Any, make_gui: Any) -> None:
    sale = _grid_sale(ui, make_gui)
    page, grid = sale.page, sale.page.product_grid
    assert grid.isVisible() and not page.keypad.isVisible()  # the grid in the keypad's place
    assert [t.title for t in grid.tiles if t.isVisible()] == ["Espresso", "Americano", "Cappuccino",
                                                               "Latte"]
    sale.type("bag")
    assert page.description.text() == "bag"  # the letters still name a typed line
    assert [t.title for t in grid.tiles if t.isVisible()] == ["Bagel"]
    assert grid.tiles[0].accessibleName() == "Bagel, $2.40"
    sale.press(Qt.Key.Key_Return)  # adds the bagel: no card is charged
    _done(ui, sale, 1)
    assert _lines(sale) == [("Bagel", Decimal("2.40"))]
    assert page.stack.currentWidget() is page.entry_page and page.description.text() == ""
    assert page.prefilled and page.amount.value == Decimal("2.64")  # 2.40 and its 10 % tax
    # letters that name nothing: said, nothing added, nothing charged
    sale.type("zzz")
    assert grid.empty.isVisible()
    sale.press(Qt.Key.Key_Return)
    assert "No product" in page.error_label.text() and page.stack.currentWidget() is page.entry_page
    assert len(_lines(sale)) == 1
    # letters then a price then +: today's typed line, named by the letters
    sale.press(Qt.Key.Key_Escape)
    sale.add_line("Gift wrap", "150")
    assert _lines(sale)[-1] == ("Gift wrap", Decimal("1.50"))


def test_a_variant_and_modifiers_asked_once_on_the_panel_by_keys(ui: Any, make_gui: Any) -> None:
    sale = _grid_sale(ui, make_gui)
    page, grid = sale.page, sale.page.product_grid
    sale.type("latte")
    sale.press(Qt.Key.Key_Return)
    assert grid.stack.currentWidget() is grid.panel and "which one" in grid.question.text()
    assert [b.title for b in grid.options if b.isVisible()] == ["1 Latte small", "2 Latte large"]
    sale.press(Qt.Key.Key_2)  # the large one: the latte's modifiers next
    assert "with?" in grid.question.text() and page.amount.value == 0  # the digit typed nothing
    sale.press(Qt.Key.Key_Escape)  # one step back, to the sizes
    assert "which one" in grid.question.text()
    sale.press(Qt.Key.Key_2)
    sale.press(Qt.Key.Key_1)  # extra shot
    sale.press(Qt.Key.Key_3)  # no sugar
    assert grid.options[0].accessibleName().endswith("ticked")
    sale.press(Qt.Key.Key_Return)
    _done(ui, sale, 1)
    assert _lines(sale) == [("Latte large, Extra shot, No sugar", Decimal("4.40"))]
    row = sale.page.lines_list.item(0, 0)
    assert row is not None and row.text() == "Latte large + Extra shot, No sugar"  # what was chosen shows
    assert grid.stack.currentWidget() is grid.tiles_page
    # Esc on the first question backs out: nothing added, the keys are the amount's again
    sale.type("latte")
    sale.press(Qt.Key.Key_Return)
    sale.press(Qt.Key.Key_Escape)
    assert grid.stack.currentWidget() is grid.tiles_page and len(_lines(sale)) == 1
    sale.press(Qt.Key.Key_Escape)  # and Esc clears the letters as before
    sale.type("350")
    assert page.amount.value == Decimal("3.50")


def test_clicks_categories_pages_and_the_panel(ui: Any, make_gui: Any) -> None:
    sale = _grid_sale(ui, make_gui)
    grid = sale.page.product_grid
    left = Qt.MouseButton.LeftButton
    QTest.mouseClick(grid.categories[1], left)  # Bakery
    assert grid.categories[1].isChecked() and grid.tiles[0].title == "Croissant"  # favourite first
    QTest.mouseClick(grid.tiles[2], left)  # the muffin: no question
    _done(ui, sale, 1)
    QTest.mouseClick(grid.next_category, left)
    assert grid.categories[2].isChecked()
    sale.press(Qt.Key.Key_PageUp)
    sale.press(Qt.Key.Key_PageUp)
    assert grid.categories[0].isChecked()
    QTest.mouseClick(grid.tiles[0], left)  # the espresso asks its modifiers
    assert grid.stack.currentWidget() is grid.panel and not grid.back_button.isHidden()
    QTest.mouseClick(grid.options[0], left)
    QTest.mouseClick(grid.add_button, left)
    _done(ui, sale, 2)
    assert _lines(sale) == [("Blueberry muffin", Decimal("2.60")), ("Espresso, Extra shot", Decimal("3.00"))]
    QTest.mouseClick(grid.tiles[3], left)  # the latte: its sizes, then Back
    QTest.mouseClick(grid.back_button, left)
    assert grid.stack.currentWidget() is grid.tiles_page
    # F6: the keypad in the grid's place, and back
    QTest.keyClick(sale.page.amount, Qt.Key.Key_F6)
    assert sale.page.keypad.isVisible() and not grid.isVisible()
    QTest.keyClick(sale.page.amount, Qt.Key.Key_F6)
    assert grid.isVisible()


def test_a_scan_adds_the_catalogs_product_and_a_newer_version_redraws(ui: Any, make_gui: Any) -> None:
    sale = _grid_sale(ui, make_gui)
    page, grid = sale.page, sale.page.product_grid
    sale.type(CROISSANT_BARCODE)
    sale.press(Qt.Key.Key_Return)
    _done(ui, sale, 1)
    assert _lines(sale) == [("Croissant", Decimal("2.20"))]
    # the store's newer version: the latte's large size costs more from the next line on
    sale.page.till.ctx.catalog.replace(cafe(2, latte_large="4.10"))
    page.follow_catalog()
    sale.type("latte")
    sale.press(Qt.Key.Key_Return)
    assert grid.options[1].detail == "$4.10"
    sale.press(Qt.Key.Key_2)
    sale.press(Qt.Key.Key_Return)
    _done(ui, sale, 2)
    assert _lines(sale) == [("Croissant", Decimal("2.20")), ("Latte large", Decimal("4.10"))]


def test_a_long_category_pages_by_up_and_down(ui: Any, make_gui: Any) -> None:
    from cashier.catalog import Catalog, Category, Product

    sale = SaleDriver(ui, make_gui())
    many = [Product(f"P{i:03d}", f"Item {i:03d}", Decimal(1), "All") for i in range(60)]
    sale.page.till.ctx.catalog.replace(Catalog.of_products(5, many, [Category("All")]))
    sale.page.follow_catalog()
    grid = sale.page.product_grid
    shown = [t for t in grid.tiles if t.isVisible()]
    assert 4 <= len(shown) < 60 and grid.pages_row.isVisible()
    sale.press(Qt.Key.Key_Down)
    assert grid.tiles[0].title == f"Item {len(shown):03d}"
    sale.press(Qt.Key.Key_Up)
    assert grid.tiles[0].title == "Item 000"


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_grid_fits_the_tills_screens(ui: Any, make_gui: Any, language: str) -> None:
    """The Sale screen's sizes (1024x768 at 100 % and 125 % text, 1280x800 at 150 %), with the
    grid and with its question: nothing cut, squeezed or scrolled sideways; the grid's buttons,
    the tip's field and the tenders in sight."""
    sale = _grid_sale(ui, make_gui, tip_mode="keyed")
    page, grid, gui = sale.page, sale.page.product_grid, sale.gui
    sale.add_line("Coffee", "350")
    gui.set_language(language)
    problems: list[str] = []
    for asking in (False, True):
        if asking:
            sale.type("latte")
            sale.press(Qt.Key.Key_Return)
        for width, height, scale in SIZES:
            gui.set_theme(font_scale=scale)
            gui.window.resize(width, height - TITLE_BAR)
            ui.spin(0.05)
            where = f"{language} {width}x{height} {int(scale * 100)}% {'asking' if asking else ''}"
            problems += [f"{where}: {p}" for p in layout_problems(page.entry_page, gui.window)]
            if page.scroll_area.horizontalScrollBar().maximum() > 0:
                problems.append(f"{where}: scrolls sideways")
            needed = [*(grid.options[:2] if asking else grid.tiles[:4]), page.tip_field,
                      page.card_button, page.cash_button, page.keypad_panel.switch_button]
            if not asking:
                needed.append(next(t for t in grid.categories if t.isChecked()))
            for w in needed:
                if not w.isVisible() or w.visibleRegion().isEmpty():
                    problems.append(f"{where}: {w.accessibleName() or type(w).__name__} not in sight")
    gui.set_theme(font_scale=1.0)
    assert not problems, "\n".join(problems[:40])


def test_a_finger_on_a_product_adds_it(ui: Any, make_gui: Any) -> None:
    """Touch, as on a till's touch screen: a tap on a product's button (Qt turns the touch into
    the click a button takes)."""
    sale = _grid_sale(ui, make_gui)
    grid = sale.page.product_grid
    screen = QTest.createTouchDevice()
    tile = grid.tiles[1]  # the americano
    window = tile.window()
    at = tile.mapTo(window, tile.rect().center())
    QTest.touchEvent(window, screen, False).press(0, at, window).commit()
    ui.spin(0.02)
    QTest.touchEvent(window, screen, False).release(0, at, window).commit()
    _done(ui, sale, 1)
    assert _lines(sale) == [("Americano", Decimal("2.80"))]


def test_a_name_typed_and_added_draws_the_buttons_twice(ui: Any, make_gui: Any, monkeypatch: Any) -> None:
    """A line named by letters that no product's name holds, then added: the buttons are drawn
    when the first letter finds nothing and when the add clears the letters, not at each letter;
    the note that says so takes the buttons' place, so the grid is not fitted again. Before, each
    letter drew the grid (4 draws for the 4 letters), and the note, under it, took room from the
    buttons and gave it back (the grid fitted and drawn again)."""
    sale = _grid_sale(ui, make_gui)
    page, grid = sale.page, sale.page.product_grid
    sale.add_line("Tea", "100")  # the screen settled: one line on it
    drawn: list[object] = []
    fitted: list[object] = []
    draw_pages, fit_once = grid._draw_pages, grid._fit_once

    def counted_draw(view: Any) -> None:
        drawn.append(view)
        draw_pages(view)

    def counted_fit() -> None:
        fitted.append(1)
        fit_once()
    monkeypatch.setattr(grid, "_draw_pages", counted_draw)
    monkeypatch.setattr(grid, "_fit_once", counted_fit)
    categories = [t.title for t in grid.tiles if t.isVisible()]
    for typed in ("z", "zz", "zzz", "zzzz"):
        sale.type("z")
        assert grid.empty.isVisible() and f"“{typed}”" in grid.empty.text()
        assert not [t for t in grid.tiles if t.isVisible()]
    assert len(drawn) == 1
    sale.type("150")
    sale.press(Qt.Key.Key_Plus)
    _done(ui, sale, 2)
    ui.spin(0.05)
    assert _lines(sale)[-1] == ("zzzz", Decimal("1.50")) and page.description.text() == ""
    assert [t.title for t in grid.tiles if t.isVisible()] == categories and not grid.empty.isVisible()
    assert len(drawn) == 2 and fitted == []


def test_a_line_added_measures_no_keys_bold_text_again(ui: Any, make_gui: Any, monkeypatch: Any) -> None:
    """The screen's panels are fitted several times a line added, each fit asking every checkable
    key how wide its bold text is: measured once per font and text, not at each ask."""
    import ui.pages.base as base

    sale = _grid_sale(ui, make_gui)
    sale.add_line("Tea", "100")
    ui.spin(0.05)
    from PySide6.QtGui import QFontMetrics

    measured: list[str] = []

    def counted(font: Any) -> Any:
        measured.append(font.key())
        return QFontMetrics(font)
    monkeypatch.setattr(base, "QFontMetrics", counted)
    for name in ("Cake", "Milk"):
        sale.add_line(name, "250")
        ui.spin(0.05)
    assert len(_lines(sale)) == 3 and sale.page.entry_stage.keypad_panel.full_width() > 0
    assert measured == []


def test_buttons_shown_again_are_copied_not_drawn(ui: Any, make_gui: Any, monkeypatch: Any) -> None:
    """Letters that find nothing hide the category's buttons, the add (or Esc) shows them again:
    each is painted from what it last looked like, not laid out and drawn again (10 buttons drawn
    each line before, the most of a line's grid time after the redraws)."""
    from PySide6.QtCore import QEvent, QObject

    from ui.pages.sale.product_grid import TileButton

    sale = _grid_sale(ui, make_gui)
    grid = sale.page.product_grid
    ui.spin(0.05)
    shown = [t for t in grid.tiles if t.isVisible()]
    painted: list[object] = []

    class Paints(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.append(watched)
            return False
    paints = Paints()
    for tile in shown:
        tile.installEventFilter(paints)
    laid: list[object] = []
    laid_out = TileButton.laid_out

    def counted(self: TileButton) -> Any:
        laid.append(self)
        return laid_out(self)
    monkeypatch.setattr(TileButton, "laid_out", counted)
    sale.type("zzz")
    ui.spin(0.05)
    assert grid.empty.isVisible()
    sale.press(Qt.Key.Key_Escape)  # the letters go: the category's buttons again
    ui.until(lambda: all(t in painted for t in shown), what="the buttons painted again")
    assert [t.title for t in grid.tiles if t.isVisible()] == [t.title for t in shown]
    assert not [t for t in laid if t in shown]
