"""The training PIN pad: one source for the trigger list and the cashier's guide, preset tips when the
request names none, and the chosen test card reset for the next customer."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from cashier.sandbox.triggers import AMOUNT_TRIGGERS
from ui.pages.sale import SalePage

#: The cashier's guide lists the trigger amounts a trainee rehearses with (issue #43).
README = Path(__file__).resolve().parents[2] / "docs" / "guides" / "cashier.md"


def test_the_readme_and_the_pad_list_the_same_triggers(ui: Any, make_gui: Any) -> None:
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| amount | what happens |"):].split("\n\n")[0].splitlines()[2:]
    rows = [tuple(c.strip() for c in re.findall(r"\|([^|]*)", line)[:2]) for line in table]
    assert rows == [tuple(t) for t in AMOUNT_TRIGGERS]
    gui = make_gui()
    pad = gui.pinpad
    shown = [pad.triggers.item(i).text() for i in range(pad.triggers.count())]
    assert shown == [f"{a}: {e}" for a, e in AMOUNT_TRIGGERS]


def test_preset_tips_and_the_test_card_resets_after_the_payment(ui: Any, make_gui: Any) -> None:
    # LG: the tip prompt carries no presets of its own; the profile asks for the tip on the pad
    gui = make_gui(tip_mode="pad")
    pad = gui.pinpad
    amex = next(i for i in range(pad.cards.count()) if pad.cards.item(i).text().startswith("AX"))
    pad.cards.setCurrentRow(amex)
    sale = gui.window.go(SalePage)
    gui.window.activateWindow()
    QTest.qWaitForWindowActive(gui.window, 2000)
    QTest.keyClicks(sale.amount, "4000")
    QTest.keyClick(sale.amount, Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "tip", what="tip prompt")
    labels = [pad.tip_buttons.itemAt(i).widget().text() for i in range(pad.tip_buttons.count())]
    assert labels == ["15%  $6.00", "18%  $7.20", "20%  $8.00", "No tip"]
    pad.tip_buttons.itemAt(1).widget().click()  # 18 %
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    pad.tap_button.click()  # the trainer's chosen card: the Amex
    ui.until(lambda: sale.stack.currentWidget() is sale.result_page, what="result")
    entry = sale.result.entry
    assert sale.result.outcome == "approved" and entry.card_type == "AX"
    assert entry.tip == Decimal("7.20") and entry.approved == Decimal("47.20")
    assert pad.cards.currentItem() is None  # the next customer starts from the default card


def test_the_pad_says_the_outcome_before_welcome(ui: Any, make_gui: Any) -> None:
    """The customer reads "Approved — thank you" (or "Declined") on the pad, then "Welcome"."""
    gui = make_gui()
    pad = gui.pinpad
    pad.result_ms = 300  # a real pad shows it for seconds; the test need not wait that long
    sale = gui.window.go(SalePage)
    gui.window.activateWindow()
    QTest.qWaitForWindowActive(gui.window, 2000)
    assert pad.header.text() == "Welcome"
    for keys, said in (("1250", "Approved — thank you"), ("99999900", "Declined")):
        sale.new_sale()
        QTest.keyClicks(sale.amount, keys)
        QTest.keyClick(sale.amount, Qt.Key.Key_F2)
        ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
        QTest.mouseClick(pad.tap_button, Qt.MouseButton.LeftButton)
        ui.until(lambda s=said: pad.header.text() == s, what=said)
        ui.until(lambda: pad.header.text() == "Welcome", what="back to Welcome")


def test_a_training_profile_with_a_printer_shows_the_virtual_printer(ui: Any, make_gui: Any,
                                                                     tmp_path: Path) -> None:
    """A [printer] in a training profile: the receipt goes to that printer and shows in the virtual
    printer window beside the PIN pad."""
    from cashier.printing.layout import PrintJob
    from cashier.printing.settings import PrinterSettings

    paper = tmp_path / "printer.bin"
    gui = make_gui(printer=PrinterSettings(url=f"file://{paper}", ask_paper=False))
    assert gui.printer_window is not None and gui.printer_window.isVisible()
    job = PrintJob("Receipt", ["TRAINING", "Receipt 1"])
    assert gui.cashdesk.printer.submit(job)
    ui.until(lambda: gui.printer_window.jobs, what="the receipt on screen")
    ui.until(lambda: paper.exists() and paper.stat().st_size > 0, what="the receipt on the printer")


def test_at_1280x800_the_three_training_windows_sit_side_by_side(ui: Any, make_gui: Any) -> None:
    """The till on the left, the PIN pad over the virtual printer on the right: every window
    within the screen, none on another, each at least as large as it needs."""
    from PySide6.QtCore import QRect

    from ui.cash import place_training_windows

    gui = make_gui()
    screen = QRect(0, 0, 1280, 800)
    place_training_windows(gui, screen)
    ui.spin(0.05)
    windows = gui.windows()
    assert len(windows) == 3
    frames = [w.frameGeometry() for w in windows]
    for w, frame in zip(windows, frames, strict=True):
        assert screen.contains(frame), (type(w).__name__, frame)
        hint = w.minimumSizeHint().expandedTo(w.minimumSize())
        assert w.width() >= hint.width() and w.height() >= hint.height(), (type(w).__name__, w.size(), hint)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        assert not frames[a].intersects(frames[b]), (frames[a], frames[b])
    assert gui.pinpad.auto.text() == "Automatic customer"  # the narrow pad's short label
    assert not gui.pinpad.front.overlapping()  # beside the till: never brought over it


def test_at_1024_the_payment_screen_keeps_its_words_and_cancel_clear_of_the_pad(
        ui: Any, make_gui: Any) -> None:
    """On a small screen the pad lies over the till's right edge and comes forward while the
    customer is asked: the amount, the pad's words and Cancel [Esc] stay left of it."""
    from PySide6.QtCore import QRect

    from ui.cash import place_training_windows

    gui = make_gui()
    place_training_windows(gui, QRect(0, 0, 1024, 768))
    ui.spin(0.05)
    pad = gui.pinpad
    assert pad.front.overlapping()
    page = gui.window.go(SalePage)
    gui.window.activateWindow()
    assert QTest.qWaitForWindowActive(gui.window, 2000)
    QTest.keyClicks(page.amount, "1250")
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    ui.spin(0.05)
    covered = pad.frameGeometry()
    for widget in (page.wait_amount, page.prompt_text, page.cancel_button):
        seen = QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.size())
        assert not seen.intersects(covered), (widget.objectName() or type(widget).__name__, seen,
                                              covered)
    pad.tap("4321000000001119")  # the customer taps: the result shows while the pad says so
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="the result")
    for widget in (page.result_title, page.result_amount):
        seen = QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.size())
        assert not seen.intersects(covered), (type(widget).__name__, seen, covered)


