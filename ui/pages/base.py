"""What every screen shares: a title, a retranslate hook, helpers for big buttons with shortcuts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QGroupBox,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ui import a11y
from ui.core_words import error_words
from ui.i18n import tr
from ui.pages import entry_of
from ui.widgets.hint import hint as hint  # the pages import it from here too

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.till import Till


class Sayable(Protocol):
    """A widget that shows one text (a label, a pill)."""

    def text(self) -> str: ...

    def setText(self, text: str, /) -> None: ...


class FitButton(QPushButton):
    """A button a layout never makes narrower than its text: the screen scrolls instead."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self.isCheckable():
            # checked, its text is bold (style.qss) and wider than the font Qt measures with:
            # room for the bold text either way ("Cuentas abiertas" lost its end in the menu)
            hint.setWidth(hint.width() + bold_extra(self.font(), self.text()))
        return hint

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


def bold_extra(font: QFont, text: str) -> int:
    """How much wider ``text`` is in the bold a checked button shows than in ``font``. Measured
    once per font and text: the Sale screen's layout asks it of every checkable key each time
    its panels are fitted, several times a line added (decision 017, round 3)."""
    of = (font.key(), text)
    extra = _BOLD_EXTRA.get(of)
    if extra is None:
        bold = QFont(font)
        bold.setWeight(QFont.Weight.DemiBold)
        lines = text.split("\n") or [""]
        wide = max(QFontMetrics(bold).horizontalAdvance(line) for line in lines)
        normal = max(QFontMetrics(font).horizontalAdvance(line) for line in lines)
        if len(_BOLD_EXTRA) >= 1024:  # the keys' words in a few languages and text sizes
            _BOLD_EXTRA.clear()
        extra = _BOLD_EXTRA[of] = max(0, wide - normal)
    return extra


#: (font's key, text) -> ``bold_extra``
_BOLD_EXTRA: dict[tuple[str, str], int] = {}


class PartStack(QStackedWidget):
    """A screen's parts, one shown at a time (entry, waiting, result), whose switch hands the
    keyboard straight to the part shown. Qt moves the focus off a part it hides to the next widget
    in the window's chain first (the navigation's first key), and only then into the new part: a
    screen reader said "Sale, Ctrl 1, check box" at every step of a sale."""

    _switching = False

    def setCurrentWidget(self, widget: QWidget) -> None:
        self._switching = True
        try:
            super().setCurrentWidget(widget)
        finally:
            self._switching = False
        self.updateGeometry()

    def setCurrentIndex(self, index: int) -> None:
        self._switching = True
        try:
            super().setCurrentIndex(index)
        finally:
            self._switching = False
        self.updateGeometry()

    # Sized by the part shown, not the widest of all (Qt's stack): a waiting or result part
    # wider than the entry made the entry scroll sideways at 1024 px and 150 % text (issue #39)
    def minimumSizeHint(self) -> QSize:
        part = self.currentWidget()
        return part.minimumSizeHint() if part is not None else super().minimumSizeHint()

    def sizeHint(self) -> QSize:
        part = self.currentWidget()
        return part.sizeHint() if part is not None else super().sizeHint()

    def focusNextPrevChild(self, next: bool) -> bool:
        if self._switching:
            return True  # the stack gives the new part the focus itself, right after
        return super().focusNextPrevChild(next)


class TitledBox(QGroupBox):
    """A group box a layout never makes narrower than its title (Qt counts only its contents)."""

    def minimumSizeHint(self) -> QSize:
        # the title sits 10 px in with 4 px padding each side (style.qss), inside the border
        title = QFontMetrics(self.font()).horizontalAdvance(self.title()) + 32
        return super().minimumSizeHint().expandedTo(QSize(title, 0))


