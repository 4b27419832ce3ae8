"""The bundle's slim ICU data (packaging/icu_data.py): what Qt asks of ICU still answers.

Runs in ``make test`` (no bundle needed): it slims the ICU data library PySide6 ships, loads
ICU from a folder holding that slim copy (in a fresh process, so PySide6's own copy is not
already loaded) and makes the calls Qt Core makes: collation, case mapping, time-zone ids and
names, code converters.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
from icu_data import is_kept, locate_blob, read_items, slim_blob, slim_library  # noqa: E402

_spec = importlib.util.find_spec("PySide6")
QT_LIB = Path(next(iter(_spec.submodule_search_locations or []))) / "Qt" / "lib" if _spec else Path()
ICU_DATA = next(iter(sorted(QT_LIB.glob("libicudata.so.*"))), None) if QT_LIB.is_dir() else None
pytestmark = pytest.mark.skipif(ICU_DATA is None, reason="PySide6 ships no ICU here (not Linux)")

# What Qt Core calls (nm -D libQt6Core.so.6: ucol_*, u_strToUpper, ucal_*, ucnv_*), through ctypes.
PROBE = r"""
import ctypes, json, sys
folder, v = sys.argv[1], sys.argv[2]
uc = ctypes.CDLL(f"{folder}/libicuuc.so.{v}")
i18n = ctypes.CDLL(f"{folder}/libicui18n.so.{v}")
def fn(lib, name, restype, *argtypes):
    f = getattr(lib, f"{name}_{v}")
    f.restype, f.argtypes = restype, list(argtypes)
    return f
P, I, S = ctypes.c_void_p, ctypes.c_int32, ctypes.c_char_p
def u16(text):
    units = text.encode("utf-16-le")
    return (ctypes.c_uint16 * (len(units) // 2 + 1)).from_buffer_copy(units + b"\0\0")
def text(buf, n):
    return bytes(buf)[: 2 * n].decode("utf-16-le")
status = ctypes.c_int(0)
out = {}
ucol_open = fn(i18n, "ucol_open", P, S, P)
strcoll = fn(i18n, "ucol_strcoll", ctypes.c_int, P, P, I, P, I)
es = ucol_open(b"es", ctypes.byref(status))
out["collation_status"] = status.value
out["es_n_tilde_after_nz"] = strcoll(es, u16("ñu"), -1, u16("nz"), -1)
buf = (ctypes.c_uint16 * 64)()
status.value = 0
n = fn(uc, "u_strToUpper", I, P, I, P, I, S, P)(buf, 64, u16("straße ñandú"), -1, b"es",
                                                 ctypes.byref(status))
out["upper"] = text(buf, n)
status.value = 0
cal = fn(i18n, "ucal_open", P, P, I, S, ctypes.c_int, P)(u16("Europe/Madrid"), -1, b"es", 0,
                                                          ctypes.byref(status))
name = fn(i18n, "ucal_getTimeZoneDisplayName", I, P, ctypes.c_int, S, P, I, P)
for locale in ("es", "en"):
    status.value = 0
    n = name(cal, 0, locale.encode(), buf, 64, ctypes.byref(status))
    out[f"zone_{locale}"] = text(buf, n)
status.value = 0
system = ctypes.c_int8(0)
n = fn(i18n, "ucal_getCanonicalTimeZoneID", I, P, I, P, I, P, P)(
    u16("America/Buenos_Aires"), -1, buf, 64, ctypes.byref(system), ctypes.byref(status))
out["canonical"] = text(buf, n)
ucnv_open = fn(uc, "ucnv_open", P, S, P)
for codec in ("UTF-8", "ISO-8859-1", "Shift_JIS"):
    status.value = 0
    out[f"codec_{codec}"] = bool(ucnv_open(codec.encode(), ctypes.byref(status))) and status.value <= 0
print(json.dumps(out))
"""


def probe(folder: Path, version: str) -> dict[str, object]:
    result = subprocess.run([sys.executable, "-c", PROBE, str(folder), version],
                            capture_output=True, text=True, timeout=60, check=True)
    answers: dict[str, object] = json.loads(result.stdout)
    return answers


def test_slim_icu_answers_what_qt_asks_in_english_and_spanish(tmp_path: Path) -> None:
    assert ICU_DATA is not None
    version = ICU_DATA.name.rsplit(".", 1)[-1]
    for name in ("libicuuc", "libicui18n"):
        shutil.copy(QT_LIB / f"{name}.so.{version}", tmp_path)
    slim_library(ICU_DATA, tmp_path / ICU_DATA.name)
    assert (tmp_path / ICU_DATA.name).stat().st_size < ICU_DATA.stat().st_size / 4

    answers = probe(tmp_path, version)
    assert answers["collation_status"] == 0  # Spanish collation found, not a fallback to root
    assert answers["es_n_tilde_after_nz"] == 1  # "ñ" sorts after "n..." as Spanish wants
    assert answers["upper"] == "STRASSE ÑANDÚ"
    assert answers["zone_es"] == "hora estándar de Europa central"
    assert answers["zone_en"] == "Central European Standard Time"
    assert answers["canonical"] == "America/Buenos_Aires"
    assert answers["codec_UTF-8"] is True and answers["codec_ISO-8859-1"] is True
    assert answers["codec_Shift_JIS"] is False  # legacy code pages left out: refused, no crash


def test_slim_data_keeps_every_kept_item_byte_for_byte() -> None:
    assert ICU_DATA is not None
    elf = ICU_DATA.read_bytes()
    _symbol, start, size = locate_blob(elf)
    blob = elf[start:start + size]
    _header, items = read_items(blob)
    _header, slim = read_items(slim_blob(blob))
    assert [name for name, _ in slim] == sorted(name for name, _ in slim)
    kept = {name: data for name, data in items if is_kept(name)}
    assert {name: data.rstrip(b"\0") for name, data in slim} == \
        {name: data.rstrip(b"\0") for name, data in kept.items()}
    names = set(kept)
    prefix = items[0][0].split("/", 1)[0]
    assert {f"{prefix}/coll/es.res", f"{prefix}/zone/en.res", f"{prefix}/zoneinfo64.res",
            f"{prefix}/pool.res", f"{prefix}/nfkc.nrm"} <= names
    assert not names & {f"{prefix}/coll/zh.res", f"{prefix}/brkitr/cjdict.dict",
                        f"{prefix}/gb18030.cnv", f"{prefix}/translit/root.res"}