def test_at_1024_the_pad_grows_for_the_tip_then_goes_back_over_its_own_place(
        ui: Any, make_gui: Any) -> None:
    """The tip page needs more height than the narrow pad's place: it grows for it (covering the
    printer while the customer chooses), then takes its placed size again."""
    from PySide6.QtCore import QRect

    from ui.cash import place_training_windows

    gui = make_gui(tip_mode="pad")
    place_training_windows(gui, QRect(0, 0, 1024, 768))
    ui.spin(0.05)
    pad = gui.pinpad
    placed = pad.size()
    assert pad.front.placed == placed
    page = gui.window.go(SalePage)
    gui.window.activateWindow()
    assert QTest.qWaitForWindowActive(gui.window, 2000)
    QTest.keyClicks(page.amount, "1250")
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "tip", what="tip prompt")
    ui.spin(0.05)
    grown = pad.height() > placed.height()
    pad.tip_buttons.itemAt(3).widget().click()  # no tip
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    pad.tap_button.click()
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="result")
    ui.until(lambda: pad.size() == placed, what="the pad back to its placed size")
    assert grown, "the tip page fits the narrow pad now: this test no longer shows the return"
    assert not pad.frameGeometry().intersects(gui.printer_window.frameGeometry())


def test_the_trainer_clicks_the_pad_then_the_cashier_keys_go_to_the_till(ui: Any, make_gui: Any) -> None:
    """Tried as a hurried cashier under openbox (issue 22): the trainer clicked Tap card on the
    pad, and the cashier's Return for a new sale went to the pad. Answering for the customer
    gives the keyboard back to the till's window."""
    from PySide6.QtCore import QRect

    from ui.cash import place_training_windows

    gui = make_gui()
    place_training_windows(gui, QRect(0, 0, 1024, 768))
    window, pad = gui.window, gui.pinpad
    page = window.go(SalePage)
    window.activateWindow()
    assert QTest.qWaitForWindowActive(window, 2000)
    QTest.keyClicks(page.amount, "850")
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    pad.activateWindow()  # the trainer's click on the pad's window...
    assert QTest.qWaitForWindowActive(pad, 2000)
    QTest.mouseClick(pad.tap_button, Qt.MouseButton.LeftButton)  # ...on Tap card
    assert QTest.qWaitForWindowActive(window, 2000)  # the keyboard is the till's again
    ui.until(lambda: page.stack.currentWidget() is page.result_page, what="the result")
    QTest.keyClick(window.focusWidget(), Qt.Key.Key_Return)  # the cashier's next key: a new sale
    assert page.stack.currentWidget() is page.entry_page and page.ticket is None


