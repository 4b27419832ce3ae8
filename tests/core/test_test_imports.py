"""No test imports another test module or a conftest file (issue #36): what tests share lives in
tests/support/. ruff's banned-api (pyproject.toml) bans each package of tests by name; it has no
wildcard for "any test module", so this walks every file under tests/ and reads its imports,
those of a package added later and the store's tests (no package: imported by their bare
names) included."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _banned(module: str) -> bool:
    """A test module, a conftest file, or anything under tests/ but tests/support/."""
    parts = module.split(".")
    if parts[-1] == "conftest" or parts[-1].startswith("test_"):
        return True
    return parts[0] == "tests" and len(parts) > 1 and parts[1] != "support"


def _package(path: Path) -> list[str]:
    return ["tests", *path.relative_to(TESTS).parent.parts]


def imported_modules(source: str, path: Path) -> list[tuple[int, str]]:
    """Every module the file at ``path`` imports, with its line: ``from X import y`` names X and
    X.y (y may be a module), relative imports resolved, ``importlib.import_module("...")``
    included."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package(path)[:len(_package(path)) - node.level + 1]
                base = ".".join([*package, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names if alias.name != "*"]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name) and node.func.id in {"import_module", "__import__"}))):
            found.append((node.lineno, node.args[0].value))
    return found


def test_imports_between_test_modules_are_found() -> None:
    """The check itself: each way of importing a test module or a conftest is seen."""
    path = TESTS / "flows" / "test_example.py"
    cases = {
        "from tests.flows.conftest import write_profile": True,
        "from tests.flows.test_one_owner import CliTill": True,
        "from tests.flows import test_one_owner": True,
        "from tests import conftest": True,
        "import tests.ui.test_sale_screen": True,
        "from .conftest import env": True,
        "from . import test_books": True,
        "from ..ui.test_geometry import layout_problems": True,
        "from test_cli import cashier": True,  # a store test, by its bare name
        "importlib.import_module('tests.cash.conftest')": True,
        "from tests.support.profiles import write_profile": False,
        "from tests.support import screens": False,
        "from cashier.flows.payments import sale": False,
        "import pytest": False,
    }
    for source, banned in cases.items():
        seen = [m for _, m in imported_modules(source, path) if _banned(m)]
        assert bool(seen) is banned, (source, seen)


def test_no_test_imports_a_test_module_or_a_conftest() -> None:
    offenders = [f"{path.relative_to(TESTS.parent)}:{line}: imports {module}"
                 for path in sorted(TESTS.rglob("*.py")) if "__pycache__" not in path.parts
                 for line, module in imported_modules(path.read_text(encoding="utf-8"), path)
                 if _banned(module)]
    assert not offenders, "put what tests share in tests/support/:\n" + "\n".join(offenders)
