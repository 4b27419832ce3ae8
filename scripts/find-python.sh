#!/usr/bin/env bash
# Print the path of a CPython 3.12 or newer on this machine, or explain and fail.
# 3.11 is refused: qasync 0.28 with PySide6 6.12 aborts it under timer load (none_dealloc).
set -u
candidates=()
[ -n "${PYTHON:-}" ] && candidates+=("$PYTHON")
for v in 3.12 3.13 3.14; do  # 3.12 first: the version the suite and the bundles are proven on
  candidates+=("python$v")
  for d in "$HOME"/.pyenv/versions/"$v"* /root/.pyenv/versions/"$v"* /usr/local/bin /usr/bin; do
    [ -x "$d/bin/python$v" ] && candidates+=("$d/bin/python$v")
    [ -x "$d/python$v" ] && candidates+=("$d/python$v")
  done
done
candidates+=(python3)
for c in "${candidates[@]}"; do
  path=$(command -v "$c" 2>/dev/null) || continue
  if "$path" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null; then
    echo "$path"
    exit 0
  fi
done
echo "Cashier needs Python 3.12 or newer (3.11 crashes under qasync with PySide6 6.12)." >&2
echo "Install one, for example: apt-get install python3.12 python3.12-venv, or pyenv install 3.12," >&2
echo "then run make again (or point PYTHON=/path/to/python3.12 at it)." >&2
exit 1