def _screen_shot(gui: Any, name: str, size: tuple[int, int]) -> None:
    """``SCREEN_SHOTS=dir``: the screen as the trainer sees it while the card is asked (the pad
    in front, over the till; the printer behind it), saved as PNG to look at."""
    import os

    shots = os.environ.get("SCREEN_SHOTS")
    if not shots:
        return
    from PySide6.QtGui import QPainter, QPixmap

    canvas = QPixmap(*size)
    canvas.fill()
    painter = QPainter(canvas)
    for w in (gui.printer_window, gui.window, gui.pinpad):  # back to front
        painter.drawPixmap(w.geometry().topLeft(), w.grab())
    painter.end()
    Path(shots).mkdir(parents=True, exist_ok=True)
    canvas.save(str(Path(shots) / f"{name}.png"))


@pytest.mark.parametrize("language", ["en", "es"])
def test_while_the_card_is_asked_the_pad_leaves_the_amount_and_its_keys_apart(
        ui: Any, make_gui: Any, language: str) -> None:
    """Issue #39, under a window manager at 1024x768 with 150 % text: the pad covered the amount
    and "Present card ($219.", its Tap and Insert overlapped each other and the hint, and one
    test card showed. At 1024x768 and 1280x800, 100 % and 150 % text: the pad (over the till's
    navigation when it cannot sit beside it) leaves the amount, the waiting words and Cancel
    [Esc] in sight, and the status bar's last item whole (the column over the right edge hid
    it), its own keys apart, three test cards in sight and every one a scroll away: the trainer
    scrolls to the JCB, clicks it and taps it."""
    from PySide6.QtCore import QRect

    from tests.support.screens import TITLE_BAR, keys_to, layout_problems
    from ui.cash import place_training_windows
    from ui.window import Pill

    gui = make_gui()
    gui.set_language(language)
    window, pad = gui.window, gui.pinpad
    page = window.go(SalePage)
    problems: list[str] = []
    for size, scale in (((1024, 768), 1.0), ((1024, 768), 1.5), ((1280, 800), 1.0),
                        ((1280, 800), 1.5)):
        where = f"{size[0]}x{size[1]} {round(scale * 100)} %"
        gui.set_theme(high_contrast=False, font_scale=scale)
        screen = QRect(0, 0, *size)
        place_training_windows(gui, screen.adjusted(0, TITLE_BAR, 0, 0))
        ui.spin(0.05)
        keys_to(window)
        QTest.keyClicks(page.amount, "21900")
        QTest.keyClick(page.amount, Qt.Key.Key_F2)
        ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
        for _ in range(3):  # the pad grows for the card's page, the till's words wrap anew
            ui.spin(0.02)
        _screen_shot(gui, f"pinpad-{language}-{size[0]}x{size[1]}-{round(scale * 100)}", size)
        covered = pad.frameGeometry()
        if not screen.contains(covered):
            problems.append(f"{where}: the pad runs off the screen: {covered}")
        for widget in (page.wait_amount, page.prompt_text, page.cancel_button):
            seen = QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.size())
            if seen.intersects(covered) or not screen.contains(seen):
                problems.append(f"{where}: {widget.text()!r} under the pad or off the screen")
        if page.scroll_area.horizontalScrollBar().maximum() > 0:
            problems.append(f"{where}: the payment's screen scrolls sideways beside the pad")
        # the status bar's last item (the printer's, the right end of the row) whole, in sight
        pills = [p for p in window.status.findChildren(Pill) if p.isVisible()]
        last = max(pills, key=lambda p: p.mapToGlobal(p.rect().topLeft()).x())
        seen = QRect(last.mapToGlobal(last.rect().topLeft()), last.size())
        if seen.intersects(covered) or not screen.contains(seen):
            problems.append(f"{where}: the status bar's {last.text()!r} under the pad or off the screen")
        problems += [f"{where}: {p}" for p in layout_problems(window.status, window)]
        problems += [f"{where}: {p}" for p in layout_problems(pad)]
        cards = pad.cards
        view = cards.viewport().rect()
        in_sight = [i for i in range(cards.count()) if view.contains(cards.visualItemRect(cards.item(i)))]
        if len(in_sight) < 3:
            problems.append(f"{where}: {len(in_sight)} test cards in sight")
        QTest.keyClick(window.focusWidget(), Qt.Key.Key_Escape)  # the cashier cancels
        ui.until(lambda: pad.prompt is None and page.stack.currentWidget() is page.entry_page,
                 what="cancelled")
        ui.spin(0.05)
    assert not problems, "\n".join(problems)
    # every test card is a scroll away: the trainer scrolls down to the JCB and taps it
    keys_to(window)
    QTest.keyClicks(page.amount, "1250")
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    jcb = next(i for i in range(pad.cards.count()) if pad.cards.item(i).text().startswith("JC"))
    item = pad.cards.item(jcb)
    assert not pad.cards.viewport().rect().contains(pad.cards.visualItemRect(item))  # below
    pad.cards.scrollToItem(item)
    ui.spin(0.02)
    spot = pad.cards.visualItemRect(item)
    assert pad.cards.viewport().rect().contains(spot)
    QTest.mouseClick(pad.cards.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     spot.center())
    assert pad.cards.currentRow() == jcb
    QTest.mouseClick(pad.tap_button, Qt.MouseButton.LeftButton)
    ui.until(lambda: page.ticket is not None and any(
        t.outcome == "approved" and (t.card or "").endswith("5551") for t in page.ticket.tenders),
        what="the JCB's tender on the ticket")


