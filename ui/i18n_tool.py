"""Keep the translation files in step with the code: ``python -m ui.i18n_tool``.

Extracts every literal ``tr("...")`` under ``ui/`` (one context, "Cashier"), merges it into
``resources/translations/cashier_<lang>.ts`` keeping existing translations (new strings are
marked unfinished, strings gone from the code are marked obsolete), then compiles the ``.qm``
files with ``pyside6-lrelease`` from the venv. ``--check`` only reports missing translations.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from ui.i18n import CONTEXT, LANGUAGES, TRANSLATIONS_DIR

UI_DIR = Path(__file__).resolve().parent


def extract(root: Path = UI_DIR) -> list[str]:
    """Every tr("literal") in the package, in first-seen order."""
    seen: dict[str, None] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tr"
                    and node.args and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                seen.setdefault(node.args[0].value, None)
    return list(seen)


def read_ts(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    out: dict[str, str] = {}
    for message in ET.parse(path).getroot().iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        if translation is not None and translation.text and translation.get("type") not in (
                "unfinished", "obsolete", "vanished"):
            out[source] = translation.text
    return out


def write_ts(path: Path, language: str, sources: list[str], known: dict[str, str]) -> list[str]:
    """Write the .ts; returns the sources still without a translation."""
    ts = ET.Element("TS", version="2.1", language=language)
    context = ET.SubElement(ts, "context")
    ET.SubElement(context, "name").text = CONTEXT
    missing = []
    for source in sources:
        message = ET.SubElement(context, "message")
        ET.SubElement(message, "source").text = source
        translation = ET.SubElement(message, "translation")
        if source in known:
            translation.text = known[source]
        else:
            translation.set("type", "unfinished")
            missing.append(source)
    for source in sorted(set(known) - set(sources)):
        message = ET.SubElement(context, "message")
        ET.SubElement(message, "source").text = source
        translation = ET.SubElement(message, "translation", type="vanished")
        translation.text = known[source]
    ET.indent(ts)
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n'
                    + ET.tostring(ts, encoding="unicode") + "\n", encoding="utf-8")
    return missing


def lrelease() -> str:
    here = Path(sys.executable).parent / "pyside6-lrelease"
    found = str(here) if here.exists() else shutil.which("pyside6-lrelease")
    if not found:
        raise SystemExit("pyside6-lrelease not found: install PySide6-Essentials in the venv")
    return found


def main(argv: list[str]) -> int:
    sources = extract()
    status = 0
    for code in LANGUAGES:
        if code == "en":
            continue
        ts = TRANSLATIONS_DIR / f"cashier_{code}.ts"
        known = read_ts(ts)
        if "--check" in argv:
            missing = [s for s in sources if s not in known]
        else:
            missing = write_ts(ts, code, sources, known)
            subprocess.run([lrelease(), "-silent", str(ts), "-qm", str(ts.with_suffix(".qm"))],
                           check=True)
        for source in missing:
            print(f"{ts.name}: not translated: {source!r}")
        status |= bool(missing)
    print(f"{len(sources)} strings")
    return 1 if status and "--check" in argv else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
