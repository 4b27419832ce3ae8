"""A slimmer ICU data library for the bundle: only the ICU data Qt can reach in a till.

PySide6 ships ICU's whole data set (``libicudata.so.73``, 30 MiB: every locale, every legacy
code page) for five things Qt Core asks ICU: case mapping, collation (QCollator), time-zone ids
and display names (QTimeZone), and text codecs other than the UTF and Latin-1 ones Qt converts
itself (QStringConverter by name). What Qt never calls (break iterators, transliterators, spelled
out numbers) and what a till never asks (locale data in languages it does not ship, legacy code
pages) stays out; ICU answers a locale it lacks from its parent, then from root, as it does for
any locale it has never heard of.

The library is one read-only blob behind one symbol (``icudt73_dat``, ICU's "common data":
a table of contents, then the items, sorted by name). ``slim_library`` rewrites that blob and the
few ELF fields that say where things are; nothing is compiled, so the build needs no C tools.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from pathlib import Path

# The locales whose data stays: the ones Cashier ships (English, Spanish) and root, every
# locale's last parent.
KEPT_LOCALES = ("root", "en", "es")
# Whole trees of ICU data Qt never opens (it has no call into them: see ``nm -D libQt6Core``).
DROPPED_TREES = ("brkitr/", "translit/", "rbnf/")
# A locale bundle's name: a language, then script, region or variant parts ("es_419", "sr_Latn").
LOCALE_NAME = re.compile(r"^(?:[a-z]{2,3}|root)(?:_[A-Za-z0-9]+)*\.res$")
PAGE = 0x1000


def is_kept(name: str) -> bool:
    """Whether one item (``icudt73l/coll/es.res``) stays in the slim data."""
    path = name.split("/", 1)[1] if "/" in name else name
    if path.endswith(".cnv"):  # legacy code pages: Qt converts UTF-8/16/32 and Latin-1 itself
        return False
    if path.startswith(DROPPED_TREES):
        return False
    base = path.rsplit("/", 1)[-1]
    if LOCALE_NAME.match(base):
        language = base.removesuffix(".res").split("_", 1)[0]
        return language in KEPT_LOCALES
    return True  # properties, normalization, time zones, pools and indexes stay


def read_items(blob: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """(the header, the items by name in table order) of an ICU common data blob."""
    header_size, magic1, magic2 = struct.unpack_from("<HBB", blob, 0)
    if (magic1, magic2) != (0xDA, 0x27) or blob[12:16] != b"CmnD" or blob[8] != 0:
        raise ValueError("not a little-endian ICU common data blob")
    (count,) = struct.unpack_from("<I", blob, header_size)
    toc = [struct.unpack_from("<II", blob, header_size + 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_offset, data_offset) in enumerate(toc):
        start = header_size + name_offset
        name = blob[start:blob.index(b"\0", start)].decode("ascii")
        end = toc[i + 1][1] if i + 1 < count else len(blob) - header_size
        items.append((name, blob[header_size + data_offset:header_size + end]))
    return blob[:header_size], items


def write_items(header: bytes, items: list[tuple[str, bytes]]) -> bytes:
    """The common data blob ICU reads: the table of contents (offsets from its start), the
    names, then each item on a 16-byte boundary, in the sorted order ICU searches."""
    names = b"".join(name.encode("ascii") + b"\0" for name, _ in items)
    toc_size = 4 + 8 * len(items)
    first_item = -(-(toc_size + len(names)) // 16) * 16
    table, body = bytearray(struct.pack("<I", len(items))), bytearray()
    name_offset = toc_size
    for name, data in items:
        table += struct.pack("<II", name_offset, first_item + len(body))
        name_offset += len(name) + 1
        body += data + b"\0" * (-len(data) % 16)
    table += names
    table += b"\0" * (first_item - len(table))
    return header + bytes(table) + bytes(body)


def slim_blob(blob: bytes, keep: Callable[[str], bool] = is_kept) -> bytes:
    header, items = read_items(blob)
    return write_items(header, [(name, data) for name, data in items if keep(name)])


def _data_symbol(elf: bytes) -> tuple[int, int, int]:
    """(the dynsym entry's file offset, the blob's address, its size) of ``icudtNN_dat``."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if kind != 11:  # SHT_DYNSYM
            continue
        strtab = sections[link][4]
        for entry in range(offset, offset + size, entsize):
            st_name, = struct.unpack_from("<I", elf, entry)
            name = elf[strtab + st_name:elf.index(b"\0", strtab + st_name)]
            if re.fullmatch(rb"icudt\d+_dat", name):
                value, sym_size = struct.unpack_from("<QQ", elf, entry + 8)
                return entry, value, sym_size
    raise ValueError("no icudtNN_dat symbol: not an ICU data library")


