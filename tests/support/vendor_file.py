"""The vendor's OpenAPI file of the Host API (1.4 MB of YAML), read in one place.

Parsing it costs about 0.9 s of CPU even with libyaml, and three parts of the suite need it (the
request schemas, the models' examples, the schema fuzz) in every test worker. It is parsed once
per machine and checkout: the controller parses it before the workers start, and every process
then loads the parsed form, kept under ``build/`` and named by the file's hash (a changed file is
parsed again).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
VENDOR_FILE = ROOT.parent / "shared" / "reference" / "host-api" / "host-api.openapi.yml"
CACHE = ROOT / "build" / "test-cache"


@functools.cache
def vendor_openapi() -> dict[str, Any]:
    """The parsed vendor file (shared: callers copy before they change it)."""
    raw = VENDOR_FILE.read_bytes()
    parsed = CACHE / f"host-api.openapi-{hashlib.sha256(raw).hexdigest()[:16]}.pickle"
    try:
        with parsed.open("rb") as fh:
            kept: dict[str, Any] = pickle.load(fh)  # written below by this suite only
        return kept
    except (OSError, EOFError, pickle.UnpicklingError):
        pass
    spec: dict[str, Any] = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=CACHE, delete=False) as out:  # whole or not at all
        pickle.dump(spec, out, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(out.name, parsed)
    return spec
