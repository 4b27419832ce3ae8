"""Wiring by statement (issue #36): no module of the flows, the sandbox or the command line finds
another by its name (``importlib``) or forgives a missing one, so import-linter sees every arrow
and a module that fails to import fails loudly."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WIRED = [*sorted((ROOT / "cashier" / "flows").rglob("*.py")),
         *sorted((ROOT / "cashier" / "sandbox").rglob("*.py")), ROOT / "cashier" / "cli.py"]


def hidden_wiring(source: str) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if a.name.split(".")[0] == "importlib"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "importlib":
            found.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Name) and node.id == "__import__":
            found.append("__import__")
        elif isinstance(node, ast.ExceptHandler) and node.type is not None \
                and "ModuleNotFoundError" in ast.unparse(node.type):
            found.append(f"except {ast.unparse(node.type)}")
    return found


def test_no_module_is_found_by_name_or_forgiven_for_missing() -> None:
    hits = [f"{path.relative_to(ROOT)}: {what}" for path in WIRED
            for what in hidden_wiring(path.read_text(encoding="utf-8"))]
    assert hits == []


def test_the_scan_sees_hidden_wiring() -> None:
    sample = ("import importlib\n"
              "from importlib import import_module\n"
              "def load(name):\n"
              "    try:\n"
              "        return importlib.import_module(name) or __import__(name)\n"
              "    except ModuleNotFoundError:\n"
              "        return None\n")
    assert sorted(hidden_wiring(sample)) == ["__import__", "except ModuleNotFoundError",
                                             "from importlib import ...", "import importlib"]