def test_host_down_on_the_pad_turns_the_host_pill_and_host_up_turns_it_back(
        ui: Any, make_gui: Any) -> None:
    """Issue #39: the trainer ticked the pad's "Host down" and the status bar still said "Host:
    reachable" in green. It says what the core heard from the host: not reachable at once, still
    so after the card payment that takes the till offline by itself, reachable again once the
    trainer unticks it and the host answers."""
    from tests.support.screens import keys_to

    gui = make_gui()
    window, pad, till = gui.window, gui.pinpad, gui.till
    pill = window.host_pill
    assert pill.text() == "Host: reachable" and pill.property("level") == "ok"
    box = pad.host_down
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     box.rect().center())
    assert box.isChecked()
    ui.until(lambda: pill.text() == "Host: not reachable", what="the pill says the host is away")
    assert pill.property("level") == "bad"
    pad.auto.setChecked(True)
    page = window.go(SalePage)
    keys_to(window)
    QTest.keyClicks(page.amount, "2000")
    QTest.keyClick(page.amount, Qt.Key.Key_F2)
    ui.until(lambda: till.status.offline and till.status.offline_automatic, what="offline by itself")
    ui.spin(0.05)
    assert pill.text() == "Host: not reachable"
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     box.rect().center())
    ui.until(lambda: not till.status.offline, what="online by itself")
    ui.until(lambda: pill.text() == "Host: reachable", what="the pill says the host is back")
    assert pill.property("level") == "ok"


