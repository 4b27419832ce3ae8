"""libfaketime, for the tests that move a till's clock (installed by `make test`:
scripts/system-deps.sh test)."""

from __future__ import annotations

from pathlib import Path

#: The library's path on this machine, or None when it is not installed.
LIBFAKETIME = next((p for p in (Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
                                Path("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"),
                                Path("/usr/lib/faketime/libfaketime.so.1")) if p.exists()), None)
