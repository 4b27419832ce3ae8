"""The sandbox's Host API families: no import cycle between its modules, no sibling imported
inside a function, every family listed by name (``app.FAMILIES``), and a family that fails to
load stops the start (loudly, naming it)."""

from __future__ import annotations

import ast
import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cashier.sandbox import app
from cashier.sandbox.app import FAMILIES, HostSandbox
from cashier.sandbox.core import Family, HostCall

SANDBOX = Path(app.__file__).resolve().parent
PACKAGE = "cashier.sandbox"


def _imports(tree: ast.AST) -> list[tuple[str, bool]]:
    """(sandbox module imported, inside a function?) for every import outside TYPE_CHECKING."""
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:
                found.extend((f"{PACKAGE}.{a.name}", in_function) for a in node.names)
            elif node.module.startswith(PACKAGE + ".") and ".chargeapi" not in node.module:
                found.append((node.module, in_function))
        inner = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(tree, False)
    return found


def _graph() -> dict[str, list[tuple[str, bool]]]:
    return {f"{PACKAGE}.{path.stem}": _imports(ast.parse(path.read_text(encoding="utf-8")))
            for path in sorted(SANDBOX.glob("*.py")) if path.stem != "__init__"}


def test_sandbox_modules_import_each_other_in_no_cycle() -> None:
    graph = {module: sorted({target for target, _ in edges if target in _names()})
             for module, edges in _graph().items()}
    seen: dict[str, int] = {}  # 1 on the stack, 2 done
    cycle: list[str] = []

    def walk(module: str, stack: list[str]) -> None:
        seen[module] = 1
        stack.append(module)
        for target in graph.get(module, []):
            if seen.get(target) == 1 and not cycle:
                cycle.extend([*stack[stack.index(target):], target])
            elif target not in seen:
                walk(target, stack)
        stack.pop()
        seen[module] = 2

    for module in graph:
        if module not in seen:
            walk(module, [])
    assert not cycle, f"import cycle: {' -> '.join(cycle)}"


def _names() -> set[str]:
    return {f"{PACKAGE}.{path.stem}" for path in SANDBOX.glob("*.py")}


def test_families_import_siblings_only_at_the_top() -> None:
    local = [(module, target) for module, edges in _graph().items()
             if module.rsplit(".", 1)[1].startswith("host_")
             for target, in_function in edges if in_function]
    assert local == []


def test_shared_helpers_depend_on_no_family() -> None:
    shared = [target for target, _ in _graph()[f"{PACKAGE}.shared"]]
    assert shared and not any(t.rsplit(".", 1)[1].startswith("host_") for t in shared)


def test_a_broken_family_stops_the_start(tmp_path: Path) -> None:
    """Families are imported by name, so a broken one fails the sandbox's own import, naming it
    (a copy of the core with one family broken, started in a process of its own)."""
    core = Path(app.__file__).resolve().parents[1]
    shutil.copytree(core, tmp_path / "cashier", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "cashier" / "sandbox" / "host_merchant.py").write_text(
        "raise ZeroDivisionError('a broken family')\n")
    out = subprocess.run([sys.executable, "-c", "from cashier.sandbox import HostSandbox"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(tmp_path)})
    assert out.returncode != 0
    assert "host_merchant.py" in out.stderr and "ZeroDivisionError: a broken family" in out.stderr


def test_the_real_families_all_load() -> None:
    loaded = {family.name for family in FAMILIES}
    assert {"transactions", "giftcards", "tokens", "devices", "mode"} <= loaded


def test_every_family_module_is_listed() -> None:
    """A ``host_*.py`` file left out of ``app.FAMILIES`` would answer 404 for its whole family."""
    modules = sorted(path.stem for path in SANDBOX.glob("host_*.py"))
    declared = [importlib.import_module(f"{PACKAGE}.{m}").FAMILY for m in modules]
    assert sorted(f.name for f in declared) == sorted(f.name for f in FAMILIES)
    assert all(any(f is listed for listed in FAMILIES) for f in declared)


def test_an_operation_two_families_claim_stops_the_start() -> None:
    async def again(call: HostCall) -> dict[str, str]:
        return {}

    twin = Family("twin")
    twin.route("GET", "/merchants/merchant")(again)
    with pytest.raises(ValueError, match="GET /merchants/merchant is claimed by the sandbox "
                                         "families merchant and twin"):
        HostSandbox(families=(*FAMILIES, twin))
