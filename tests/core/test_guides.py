"""The guides (issue #43): each picture a guide shows is one ``make screens`` still makes, the
README fits on one page, and the command line documents itself completely (the IT guide's
reference page is made from that help: ``scripts/docs.py``)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import docs  # noqa: E402 - scripts/docs.py, as `make docs` runs it

#: The sizes, themes and languages ``every_screen`` renders each screen at (scripts/screens.py).
MATRIX = re.compile(r"^(?P<page>[a-z]+)-(?P<w>\d+)x(?P<h>\d+)-(?P<theme>normal|hc)-(?P<lang>en|es)$")


def _screens_source() -> str:
    return "".join(path.read_text(encoding="utf-8")
                   for path in sorted((ROOT / "scripts").glob("screens*.py")))


def _makes(name: str, source: str) -> bool:
    """``make screens`` names this picture: a literal in its scripts, or a screen of the matrix."""
    if f'"{name}"' in source:
        return True
    m = MATRIX.match(name)
    if m is None:
        return False
    from ui.pages import all_pages  # the pages every_screen walks, named as it names them

    pages = {entry.name.removesuffix("Page").lower() for entry in all_pages()}
    return m["page"] in pages and f"({m['w']}, {m['h']})" in source


def test_every_picture_a_guide_shows_is_made_by_make_screens() -> None:
    named = docs.pictures_named()
    assert len(named) >= 30  # the guides show the screens: a picture beside each step
    source = _screens_source()
    missing = {name: pages for name, pages in named.items() if not _makes(name, source)}
    assert missing == {}


def test_the_check_sees_a_picture_no_longer_made(tmp_path: Path) -> None:
    page = tmp_path / "guide.md"
    page.write_text("![gone](screens/sale-rotated-sideways.png)\n![ok](screens/sale-empty.png)\n")
    named = docs.pictures_named(tmp_path)
    source = _screens_source()
    assert {name for name in named if not _makes(name, source)} == {"sale-rotated-sideways"}
    assert _makes("sale-1024x768-hc-es", source) and not _makes("sale-800x600-hc-es", source)


def test_assemble_names_what_is_missing_and_lays_out_stable_names(tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    assert docs.assemble(shots, tmp_path / "src") == [f"no pictures under {shots}: run `make screens` first"]
    (shots / "01-sale-empty.png").write_bytes(b"png")
    problems = docs.assemble(shots, tmp_path / "src")
    assert (tmp_path / "src" / "screens" / "sale-empty.png").read_bytes() == b"png"
    assert problems and all("no longer makes" in p for p in problems)  # the rest were not rendered
    assert (tmp_path / "src" / "reference" / "command-line.md").is_file()
    assert "till_id" in (tmp_path / "src" / "reference" / "profile.md").read_text()


def test_the_readme_fits_on_one_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 60 and len(readme) <= 4500
    assert "make run" in readme and "make test" in readme and "make docs" in readme
    picture = re.search(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    assert picture is not None and (ROOT / picture.group(1)).is_file()


def _walk(parser: argparse.ArgumentParser, path: str) -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                if not (helps.get(name) or sub.description):
                    found.append((f"{path} {name} (no help line)", sub))
                found += _walk(sub, f"{path} {name}")
    return found


def test_every_command_and_option_says_what_it_is_for() -> None:
    from cashier.cli import build_parser

    silent: list[str] = []
    for path, parser in _walk(build_parser(), "cashier"):
        if path.endswith("(no help line)"):
            silent.append(path)
            continue
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction | argparse._HelpAction):
                continue
            if not action.help:  # argparse.SUPPRESS: hidden on purpose (a test hook, a legacy name)
                silent.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    assert silent == []


@pytest.mark.parametrize("title", ["cashier", "cashier sale", "cashier ticket new", "cashier store serve"])
def test_the_reference_page_holds_each_commands_help(title: str) -> None:
    page = docs.cli_reference()
    assert f"## `{title}`" in page