class Page(QWidget):
    """One screen of the window. ``retranslate`` sets every visible text (language switch). Its
    key and title are its entry's in the navigation (``ui.pages.PAGES``)."""

    nav_key = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        entry = entry_of(cls)
        cls.nav_key = entry.nav_key if entry is not None else ""

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        # built inside the window's stack from the start: a finished screen moved into it was
        # styled a second time, widget by widget (~40 % of building it)
        super().__init__(gui.window.stack if gui is not None else None)
        self.till = till
        self.gui = gui
        # the screen's content scrolls when the window is smaller than it needs (a small
        # screen, large text, a long language): nothing is squeezed over its neighbour or cut
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll_area = QScrollArea()
        self.scroll_area.setObjectName("PageScroll")
        self.scroll_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard goes to the fields
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.content = QWidget()
        self.content.setObjectName("PageContent")
        self.scroll_area.setWidget(self.content)
        outer.addWidget(self.scroll_area)
        self.layout_ = QVBoxLayout(self.content)
        # 12 at the sides: 24 made the Open tabs and Gift card screens scroll sideways by 19 and
        # 24 px at 1024x768 in Spanish at 125 % text; 10 above and below: 16 put their Clear [Esc]
        # 5 px under the fold at 1280x800 (150 %) under a window manager's title bar
        self.layout_.setContentsMargins(12, 10, 12, 10)
        self.layout_.setSpacing(12)
        self.heading = QLabel()
        self.heading.setObjectName("PageTitle")
        self.layout_.addWidget(self.heading)
        self._buttons: list[tuple[QPushButton, Callable[[], str], str]] = []
        #: texts built at run time (a result, a refusal, a notice) and how to word them again:
        #: id of the widget -> (widget, words, the text shown)
        self._said: dict[int, tuple[Sayable, Callable[[], str], str]] = {}

    @classmethod
    def title(cls) -> str:
        entry = entry_of(cls)
        if entry is None:
            raise NotImplementedError(f"{cls.__name__} is not in ui.pages.PAGES")
        return entry.title()

    def retranslate(self) -> None:
        self.heading.setText(self.title())
        for button, text, keys in self._buttons:
            button.setText(labelled(text(), keys, bool(button.property("stacked"))))
        self.say_again()

    def say_in(self, widget: Sayable, words: Callable[[], str]) -> None:
        """Show ``words()`` in ``widget``, and word it again after a language switch while the
        widget still shows it: a text built from a result at run time is no retranslate's, and
        the cashier who switches language mid-sale reads what is on screen in the new one. A
        live widget (``a11y.live``) also announces it to a screen reader (once: not when it is
        worded again)."""
        text = self._word_in(widget, words)
        if isinstance(widget, QWidget):
            a11y.say_if_live(widget, text)

    def _word_in(self, widget: Sayable, words: Callable[[], str]) -> str:
        text = words()
        widget.setText(text)
        self._said[id(widget)] = (widget, words, text)
        return text

    def say_refusal(self, widget: Sayable, exc: BaseException) -> None:
        """A core refusal in ``widget`` in the cashier's words (again after a language switch;
        ``exc`` is bound here, as an ``except`` clause's name does not outlive its block)."""
        self.say_in(widget, lambda: error_words(exc, self.till.currency))

    def say_again(self) -> None:
        """Every run-time text still on screen, in the current language (a widget whose text was
        replaced or cleared since is left as it is)."""
        for key, (widget, words, shown) in list(self._said.items()):
            if widget.text() != shown:
                del self._said[key]
                continue
            self._word_in(widget, words)

    def entered(self) -> None:
        """Called when the page becomes visible (refresh lists, take the keyboard)."""

    def left(self) -> None:
        """Another screen was chosen: what only a manager may see is locked now, not at the
        idle time-out (the clerk still signed in would read it)."""

    def clerk_changed(self) -> None:
        """The clerk signed out or another signed in: a screen a manager opened locks again."""

    def take_focus(self) -> None:
        """The window came back with no field of this screen focused: its main field takes the
        keyboard. Only focus: no list is refreshed (this runs from Qt's own events)."""

    def take_key(self, event: QKeyEvent) -> bool:
        """A key that reached the window with no field focused; True when this screen used it."""
        return False

    def open_payment(self) -> str | None:
        """A payment this page has under way that holds no PIN pad (a QR code on screen), named
        for the cashier; None when there is none. Closing the window asks while one is open."""
        return None

    def cancel_open_payment(self) -> None:
        """Cancel the payment ``open_payment`` names (closing the window was asked to)."""

    # ---- the result of a payment: shared by the screens that take one (Sale, QR) -----------------
    # They have ``check_button``, ``print_button`` and ``result_message``, and say what their last
    # outcome was through ``last_outcome``.
    check_button: QPushButton
    print_button: QPushButton
    result_message: QLabel

    def last_outcome(self) -> str | None:
        """The outcome word of the payment on screen (approved, unknown, ...), if any."""
        return None

    def check_now(self) -> None:
        """Ask the host again about every unresolved payment (the recovery flow)."""
        from cashier.flows.recovery import recover

        self.check_button.setEnabled(False)
        self.result_message.setText(tr("Asking the host…"))

        def done(_report: Any) -> None:
            self.check_button.setEnabled(True)
            from cashier.entry_rules import is_checking  # loaded with the runtime

            if is_checking(self.last_outcome() or ""):
                self.result_message.setText(tr("Still no answer from the host; recovery keeps trying."))
        self.till.run(recover(self.till.ctx), "recovery", done=done)

    def print_on_pad(self, lines: list[str], fallback_hint: Callable[[], str] | None = None) -> None:
        """Print a receipt on the PIN pad printer; on failure say why (and what to do instead)."""
        from cashier.flows.pinpad import print_receipt

        self.print_button.setEnabled(False)

        def printed(_: Any) -> None:
            self.say_in(self.result_message, lambda: tr("Receipt printed on the PIN pad."))
            self.print_button.setEnabled(True)

        def failed(exc: BaseException) -> None:
            def words() -> str:
                message = tr("Could not print:") + " " + error_words(exc, self.till.currency)
                return f"{message.rstrip('.')}. {fallback_hint()}" if fallback_hint else message
            self.say_in(self.result_message, words)
            self.print_button.setEnabled(True)

        self.till.run(print_receipt(self.till.ctx, lines), "print", done=printed, failed=failed)

    def button(self, text: Callable[[], str], keys: str, slot: Callable[[], object],
               object_name: str = "", stacked: bool = False) -> QPushButton:
        """A button whose shortcut is shown on it (under the text when ``stacked``, for narrow
        buttons in long languages) and works while this page is visible."""
        b = FitButton(labelled(text(), keys, stacked))
        b.setProperty("stacked", stacked)
        if object_name:
            b.setObjectName(object_name)
        b.clicked.connect(lambda _=False: slot())
        if keys:
            # the shortcut belongs to the button, so Qt offers it only while the button is shown
            # and enabled: a hidden "New sale [Return]" or "Cancel [Esc]" never swallows the key
            # the amount field needs on another part of the screen
            shortcut = QShortcut(QKeySequence(keys), b)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(b.click)
        self._buttons.append((b, text, keys))
        return b


def restyle(widget: QWidget, name: str, value: str) -> None:
    """A style property set and the style applied again (the theme colours by it)."""
    widget.setProperty(name, value)
    widget.style().unpolish(widget)
    widget.style().polish(widget)


def labelled(text: str, keys: str, stacked: bool = False) -> str:
    if not keys:
        return text
    return f"{text}\n[{keys}]" if stacked else f"{text}  [{keys}]"


