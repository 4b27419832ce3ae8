"""Assemble the guides' site: ``make docs`` (``python scripts/docs.py``), then ``mkdocs build``.

A developer tool, not part of the installed package. It lays ``build/docs-src`` out of three
sources, so nothing in the site is written twice:

- the guides and the developer's map, as they are under ``docs/``;
- the pictures ``make screens`` rendered (``build/screens/NN-name.png``), under a name that
  does not move when a screen is added before them (``screens/name.png``); a picture a guide
  names that ``make screens`` no longer makes fails here, and again in ``mkdocs build --strict``;
- the command line's reference, made from its own ``--help`` (``cashier --help`` and each
  sub-command's), and the till profile's, from the example profile's comments, so the IT guide
  and the program cannot disagree.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ``screens/NAME.png`` in a guide's Markdown.
PICTURE = re.compile(r"\(screens/([a-z0-9x.-]+)\.png\)")
SHOT = re.compile(r"^\d+-(?P<name>.+)\.png$")
GUIDES = ROOT / "docs"


def pictures_named(docs: Path = GUIDES) -> dict[str, list[str]]:
    """Each picture the guides show, with the pages that show it."""
    named: dict[str, list[str]] = {}
    for page in sorted(docs.rglob("*.md")):
        for name in PICTURE.findall(page.read_text(encoding="utf-8")):
            named.setdefault(name, []).append(str(page.relative_to(docs)))
    return named


def rendered(screens: Path) -> dict[str, Path]:
    """What ``make screens`` made, by the picture's stable name (the last of a repeated name)."""
    found: dict[str, Path] = {}
    for shot in sorted(screens.glob("*.png")):
        m = SHOT.match(shot.name)
        if m:
            found[m["name"]] = shot
    return found


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:  # argparse has no public walk of its sub-parsers
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield name, sub
                for deeper, subsub in _subcommands(sub):
                    yield f"{name} {deeper}", subsub


def cli_sections() -> list[tuple[str, str]]:
    """(``cashier ...``, its ``--help``) for the program and every sub-command, in --help's order."""
    from cashier.cli import build_parser

    parser = build_parser()
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sections = [("cashier", parser.format_help())]
    for name, sub in _subcommands(parser):
        sections.append((f"cashier {name}", sub.format_help()))
    return sections


def cli_reference() -> str:
    lines = ["# The command line", "",
             "Made from the program's own help (`cashier --help`, `cashier COMMAND --help`) when "
             "the site is built: what you read here is what the installed program says. Every "
             "command prints one JSON object on success; a refusal is one line on standard error "
             "naming the field and the rule, with exit code 2 (see the IT guide).", ""]
    for title, text in cli_sections():
        lines += [f"## `{title}`", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(lines)


def profile_reference() -> str:
    """The till profile, field by field: the example profile IT copies, whose comments are the
    fields' documentation (the same file ``make package`` builds the example till from)."""
    example = (ROOT / "packaging" / "tills" / "example.toml").read_text(encoding="utf-8")
    return "\n".join([
        "# The till profile, field by field", "",
        "A till's profile is a TOML file (`--profile PATH` or `CASHIER_PROFILE`); every field can be "
        "overridden by an environment variable `CASHIER_<FIELD>` (nested: "
        "`CASHIER_TIMEOUTS__HOST_S=30`). This page is `packaging/tills/example.toml`, the example "
        "till `make package` builds: each field with what it means in its comment. A profile with a "
        "mistake is refused with one line per bad field naming the rule it breaks.", "",
        "```toml", example.rstrip(), "```", ""])


def assemble(screens: Path, out: Path) -> list[str]:
    """Lay the site's sources out in ``out``; the problems found (empty: none)."""
    problems: list[str] = []
    shots = rendered(screens)
    if not shots:
        return [f"no pictures under {screens}: run `make screens` first"]
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(GUIDES, out)
    for name, pages in sorted(pictures_named().items()):
        if name not in shots:
            problems.append(f"{', '.join(pages)} shows screens/{name}.png, which `make screens` "
                            "no longer makes")
    (out / "screens").mkdir()
    for name, shot in shots.items():
        shutil.copy2(shot, out / "screens" / f"{name}.png")
    (out / "reference").mkdir(exist_ok=True)
    (out / "reference" / "command-line.md").write_text(cli_reference(), encoding="utf-8")
    (out / "reference" / "profile.md").write_text(profile_reference(), encoding="utf-8")
    return problems


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--screens", default=str(ROOT / "build" / "screens"))
    ap.add_argument("--out", default=str(ROOT / "build" / "docs-src"))
    args = ap.parse_args(argv)
    problems = assemble(Path(args.screens), Path(args.out))
    sale = rendered(Path(args.screens)).get("sale-empty")
    if sale is not None:  # the README's one picture follows the screen
        shutil.copy2(sale, ROOT / "docs" / "readme-sale.png")
    for problem in problems:
        print(f"docs: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
