"""The window shows and asks: no arithmetic on money, no comparison deciding from a money figure,
and no raw state word deciding behaviour anywhere in ``ui/``. Those rules live in the core
(``cashier.entry_rules``, the ticket read model, ``flows.ticket.Figures``, ``money.CentsBuffer``).

An AST scan, so a new offending line fails here with its file and line; the second test feeds the
scan offending snippets to show that it bites.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import get_args

import pytest

import ui
from cashier.entry_rules import QrEnd
from cashier.journal import Outcome, State

WINDOW = Path(ui.__file__).parent

#: Every word the core decides by: journal states, the one outcome word, a tender's outcome, a
#: ticket's and a drawer session's state, how a QR payment ended, why a link's watch ended.
STATE_WORDS = frozenset({s.value for s in State} | set(get_args(Outcome)) | {e.value for e in QrEnd}
                        | {"partial", "returned", "open", "paid", "cancelled", "counted", "closed",
                           "deactivated", "timeout", "pending", "expired", "reversed"})
#: A name (or its last snake_case word) that holds money.
_MONEY = re.compile(r"(?:^|_)(amount|total|tip|remaining|change|paid|approved|requested|refunded|"
                    r"captured|balance|subtotal|tax|due|given|price|cost|owed|expected|counted|"
                    r"over_short|value)s?$")


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _name(node.func)
    return None


def _is_money(node: ast.AST, bound: frozenset[str] = frozenset()) -> bool:
    if isinstance(node, ast.Call) and _name(node) == "Decimal":
        return True
    if isinstance(node, ast.Name) and node.id in bound:
        return True
    if isinstance(node, ast.IfExp):
        return _is_money(node.body, bound) or _is_money(node.orelse, bound)
    if isinstance(node, ast.NamedExpr):
        return _is_money(node.value, bound)
    name = _name(node)
    return name is not None and not isinstance(node, ast.Call) and bool(_MONEY.search(name))


def _money_names(tree: ast.Module) -> frozenset[str]:
    """Names every binding of which in the module is a money figure, whatever they are called
    (``typed = self.amount.value``): money too, so ``typed <= 0`` decides from money."""
    money: set[str] = set()
    other: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            (money if _is_money(node.value) else other).update(names)
    return frozenset(money - other)


def _words(node: ast.AST, constants: dict[str, str]) -> list[str]:
    """The state words a comparison operand stands for (a literal, a tuple of them, or a module
    constant bound to one)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value in STATE_WORDS else []
    if isinstance(node, ast.Name) and node.id in constants:
        return [constants[node.id]]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [w for e in node.elts for w in _words(e, constants)]
    return []


def _state_constants(tree: ast.Module) -> dict[str, str]:
    """Module-level names bound to a state word (``PAID = "paid"``, or unpacked from a tuple)."""
    out: dict[str, str] = {}
    for node in tree.body:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs: list[tuple[ast.AST, ast.AST]] = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = list(zip(target.elts, node.value.elts, strict=False))
            for name, value in pairs:
                if (isinstance(name, ast.Name) and isinstance(value, ast.Constant)
                        and value.value in STATE_WORDS):
                    out[name.id] = str(value.value)
    return out


def offences(source: str, where: str) -> list[str]:
    """Each line of ``source`` that does money arithmetic or decides from a state word or a money
    figure, as ``where:line: what``."""
    tree = ast.parse(source)
    constants = _state_constants(tree)
    bound = _money_names(tree)
    found: list[str] = []

    def say(node: ast.AST, what: str) -> None:
        found.append(f"{where}:{getattr(node, 'lineno', 0)}: {what}: {ast.unparse(node)[:100]}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_words(o, constants) for o in operands):
                say(node, "decides from a state word")
            elif (any(_is_money(o, bound) for o in operands)
                  and not all(isinstance(op, ast.Is | ast.IsNot | ast.In | ast.NotIn) for op in node.ops)):
                say(node, "compares money")
        elif isinstance(node, ast.MatchValue) and _words(node.value, constants):
            say(node, "decides from a state word")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div):
            text = any(isinstance(o, ast.JoinedStr)
                       or (isinstance(o, ast.Constant) and isinstance(o.value, str))
                       for o in (node.left, node.right))
            if not text and (_is_money(node.left, bound) or _is_money(node.right, bound)):
                say(node, "money arithmetic")
        elif (isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult)
              and (_is_money(node.target, bound) or _is_money(node.value, bound))):
            say(node, "money arithmetic")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sum":
            first = node.args[0] if node.args else None
            element = first.elt if isinstance(first, ast.GeneratorExp | ast.ListComp) else None
            if ((len(node.args) > 1 and _is_money(node.args[1], bound))
                    or (element is not None and _is_money(element, bound))):
                say(node, "sums money")
    return found


def test_the_window_holds_no_money_arithmetic_and_no_state_words() -> None:
    found = [hit for path in sorted(WINDOW.rglob("*.py"))
             for hit in offences(path.read_text(), str(path.relative_to(WINDOW.parent)))]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("snippet", [
    'if result.outcome == "approved":\n    pass\n',
    'ok = tender.outcome in ("partial", "declined")\n',
    'PAID = "paid"\nshown = view != PAID\n',
    'match entry.state:\n    case "unknown":\n        pass\n',
    'base = ticket.total - ticket.tip\n',
    'from decimal import Decimal\nx = Decimal("1.10") * 3\n',
    'left = sum((t.amount for t in tenders), Decimal(0))\n',
    'if amount.value > 0:\n    pass\n',
    'if back == total:\n    pass\n',
    'running_total += line.price\n',
    # a money figure under a name of its own (the Sale screen's ``typed <= 0``, issue #36)
    'typed = self.amount.value\nall_remaining = quick or typed <= 0\n',
    'typed = Decimal(0) if prefilled else self.amount.value\nif typed > limit:\n    pass\n',
    'if (left := figures.remaining) < 5:\n    pass\n',
])
def test_the_scan_catches_an_offending_line(tmp_path: Path, snippet: str) -> None:
    module = tmp_path / "page.py"
    module.write_text("# a window module\n" + snippet)
    found = offences(module.read_text(), module.name)
    assert found and all(hit.startswith("page.py:") for hit in found), found


def test_the_scan_lets_showing_through() -> None:
    showing = ('label.setText(format_money(ticket.remaining, cur))\n'
               'style = {"captured": "approved"}.get(view, view)\n'
               'x = rect.left() + width\nn = sum(1 for e in entries if needs_recovery(e))\n'
               'if tender.is_partial and figures.due:\n    pass\n')
    assert offences(showing, "page.py") == []
