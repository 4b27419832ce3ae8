"""Translations and locale formatting for the window.

Every visible string goes through ``tr("...")`` with one context ("Cashier") so that
``python -m ui.i18n_tool`` can extract the literals into ``resources/translations/*.ts``.
Amounts are formatted from ``Decimal`` by hand with the locale's separators: ``QLocale``'s
currency helpers take floats, and a float never touches an amount here. Decimals and symbols
come from the core's one currency table (``cashier.money.CURRENCIES``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, QTranslator

from cashier.money import currency_symbol, minor_units

__all__ = ["format_money", "format_time", "minor_units", "tr"]

CONTEXT = "Cashier"
TRANSLATIONS_DIR = Path(__file__).resolve().parents[1] / "resources" / "translations"
#: Languages offered in the settings (code -> name shown in that language).
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español"}


def tr(text: str) -> str:
    """The translation of ``text`` in the current language (the text itself in English)."""
    return QCoreApplication.translate(CONTEXT, text)


class Language:
    """Installs the translator for one language at a time; switchable while the window runs."""

    def __init__(self) -> None:
        self.code = "en"
        self._translator: QTranslator | None = None

    def switch(self, code: str) -> bool:
        """Load ``code``; False (English kept) when no compiled file exists for it."""
        app = QCoreApplication.instance()
        if app is None:
            return False
        if self._translator is not None:
            app.removeTranslator(self._translator)
            self._translator = None
        ok = True
        if code != "en":
            translator = QTranslator()
            qm = qm_path(code)
            if qm.exists() and translator.load(str(qm)):
                app.installTranslator(translator)
                self._translator = translator
            else:
                ok = False
        self.code = code if ok else "en"
        QLocale.setDefault(locale_for(self.code))
        return ok


def qm_path(code: str) -> Path:
    return TRANSLATIONS_DIR / f"cashier_{code}.qm"


def locale_for(code: str) -> QLocale:
    # Decision: Spanish tills are in the Americas (US/Mexico); the grouping follows es_MX.
    return {"en": QLocale(QLocale.Language.English, QLocale.Country.UnitedStates),
            "es": QLocale(QLocale.Language.Spanish, QLocale.Country.Mexico)}.get(
        code, QLocale(code))


def format_money(amount: Decimal, currency: str = "USD", locale: QLocale | None = None) -> str:
    """``$1,234.50`` in en-US, ``$1,234.50`` in es-MX; grouping and decimal point from the locale."""
    loc = locale or QLocale()
    places = minor_units(currency)
    q = amount.quantize(Decimal(1).scaleb(-places))
    sign = "-" if q < 0 else ""
    whole, _, frac = f"{abs(q):f}".partition(".")
    grouped = loc.toString(int(whole))  # integer grouping from the locale, no float involved
    body = grouped + (loc.decimalPoint() + frac if places else "")
    symbol = currency_symbol(currency)
    return f"{sign}{symbol}{body}" if symbol else f"{sign}{body} {currency.upper()}"


def format_time(iso: str, locale: QLocale | None = None) -> str:
    """A journal timestamp (ISO 8601, UTC) as local time in the locale's short format."""
    loc = locale or QLocale()
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    qt_moment = QDateTime.fromSecsSinceEpoch(int(moment.timestamp()))
    return loc.toString(qt_moment, QLocale.FormatType.ShortFormat)
