"""Every dotted code name the docs give in backticks resolves (issue #36 point 7).

The docs (``docs/*.md``, ``docs/decisions/*.md``) send a reader to the code by name:
`flows.base.whose_request`, `cashier.journal.datastore.Datastore`, `host_giftcards.spend`. A name
that no longer resolves sends them nowhere, so each one is looked up here. A code name is a dotted
name alone in its backticks (maybe called, maybe ``module:attr``) whose first part is a package of
ours (``cashier``, ``ui``), the name of a module or package anywhere in them (``flows``,
``money``, ``host_giftcards``...) or of a class of ours (`Datastore.event`): it is imported as far
as it goes, prefixed with where that module or class is, and the rest read as attributes (a
class's declared fields and what its methods set on ``self`` count). A short name that several
modules bear resolves when one of them has it. Not code names: a first part that is nothing of
ours (the vendor's `ListRequest.limit`), one of the APIs' JSON objects though a module bears its
name (`amount.total`, `device.terminalId`: ``WIRE_ROOTS``), a file's name (`text.py`,
`docs/architecture.md`: a slash or a file suffix) or a setting (`[manager_rules] discount_percent_max`).
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([*ROOT.glob("docs/*.md"), *ROOT.glob("docs/decisions/*.md")])
PACKAGES = ("cashier", "ui")
#: The last part of a file's name, not of a code name (`pdf.py`, `cashier.lock`).
FILE_SUFFIXES = frozenset({"py", "md", "toml", "json", "txt", "csv", "pdf", "lock", "db", "sqlite",
                           "deb", "log", "cfg", "ini", "spec", "sh", "yml", "yaml", "png", "svg",
                           "qm", "ts", "gz", "xz", "zip", "html", "service", "socket", "timer", "exe"})
#: JSON objects of the Host API that a module of ours is named after too: `amount.total` is a field.
WIRE_ROOTS = frozenset({"amount", "customer", "device"})
#: A dotted name (or ``module:attr``) alone in its backticks, maybe called: `money.tax_of(...)`.
CODE_NAME = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*)?)(?:\(.*\))?$")
SPAN = re.compile(r"`([^`\n]+(?:\n[^`\n]+)?)`")


def _modules() -> dict[str, tuple[str, ...]]:
    """Every module and package of ours by its last name: `events` is more than one."""
    found: dict[str, list[str]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found.setdefault(parts[-1], []).append(".".join(parts))
    return {name: tuple(where) for name, where in found.items()}


MODULES = _modules()


#: A class statement at a module's top level (unindented): read by a pattern, not by parsing
#: every module (each test worker collects this module: parsing took 0.7 s of CPU in each).
TOP_CLASS = re.compile(r"^class[ \t]+([A-Za-z_]\w*)[ \t]*[([:]", re.MULTILINE)


def _classes() -> dict[str, tuple[str, ...]]:
    """Every class of ours by its name, with the modules that define it: `Datastore.event` and
    `TicketSession.quick_pay` are code names too."""
    found: dict[str, list[str]] = {}
    for modules in MODULES.values():
        for module in modules:
            path = ROOT / module.replace(".", "/")
            source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
            for name in TOP_CLASS.findall(source.read_text(encoding="utf-8")):
                found.setdefault(name, []).append(f"{module}.{name}")
    return {name: tuple(where) for name, where in found.items()}


CLASSES = _classes()


def code_names(text: str) -> list[str]:
    """The dotted names of ours in backticks in one document (a span may wrap a line)."""
    names: list[str] = []
    for span in SPAN.findall(text):
        match = CODE_NAME.match(re.sub(r"([.:])\s+", r"\1", span.strip()))
        if match is None:
            continue
        name = match.group(1)
        parts = re.split(r"[.:]", name)
        if parts[-1] in FILE_SUFFIXES:
            continue
        if (parts[0] in MODULES and parts[0] not in WIRE_ROOTS) or parts[0] in CLASSES:
            names.append(name)
    return names


def _set_on_self(klass: type) -> set[str]:
    """The attributes a class's methods set on ``self`` (`JournalRecorder.create`, `Drawer.recorder`)."""
    names: set[str] = set()
    for owner in klass.__mro__:
        try:
            source = textwrap.dedent(inspect.getsource(owner))
        except (OSError, TypeError):
            continue
        for node in ast.walk(ast.parse(source)):
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, ast.AnnAssign) else [])
            for target in targets:
                for part in ast.walk(target):
                    if (isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name)
                            and part.value.id == "self"):
                        names.add(part.attr)
    return names


def _has(owner: object, attr: str) -> object:
    """``owner.attr``, where a class's declared fields, and what its methods set on ``self``,
    count though they hold no class value."""
    if hasattr(owner, attr):
        return getattr(owner, attr)
    if isinstance(owner, type):
        if dataclasses.is_dataclass(owner) and attr in {f.name for f in dataclasses.fields(owner)}:
            return object()
        if attr in getattr(owner, "model_fields", {}):
            return object()
        for klass in owner.__mro__:
            if attr in getattr(klass, "__annotations__", {}):
                return object()
        if attr in _set_on_self(owner):
            return object()
    raise AttributeError(attr)


def _resolve(dotted: str) -> bool:
    """Whether ``dotted`` is a module and then attributes of it (imported as far as it goes)."""
    parts = re.split(r"[.:]", dotted)
    for end in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:end]))
        except ModuleNotFoundError as error:
            if error.name is not None and ".".join(parts[:end]).startswith(error.name):
                continue
            raise
        owner: object = module
        for attr in parts[end:]:
            try:
                owner = _has(owner, attr)
            except AttributeError:
                return False
        return True
    return False


