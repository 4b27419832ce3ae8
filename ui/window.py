"""The cashier window: navigation on the left, the screen, banners on top, status at the bottom."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from cashier.journal.model import ClockMoved
from ui import a11y
from ui.core_words import error_words, say
from ui.i18n import format_money, tr
from ui.pages.base import FitButton, Page, labelled
from ui.pages.sale import terminal_state_name
from ui.receipt import kind_name, state_name

if TYPE_CHECKING:
    from ui.pages import PageEntry
    from ui.till import Till



class NavButton(FitButton):
    """A screen's key in the navigation, as high as its lines: the theme's min-height (a minimum
    size set by the style sheet) let the layout squeeze a two- or three-line name at 150 % text,
    its lines drawn over each other (issue #39); the column scrolls instead."""

    def event(self, event: QEvent) -> bool:
        done = super().event(event)
        if event.type() in (QEvent.Type.Polish, QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.fit_height()
        return done

    def fit_height(self) -> None:
        if self.minimumHeight() != (tall := self.sizeHint().height()):
            self.setMinimumHeight(tall)


def nav_title(title: str) -> str:
    """A long screen name on two lines in the navigation ("Cuentas / abiertas"): the column is as
    wide as its longest line, and at 150 % text in Spanish one-line names left the screens too
    little of 1024 px (issue #39)."""
    if len(title) <= 8 or " " not in title:
        return title
    middle = len(title) / 2
    cut = min((i for i, c in enumerate(title) if c == " "), key=lambda i: abs(i - middle))
    return f"{title[:cut]}\n{title[cut + 1:]}"


class NavColumn(QScrollArea):
    """The navigation column: as wide as its longest label plus a scroll bar, never narrower,
    and scrolling up and down when the window is shorter than its buttons."""

    def __init__(self, column: QWidget) -> None:
        super().__init__()
        self.setObjectName("NavScroll")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard belongs to the screen
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        self.setWidget(column)
        column.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A scroll area does not pass its column's new size on to the window's layout: labels
        relabelled in a longer language (or a larger text) would keep the old width, cut."""
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(watched, event)

    def _width(self) -> int:
        # room for the scroll bar is kept even when it is hidden, so a label never loses width
        column = self.widget()
        inner = column.sizeHint().width() if column is not None else 0
        return inner + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth()

    def sizeHint(self) -> QSize:
        column = self.widget()
        return QSize(self._width(), column.sizeHint().height() if column is not None else 0)

    def minimumSizeHint(self) -> QSize:
        return QSize(self._width(), 0)


class Banner(QLabel):
    """A banner over the screens: its whole sentence where it fits one line, else its short
    form (the sentence then in its tooltip), wrapped only where even that does not fit. At
    1024x768 with 150 % text training's banner took two lines, 30 px of every screen's height,
    and a decline's notice pushed the Sale screen's tenders below the fold (issue #39)."""

    def __init__(self) -> None:
        super().__init__()
        # wrapped, never cut: centred one-line text wider than the window lost both ends
        # ("INING MODE…TRAIN") at large text or in Spanish
        self.setWordWrap(True)
        self.words = ("", "")

    def say(self, whole: str, short: str) -> None:
        self.words = (whole, short)
        self._fit()

    def _fit(self) -> None:
        whole, short = self.words
        room = self.contentsRect().width() - 2 * self.margin() - 4
        fits = self.fontMetrics().horizontalAdvance(whole) <= room
        text = whole if fits or not short else short
        if text != self.text():
            self.setText(text)
        said_whole = "" if text == whole else whole  # the sentence, where the short form shows
        if said_whole != self.toolTip():
            self.setToolTip(said_whole)
            self.setAccessibleDescription(said_whole)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit()


#: The status bar's room around its items (``QStatusBar``'s own layout): the gap before each,
#: and its ends with the size grip.
STATUS_GAP, STATUS_ENDS = 6, 24


class Pill(QLabel):
    """One status-bar item; its colour follows ``level`` (ok, warn, bad)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("Pill")

    def set(self, text: str, level: str = "ok") -> None:
        self.setText(text)
        if self.property("level") != level:
            self.setProperty("level", level)
            self.style().unpolish(self)
            self.style().polish(self)

    def changeEvent(self, event: QEvent) -> None:
        """A new text size reaches the items after the window: the bar is measured again with
        theirs (measured with the old one, Spanish at 150 % stayed on one line, its last item
        cut at the window's edge: issue #39)."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            fit = getattr(self.window(), "fit_status", None)
            if callable(fit):
                fit()


class MainWindow(QMainWindow):
    first_paint = Signal()
    #: The cashier closed the window: the program ends (the PIN pad window with it).
    closed = Signal()
    #: A second start on this journal knocked (from the door's thread: queued to this one).
    knocked = Signal()

    def __init__(self, till: Till) -> None:
        super().__init__()
        self.till = till
        self._painted = False
        self.resize(1180, 780)
        self.setMinimumSize(900, 620)
        central = QWidget()
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        self.nav = QFrame()
        self.nav.setObjectName("Nav")
        nav_col = QVBoxLayout(self.nav)
        nav_col.setContentsMargins(0, 0, 0, 0)
        nav_col.setSpacing(2)
        self.nav_title = QLabel("Cashier")
        self.nav_title.setObjectName("NavTitle")
        nav_col.addWidget(self.nav_title)
        self.nav_col = nav_col
        self.nav_group = QButtonGroup(self)
        self.nav_group.setExclusive(True)
        # ten screens do not fit one above the other at 1024x768 at large text: the column
        # scrolls (the screen's own Ctrl+N still reaches every one) rather than squeezing a label
        self.nav_scroll = NavColumn(self.nav)
        row.addWidget(self.nav_scroll)
        right = QVBoxLayout()
        right.setContentsMargins(0, 0, 0, 0)
        right.setSpacing(0)
        self.training_banner = Banner()
        self.training_banner.setObjectName("TrainingBanner")
        self.training_banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.training_banner.setVisible(till.profile.is_training)
        self.recovery_banner = QLabel()
        self.recovery_banner.setObjectName("RecoveryBanner")
        self.recovery_banner.setWordWrap(True)
        self.recovery_banner.setVisible(False)
        self.offline_banner = QLabel()
        self.offline_banner.setObjectName("OfflineBanner")
        self.offline_banner.setWordWrap(True)
        self.offline_banner.setVisible(False)
        right.addWidget(self.training_banner)
        right.addWidget(self.recovery_banner)
        right.addWidget(self.offline_banner)
        self.stack = QStackedWidget()
        right.addWidget(self.stack, 1)
        row.addLayout(right, 1)
        self.setCentralWidget(central)
        self._classes: list[PageEntry] = []
        self._built: list[Page | None] = []
        self._make_page: Callable[[type[Page]], Page] | None = None
        self.nav_buttons: list[QPushButton] = []
        self.status = QStatusBar()
        self.setStatusBar(self.status)
        self.host_pill = Pill()
        self.terminal_pill = Pill()
        self.recovery_pill = Pill()
        self.offline_pill = Pill()
        self.training_pill = Pill()
        self.clock_pill = Pill()  # the clock jumped (the core journals it and says by how much)
        self.clock_pill.setVisible(False)
        self.clock_moved: ClockMoved | None = None
        #: (offline, host not reachable) as last shown: a change is announced to a screen reader
        self._status_heard: tuple[bool, bool] | None = None
        for pill in (self.host_pill, self.terminal_pill, self.recovery_pill, self.offline_pill,
                     self.training_pill, self.clock_pill):
            self.status.addPermanentWidget(pill)
        self.recovery_report: Any = None
        self.close_question: QMessageBox | None = None
        self._close_when_free = False
        self.start_error = ""
        #: the screen area the window may widen into rather than scroll a screen sideways (set by
        #: training's placement beside the PIN pad and printer windows); None: it keeps its size
        self.fit_area: QRect | None = None
        #: how far training's PIN pad and printer lie over the window's left edge, its navigation
        #: (0 beside it): a payment's own screen keeps its words and its Cancel button clear of them
        self.covered_left = 0
        till.status_changed.connect(self.refresh_status)
        till.recovery_finished.connect(self.show_recovery)
        till.start_failed.connect(self._start_failed)
        till.bridge.on(ClockMoved, self.show_clock_moved)
        self.retranslate()

    # ---- pages: each screen is built the first time it is shown or asked for ------------------
    def add_pages(self, entries: Sequence[PageEntry], make: Callable[[type[Page]], Page]) -> None:
        """The screens in navigation order, ``make`` building one. Only the first (Sale) is built
        now; each other one (its module imported then) the first time it is shown or asked for
        (``page``, ``go``, ``pages``): building all ten cost ~0.3 s before the window could open."""
        self._make_page = make
        for entry in entries:
            index = len(self._classes)
            self._classes.append(entry)
            self._built.append(None)
            self.stack.addWidget(QWidget())  # holds the screen's place (its index) until built
            button = NavButton()
            button.setCheckable(True)
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            button.clicked.connect(lambda _=False, i=index: self.show_page(i))
            self.nav_group.addButton(button)
            self.nav_col.addWidget(button)
            self.nav_buttons.append(button)
            if entry.nav_key:
                shortcut = QShortcut(QKeySequence(entry.nav_key), self)
                shortcut.activated.connect(lambda i=index: self.show_page(i))
            self._label_nav(index)
        self.nav_col.addStretch(1)
        if entries:
            self.nav_buttons[0].setChecked(True)
            self._page_at(0)
            self.stack.setCurrentIndex(0)
        self.stack.currentChanged.connect(lambda _i: QTimer.singleShot(0, self._fit_sideways))

    def _page_at(self, index: int) -> Page:
        """The screen at ``index``, built now if it was not yet (in the language, contrast and
        text size of the moment: it translates itself as it is built, the theme is the app's)."""
        page = self._built[index]
        if page is None:
            assert self._make_page is not None, "add_pages first"
            page = self._make_page(self._classes[index].load())
            self._built[index] = page
            holder = self.stack.widget(index)
            assert holder is not None
            self.stack.insertWidget(index, page)
            self.stack.removeWidget(holder)
            holder.deleteLater()
            page.scroll_area.horizontalScrollBar().rangeChanged.connect(
                lambda _low, _high: QTimer.singleShot(0, self._fit_sideways))
        return page

    @property
    def pages(self) -> list[Page]:
        """Every screen, in navigation order (those not built yet are built now)."""
        return [self._page_at(i) for i in range(len(self._classes))]

    def built_pages(self) -> list[Page]:
        """The screens built so far (one never built has nothing open, nothing to translate)."""
        return [page for page in self._built if page is not None]

    def build_rest_later(self) -> None:
        """The screens not built yet, one per pass of the event loop when it is idle, so the
        first visit of each is instant and no key waits long behind one."""
        rest = [i for i, page in enumerate(self._built) if page is None]
        if not rest:
            return

        def next_one() -> None:
            from shiboken6 import isValid

            if isValid(self) and self._built[rest[0]] is None:
                self._page_at(rest[0])
            rest.pop(0)
            if rest:
                QTimer.singleShot(0, next_one)

        QTimer.singleShot(0, next_one)

    # ---- width: no screen scrolls sideways ---------------------------------------------------
    def width_needed(self) -> int:
        """The window's width (without its frame) at which none of its screens scrolls sideways
        at the text size now, as their layouts say (every screen is built for it). A screen
        that grows once it is shown (a line that appears on entering) is caught by
        ``fit_within`` instead."""
        self.nav.ensurePolished()
        widest = 0
        for page in self.pages:
            page.ensurePolished()
            content = page.scroll_area.widget()
            if content is None:
                continue
            scroller = page.scroll_area
            widest = max(widest, content.minimumSizeHint().width()
                         + scroller.verticalScrollBar().sizeHint().width() + 2 * scroller.frameWidth())
        return max(self.minimumWidth(), self.nav_scroll.minimumSizeHint().width() + widest,
                   self._status_width())

    def fit_within(self, area: QRect | None) -> None:
        """From now on, a screen that would scroll sideways widens the window instead, as far as
        ``area`` (the screen's free area) allows. None: the window keeps the size it is given."""
        self.fit_area = area
        self._fit_sideways()

    def _fit_sideways(self) -> None:
        from shiboken6 import isValid

        if not isValid(self) or not isValid(self.stack):
            return  # a check queued just before the window was deleted (a test's, or a close)
        area = self.fit_area
        page = self.stack.currentWidget()
        if area is None or not isinstance(page, Page) or not self.isVisible():
            return
        short = page.scroll_area.horizontalScrollBar().maximum()
        if short <= 0:
            return
        frame = self.frameGeometry().width() - self.width()
        width = min(self.width() + short, area.width() - frame)
        if width <= self.width():
            return  # as wide as the screen already: the screen's own layout must fit
        if self.frameGeometry().left() + width + frame > area.right() + 1:
            self.move(area.left(), self.frameGeometry().top())
        self.resize(width, self.height())

    def show_page(self, index: int) -> None:
        page = self._page_at(index)
        before = self.stack.currentWidget()
        if isinstance(before, Page) and before is not page:
            before.left()  # a manager's view locks as the manager leaves it
        self.stack.setCurrentIndex(index)
        self.nav_buttons[index].setChecked(True)
        self.nav_scroll.ensureWidgetVisible(self.nav_buttons[index], 0, 0)
        page.entered()

    def _index_of(self, cls: type[Page]) -> int:
        for index, entry in enumerate(self._classes):  # by name: no other screen's module loaded
            if entry.names(cls):
                return index
        for index, entry in enumerate(self._classes):  # a class a screen's derives from
            if issubclass(entry.load(), cls):
                return index
        raise LookupError(cls.__name__)

    def page(self, cls: type[Page]) -> Any:
        """The screen of class ``cls`` (built now if it was not yet)."""
        return self._page_at(self._index_of(cls))

    def go(self, cls: type[Page]) -> Any:
        index = self._index_of(cls)
        self.show_page(index)
        return self._page_at(index)

    def _label_nav(self, index: int) -> None:
        entry = self._classes[index]
        button = self.nav_buttons[index]
        button.setText(labelled(nav_title(entry.title()), entry.nav_key.replace("+", " "), stacked=True))
        if isinstance(button, NavButton):
            button.fit_height()
        self.nav_buttons[index].setToolTip(entry.nav_key)

    # ---- language --------------------------------------------------------------------------
    def retranslate(self) -> None:
        p = self.till.profile
        title = tr("Cashier") + f" — {p.till_id}"
        if p.is_training:
            title += " — " + tr("TRAINING")
        self.setWindowTitle(title)
        self.training_banner.say(tr("TRAINING MODE — no real money moves; receipts and journal "
                                    "entries are marked TRAINING"),
                                 tr("TRAINING MODE — no real money moves"))
        self.offline_banner.setText(tr("OFFLINE MODE — payments are stored and sent when the "
                                       "gateway is back online"))
        for page in self.built_pages():
            page.retranslate()
        for i in range(len(self._classes)):
            self._label_nav(i)
        if self.recovery_report is not None:
            self.show_recovery(self.recovery_report)
        self.refresh_status()

    # ---- status ----------------------------------------------------------------------------
    def refresh_status(self) -> None:
        s = self.till.status
        if not s.started:
            self.host_pill.set(tr("The till could not start:") + " " + say(self.start_error)
                               if self.start_error else tr("Starting…"),
                               "bad" if self.start_error else "warn")
        elif s.host_reachable is False:
            self.host_pill.set(tr("Host: not reachable"), "bad")
        else:
            self.host_pill.set(tr("Host: reachable"), "ok")
        self.terminal_pill.set(tr("PIN pad:") + " " + (terminal_state_name(s.terminal_state)
                                                      if s.terminal_state else "—"), "ok")
        # amber only when something needs the cashier: a payment under way is normal
        if s.unresolved:
            self.recovery_pill.set(tr("Waiting for recovery:") + f" {s.unresolved} "
                                   + tr("(see Manager)"), "warn")
        elif s.in_progress:
            self.recovery_pill.set(tr("Payment in progress"), "ok")
        else:
            self.recovery_pill.set(tr("Nothing waiting for recovery"), "ok")
        # the status bar holds what a 1024-wide window fits at large text: a pill that would
        # only repeat the usual (online; training, which has its banner) is left out
        if s.offline:
            # "Offline: cards stored — 3 for 41.20"; red when the oldest is within an hour of
            # the profile's max_hours (the core's rule: TillStatus.stored_near_limit)
            text = tr("Offline: cards stored — %d for %s") % (
                s.stored_count, format_money(Decimal(s.stored_amount), self.till.currency))
            if s.stored_near_limit:
                text += " — " + tr("the oldest must be sent within %s h") % s.stored_hours_left
            self.offline_pill.set(text, "bad" if s.stored_near_limit else "warn")
        else:
            self.offline_pill.set(tr("Online"), "ok")
        self.offline_pill.setVisible(s.offline)
        self.offline_banner.setVisible(s.offline)
        self.training_pill.set(tr("Training") if s.training else tr("Live"), "ok")
        self.training_pill.setVisible(not s.training)
        self._word_clock()
        self._announce_status(s.offline, s.started and s.host_reachable is False)
        self.fit_status()

    def _announce_status(self, offline: bool, unreachable: bool) -> None:
        """The till went offline or online, or lost or found the host: said to a screen reader
        at once (the pills and banner only show it)."""
        heard, self._status_heard = self._status_heard, (offline, unreachable)
        if heard is None:
            return
        said = [pill.text() for pill, changed in ((self.offline_pill, offline != heard[0]),
                                                  (self.host_pill, unreachable != heard[1])) if changed]
        if said:
            a11y.announce(self, ". ".join(said), urgent=True)

    def show_clock_moved(self, moved: ClockMoved) -> None:
        """The clock jumped: say so until the window closes (money kept the journal's time)."""
        self.clock_moved = moved
        self._word_clock()

    def _word_clock(self) -> None:
        moved = self.clock_moved
        if moved is None:
            return
        text = (tr("Clock moved back %s: check the date and time") if moved.back
                else tr("Clock moved forward %s: check the date and time")) % moved.span
        self.clock_pill.set(text, "warn")
        self.clock_pill.setVisible(True)

    def _start_failed(self, message: str) -> None:
        self.start_error = message  # worded (in the window's language) by refresh_status
        self.refresh_status()

    def show_recovery(self, report: Any) -> None:
        """At start-up: say what recovery resolved and what is still open."""
        self.recovery_report = report
        if not report.resolved and not report.still_open:
            self.recovery_banner.setVisible(False)
            return
        parts = []
        for entry in report.resolved[:5]:
            # a Charge API entry has no invoice: its kind names it
            parts.append(f"{entry.invoice or kind_name(str(entry.kind))}: {state_name(str(entry.state))} "
                         f"{format_money(entry.approved or entry.requested, entry.currency)}")
        text = tr("Recovery at start-up resolved") + f" {len(report.resolved)}: " + "; ".join(parts)
        if report.still_open:
            text += "  " + tr("Still open (see Manager):") + f" {len(report.still_open)}"
        self.recovery_banner.setText(text)
        self.recovery_banner.setVisible(True)

    # ---- closing ---------------------------------------------------------------------------
    def open_payment(self) -> str | None:
        """What payment is under way (the PIN pad's holder, or a page's own), if any."""
        if self.till.ready and self.till.ctx.pinpad.busy:
            return str(self.till.ctx.pinpad.holder)
        for page in self.built_pages():
            what = page.open_payment()
            if what:
                return what
        return None

    def closeEvent(self, event: QCloseEvent) -> None:
        what = self.open_payment()
        if what is not None:
            event.ignore()  # never vanish while the customer is at the PIN pad
            self._ask_close(what)
            return
        self._close_when_free = False
        super().closeEvent(event)
        self.closed.emit()

    def _ask_close(self, what: str) -> None:
        if self.close_question is not None and self.close_question.isVisible():
            return
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(tr("A payment is open"))
        box.setText(tr("A payment is open: %s.") % what)
        box.setInformativeText(tr("Cancel it on the PIN pad and close, or wait for it to finish."))
        self.cancel_and_close = box.addButton(tr("Cancel the payment and close"),
                                              QMessageBox.ButtonRole.DestructiveRole)
        wait = box.addButton(tr("Wait"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(wait)
        box.setEscapeButton(wait)
        box.finished.connect(lambda _r: self._answered(box))
        self.close_question = box
        box.open()

    def _answered(self, box: QMessageBox) -> None:
        if box.clickedButton() is not self.cancel_and_close:
            return
        self._close_when_free = True
        for page in self.built_pages():
            page.cancel_open_payment()
        if self.till.ready and self.till.ctx.pinpad.busy:
            from cashier.flows.pinpad import cancel_prompt

            self.till.run(cancel_prompt(self.till.ctx), "cancel on close", failed=self._cancel_failed)
        self._try_close()

    def _cancel_failed(self, exc: BaseException) -> None:
        self._close_when_free = False  # the payment goes on: ask again rather than vanish
        what = self.open_payment()
        if what is not None:
            self._ask_close(what + " — " + tr("Could not cancel:") + " " + error_words(exc))

    def _try_close(self) -> None:
        """Close once the cancelled payment has ended (its outcome is journaled first)."""
        if not self._close_when_free:
            return
        if self.open_payment() is None:
            self.close()
        else:
            QTimer.singleShot(50, self._try_close)

    # ---- first paint (start-up timing) -----------------------------------------------------
    def bring_to_front(self) -> None:
        """A second start: this window, restored if minimised, on top and active."""
        self.setWindowState(self.windowState() & ~Qt.WindowState.WindowMinimized)
        self.show()
        self.raise_()
        self.activateWindow()

    # ---- the keyboard: the first key after start, a dialog or a window switch reaches the screen
    def take_keyboard(self) -> None:
        """This window active, its screen's field focused (after the training windows opened)."""
        self.raise_()
        self.activateWindow()
        self._refocus()

    def _refocus(self) -> None:
        from PySide6.QtWidgets import QApplication

        focus = QApplication.focusWidget()
        page = self.stack.currentWidget()
        if isinstance(page, Page) and (focus is None or focus.window() is not self
                                       or not page.isAncestorOf(focus)):
            page.take_focus()  # the screen takes the keyboard (not the navigation's scroll area)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_status()

    def _status_width(self) -> int:
        """How wide the status bar is with each item on one line: each item's own width on one
        line (as Qt lays it out: its text, padding and indent), the bar's 6 px between items and
        its ends. A flat 48 px per item said 1034 px where 975 were needed in Spanish at 150 %
        text, and the bar took two lines, 21 px of every screen's height (issue #39)."""
        pills = [p for p in self.status.findChildren(Pill) if p.isVisibleTo(self.status)]
        widths = []
        for p in pills:
            wrapped = p.wordWrap()
            if wrapped:  # a wrapped label's hint is for its lines: asked on one line
                p.setWordWrap(False)
            widths.append(p.sizeHint().width())
            if wrapped:
                p.setWordWrap(True)
        return sum(widths) + STATUS_GAP * len(widths) + STATUS_ENDS

    def fit_status(self) -> None:
        """The status bar's items on two lines each only when one line each does not fit the
        window (1024 px at 150 % text): never past its right edge, and no taller than it must be
        (issue #39)."""
        wrap = self._status_width() > self.width()
        for p in self.status.findChildren(Pill):
            if p.wordWrap() != wrap:
                p.setWordWrap(wrap)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.fit_status()
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            QTimer.singleShot(0, self._refocus)  # after Qt restored its own focus, if any

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """A key no widget took (no field focused): the screen's own keys get it."""
        page = self.stack.currentWidget()
        if isinstance(page, Page) and page.take_key(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def paintEvent(self, event: Any) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_paint.emit()
