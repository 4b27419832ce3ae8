"""Every label and field is readable in both themes: the contrast of its text against what is
behind it, measured on the rendered window (WCAG: at least 7:1 in high contrast, 4.5:1 in the
normal theme). Disabled controls are exempt, as WCAG exempts them."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QAbstractButton, QLabel, QLineEdit, QWidget

from ui.widgets.qrcode import ScanCode

#: (high contrast, the least ratio that theme promises)
THEMES = ((False, 4.5), (True, 7.0))


def _luminance(rgb: int) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: int, b: int) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_contrast(image: QImage, rect: QRect) -> float:
    """Background = the commonest colour in the widget's inner area; text = the colour (seen on
    at least 4 pixels, so not one anti-aliased pixel) that stands out most from it."""
    area = image.copy(rect).convertToFormat(QImage.Format.Format_RGB32)  # 0xffRRGGBB, unpadded
    counts: Counter[int] = Counter()
    for value, n in Counter(memoryview(area.constBits()).cast("I")).items():
        counts[value & 0xFFFFFF] += n
    background = counts.most_common(1)[0][0]
    seen = [c for c, n in counts.items() if n >= 4 and c != background]
    return max((contrast(background, c) for c in seen), default=1.0)


def _text_widgets(page: QWidget) -> list[QWidget]:
    found: list[QWidget] = []
    for w in page.findChildren(QWidget):
        if not w.isVisible() or not w.isEnabled() or w.width() < 8 or w.height() < 8:
            continue
        if isinstance(w, ScanCode) or w.window() is not page.window():
            continue
        label = isinstance(w, QLabel) and bool(w.text().strip()) and w.pixmap().isNull()
        button = isinstance(w, QAbstractButton) and bool(w.text().strip())
        field = isinstance(w, QLineEdit) and bool(w.text() or w.placeholderText())
        if label or button or field:
            found.append(w)
    return found


@pytest.mark.parametrize(("high_contrast", "least"), THEMES, ids=["normal", "high-contrast"])
def test_every_label_and_field_is_readable(ui: Any, make_gui: Any, high_contrast: bool,
                                           least: float) -> None:
    gui = make_gui()
    gui.set_theme(high_contrast=high_contrast)
    window = gui.window
    window.resize(1180, 780)
    failures: list[str] = []
    for index, page in enumerate(window.pages):
        window.show_page(index)
        ui.spin(0.05)
        image = window.grab().toImage()
        for w in _text_widgets(page):
            top_left = w.mapTo(window, QPoint(0, 0))
            inner = QRect(top_left.x() + 3, top_left.y() + 3, w.width() - 6, w.height() - 6)
            inner = inner.intersected(image.rect())
            if inner.isEmpty():
                continue
            ratio = text_contrast(image, inner)
            if ratio < least:
                text = w.text() if hasattr(w, "text") else ""
                failures.append(f"{type(page).__name__} {type(w).__name__} {text[:30]!r}: {ratio:.2f}")
    assert not failures, f"below {least}:1\n" + "\n".join(failures)


def test_the_measure_fails_grey_on_grey(qapp: Any) -> None:
    """The measure itself: light grey text on white is caught, black on white passes."""
    image = QImage(40, 20, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFF)
    for x in range(5, 15):
        for y in range(5, 10):
            image.setPixel(x, y, 0xBBBBBB)
    assert text_contrast(image, image.rect()) < 4.5
    for x in range(20, 30):
        for y in range(5, 10):
            image.setPixel(x, y, 0x000000)
    assert text_contrast(image, image.rect()) == pytest.approx(21.0)


@pytest.mark.parametrize("high_contrast", [False, True])
def test_a_ticked_check_box_shows_its_tick(ui: Any, make_gui: Any, high_contrast: bool) -> None:
    """Checked and unchecked look different inside the box (high contrast once drew a solid
    yellow square with no tick): the checked box's inside holds a mark the unchecked one lacks."""
    from PySide6.QtWidgets import QCheckBox, QStyle, QStyleOptionButton

    from ui.pages.settings import SettingsPage

    gui = make_gui(start=False)
    gui.set_theme(high_contrast=high_contrast)
    page = gui.window.go(SettingsPage)
    box: QCheckBox = page.contrast
    box.blockSignals(True)  # the look of the box, not the theme it switches

    def inside(checked: bool) -> Counter[int]:
        box.setChecked(checked)
        ui.spin(0.02)
        option = QStyleOptionButton()
        box.initStyleOption(option)
        mark = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
        image = box.grab().toImage()
        inner = mark.adjusted(5, 5, -5, -5)  # inside the border
        return Counter(image.pixel(x, y) & 0xFFFFFF for y in range(inner.top(), inner.bottom() + 1)
                       for x in range(inner.left(), inner.right() + 1))

    unchecked, checked = inside(False), inside(True)
    box.blockSignals(False)
    background = checked.most_common(1)[0][0]
    marked = sum(n for colour, n in checked.items() if contrast(colour, background) >= 3)
    assert marked >= 6, (high_contrast, checked.most_common(4))
    assert checked != unchecked


@pytest.mark.parametrize("high_contrast", [False, True])
def test_the_training_pads_check_boxes_show_their_box_on_its_dark_face(
        ui: Any, make_gui: Any, high_contrast: bool) -> None:
    """Automatic customer and Host down are boxes to tick, and look it unticked: on the pad's dark
    face the normal theme drew no box at all, so "Host down (rehearse an outage)" read as a
    label. The box's edge stands out from the pad (3:1, WCAG's for a control's outline) and a
    tick shows once checked."""
    from PySide6.QtWidgets import QCheckBox, QStyle, QStyleOptionButton

    gui = make_gui()
    gui.set_theme(high_contrast=high_contrast)
    pad = gui.pinpad

    def box_pixels(box: QCheckBox) -> tuple[Counter[int], int]:
        ui.spin(0.02)
        option = QStyleOptionButton()
        box.initStyleOption(option)
        mark = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
        mark.translate(box.mapTo(pad, QPoint(0, 0)))  # the pad drawn whole: the box has no face
        image = pad.grab().toImage()
        around = image.pixel(max(0, mark.left() - 3), mark.center().y()) & 0xFFFFFF  # the pad's face
        inside = Counter(image.pixel(x, y) & 0xFFFFFF for y in range(mark.top(), mark.bottom() + 1)
                         for x in range(mark.left(), mark.right() + 1))
        return inside, around

    for box in (pad.auto, pad.host_down):
        box.blockSignals(True)  # the look of the box, not what it switches
        box.setChecked(False)
        unchecked, face = box_pixels(box)
        edge = sum(n for colour, n in unchecked.items() if contrast(colour, face) >= 3)
        assert edge >= 12, (box.text(), hex(face), unchecked.most_common(4))
        box.setChecked(True)
        checked, _ = box_pixels(box)
        assert checked != unchecked, box.text()
        box.setChecked(False)
        box.blockSignals(False)
