"""The bench harness: discover ``bench/bench_*.py``, run each ``run()``, print and save figures.

Usage: ``python -m bench [area ...]`` where area is the part after ``bench_`` (all when none).
Exit code 1 when a module fails; a goal not met is reported, not fatal (the table says so).
"""

from __future__ import annotations

import importlib
import json
import math
import os
import pkgutil
import sys
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "bench.json"


def discover() -> list[str]:
    """Area names of every ``bench_<area>`` module beside this file, sorted."""
    here = Path(__file__).resolve().parent
    return sorted(info.name.removeprefix("bench_") for info in pkgutil.iter_modules([str(here)])
                  if info.name.startswith("bench_"))


def verdict(value: float, goal: tuple[str, float] | None) -> str:
    if goal is None:
        return "-"
    op, target = goal
    if isinstance(value, float) and math.isnan(value):
        return "no"
    ok = value <= target if op == "<=" else value >= target
    return "yes" if ok else "NO"


def merge_write(path: Path, figures: Mapping[str, float]) -> dict[str, float]:
    """Merge into the existing flat JSON object so a partial run keeps the other figures."""
    data: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                data = loaded
        except ValueError:
            data = {}
    data.update({k: float(v) for k, v in figures.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
    return data


def _fmt(value: float) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return f"{value:.4g}" if abs(value) < 1e6 else f"{value:.0f}"


def main(argv: Sequence[str] | None = None) -> int:
    wanted = list(argv if argv is not None else sys.argv[1:])
    areas = discover()
    unknown = [a for a in wanted if a not in areas]
    if unknown:
        print(f"bench: no module bench_{unknown[0]}.py (have: {', '.join(areas)})", file=sys.stderr)
        return 2
    rows: list[tuple[str, str, str, str, str]] = []
    figures: dict[str, float] = {}
    failed = False
    for area in wanted or areas:
        # what the last area wrote (the store's PostgreSQL, the package) is on the disk before
        # this one starts: its write-back otherwise slows this area's fsyncs and start-ups
        os.sync()
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"bench.bench_{area}")
            result = module.run()
            goals: dict[str, tuple[str, float]] = getattr(module, "GOALS", {})
        except Exception:
            failed = True
            print(f"bench: bench_{area} failed:\n{traceback.format_exc()}", file=sys.stderr)
            continue
        for name, value in result.items():
            value = float(value)
            figures[name] = value
            goal = goals.get(name)
            goal_text = f"{goal[0]} {_fmt(goal[1])}" if goal else "-"
            rows.append((area, name, _fmt(value), goal_text, verdict(value, goal)))
        print(f"bench: {area} done in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    if rows:
        widths = [max(len(r[i]) for r in [*rows, ("area", "figure", "value", "goal", "met")])
                  for i in range(5)]
        header = ("area", "figure", "value", "goal", "met")
        for row in (header, *rows):
            print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
        sys.stdout.flush()
    if figures:
        merge_write(OUT, figures)
        print(f"bench: wrote {OUT.relative_to(ROOT)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
