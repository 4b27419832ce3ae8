"""The frozen app leaves Pillow's optional compiled parts out (``PIL_UNUSED`` in
packaging/cashier.spec): a receipt with text, a native QR code, a cut and a drawer kick must
still print without them. Run in a fresh process that refuses to import them."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import importlib.abc, sys
blocked = set(sys.argv[1:])
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name in blocked:
            raise ImportError(f"left out of the bundle: {name}")
        return None
sys.meta_path.insert(0, Refuse())
from cashier.printing.layout import PrintJob
job = PrintJob("receipt", ["Coffee      3.50", "Caf\\u00e9        2.00"], kick=True,
               qr="https://pay.example/t/1")
out = job.to_escpos()
assert b"Coffee      3.50" in out and b"\\x1d(k" in out and b"\\x1bp" in out, out
assert not blocked & set(sys.modules), blocked & set(sys.modules)
print("printed", len(out))
"""


def _pil_unused() -> list[str]:
    tree = ast.parse((ROOT / "packaging" / "cashier.spec").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "PIL_UNUSED" for t in node.targets):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return [str(v) for v in value]
    raise AssertionError("packaging/cashier.spec has no PIL_UNUSED list")


def test_a_receipt_prints_without_the_pillow_parts_the_bundle_leaves_out() -> None:
    unused = _pil_unused()
    assert "PIL._avif" in unused and "PIL.Image" not in unused  # the core stays: escpos imports it
    proc = subprocess.run([sys.executable, "-c", CHILD, *unused], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("printed ")
