"""Till profiles written for tests: the drawer and printer tests' till (clerks with PINs, manager
rules, a printer), and the command line's till on a served sandbox."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cashier.manager_pin import hash_pin

#: Hashing is slow on purpose (scrypt): hash the test PINs once per session.
_HASHES: dict[str, str] = {}


def pin_hash(pin: str) -> str:
    if pin not in _HASHES:
        _HASHES[pin] = hash_pin(pin)
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
