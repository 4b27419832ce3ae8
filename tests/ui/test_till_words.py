"""Issue 39: every word a cashier or manager reads is a till word, in both languages. Two walks:
every string of the window (each ``tr()`` source and its Spanish), and every screen as it shows
(its labels, keys, lists, tables and report), in English and Spanish: no profile setting's name
("max_amount", "store_url"), no "processing option", no API, no ISO time, no "1 refunds", and in
Spanish no English the window has words for (the test cards' names included)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QTableWidget,
    QWidget,
)

from cashier.flows.payments import KeyedCard, sale
from tests.support.screens import go_to, keys
from ui.i18n import TRANSLATIONS_DIR
from ui.i18n_tool import extract, read_ts

ES = read_ts(TRANSLATIONS_DIR / "cashier_es.ts")
PLACEHOLDER = re.compile(r"%s|%d|\{[a-z_]*\}")
#: a file's path (where the journal is, where a report was saved): the manager needs it as it is
PATH = re.compile(r"(?:/[^\s/]+){2,}")
#: What no till word is: a setting's or a field's name, the developer's words, a machine's time,
#: a count whose plural is wrong for one.
DEVELOPER = {
    "a setting's name": re.compile(r"\b[a-z]+_[a-z0-9_]*[a-z0-9]\b"),
    "processing option": re.compile(r"processing option|opción de procesamiento", re.I),
    "an API": re.compile(r"\bapi\b", re.I),
    "an ISO time": re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}"),
    "HTTP": re.compile(r"\bHTTPS?\b"),
    "a plural for one": re.compile(
        r"(?:%s|%d|\{[a-z_]*\}|\b1) (?:sales|refunds|tickets|payments|voids|entries|tabs|ventas|"
        r"devoluciones|pagos)\b"),
    "tab(s)": re.compile(r"\w\(s\)"),
}


def developer_words(text: str) -> list[str]:
    """What in ``text`` is not a till word (its placeholders left out)."""
    plain = PATH.sub("<path>", PLACEHOLDER.sub("{}", text))
    found = [what for what, rule in DEVELOPER.items() if rule.search(plain)]
    if "a plural for one" in found and not DEVELOPER["a plural for one"].search(text):
        found.remove("a plural for one")
    return found


def test_every_window_string_is_a_till_word_in_both_languages() -> None:
    bad = {}
    for source in extract():
        for text in (source, ES.get(source, "")):
            found = [w for w in developer_words(text)
                     if not (w == "a plural for one" and "{most}" in text)]  # a limit, never 1
            if found:
                bad[text] = found
    assert bad == {}, bad


# ---- the screens as they show --------------------------------------------------------------------
def shown_texts(root: QWidget) -> list[str]:
    """Every text a cashier may read in ``root`` now: labels, keys, titles, list and table rows,
    the report's view, a combo box's choices."""
    out: list[str] = []
    for w in root.findChildren(QWidget):
        if isinstance(w, QLabel | QAbstractButton):
            out.append(w.text())
        elif isinstance(w, QGroupBox):
            out.append(w.title())
        elif isinstance(w, QPlainTextEdit):
            out.append(w.toPlainText())
        elif isinstance(w, QListWidget):
            out += [w.item(i).text() for i in range(w.count())]
        elif isinstance(w, QTableWidget):
            for c in range(w.columnCount()):
                head = w.horizontalHeaderItem(c)
                out.append(head.text() if head is not None else "")
                cells = (w.item(r, c) for r in range(w.rowCount()))
                out += [cell.text() for cell in cells if cell is not None]
        elif isinstance(w, QComboBox):
            out += [w.itemText(i) for i in range(w.count())]
    return [t for t in out if t]


def _untranslated(texts: list[str]) -> list[str]:
    """English the window has Spanish words for, shown as it is in a Spanish window."""
    english = {s for s, t in ES.items() if t != s and len(s) > 3 and not PLACEHOLDER.search(s)}
    return [t for t in texts if t in english]


def test_every_screen_says_till_words_in_english_and_spanish(ui: Any, make_gui: Any) -> None:
    from ui.pages.manager import ManagerPage
    from ui.pages.reports import ReportsPage

    gui = make_gui(processing_option="HD")
    ctx = gui.till.ctx
    ui.run(sale(ctx, Decimal("20.00"), card=KeyedCard("4321000000001119", "1228")))
    window = gui.window
    for language in ("en", "es"):
        gui.set_language(language)
        seen: dict[str, list[str]] = {}
        for page in window.pages:
            page = go_to(gui, type(page))
            if isinstance(page, ReportsPage | ManagerPage):
                keys(page.pin, "1234", enter=True)  # the training till's manager PIN
                assert page.unlocked
                if isinstance(page, ManagerPage):
                    page.reconcile_now()
                    ui.until(lambda p=page: p.batch_message.text() and "…" not in p.batch_message.text(),
                             what="reconciled")
            ui.spin(0.1)
            seen[type(page).__name__] = shown_texts(page)
        for other in (gui.pinpad, gui.printer_window):
            if other is not None:
                seen[type(other).__name__] = shown_texts(other)
        bad = {screen: {t: developer_words(t) for t in texts if developer_words(t)}
               for screen, texts in seen.items()}
        assert {s: b for s, b in bad.items() if b} == {}, language
        if language == "es":
            english = {screen: _untranslated(texts) for screen, texts in seen.items()}
            assert {s: e for s, e in english.items() if e} == {}
            shown = "\n".join(t for texts in seen.values() for t in texts)
            # the report's words and the sandbox's (the test cards' names) are not the window's
            # catalogue's: named here
            for english_word in ("Summary", "Net sales", "By tender", "declined", "Declined",
                                 "approved (", "Approved", "Insufficient funds",
                                 "Training test cards"):
                assert english_word not in shown, english_word
    gui.set_language("en")