def _pad_page_problems(ui: Any, gui: Any, screen: Any, where: str) -> list[str]:
    """What the trainer would miss on the pad's page now: the pad taller than the screen leaves
    it (its least height as well as its size), wider than its column, a key of the page or
    Cancel off the pad or the screen, anything cut or overlapping."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QAbstractButton

    from tests.support.screens import layout_problems

    pad = gui.pinpad
    for _ in range(4):  # the page's layouts settle, the window takes its new height
        ui.spin(0.02)
    problems = [f"{where}: {p}" for p in layout_problems(pad)]
    frame = pad.frameGeometry().size() - pad.geometry().size()
    needs = pad.minimumSizeHint().height() + frame.height()
    if needs > screen.height():
        problems.append(f"{where}: the pad needs {needs} px of the screen's {screen.height()}")
    if not screen.contains(pad.frameGeometry()):
        problems.append(f"{where}: the pad runs off the screen: {pad.frameGeometry()}")
    if pad.width() > pad.front.placed.width():
        problems.append(f"{where}: the pad is {pad.width()} wide, its column {pad.front.placed.width()}")
    page = pad.stack.currentWidget()
    keys = [b for b in page.findChildren(QAbstractButton) if b.isVisible()] + [pad.cancel_button]
    for key in keys:
        seen = QRect(key.mapToGlobal(key.rect().topLeft()), key.size())
        inside = QRect(pad.mapToGlobal(pad.rect().topLeft()), pad.size())
        if not inside.contains(seen) or not screen.contains(seen) or key.visibleRegion().isEmpty():
            problems.append(f"{where}: the key {key.text()!r} out of sight at {seen}")
    return problems


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_page_of_the_narrow_pad_fits_a_768_px_screen_at_150(ui: Any, make_gui: Any,
                                                                  language: str) -> None:
    """Issue #39: at 1024x768 with 150 % text the narrow pad's tip page needed 860 px and its QR
    code's 770, more than the screen leaves under a title bar. Every page the pad shows (the
    basket, the tip, the card, a partial approval's words, a signature, a question, long terms,
    a typed answer, the QR code) fits that height with its keys on the pad, in the column's
    width, nothing cut; the page's text is in the window's text size, never the 9 pt left by
    the basket's fixed-width font."""
    import asyncio
    from decimal import Decimal

    from PySide6.QtCore import QRect

    from cashier.flows import cart
    from cashier.mail.pad import address_on_pad
    from tests.support.sale_screen import SaleDriver
    from tests.support.screens import TITLE_BAR
    from ui.cash import place_training_windows

    gui = make_gui(tip_mode="pad")
    gui.set_language(language)
    gui.set_theme(font_scale=1.5)
    screen = QRect(0, TITLE_BAR, 1024, 768 - TITLE_BAR)
    place_training_windows(gui, screen)
    sale = SaleDriver(ui, gui)
    page, pad, ctx = sale.page, gui.pinpad, gui.till.ctx
    assert pad.compact and pad.front.overlapping()
    problems: list[str] = []

    def look(name: str) -> None:
        problems.extend(_pad_page_problems(ui, gui, screen, name))
        _screen_shot(gui, f"pinpad-150-{language}-{name}", (1024, 768))

    look("welcome")
    for n in range(10):  # the basket the core keeps (ten lines), 250.00 in all
        sale.add_line(f"Item {chr(ord('A') + n)}", "2500")
    ui.until(lambda: len(pad.text.text().splitlines()) == 10, what="the basket on the pad")
    look("basket")
    sale.press(Qt.Key.Key_Escape)
    sale.type("21900")  # the sandbox approves half of 219.00: the pad's longest words
    sale.press(Qt.Key.Key_F2)
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "tip", what="tip prompt")
    look("tip")
    pad.tip_buttons.itemAt(pad.tip_buttons.count() - 1).widget().click()  # no tip
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "card", what="card prompt")
    look("card")
    if pad.text.font().pixelSize() != pad.cancel_button.font().pixelSize():
        problems.append(f"card: {pad.text.text()!r} in {pad.text.font().toString()}")
    pad.result_ms = 60_000  # the words stay while they are measured
    pad.tap_button.click()
    ui.until(lambda: ("109.50" in pad.header.text()), what="the partial approval's words")
    look("partial")
    pad.result_ms = 10
    sale.wait_idle()
    terms = "I agree to pay the above total amount according to the card issuer agreement. " * 40
    for kind, ask in (("signature", lambda: cart.capture_signature(ctx)),
                      ("confirmation", lambda: cart.confirm(ctx, "Would you like a receipt by e-mail?")),
                      ("terms", lambda: cart.accept_terms(ctx, terms.strip())),
                      ("input", lambda: address_on_pad(ctx, gui.profile.email.pad_prompt))):
        task = asyncio.ensure_future(ask())
        ui.until(lambda k=kind: pad.prompt is not None and pad.prompt.kind == k, what=kind)
        look(kind)
        pad.customer_cancels()
        ui.run(task)
    sale.press(Qt.Key.Key_F12)  # the open ticket's tender given back, the ticket cancelled
    sale.press(Qt.Key.Key_F12)
    sale.wait_idle()
    pad.auto.setChecked(False)
    page.amount.set_value(Decimal("18.75"))
    page.charge_qr()
    ui.until(lambda: pad.prompt is not None and pad.prompt.kind == "form", what="the QR code")
    look("qr")
    pad.customer_cancels()
    assert not problems, "\n".join(problems)
