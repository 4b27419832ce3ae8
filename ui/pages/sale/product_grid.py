"""The Sale screen's product grid: the catalog's categories in a row, the open category's products
as buttons (name and price, in the category's colour; favourites first), pages of them, and the
small panel that asks a product's variant or modifiers. It draws the core's ``GridView``
(``cashier.flows.catalog_grid``) and hands each touch to the core's ``CatalogGrid``; the keys
reach the same model through ``SaleEntry.key``. A pool of buttons is made once and reused, so a
keystroke redraws one page: ``make bench``'s ``catalog_search_ms_p99``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from cashier.flows.catalog_grid import OPTION_KEYS, Ask, price_change
from ui import a11y
from ui.i18n import format_money, tr
from ui.pages.base import labelled

if TYPE_CHECKING:
    from cashier.catalog import Category, Modifier, Product
    from cashier.flows.catalog_grid import CatalogGrid, Choice, GridView, Pick

#: A product button's smallest size (a finger's width, two lines of a name and a price).
BUTTON_W, BUTTON_H = 96, 58
#: What a product button's frame and margins take of its height (``TileButton.laid_out``).
TILE_MARGINS = 11


def tile_height(font: QFont, lines: int) -> int:
    """A product button's height for its name on ``lines`` lines of ``font`` and its price (in
    bold) under them: the text it draws fits, at any text size and theme."""
    bold = QFont(font)
    bold.setBold(True)
    return max(BUTTON_H, lines * QFontMetrics(font).height() + QFontMetrics(bold).height()
               + TILE_MARGINS)


class TileText(NamedTuple):
    """A button's text as it is drawn: the name's lines in their font and rectangle, the price
    (as drawn: cut short with "…" only when it is wider than the button) in its own."""

    title: str
    title_font: QFont
    title_rect: QRect
    detail: str
    detail_font: QFont
    detail_rect: QRect


def ink(colour: str) -> QColor:
    """Black or white, whichever reads better on ``colour`` (a manager picks the colour)."""
    c = QColor(colour)
    if not c.isValid():
        return QColor("#000000")
    luminance = 0.2126 * c.redF() ** 2.2 + 0.7152 * c.greenF() ** 2.2 + 0.0722 * c.blueF() ** 2.2
    return QColor("#000000") if luminance > 0.18 else QColor("#FFFFFF")


class TileButton(QPushButton):
    """A button painted in a colour of its own (the category's), its text in two parts: what it
    is, wrapped to two lines and cut short with "…" rather than widening the column, and its price
    under it. Its accessible name says both."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay on the amount
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.title = ""
        self.detail = ""
        self.colour = QColor("#5B6B7B")
        self._ink = QColor("#FFFFFF")
        #: what the last paint laid out: (title, detail, size, font) -> (title font, its lines)
        self._layout: tuple[tuple[str, str, QSize, str], QFont, str] | None = None
        self._hint: tuple[tuple[str, str], QSize] | None = None  # (title, font) -> a category's size
        #: a category's room in its row: a name wider than the row is shown smaller or cut short
        #: with "…" within it, never under the arrows beside the row (issue #39)
        self.room = 0
        #: what its accessible name and tooltip say: (name, price, what it does)
        self.said: tuple[str, str, str] | None = None
        #: the button as last painted, and what it was painted of: shown again (its page of the
        #: grid back after a name typed and cleared) it is copied, not drawn
        self._painted: tuple[tuple[object, ...], QPixmap] | None = None

    def show_tile(self, title: str, detail: str, colour: str) -> None:
        if (title, detail, colour) == (self.title, self.detail, self.colour.name()):
            return
        self.title, self.detail = title, detail
        self.colour = QColor(colour) if QColor(colour).isValid() else QColor("#5B6B7B")
        self._ink = ink(self.colour.name())
        self.update()

    def sizeHint(self) -> QSize:
        if self.isCheckable() and not self.detail:  # a category: as wide as its name
            font = self.font()
            of = (self.title, font.key())
            if self._hint is None or self._hint[0] != of:
                wide = QFontMetrics(font).horizontalAdvance(self.title) + 28
                self._hint = (of, QSize(min(max(wide, BUTTON_W * 3 // 4), BUTTON_W * 2),
                                        BUTTON_H * 3 // 4))
            hint = QSize(self._hint[1])
            if self.room > 0:
                hint.setWidth(min(hint.width(), self.room))
            return hint
        return QSize(BUTTON_W, BUTTON_H)

    def minimumSizeHint(self) -> QSize:
        return QSize(BUTTON_W // 2, BUTTON_H * 3 // 4)

    def _title_font(self, width: int) -> QFont:
        """The button's font, smaller (down to 80 %) when a word of the name is wider than the
        button: "Croissant" whole rather than broken."""
        font = QFont(self.font())
        widest = max((QFontMetrics(font).horizontalAdvance(w) for w in self.title.split()), default=0)
        if widest > width > 0:
            size = font.pixelSize() if font.pixelSize() > 0 else font.pointSizeF()
            smaller = max(size * 0.8, size * width / widest)
            if font.pixelSize() > 0:
                font.setPixelSize(max(1, int(smaller)))
            else:
                font.setPointSizeF(smaller)
        return font

    def laid_out(self) -> TileText:
        """The name and the price as ``paintEvent`` draws them in the button's rectangle now: the
        name on the lines its height holds (two at most) and cut short with "…" past them."""
        inner = self.rect().adjusted(1, 1, -2, -2).adjusted(6, 4, -6, -4)  # TILE_MARGINS
        bold = QFont(self.font())
        bold.setBold(True)
        detail_h = QFontMetrics(bold).height() if self.detail else 0
        of = (self.title, self.detail, inner.size(), self.font().key())
        if self._layout is None or self._layout[0] != of:
            font = self._title_font(inner.width())
            metrics = QFontMetrics(font)
            lines = max(1, min(2, (inner.height() - detail_h) // max(metrics.height(), 1)))
            self._layout = (of, font, _wrapped(self.title, metrics, inner.width(), lines))
        _, font, text = self._layout
        detail = QFontMetrics(bold).elidedText(self.detail, Qt.TextElideMode.ElideRight, inner.width()) \
            if self.detail else ""
        title_h = inner.height() - detail_h
        return TileText(text, font, QRect(inner.left(), inner.top(), inner.width(), title_h),
                        detail, bold, QRect(inner.left(), inner.top() + title_h, inner.width(), detail_h))

    def paintEvent(self, event: QPaintEvent) -> None:
        ratio = self.devicePixelRatioF()
        of = (self.size(), ratio, self.title, self.detail, self.colour.rgba(), self.isDown(),
              self.isEnabled(), self.isChecked(), self.font().key(),
              self.palette().color(self.palette().ColorRole.WindowText).rgba())
        if self._painted is None or self._painted[0] != of:
            pixmap = QPixmap(self.size() * ratio)
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            self._draw(pixmap)
            self._painted = (of, pixmap)
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self._painted[1])
        painter.end()

    def _draw(self, pixmap: QPixmap) -> None:
        """The button's look (its shape in its colour, the frame when checked, the name and
        the price) on ``pixmap``."""
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fill = self.colour.darker(130) if self.isDown() else self.colour
        if not self.isEnabled():
            fill = fill.lighter(150)
        border = self.palette().color(self.palette().ColorRole.WindowText)
        painter.setPen(border if self.isChecked() else fill.darker(140))
        painter.setBrush(fill)
        rect = self.rect().adjusted(1, 1, -2, -2)
        painter.drawRoundedRect(rect, 6, 6)
        if self.isChecked():  # the open category: a frame of the text's colour, 3 px
            pen = painter.pen()
            pen.setWidth(3)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 6, 6)
        painter.setPen(self._ink)
        text = self.laid_out()
        painter.setFont(text.title_font)
        painter.drawText(text.title_rect, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter),
                         text.title)
        if text.detail:
            painter.setFont(text.detail_font)
            painter.drawText(text.detail_rect, int(Qt.AlignmentFlag.AlignCenter), text.detail)
        painter.end()


def _wrapped(text: str, metrics: QFontMetrics, width: int, lines: int) -> str:
    """``text`` in at most ``lines`` lines of ``width``, the last cut short with "…"."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        if metrics.horizontalAdvance(line) > width and len(out) + 1 < lines:
            # a word wider than the button: broken where it fits, the rest on the next line
            cut = max(1, next((i for i in range(len(line), 0, -1)
                               if metrics.horizontalAdvance(line[:i] + "-") <= width), 1))
            words.insert(0, line[cut:])
            line = line[:cut] + "-"
        while words and metrics.horizontalAdvance(f"{line} {words[0]}") <= width:
            line = f"{line} {words.pop(0)}"
        out.append(line)
    if words or (out and metrics.horizontalAdvance(out[-1]) > width):
        rest = " ".join([out.pop(), *words]) if out else " ".join(words)
        out.append(metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width))
    return "\n".join(out)


def _same_buttons(last: GridView, view: GridView) -> bool:
    """Whether ``view`` shows what ``last`` did, but for the letters typed (the same products
    found, or none, on the same page, the same question)."""
    return (last.filtered == view.filtered and last.products == view.products
            and (last.category, last.page, last.pages, last.choice, last.categories)
            == (view.category, view.page, view.pages, view.choice, view.categories))


class Note(QLabel):
    """A wrapped line of the grid that never asks the screen for more height than the grid has
    (a wrapped label's height-for-width otherwise reaches up the layouts and scrolls the page)."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def hasHeightForWidth(self) -> bool:
        return False

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        """As high as the text wrapped at the width it has (three lines at most)."""
        line = QFontMetrics(self.font()).lineSpacing()
        wanted = QLabel.heightForWidth(self, max(self.width(), 60)) if self.text() else line
        height = min(max(wanted, line), 3 * line + 4)
        if height != self.height() or self.minimumHeight() != height:
            self.setFixedHeight(height)


class PageLabel(QLabel):
    """The page's number between its arrows: "Page 1 of 2" where the words fit the room the arrows
    leave, else "1/2" (issue #39: the grid's column at 1024 px and 150 % text cut the words); a
    screen reader hears the words either way."""

    def __init__(self) -> None:
        super().__init__()
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # it asks the room of its short form only: the words never widen the grid's column
        self.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Preferred)
        self.words, self.short = "", ""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        short = QFontMetrics(self.font()).horizontalAdvance(self.short) + 2 * self.margin() + 4
        return QSize(short, hint.height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def show_page(self, words: str, short: str) -> None:
        self.words, self.short = words, short
        a11y.name(self, words)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit()

    def _fit(self) -> None:
        wide = QFontMetrics(self.font()).horizontalAdvance(self.words) + 2 * self.margin() + 4
        text = self.words if wide <= self.width() else self.short
        if text != self.text():
            self.setText(text)
            self.updateGeometry()


class ProductGrid(QWidget):
    """The grid (see the module's note). ``picked`` is told each product to add; ``changed``
    after a touch changed what shows (the screen says nothing and keeps its keys)."""

    def __init__(self, model: CatalogGrid, currency: str, picked: Callable[[Pick], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ProductGrid")
        # the room the keypad leaves is the grid's: it never widens the column (``fit`` puts as
        # many buttons in it as it holds, their names wrapped and cut short)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.setMinimumWidth(BUTTON_W)  # one column of buttons at least
        self.model = model
        self.currency = currency
        self.picked = picked
        self._drawn: GridView | None = None
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(4)
        # the categories in a row: as many as fit, the open one among them (◀ ▶ for the others)
        self.category_row = QWidget()
        self.category_row.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        # placed by hand (``_place_categories``): a layout squeezed a tile shown in the same pass
        # as the text size changed
        self.categories: list[TileButton] = []
        self._first_category = 0  # the first category shown in the row
        # the category before and after (Page Up, Page Down), the row scrolled to it
        head = QHBoxLayout()
        head.setSpacing(4)
        self.previous_category = QPushButton("◀")
        self.next_category = QPushButton("▶")
        head.addWidget(self.previous_category)
        head.addWidget(self.category_row, 1)
        head.addWidget(self.next_category)
        for plain, step in ((self.previous_category, -1), (self.next_category, 1)):
            plain.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            plain.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
            plain.clicked.connect(lambda _=False, n=step: self._step(n))
        col.addLayout(head)
        self.stack = QStackedWidget()
        # the room left is the grid's: its pages never make the column taller (``fit`` puts as
        # many buttons on a page as the room holds)
        self.stack.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        col.addWidget(self.stack, 1)
        # the products: a pool of tiles, as many shown as fit
        self.tiles_page = QWidget()
        self._tiles_layout = QGridLayout(self.tiles_page)
        self._tiles_layout.setContentsMargins(0, 0, 0, 0)
        self._tiles_layout.setSpacing(4)
        self.tiles: list[TileButton] = []
        self.empty = Note()
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack.addWidget(self.tiles_page)
        # nothing to show (no product's name holds the letters, an empty category) is said in the
        # buttons' place: the room for them stays as it was, so a name typed and cleared is not
        # fitted and drawn again (below the stack, the note took its height and gave it back)
        self.empty_page = QWidget()
        said = QVBoxLayout(self.empty_page)
        said.setContentsMargins(0, 0, 0, 0)
        said.addWidget(self.empty)
        said.addStretch(1)
        self.stack.addWidget(self.empty_page)
        # the panel that asks (a variant, modifiers): keys 1-9, Return adds, Esc backs out
        self.panel = QWidget()
        panel = QVBoxLayout(self.panel)
        panel.setContentsMargins(0, 0, 0, 0)
        panel.setSpacing(4)
        self.question = Note()
        self.question.setObjectName("GridQuestion")
        a11y.live(self.question)
        panel.addWidget(self.question)
        self.options: list[TileButton] = []
        options = QGridLayout()
        options.setSpacing(4)
        for i in range(OPTION_KEYS):
            b = TileButton()
            b.clicked.connect(lambda _=False, n=i + 1: self._option(n))
            b.setVisible(False)
            self.options.append(b)
            options.addWidget(b, i // 2, i % 2)
        panel.addLayout(options)
        panel.addStretch(1)
        row = QHBoxLayout()
        self.back_button = QPushButton()
        self.add_button = QPushButton()
        for plain, slot in ((self.back_button, self._back), (self.add_button, self._confirm)):
            plain.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            plain.clicked.connect(lambda _=False, s=slot: s())
            row.addWidget(plain)
        panel.addLayout(row)
        self.stack.addWidget(self.panel)
        # the pages of a long category: Up and Down
        pages = QHBoxLayout()
        self.previous_page = QPushButton()
        self.next_page = QPushButton()
        self.page_label = PageLabel()
        pages.addWidget(self.previous_page)
        pages.addWidget(self.page_label, 1)
        pages.addWidget(self.next_page)
        for plain, step in ((self.previous_page, -1), (self.next_page, 1)):
            plain.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            plain.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
            plain.clicked.connect(lambda _=False, n=step: self._turn(n))
        self.pages_row = QWidget()
        self.pages_row.setLayout(pages)
        pages.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.pages_row)
        self._columns = 2
        self._fitting = self._fit_again = False
        self._redrawing = self._redraw_again = False
        self._tile_height = 0
        self._tile_width = BUTTON_W
        self._tiles_layout.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.stack.installEventFilter(self)
        self.category_row.installEventFilter(self)
        self.retranslate()

    # ---- touches ---------------------------------------------------------------------------
    def _category(self, name: str) -> None:
        self.model.select(name)
        self.redraw()

    def _step(self, step: int) -> None:
        self.model.step_category(step)
        self.redraw()

    def _turn(self, step: int) -> None:
        self.model.turn(step)
        self.redraw()

    def touch(self, index: int) -> None:
        """The ``index``-th product button of the page, touched."""
        view = self.model.view()
        if index < len(view.products):
            self._chose(self.model.press(view.products[index]))

    def _option(self, number: int) -> None:
        self._chose(self.model.option(number))

    def _confirm(self) -> None:
        self._chose(self.model.confirm())

    def _back(self) -> None:
        self.model.back()
        self.redraw()

    def _chose(self, pick: Pick | None) -> None:
        self.redraw()
        if pick is not None:
            self.picked(pick)

    # ---- drawing ---------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The room for the buttons or the categories changed: as many as fit shown."""
        kind = event.type()
        if kind == QEvent.Type.Resize:
            if watched is self.stack:
                self.fit()
            elif watched is self.category_row:
                self._place_again()
        elif kind in (QEvent.Type.StyleChange, QEvent.Type.FontChange) and watched in self.categories:
            QTimer.singleShot(0, self, self._place_again)  # its width once its new style is in
        return super().eventFilter(watched, event)

    def _place_again(self) -> None:
        if self._drawn is not None:
            self._place_categories(self._drawn)

    def fit(self) -> None:
        """As many buttons on a page as the grid's room holds (one column where two do not fit:
        a button is never narrower than a finger). Drawing shows or hides the pages' row, which
        resizes the room and asks again: that ask waits for this one to end (issue #39: nested,
        the inner page's buttons were shown and the outer's kept, one past the page's end)."""
        if self._fitting:
            self._fit_again = True
            return
        self._fitting = True
        try:
            for _ in range(4):  # the pages' row shown or hidden settles it in two
                self._fit_again = False
                self._fit_once()
                if not self._fit_again:
                    break
        finally:
            self._fitting = False

    def _fit_once(self) -> None:
        font = self.back_button.font()  # a button's, as the products' (the theme's text size)
        line = QFontMetrics(font).lineSpacing()
        room = self.stack.size()
        # a name on two lines where two rows of them fit, else on one (cut short with "…", whole
        # in its tooltip and for a screen reader): at 1024x768 with 150 % text the room held one
        # row of two-line buttons, and in high contrast less than one, its price cut at the foot
        # (issue #39); never less than a row of one-line buttons (the page scrolls rather)
        two, one = tile_height(font, 2), tile_height(font, 1)
        rows_of_two, rows_of_one = ((room.height() + 4) // (h + 4) for h in (two, one))
        height = two if rows_of_two >= 2 or (rows_of_two == 1 and rows_of_one < 2) else one
        if self.stack.minimumHeight() != one:
            self.stack.setMinimumHeight(one)
        if height != self._tile_height:
            self._tile_height = height
            for tile in (*self.tiles, *self.options):
                tile.setFixedHeight(height)
            row = max(line + 16, 48)  # a finger's height at least
            self.category_row.setFixedHeight(row)
            for tile in self.categories:
                tile.setFixedHeight(row)
            for arrow in (self.previous_category, self.next_category):
                arrow.setFixedSize(max(line + 12, 40), row)
        columns = max(1, (room.width() + 4) // (BUTTON_W + 4))
        rows = max(1, (room.height() + 4) // (height + 4))  # no spacing under the last row
        if columns != self._columns:
            self._columns = columns
            shown = len(self._drawn.products) if self._drawn is not None else 0
            for i, tile in enumerate(self.tiles):
                self._tiles_layout.addWidget(tile, i // columns, i % columns)
                tile.setVisible(i < shown)  # placed again: a tile past the page stays hidden
        # a column's width whether or not a button is in it: one product is one button wide
        self._tile_width = max(BUTTON_W // 2, (room.width() - 4 * (columns - 1)) // columns)
        for tile in (*self.tiles, *self.options):
            tile.setMaximumWidth(self._tile_width)
        self.model.fit(columns * rows)
        self.redraw()
        if self._drawn is not None:
            self._place_categories(self._drawn)

    def changeEvent(self, event: QEvent) -> None:
        """The text size changed (the theme): the buttons measured and placed again; the language
        changed: every name said again in it."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange):
            # measured once every button has its new style (they are told after the grid)
            QTimer.singleShot(0, self, self.fit)  # not after the grid is gone
        elif event.type() == QEvent.Type.LanguageChange:
            self.retranslate()

    def redraw(self) -> None:
        """The grid as the model's view says (nothing done when it is what is on screen). The
        pages' row shown or hidden resizes the room, whose new fit asks to draw again: that
        waits for this drawing to end, and draws the view the fit left (see ``fit``)."""
        if self._redrawing:
            self._redraw_again = True
            return
        self._redrawing = True
        try:
            for _ in range(4):
                self._redraw_again = False
                self._redraw_once()
                if not self._redraw_again:
                    break
        finally:
            self._redrawing = False

    def _redraw_once(self) -> None:
        view = self.model.view()
        if view is self._drawn:
            return
        last, self._drawn = self._drawn, view
        if last is not None and _same_buttons(last, view):
            # the letters changed, not what they found (a name typed on that nothing holds): the
            # note says the letters, no button is drawn again
            self._say_empty(view)
            return
        if last is None or last.categories != view.categories:
            self._draw_categories(view.categories)
        if last is None or (last.categories, last.category, last.filtered) != (
                view.categories, view.category, view.filtered):
            for tile, category in zip(self.categories, view.categories, strict=False):
                tile.setChecked(category.name == view.category and not view.filtered)
            self._place_categories(view)
        colours = {c.name: c.colour for c in view.categories}
        if view.products:  # none: the note shows in their place, the buttons stay as they were
            self._draw_tiles(view.products, colours)
        self._draw_pages(view)
        self._draw_choice(view.choice, colours)
        if view.choice is not None:
            self.stack.setCurrentWidget(self.panel)
        elif view.products:
            self.stack.setCurrentWidget(self.tiles_page)
        else:
            self.stack.setCurrentWidget(self.empty_page)
        self._say_empty(view)

    def _say_empty(self, view: GridView) -> None:
        """The note the buttons' place shows when nothing is found, worded whether or not it
        shows: worded only when shown, it kept an earlier language's words (the words test
        found "No products in this category." on a Spanish screen)."""
        text = (tr("No product's name holds “{text}”: type its price and press + to add it as "
                   "a line.").format(text=view.filter) if view.filtered
                else tr("No products in this category."))
        if text != self.empty.text():
            self.empty.setText(text)

    def _draw_categories(self, categories: tuple[Category, ...]) -> None:
        while len(self.categories) < len(categories):
            b = TileButton()
            b.setCheckable(True)
            b.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            if self._tile_height:
                b.setFixedHeight(self.category_row.height())
            at = len(self.categories)
            b.installEventFilter(self)
            b.clicked.connect(lambda _=False, i=at: self._category_at(i))
            self.categories.append(b)
            b.setParent(self.category_row)
        for i, b in enumerate(self.categories):
            if i < len(categories):
                c = categories[i]
                b.show_tile(c.name, "", c.colour)
                a11y.name(b, tr("Category {name}").format(name=c.name),
                          tr("Shows the category's products (Page Up, Page Down: the category "
                             "before or after)."))
                b.updateGeometry()

    def _place_categories(self, view: GridView) -> None:
        """The row shows the categories that fit its width, the open one among them; the others
        are hidden (never cut at the edge)."""
        count = len(view.categories)
        names = [c.name for c in view.categories]
        open_at = names.index(view.category) if view.category in names else 0
        room = self.category_row.width()
        for tile in self.categories:
            tile.room = room
        widths = [t.sizeHint().width() + 4 for t in self.categories[:count]]
        first = min(self._first_category, open_at, max(count - 1, 0))

        def last_shown(start: int) -> int:
            used, end = 0, start
            while end < count and (end == start or used + widths[end] <= room):
                used += widths[end]
                end += 1
            return end  # one past the last shown
        while last_shown(first) <= open_at and first < open_at:
            first += 1
        self._first_category = first
        end = last_shown(first)
        x, height = 0, self.category_row.height()
        for i, tile in enumerate(self.categories):
            if first <= i < end:
                tile.setGeometry(x, 0, widths[i] - 4, height)
                x += widths[i]
            tile.setVisible(first <= i < end)
        self.previous_category.setEnabled(count > 1)
        self.next_category.setEnabled(count > 1)

    def _category_at(self, index: int) -> None:
        view = self.model.view()
        if index < len(view.categories):
            self._category(view.categories[index].name)

    def _draw_tiles(self, products: tuple[Product, ...], colours: dict[str, str]) -> None:
        while len(self.tiles) < len(products):
            b = TileButton()
            i = len(self.tiles)
            if self._tile_height:
                b.setFixedHeight(self._tile_height)
                b.setMaximumWidth(self._tile_width)
            b.clicked.connect(lambda _=False, n=i: self.touch(n))
            self.tiles.append(b)
            self._tiles_layout.addWidget(b, i // self._columns, i % self._columns)
        about = tr("Adds it to the ticket (a choice is asked first when it has one).")
        for i, b in enumerate(self.tiles):
            if i < len(products):
                p = products[i]
                price = format_money(p.price, self.currency)
                b.show_tile(p.name, price, colours.get(p.category, "#5B6B7B"))
                if b.said != (p.name, price, about):  # said again only when it says another thing
                    b.said = (p.name, price, about)
                    a11y.name(b, f"{p.name}, {price}", about)
                    b.setToolTip(f"{p.name}, {price}")
            b.setVisible(i < len(products))

    def _draw_pages(self, view: GridView) -> None:
        self.pages_row.setVisible(view.pages > 1 and view.choice is None)
        self.page_label.show_page(tr("Page {page} of {pages}").format(page=view.page + 1,
                                                                     pages=view.pages),
                                  f"{view.page + 1}/{view.pages}")
        self.previous_page.setEnabled(view.page > 0)
        self.next_page.setEnabled(view.page + 1 < view.pages)

    def _draw_choice(self, choice: Choice | None, colours: dict[str, str]) -> None:
        if choice is None:
            return
        product = choice.product
        colour = colours.get(product.category, "#5B6B7B")
        if choice.ask is Ask.VARIANT:
            self.question.setText(tr("{name}: which one? (1-9, Esc backs out)").format(name=product.name))
        else:
            self.question.setText(tr("{name}: with? (1-9 ticks, Return adds, Esc backs out)").format(
                name=choice.sold.name))
        for i, b in enumerate(self.options):
            shown = i < len(choice.options)
            b.setVisible(shown)
            if not shown:
                continue
            option = choice.options[i]
            b.setCheckable(choice.ask is Ask.MODIFIER)
            b.setChecked(i in choice.ticked)
            text, about = self._option_words(option, choice.ask)
            ticked = choice.ask is Ask.MODIFIER and i in choice.ticked
            b.show_tile(f"{i + 1} {'✓ ' if ticked else ''}{option.name}", text, colour)
            a11y.name(b, f"{option.name}, {text}" + (f", {tr('ticked')}" if ticked else ""), about)
        self.add_button.setVisible(choice.ask is Ask.MODIFIER)

    def _option_words(self, option: Product | Modifier, ask: Ask) -> tuple[str, str]:
        """(the price or price change shown, what the button does)."""
        from cashier.catalog import Modifier

        if isinstance(option, Modifier):
            sign, size = price_change(option)
            shown = f"{sign}{format_money(size, self.currency)}" if sign else ""
            return shown, tr("Ticks or unticks it (its number); Return adds the product.")
        return (format_money(option.price, self.currency),
                tr("Adds this one (its number); its choices are asked next."))

    def retranslate(self) -> None:
        self.back_button.setText(labelled(tr("Back"), "Esc", stacked=True))
        self.add_button.setText(labelled(tr("Add"), "Return", stacked=True))
        # the arrow keys by their own marks: "[Arriba]" and "[Abajo]" left the page's number no
        # room in the grid's column at 150 % text (issue #39)
        self.previous_page.setText(labelled("▲", "↑", stacked=True))
        self.next_page.setText(labelled("▼", "↓", stacked=True))
        a11y.name(self.back_button, tr("Back"), tr("Backs out of the question: nothing is added."))
        a11y.name(self.add_button, tr("Add"), tr("Adds the product with the choices ticked."))
        a11y.name(self.previous_page, tr("Previous page"), tr("The category's previous products."))
        a11y.name(self.next_page, tr("Next page"), tr("The category's next products."))
        self.previous_page.setToolTip(tr("Previous page"))
        self.next_page.setToolTip(tr("Next page"))
        a11y.name(self.previous_category, tr("Previous category"), tr("Page Up."))
        a11y.name(self.next_category, tr("Next category"), tr("Page Down."))
        self._drawn = None  # the buttons' names are worded again
        self.redraw()
