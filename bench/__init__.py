"""Benchmarks: ``python -m bench`` (``make bench``) runs every ``bench/bench_*.py`` module.

The contract for a benchmark module ``bench/bench_<area>.py``:

- it defines ``run() -> dict[str, float]``: figure name -> measured number. Names are
  snake_case and carry their unit (``_us_p50``, ``_ms``, ``_per_s``, ``_s``) or are a ratio.
- optionally ``GOALS: dict[str, tuple[str, float]]``: figure name -> (comparison, goal), where
  comparison is ``"<="`` or ``">="``. Figures without a goal are reported as "-".
- ``run()`` is synchronous (use ``asyncio.run`` inside), finishes in well under a minute, and
  cleans up what it starts. It may read ``BENCH_QUICK=1`` to do fewer rounds.

The harness imports each module on its own, so a broken module is reported and the others
still run. Results merge into ``build/bench.json`` (a flat JSON object figure -> number), so
running one module (``python -m bench client``) keeps the other figures already there.
"""

from __future__ import annotations

Goal = tuple[str, float]
