"""The Sale screen's product grid, without Qt: which category is open, the letters typed that
filter it, which page of buttons shows, and the question a product asks before it is added (its
variant, then its modifiers). The window draws ``GridView`` and hands the cashier's presses here;
what is added is a ``Pick`` (the product sold and its modifiers).

The grid follows the till's catalog: ``sync`` takes a newer version (a store pull swaps one in
whole), keeping the category and the question on screen when they still exist. Each list of
buttons is made once per version, category and filter, so a keystroke on a 20,000-product catalog
costs one search and a redraw of one page (``make bench``: ``catalog_search_ms_p99``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from cashier.catalog.model import Catalog, Category, Modifier, Product

#: Buttons on one page of the grid when the window has not said how many fit.
PER_PAGE = 16
#: The keys that answer the question (1 to 9): more options show, but only by touch.
OPTION_KEYS = 9
#: How many products a filter finds at most (the first pages of them: more letters narrow it).
FILTER_LIMIT = 96


def price_change(modifier: Modifier) -> tuple[str, Decimal]:
    """How a modifier's price change is shown: its sign ("+", "-", or "" for none) and size."""
    change = modifier.price_change
    return ("+" if change > 0 else "-" if change < 0 else ""), abs(change)


class Ask(StrEnum):
    """What the grid asks about a product before it is added."""

    VARIANT = "variant"  # which one (a size): a key or a touch picks it, at once
    MODIFIER = "modifier"  # which modifiers: keys toggle them, Return adds


@dataclass(frozen=True)
class Choice:
    """The question on the grid's panel: about ``product`` (the button pressed), its ``options``
    (variants or modifiers), the modifiers ticked so far and the variant already chosen."""

    product: Product
    ask: Ask
    options: tuple[Product, ...] | tuple[Modifier, ...]
    ticked: frozenset[int] = frozenset()
    variant: Product | None = None

    @property
    def sold(self) -> Product:
        """What is sold: the chosen variant, else the product itself."""
        return self.variant if self.variant is not None else self.product


@dataclass(frozen=True)
class Pick:
    """A product to add to the ticket: the one sold (a variant when it has them) and its
    modifiers, in the catalog's order."""

    product: Product
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class GridView:
    """What the grid shows (the same object while nothing changed: the window redraws only when it
    did). ``products`` are the buttons of this page; ``filtered``: the letters typed chose them."""

    version: int
    categories: tuple[Category, ...]
    category: str | None
    filter: str
    products: tuple[Product, ...]
    page: int
    pages: int
    choice: Choice | None

    @property
    def filtered(self) -> bool:
        return bool(self.filter)


