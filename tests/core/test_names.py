"""One name per concept: one ``Outcome`` in the core, and what the Charge API's movement reports."""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path
from typing import get_args

import cashier
from cashier.chargeapi.journaled import MovementResult
from cashier.flows import base
from cashier.journal import Entry, Kind, Op, Outcome, State, outcome_of

CORE = Path(cashier.__file__).parent


def test_there_is_one_outcome_type_in_the_core() -> None:
    sources = {path: path.read_text() for path in CORE.rglob("*.py")}
    defined = [f"{path.relative_to(CORE)}:{node.lineno}" for path, text in sources.items()
               if "Outcome" in text  # a file without the word defines no name "Outcome"
               for node in ast.walk(ast.parse(text))
               if isinstance(node, ast.ClassDef | ast.Assign | ast.AnnAssign)
               and "Outcome" in _names(node)]
    assert defined == ["journal/model.py:" + defined[0].split(":")[1]], defined
    assert base.Outcome is Outcome and base.outcome_of is outcome_of


def _names(node: ast.AST) -> set[str]:
    if isinstance(node, ast.ClassDef):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
    return {t.id for t in targets if isinstance(t, ast.Name)}


def test_a_movement_reports_the_one_outcome_word() -> None:
    zero = Decimal(0)
    for state, word in ((State.SENT, "unknown"), (State.APPROVED, "approved"),
                        (State.DECLINED, "declined"), (State.CAPTURED, "captured")):
        entry = Entry(1, "t", Kind.CHARGE, state, Op.CHARGE, None, "k", None, "USD", zero, zero, zero,
                      zero, zero, zero, zero, None, None, None, None, None, None, None, None, None,
                      False, None, "x", "x", None, "d", 0, 0)
        assert MovementResult(entry).outcome == word and word in get_args(Outcome)
