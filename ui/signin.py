"""Clerk sign-in: the till asks for a clerk's PIN at start and after "Sign out".

Only on a till whose profile lists clerks; a till without clerks opens as before. The signed-in
clerk becomes the flows' clerk, so every journal entry (and the host) carries the clerk's number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from cashier.clerks import Clerk, PinLocked, SignInError
from ui import a11y
from ui.core_words import say
from ui.i18n import tr
from ui.pages.base import hint, labelled

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.window import MainWindow

SIGN_OUT_KEYS = "Ctrl+Shift+L"


class SignInPanel(QWidget):
    """Covers the screens until a clerk of this till types their PIN."""

    def __init__(self, gui: Gui) -> None:
        super().__init__()
        self.setObjectName("SignIn")
        self.gui = gui
        col = QVBoxLayout(self)
        col.setContentsMargins(48, 48, 48, 48)
        col.addStretch(1)
        self.heading = QLabel()
        self.heading.setObjectName("PageTitle")
        self.heading.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text = QLabel()
        self.text.setObjectName("Breakdown")
        self.text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.pin = QLineEdit()
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setMaxLength(8)
        self.pin.setMaximumWidth(280)
        self.pin.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.pin.returnPressed.connect(self.sign_in)
        self.button = QPushButton(tr("Sign in"))
        self.button.setObjectName("Primary")
        self.button.setMaximumWidth(280)
        self.button.clicked.connect(lambda _=False: self.sign_in())
        self.error = hint()
        self.error.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.error.setStyleSheet("color: #b71c1c; font-weight: 600;")
        for label in (self.heading, self.text):
            col.addWidget(label)
        for field in (self.pin, self.button):
            col.addWidget(field, 0, Qt.AlignmentFlag.AlignHCenter)
        col.addWidget(self.error)
        col.addStretch(2)
        self.retranslate()

    def retranslate(self) -> None:
        self.heading.setText(tr("Sign in"))
        self.text.setText(tr("Type your clerk PIN and press Enter."))
        self.button.setText(tr("Sign in"))
        a11y.name(self.pin, tr("Clerk PIN"), self.text.text())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """The Return that submitted the PIN ends here: the PIN field passes it on (a line edit
        leaves Return to its parents), and once signed in the window's own keys would have handed
        it to the Sale screen ("Amount: type the amount first" at every shift's start)."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            return
        super().keyPressEvent(event)

    def sign_in(self) -> Clerk | None:
        from cashier.approvals import sign_in

        desk = self.gui.cashdesk
        try:
            clerk: Clerk = sign_in(desk.recorder.path, desk.roster, self.pin.text(), "window sign-in")
        except SignInError as exc:
            self.pin.clear()
            self.error.setText(say(str(exc)) if isinstance(exc, PinLocked)
                               else tr("PIN not accepted: no clerk of this till has that PIN."))
            a11y.announce(self.error, self.error.text(), urgent=True)
            return None
        self.pin.clear()
        self.error.clear()
        signed_in(self.gui, clerk)
        return clerk


def signed_in(gui: Gui, clerk: Clerk | None) -> None:
    """Make ``clerk`` the till's clerk (None: signed out, the sign-in panel covers the window)."""
    window = cast("MainWindow", gui.window)  # the sign-in reaches into the window it locks
    till: Any = gui.till
    if clerk != till.clerk:  # what a manager opened for one clerk is not the next one's
        for page in window.built_pages():
            page.clerk_changed()
    till.clerk = clerk
    if till.runtime is not None:
        till.runtime.ctx.clerk_id = clerk.id if clerk is not None else gui.profile.clerk_id
        till.runtime.ctx.signed_in = clerk  # signed in with their own PIN
    panel = gui.sign_in
    for button in window.nav_buttons:
        button.setEnabled(clerk is not None)
    window.nav_scroll.setVisible(clerk is not None)  # nothing to choose until someone signs in
    if clerk is None:
        window.stack.setCurrentWidget(panel)
        panel.pin.setFocus()
    else:
        window.show_page(0)
    gui.sign_out_button.setVisible(clerk is not None)
    label_sign_out(gui)


def label_sign_out(gui: Gui) -> None:
    """The Sign out key's label in the window's language (again at a language switch)."""
    clerk = getattr(gui.till, "clerk", None)
    # the clerk's name on a line of its own: "Cerrar sesión (Alice)" on one line widened the
    # navigation by ~100 px at 150 % text and the Drawer and Sale screens scrolled sideways at
    # 1024x768 (issue #39)
    gui.sign_out_button.setText(labelled(tr("Sign out") + f"\n({clerk.name})" if clerk else tr("Sign out"),
                                         SIGN_OUT_KEYS.replace("+", " "), stacked=True))


def retranslate_sign_in(gui: Gui) -> None:
    if gui.sign_in is not None:
        gui.sign_in.retranslate()
        label_sign_out(gui)


def install_sign_in(gui: Gui) -> None:
    """On a till with clerks: the sign-in panel now, and a Sign out key at the foot of the nav."""
    till: Any = gui.till
    till.clerk = None
    if not gui.profile.roster.enabled:
        return
    window = cast("MainWindow", gui.window)  # the sign-in reaches into the window it locks
    gui.sign_in = SignInPanel(gui)
    window.stack.addWidget(gui.sign_in)
    button = QPushButton()
    button.setObjectName("SignOut")
    button.clicked.connect(lambda _=False: signed_in(gui, None))
    window.nav_col.addWidget(button)
    gui.sign_out_button = button
    shortcut = QShortcut(QKeySequence(SIGN_OUT_KEYS), window)
    shortcut.activated.connect(lambda: signed_in(gui, None) if till.clerk is not None else None)
    till.started.connect(lambda: signed_in(gui, till.clerk) if till.clerk is not None else None)
    signed_in(gui, None)
