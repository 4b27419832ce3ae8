"""A PDF of plain text lines, written with the standard library only.

Decision (docs/decisions/010-cash-desk.md): reports are fixed-width text, so a PDF needs nothing but the
built-in Courier font (one of the 14 fonts every PDF reader has, so nothing is embedded) and one
content stream per page. That is a few dozen lines; a PDF library would be a dependency for
this alone, and Qt's PDF writer is out of bounds for ``cashier/`` (the core never imports Qt).
"""

from __future__ import annotations

LINES_PER_PAGE = 60
_PAGE_W, _PAGE_H = 612, 792  # US Letter in points; A4 readers scale it
_FONT_SIZE = 9
_LEADING = 12


def _escape(text: str) -> str:
    safe = text.encode("cp1252", "replace").decode("latin-1")
    return safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(lines: list[str], *, title: str = "Report") -> bytes:
    pages = [lines[i:i + LINES_PER_PAGE] for i in range(0, len(lines), LINES_PER_PAGE)] or [[]]
    objects: list[bytes] = []

    def add(body: str | bytes) -> int:
        objects.append(body.encode("latin-1") if isinstance(body, str) else body)
        return len(objects)

    catalog = add("")  # placeholders filled below: 1 catalog, 2 pages, 3 font, 4 info
    pages_obj = add("")
    font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>")
    info = add(f"<< /Title ({_escape(title)}) /Producer (Cashier) >>")
    kids: list[int] = []
    for page in pages:
        rows = [f"({_escape(line)}) Tj T*" for line in page]
        stream = (f"BT /F1 {_FONT_SIZE} Tf {_LEADING} TL 40 {_PAGE_H - 50} Td\n" + "\n".join(rows) + "\nET")
        data = stream.encode("latin-1")
        content = add(b"<< /Length " + str(len(data)).encode() + b" >>\nstream\n" + data + b"\nendstream")
        kids.append(add(f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {_PAGE_W} {_PAGE_H}] "
                        f"/Resources << /Font << /F1 {font} 0 R >> >> /Contents {content} 0 R >>"))
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_obj} 0 R >>".encode()
    objects[pages_obj - 1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] "
                              f"/Count {len(kids)} >>").encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)
