"""The till's display settings: language, high contrast and text size, kept across starts.

Decision (docs/decisions/014-the-window.md): a small JSON file beside the journal (``<journal>.display.json``,
owner-only), not the journal. The window reads it before its first paint, while the journal is
opened only after it; and the journal records money (it is pushed to the store), which how the
screen looks is not. A missing or damaged file means the defaults: a look is never a reason not
to start.
"""

from __future__ import annotations

import json
import logging
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

log = logging.getLogger("cashier.display_settings")

#: The text sizes a till offers (1.0 is the style sheet's own size).
TEXT_SIZES = (0.85, 1.0, 1.15, 1.25, 1.5)


@dataclass(frozen=True)
class DisplaySettings:
    #: "" until someone chooses: the profile's ``language`` then applies.
    language: str = ""
    high_contrast: bool = False
    text_size: float = 1.0


def settings_path(journal: Path) -> Path:
    return journal.with_name(journal.name.removesuffix(".sqlite") + ".display.json")


def load_display(journal: Path) -> DisplaySettings:
    """The settings saved beside ``journal``; the defaults when there are none or they are bad."""
    path = settings_path(journal)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return DisplaySettings()
    except (OSError, ValueError) as exc:
        log.warning("display settings %s not read (%s): the defaults apply", path, exc)
        return DisplaySettings()
    if not isinstance(raw, dict):
        log.warning("display settings %s are not an object: the defaults apply", path)
        return DisplaySettings()
    language = raw.get("language")
    contrast = raw.get("high_contrast")
    size = raw.get("text_size")
    return DisplaySettings(
        language=language if isinstance(language, str) and re.fullmatch(r"[a-z]{2}", language) else "",
        high_contrast=contrast if isinstance(contrast, bool) else False,
        text_size=float(size) if isinstance(size, int | float) and not isinstance(size, bool)
        and float(size) in TEXT_SIZES else 1.0)


def save_display(journal: Path, settings: DisplaySettings) -> None:
    """Written whole (a temporary file replaced in one step), readable by the till's user only."""
    path = settings_path(journal)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(asdict(settings), out, sort_keys=True)
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)
