"""The window gives the pages freed inside glibc's heap back to the system (``release_freed_heap``).

In a fresh process: holes are freed in the middle of the heap (blocks below glibc's mmap
threshold, each second one kept, so nothing at the top can shrink by itself); the resident
memory falls only once the helper has asked glibc to trim.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FRAGMENT = r"""
import os, sys
from ui.app import release_freed_heap

def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

blocks = [bytearray(100_000) for _ in range(600)]  # 57 MiB: under the mmap threshold, on the heap
for block in blocks:
    block[::4096] = b"x" * len(block[::4096])  # every page touched: resident
kept = blocks[1::2]  # each second block stays: the freed ones are holes, not the heap's top
del blocks
before = rss_mib()
release_freed_heap()
after = rss_mib()
print(round(before - after, 1), len(kept))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heap: Linux only")
def test_freed_holes_in_the_heap_go_back_to_the_system() -> None:
    result = subprocess.run([sys.executable, "-c", FRAGMENT], capture_output=True, text=True,
                            timeout=60, cwd=ROOT, check=True,
                            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    released_mib, kept = result.stdout.split()
    assert int(kept) == 300
    assert float(released_mib) > 20  # ~28 MiB of holes; without the trim nothing comes back
