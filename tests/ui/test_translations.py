"""Every string the window shows has its Spanish translation, with the same placeholders (a
missing ``%s`` or ``{rest}`` would drop an amount from what the cashier reads, or crash)."""

from __future__ import annotations

import re

from ui.i18n import LANGUAGES, TRANSLATIONS_DIR
from ui.i18n_tool import extract, read_ts

PLACEHOLDER = re.compile(r"%s|%d|\{[a-z_]*\}")


def test_every_window_string_is_translated_with_its_placeholders() -> None:
    sources = extract()
    assert len(sources) > 400
    for code in LANGUAGES:
        if code == "en":
            continue
        known = read_ts(TRANSLATIONS_DIR / f"cashier_{code}.ts")
        missing = [s for s in sources if s not in known]
        assert missing == [], f"{code}: run python -m ui.i18n_tool and translate {missing}"
        wrong = [s for s in sources
                 if sorted(PLACEHOLDER.findall(s)) != sorted(PLACEHOLDER.findall(known[s]))]
        assert wrong == [], f"{code}: placeholders differ in {wrong}"
