"""Display settings for whoever stands at the till: language, high contrast, font size; and, in
training, the customer PIN pad window. Nothing here changes how payments work."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel

from ui import a11y
from ui.i18n import LANGUAGES, tr
from ui.pages.base import Page, hint
from ui.theme import FONT_SCALES

if TYPE_CHECKING:
    from ui.gui import Gui
    from ui.till import Till


class SettingsPage(Page):

    def __init__(self, till: Till, gui: Gui | None = None) -> None:
        super().__init__(till, gui)
        form = QFormLayout()
        form.setSpacing(14)
        self.language_label = QLabel()
        self.language = QComboBox()
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.currentIndexChanged.connect(self._language)
        self.contrast_label = QLabel()
        self.contrast = QCheckBox()
        self.contrast.toggled.connect(self._theme)
        self.font_label = QLabel()
        self.font_size = QComboBox()
        for scale in FONT_SCALES:
            self.font_size.addItem(f"{round(scale * 100)} %", scale)
        self.font_size.setCurrentIndex(FONT_SCALES.index(1.0))
        self.font_size.currentIndexChanged.connect(self._theme)
        for label, field in ((self.language_label, self.language), (self.contrast_label, self.contrast),
                             (self.font_label, self.font_size)):
            label.setBuddy(field)  # the label names the field for a screen reader
            form.addRow(label, field)
        self.layout_.addLayout(form)
        self.pinpad_button = self.button(lambda: tr("Show the customer PIN pad"), "", self.show_pinpad)
        self.layout_.addWidget(self.pinpad_button)
        # shown only once inside the screen: a widget without a parent shown is a window of its
        # own, for a moment (it took the keyboard from the till when built after start-up)
        self.pinpad_button.setVisible(till.profile.is_training)
        self.note = hint()
        self.layout_.addWidget(self.note)
        self.layout_.addStretch(1)
        self.retranslate()

    def retranslate(self) -> None:
        super().retranslate()
        self.language_label.setText(tr("Language"))
        self.contrast_label.setText(tr("High contrast"))
        self.contrast.setText(tr("Black and white, yellow focus"))
        a11y.name(self.contrast, tr("High contrast"), self.contrast.text())
        a11y.name(self.language, tr("Language"))
        a11y.name(self.font_size, tr("Text size"))
        self.font_label.setText(tr("Text size"))
        self.note.setText(tr("These settings change only how the window looks; the till keeps them "
                             "for its next start. The till's own settings are on the Manager screen."))
        if self.gui is not None:
            self._show_prefs()
            index = self.language.findData(self.gui.language.code)
            if index >= 0 and index != self.language.currentIndex():
                self.language.blockSignals(True)
                self.language.setCurrentIndex(index)
                self.language.blockSignals(False)

    def entered(self) -> None:
        """The keyboard on the language list: Ctrl+7 then Down (or Up) changes the language,
        with no click first (a hurried cashier's Down did nothing)."""
        self.language.setFocus()

    def take_focus(self) -> None:
        self.language.setFocus()

    def _show_prefs(self) -> None:
        """The contrast and text size as the till was left (saved beside the journal)."""
        assert self.gui is not None
        prefs = self.gui.prefs
        for widget in (self.contrast, self.font_size):
            widget.blockSignals(True)
        self.contrast.setChecked(bool(prefs.get("high_contrast", False)))
        index = self.font_size.findData(float(prefs.get("font_scale", 1.0)))
        if index >= 0:
            self.font_size.setCurrentIndex(index)
        for widget in (self.contrast, self.font_size):
            widget.blockSignals(False)

    def _language(self) -> None:
        if self.gui is not None:
            self.gui.set_language(str(self.language.currentData()))

    def _theme(self) -> None:
        if self.gui is not None:
            self.gui.set_theme(self.contrast.isChecked(), float(self.font_size.currentData()))

    def show_pinpad(self) -> None:
        if self.gui is not None and self.gui.pinpad is not None:
            self.gui.pinpad.show()
            self.gui.pinpad.raise_()
