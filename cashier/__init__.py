"""Cashier: the headless core of the payment counter (never imports Qt)."""

import os
import sys

__version__ = "0.1.0"

# httpx imports its own command line (rich, pygments, click: ~0.25 s and ~5 MB) whenever those are
# installed, and every process of the till (the window, each command line, recover, the sandbox
# and store services) imports httpx. None of them runs httpx's command line, so it is marked absent
# before httpx first loads: httpx then defines a stub ``httpx.main`` that says so if ever called.
if "httpx" not in sys.modules:
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

# pydantic looks for plugins in the entry points of every installed distribution when it builds its
# first model (~12 ms of CPU, every process: the window's start reads its profile so). The till
# installs and loads none; a value set outside is kept (decision 017, "The window's start, round 2").
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
