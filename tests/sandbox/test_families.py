"""The sandbox's Host API families: no import cycle between its modules, no sibling imported
inside a function, and a family that fails to load stops the start (loudly, naming it)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cashier.sandbox import app
from cashier.sandbox.app import FamilyLoadError, HostSandbox, _load_families

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


@pytest.fixture
def broken_families(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    package = tmp_path / "fake_families"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "host_fine.py").write_text("LOADED = True\n")
    (package / "host_broken.py").write_text("raise ZeroDivisionError('a broken family')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "fake_families"
    for name in [m for m in sys.modules if m.startswith("fake_families")]:
        del sys.modules[name]


def test_a_broken_family_stops_the_start(broken_families: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(FamilyLoadError, match="host_broken failed to load: ZeroDivisionError"):
        _load_families(broken_families)
    monkeypatch.setattr(app, "FAMILY_PACKAGE", broken_families)
    with pytest.raises(FamilyLoadError, match="host_broken"):
        HostSandbox()


def test_the_real_families_all_load() -> None:
    loaded = _load_families()
    assert {"host_transactions", "host_giftcards", "host_tokens", "host_devices",
            "host_mode"} <= set(loaded)