def resolves(name: str) -> bool:
    """Whether a code name of the docs names something in the code: its first part read as each
    module of ours that bears that name (``cashier.`` or ``ui.`` and the packages between)."""
    first, sep, rest = name.partition(".")
    if first in PACKAGES:
        return _resolve(name)
    return any(_resolve(f"{where}{sep}{rest}")
               for where in (*MODULES.get(first, ()), *CLASSES.get(first, ())))


def _all_names() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for name in code_names(doc.read_text(encoding="utf-8")):
            found.append((str(doc.relative_to(ROOT)), name))
    return found


def test_the_docs_name_code() -> None:
    """The check has something to check: the docs do name code (and the decisions are read)."""
    names = _all_names()
    docs = {doc for doc, _ in names}
    assert "docs/architecture.md" in docs
    assert any(doc.startswith("docs/decisions/") for doc in docs)
    assert len(names) > 100


def test_what_counts_as_a_code_name() -> None:
    """File names, settings, API fields and the vendor's classes are not code names; ours are,
    called or not."""
    text = ("`docs/architecture.md` `text.py` `[manager_rules] discount_percent_max` `amount.total` "
            "`Req.page(..., deletable=True)` `money.tax_of` `cashier.journal.datastore.Datastore` "
            "`flows.base.whose_request(...)` `ui.launch:main` `keys.\n  KEY_MAP` `store:true` "
            "`device.terminalId` `cashier.exe` `host_giftcards.spend` `Datastore.event` `ListRequest.limit`")
    assert code_names(text) == ["Req.page", "money.tax_of", "cashier.journal.datastore.Datastore",
                                "flows.base.whose_request", "ui.launch:main", "keys.KEY_MAP",
                                "host_giftcards.spend", "Datastore.event"]


def test_a_wrong_name_does_not_resolve() -> None:
    """The lookup can fail: a name that is not in the code, and one of a module that is not."""
    assert resolves("money.tax_of")
    assert resolves("cashier.journal.datastore.Datastore")
    assert not resolves("money.tax_off")
    assert not resolves("flows.nowhere.whose_request")
    assert not resolves("cashier.journal.datastore.Datastore.no_such_method")
    assert resolves("host_giftcards.spend") and resolves("events.matches")
    assert resolves("Datastore.event") and not resolves("Datastore.events")
    assert resolves("JournalRecorder.create") and not resolves("JournalRecorder.created")


@pytest.mark.parametrize(("doc", "name"), _all_names())
def test_every_code_name_in_the_docs_resolves(doc: str, name: str) -> None:
    """A name the docs give is a name the code has."""
    assert resolves(name), f"{doc}: `{name}` names nothing in the code"


#: A reference to a decision: its topic file, maybe followed by the section or entry it means in
#: quotes (`docs/decisions/009-the-ticket.md, "Lines are group-committed"`), across a line break.
DECISION_REF = re.compile(r'docs/decisions(?:/([0-9]{3}-[a-z-]+\.md))?`?(?:[,:]?\s*(?:#:?\s*)?"([^"]+)")?')
REFERRING = ("cashier", "ui", "tests", "bench", "packaging", "scripts", "docs")


def _words(text: str) -> str:
    """Text as words only: line breaks, comment marks and Markdown emphasis aside."""
    return " ".join(re.sub(r"(^|\n)\s*(#:?|-)?\s*", " ", text).replace("**", "").split())


def decision_refs() -> list[tuple[str, str, str | None]]:
    """(where, topic file, quoted section or None) for each reference to a decision."""
    found = []
    paths = [ROOT / "README.md"]
    for folder in REFERRING:
        paths += [p for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".md")]
    for path in sorted(paths):
        text = path.read_text(encoding="utf-8")
        for match in DECISION_REF.finditer(text):
            if match.group(1):
                quoted = _words(match.group(2)) if match.group(2) else None
                found.append((str(path.relative_to(ROOT)), match.group(1), quoted))
    return found


def test_the_decisions_are_by_topic() -> None:
    """One file per topic, each in the index; the old single file is gone and nothing names it (a
    new decision goes into its topic's file)."""
    assert not (ROOT / "docs/decisions.md").exists()
    index = (ROOT / "docs/decisions/README.md").read_text(encoding="utf-8")
    topics = sorted(p.name for p in (ROOT / "docs/decisions").glob("[0-9][0-9][0-9]-*.md"))
    assert topics and all(f"({name})" in index for name in topics)
    stale = [str(p.relative_to(ROOT)) for p in [ROOT / "README.md", *(
        q for folder in REFERRING for q in (ROOT / folder).rglob("*") if q.suffix in (".py", ".md"))]
        if "docs/decisions.md" in p.read_text(encoding="utf-8") and p.name != "test_docs_names.py"]
    assert stale == []


@pytest.mark.parametrize(("where", "topic", "quoted"), decision_refs())
def test_every_reference_to_a_decision_is_there(where: str, topic: str, quoted: str | None) -> None:
    """A docstring, comment or doc that sends the reader to a decision sends them to a topic file
    that exists, and to words that are in it when it quotes a section or an entry."""
    path = ROOT / "docs/decisions" / topic
    assert path.is_file(), f"{where}: docs/decisions/{topic} does not exist"
    if quoted is not None:
        assert quoted in _words(path.read_text(encoding="utf-8")), f"{where}: \"{quoted}\" is not in {topic}"