@dataclass
class CatalogGrid:
    """One Sale screen's grid over ``catalog`` (see the module's note)."""

    catalog: Catalog
    per_page: int = PER_PAGE
    category: str | None = None
    filter: str = ""
    page: int = 0
    choice: Choice | None = None
    #: (catalog, category, filter) and the products listed: made once
    _listed: tuple[Catalog, str | None, str, tuple[Product, ...]] | None = field(
        default=None, repr=False)
    #: (catalog, filter) and the names holding it: the next letter searches only these
    _held: tuple[Catalog, str, tuple[tuple[str, Product], ...]] | None = field(default=None,
                                                                               repr=False)
    #: (catalog, what else it was of) and the view: made once
    _view: tuple[Catalog, tuple[object, ...], GridView] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._keep_category()

    # ---- the catalog ---------------------------------------------------------------------------
    def sync(self, catalog: Catalog) -> bool:
        """Follow ``catalog`` (the till's current one); True when it is another version. The open
        category stays when it still exists; a question stays about the product's new version
        (its price may have changed) unless the product is gone or no longer asks it."""
        if catalog is self.catalog:
            return False
        self.catalog = catalog
        self._keep_category()
        if self.choice is not None:
            self.choice = self._rebound(self.choice)
        self.page = min(self.page, max(self._pages() - 1, 0))
        return True

    def _rebound(self, choice: Choice) -> Choice | None:
        """``choice`` asked again of the catalog now (the ticks kept when the options are the same)."""
        catalog = self.catalog
        product = catalog.product(choice.product.sku)
        if product is None or not product.active:
            return None
        if choice.ask is Ask.VARIANT:
            asked = self._question(product)
            return asked if asked is not None and asked.ask is Ask.VARIANT else None
        variant = None if choice.variant is None else catalog.product(choice.variant.sku)
        if choice.variant is not None and (variant is None or not variant.active):
            return None
        asked = self._modifiers(product, variant)
        if asked is not None and asked.options == choice.options:
            return Choice(product, asked.ask, asked.options, choice.ticked, variant)
        return asked

    def _keep_category(self) -> None:
        names = [c.name for c in self.catalog.sorted_categories()]
        if self.category not in names:
            self.category = names[0] if names else None
            self.page = 0

    # ---- what the cashier does ------------------------------------------------------------------
    def select(self, category: str) -> None:
        """Open ``category`` (the letters typed are the window's to clear: they name a line too)."""
        if category != self.category:
            self.category = category
            self.page = 0

    def step_category(self, step: int) -> None:
        """The next (``1``) or previous (``-1``) category in the row, round the end."""
        names = [c.name for c in self.catalog.sorted_categories()]
        if not names:
            return
        at = names.index(self.category) if self.category in names else 0
        self.select(names[(at + step) % len(names)])

    def set_filter(self, text: str) -> None:
        """The letters typed (the line's name): the grid shows the products whose name holds them."""
        text = text.strip()
        if text != self.filter:
            self.filter = text
            self.page = 0

    def turn(self, step: int) -> None:
        """The next (``1``) or previous (``-1``) page of buttons, when there is one."""
        self.page = max(0, min(self.page + step, self._pages() - 1))

    def fit(self, per_page: int) -> None:
        """How many buttons the window shows on a page (the page kept on the first it showed)."""
        per_page = max(1, per_page)
        if per_page != self.per_page:
            first = self.page * self.per_page
            self.per_page = per_page
            self.page = first // per_page

    def first(self) -> Product | None:
        """What Return adds with letters typed: the first product the filter found."""
        listed = self._list() if self.filter else ()
        return listed[0] if listed else None

    def press(self, product: Product) -> Pick | None:
        """A product's button: the pick at once, or None when the panel asks first."""
        self.choice = self._question(product)
        return Pick(product) if self.choice is None else None

    def option(self, number: int) -> Pick | None:
        """Option ``number`` (1 up) on the panel: a variant is chosen at once (its modifiers asked
        next, if any); a modifier is ticked or unticked. The pick when it is complete."""
        choice = self.choice
        if choice is None or not 1 <= number <= len(choice.options):
            return None
        if choice.ask is Ask.VARIANT:
            variant = choice.options[number - 1]
            assert isinstance(variant, Product)
            self.choice = self._modifiers(choice.product, variant)
            return Pick(variant) if self.choice is None else None
        self.choice = Choice(choice.product, choice.ask, choice.options,
                             choice.ticked ^ {number - 1}, choice.variant)
        return None

    def confirm(self) -> Pick | None:
        """Return on the panel: the product with the modifiers ticked (a variant must be chosen)."""
        choice = self.choice
        if choice is None or choice.ask is not Ask.MODIFIER:
            return None
        self.choice = None
        modifiers = tuple(m for i, m in enumerate(choice.options) if i in choice.ticked)
        return Pick(choice.sold, modifiers)  # type: ignore[arg-type]

    def back(self) -> bool:
        """Esc on the panel: from the modifiers back to the variants (when there were), else the
        question is dropped and nothing is added. False when nothing was asked."""
        choice = self.choice
        if choice is None:
            return False
        if choice.ask is Ask.MODIFIER and choice.variant is not None:
            self.choice = self._question(choice.product)
        else:
            self.choice = None
        return True

    # ---- what the window draws -----------------------------------------------------------------
    def view(self) -> GridView:
        """The grid as it stands (the same object while nothing changed)."""
        of = (self.category, self.filter, self.page, self.per_page, self.choice)
        last = self._view
        if last is not None and last[0] is self.catalog and last[1] == of:
            return last[2]
        listed = self._list()
        start = self.page * self.per_page
        view = GridView(self.catalog.version, tuple(self.catalog.sorted_categories()),
                        self.category, self.filter, tuple(listed[start:start + self.per_page]),
                        self.page, self._pages(), self.choice)
        self._view = (self.catalog, of, view)
        return view

    def _list(self) -> tuple[Product, ...]:
        category = None if self.filter else self.category
        listed = self._listed
        if listed is not None and listed[0] is self.catalog and listed[1:3] == (category,
                                                                                 self.filter):
            return listed[3]
        if self.filter:
            held = self._held
            within = (held[2] if held is not None and held[0] is self.catalog
                      and self.filter.casefold().startswith(held[1].casefold()) else None)
            narrowed = self.catalog.holding(self.filter, within)
            self._held = (self.catalog, self.filter, narrowed)
            products = tuple(self.catalog.search(self.filter, limit=FILTER_LIMIT, within=narrowed))
        elif self.category is not None:
            products = self.catalog.category_buttons(self.category)
        else:
            products = ()
        self._listed = (self.catalog, category, self.filter, products)
        return products

    def _pages(self) -> int:
        return max(1, -(-len(self._list()) // self.per_page))

    def _question(self, product: Product) -> Choice | None:
        variants = self.catalog.variants(product.sku)
        if variants:
            return Choice(product, Ask.VARIANT, variants)
        return self._modifiers(product, None)

    def _modifiers(self, product: Product, variant: Product | None) -> Choice | None:
        """The modifiers asked about what is sold: its own (a variant's are the variant's: the
        ticket refuses a modifier that is not the sold sku's, ``TicketSession.add_product``)."""
        modifiers = (variant if variant is not None else product).modifiers
        return Choice(product, Ask.MODIFIER, modifiers, variant=variant) if modifiers else None
