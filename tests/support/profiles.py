"""Till profiles written for tests: the drawer and printer tests' till (clerks with PINs, manager
rules, a printer), and the command line's till on a served sandbox."""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path
from typing import Any

#: The scrypt cost of the tests' own clerks' PINs (the product hashes at 2**14, 16 times this).
#: Every PIN check a test makes pays the cost its stored hash names (``verify_pin`` reads it from
#: the hash, as for any stored hash): at the product's cost the suite's few hundred checks took
#: about 13 s of CPU. The stored form is the product's own (``scrypt$n$r$p$salt$digest``);
#: tests/core/test_manager_pin.py checks that the product still writes its own cost and that a
#: hash at this one verifies. Tests of the PIN guard's cost keep the product's ``hash_pin``.
TEST_PIN_N = 2**10

#: Hashing is slow on purpose (scrypt): hash the test PINs once per session.
_HASHES: dict[str, str] = {}


def pin_hash(pin: str) -> str:
    """A clerk's stored PIN hash for a test's profile, in the product's form at ``TEST_PIN_N``."""
    if pin not in _HASHES:
        if not pin.isdigit() or not 4 <= len(pin) <= 8:  # as the product's hash_pin refuses
            raise ValueError("pin: must be 4 to 8 digits")
        salt = os.urandom(16)
        digest = hashlib.scrypt(pin.encode(), salt=salt, n=TEST_PIN_N, r=8, p=1, dklen=32)
        _HASHES[pin] = (f"scrypt${TEST_PIN_N}$8$1${base64.b64encode(salt).decode()}$"
                        f"{base64.b64encode(digest).decode()}")
    return _HASHES[pin]


#: A clerk and a manager (PINs 1111 and 2222), as a window's profile takes them (``clerks=``).
CLERKS: list[dict[str, Any]] = [
    {"id": 101, "name": "Alice", "pin_hash": pin_hash("1111")},
    {"id": 102, "name": "Bob", "pin_hash": pin_hash("2222"), "role": "manager"}]


def write_till(tmp_path: Path, *, printer_url: str | None = None, clerks: bool = True,
               extra: str = "") -> Path:
    lines = ['till_id = "till-7"', "training = true", f'journal_path = "{tmp_path / "journal.sqlite"}"',
             f'log_dir = "{tmp_path / "logs"}"', 'company_name = "Corner Shop"']
    if clerks:
        lines += ["", "[[clerks]]", 'id = 101', 'name = "Alice"', f'pin_hash = "{pin_hash("1111")}"',
                  "", "[[clerks]]", 'id = 102', 'name = "Bob"', f'pin_hash = "{pin_hash("2222")}"',
                  'role = "manager"']
    lines += ["", "[manager_rules]", 'over_short_tolerance = "5.00"', "pay_outs = true",
              "close_drawer = false"]
    if printer_url:
        lines += ["", "[printer]", f'url = "{printer_url}"', "width = 42", "timeout_s = 1.0"]
    path = tmp_path / "till.toml"
    path.write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")
    return path


def write_profile(path: Path, *, host_url: str | None, option: str = "LG", journal: Path,
                  till_number: int = 1, host_s: float = 10.0, host_longest_s: float | None = None,
                  connect_s: float | None = None, extra: tuple[str, ...] = ()) -> Path:
    lines = ["[till]", 'till_id = "chaos"', f"till_number = {till_number}",
             f'processing_option = "{option}"', f'journal_path = "{journal}"', 'terminal_id = "1742"']
    if host_url:
        lines.append(f'host_url = "{host_url}"')
    lines += list(extra)
    lines += ["[till.timeouts]", f"host_s = {host_s}", "recovery_s = 1.0"]
    if host_longest_s is not None:  # a sandbox run without delay triggers answers sooner
        lines.append(f"host_longest_s = {host_longest_s}")
    if connect_s is not None:
        lines.append(f"connect_s = {connect_s}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