def _program_headers(elf: bytes) -> list[tuple[int, ...]]:
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    return [struct.unpack_from("<IIQQQQQQ", elf, phoff + i * phentsize) for i in range(phnum)]


def locate_blob(elf: bytes) -> tuple[int, int, int]:
    """(the symbol's dynsym entry, the blob's file offset, its size) in an ICU data library."""
    symbol, address, size = _data_symbol(elf)
    # the blob's file offset: the loadable segment holding its address says where it lies
    start = next(off + address - vaddr for kind, _f, off, vaddr, _p, filesz, _m, _a
                 in _program_headers(elf) if kind == 1 and vaddr <= address < vaddr + filesz)
    return symbol, start, size


def slim_library(source: Path, target: Path, keep: Callable[[str], bool] = is_kept) -> None:
    """Write ``target``: ``source`` (an x86-64 or other little-endian ELF64 ICU data library)
    with its blob slimmed. Everything after the blob moves down by whole pages, so each
    segment keeps its alignment; the ELF fields that point past the blob move with it."""
    elf = source.read_bytes()
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise ValueError(f"{source}: not a little-endian 64-bit ELF file")
    symbol, start, size = locate_blob(elf)
    headers = _program_headers(elf)
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, = struct.unpack_from("<H", elf, 0x36)
    end = start + size
    new_blob = slim_blob(elf[start:end], keep)
    shift = (size - len(new_blob)) // PAGE * PAGE
    new_blob += b"\0" * (size - shift - len(new_blob))
    out = bytearray(elf[:start] + new_blob + elf[end:])

    def moved(value: int) -> int:
        return value - shift if value >= end else value

    for i, (kind, flags, off, vaddr, paddr, filesz, memsz, align) in enumerate(headers):
        if off <= start < off + filesz:  # the segment holding the blob shrinks
            filesz, memsz = filesz - shift, memsz - shift
        elif off >= end:
            off, vaddr, paddr = off - shift, vaddr - shift, paddr - shift
        struct.pack_into("<IIQQQQQQ", out, phoff + i * phentsize,
                         kind, flags, off, vaddr, paddr, filesz, memsz, align)
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    new_shoff = moved(shoff)
    struct.pack_into("<Q", out, 0x28, new_shoff)
    for i in range(shnum):
        fields = list(struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize))
        addr, off, sec_size = fields[3], fields[4], fields[5]
        if off <= start < off + sec_size:
            fields[5] = sec_size - shift
        elif off >= end:
            fields[4] = off - shift
            fields[3] = addr - shift if addr else 0
        struct.pack_into("<IIQQQQIIQQ", out, new_shoff + i * shentsize, *fields)
    struct.pack_into("<Q", out, symbol + 16, size - shift)
    _check_dynamic(elf, headers, end)
    target.write_bytes(bytes(out))


def _check_dynamic(elf: bytes, headers: list[tuple[int, ...]], end: int) -> None:
    """The dynamic section's addresses (hash, symbols, strings) all lie before the blob, so
    moving what follows it changes none of them; any other layout is refused, not guessed."""
    for kind, _f, off, _v, _p, filesz, _m, _a in headers:
        if kind != 2:  # PT_DYNAMIC
            continue
        for entry in range(off, off + filesz, 16):
            tag, value = struct.unpack_from("<qQ", elf, entry)
            if tag in (4, 5, 6, 7, 17, 23, 0x6FFFFEF5) and value >= end:
                raise ValueError("an ICU data library laid out differently: not slimmed")


if __name__ == "__main__":
    import sys

    slim_library(Path(sys.argv[1]), Path(sys.argv[2]))
