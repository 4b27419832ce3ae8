"""A PDF of plain text lines, written with the standard library only.

Decision (docs/decisions/010-cash-desk.md): reports are fixed-width text, so a PDF needs nothing but the
built-in Courier font (one of the 14 fonts every PDF reader has, so nothing is embedded) and one
content stream per page. That is a few dozen lines; a PDF library would be a dependency for
this alone, and Qt's PDF writer is out of bounds for ``cashier/`` (the core never imports Qt).

Charts (issue #42, docs/decisions/023-charts.md): the day's charts go after the text as vector
drawings, each chart's bars beside its table of the same figures: filled rectangles and the
same built-in fonts, in the colour-blind-safe palette the window uses (``PALETTE``).
"""

from __future__ import annotations

from dataclasses import dataclass

LINES_PER_PAGE = 60
_PAGE_W, _PAGE_H = 612, 792  # US Letter in points; A4 readers scale it
_FONT_SIZE = 9
_LEADING = 12


def _escape(text: str) -> str:
    safe = text.encode("cp1252", "replace").decode("latin-1")
    return safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


#: Okabe and Ito's colour-blind-safe palette (blue, orange, bluish green, vermillion, sky blue,
#: reddish purple, yellow), as 0..1 RGB; the window's charts use the same colours in this order.
PALETTE: tuple[tuple[float, float, float], ...] = (
    (0.0, 0.447, 0.698), (0.902, 0.624, 0.0), (0.0, 0.620, 0.451), (0.835, 0.369, 0.0),
    (0.337, 0.706, 0.914), (0.800, 0.475, 0.655), (0.941, 0.894, 0.259))


@dataclass(frozen=True)
class PdfChart:
    """One chart as the PDF draws it: a bar per row and series, the row's table text beside."""

    title: str
    series: tuple[str, ...]
    #: (label, one value per series (any unit, >= 0), the table's text for the row)
    rows: tuple[tuple[str, tuple[int, ...], str], ...]
    #: the table's heading, over its column
    head: str = ""


_CHART_X, _LABEL_W, _BAR_W, _BAR_H = 40, 120, 200, 7
_TABLE_X = _CHART_X + _LABEL_W + _BAR_W + 12


def _chart_ops(chart: PdfChart, top: float) -> tuple[list[str], float]:
    """The drawing operators of one chart whose title sits at ``top``; returns them and the
    height used."""
    ops = [f"BT /F2 10 Tf {_CHART_X} {top:.1f} Td ({_escape(chart.title)}) Tj ET"]
    if chart.head:
        ops.append(f"BT /F1 8 Tf {_TABLE_X} {top:.1f} Td ({_escape(chart.head)}) Tj ET")
    y = top - 14
    if len(chart.series) > 1:  # the legend: a swatch and a name per series
        x = _CHART_X
        for i, name in enumerate(chart.series):
            r, g, b = PALETTE[i % len(PALETTE)]
            ops.append(f"{r:.3f} {g:.3f} {b:.3f} rg {x} {y:.1f} 8 8 re f 0 g")
            ops.append(f"BT /F1 8 Tf {x + 11} {y + 1:.1f} Td ({_escape(name)}) Tj ET")
            x += 14 + 5 * len(name) + 16
        y -= 12
    peak = max((v for _label, values, _text in chart.rows for v in values), default=0) or 1
    for label, values, text in chart.rows:
        row_h = _BAR_H * max(1, len(values)) + 3
        y -= row_h
        ops.append(f"BT /F1 8 Tf {_CHART_X} {y + row_h / 2 - 3:.1f} Td ({_escape(label[:22])}) Tj ET")
        for i, value in enumerate(values):
            r, g, b = PALETTE[i % len(PALETTE)]
            width = _BAR_W * max(0, value) / peak
            bar_y = y + row_h - 2 - _BAR_H * (i + 1)
            ops.append(f"{r:.3f} {g:.3f} {b:.3f} rg {_CHART_X + _LABEL_W} {bar_y:.1f} {width:.2f} "
                       f"{_BAR_H - 1} re f 0 g")
        ops.append(f"BT /F1 8 Tf {_TABLE_X} {y + row_h / 2 - 3:.1f} Td ({_escape(text)}) Tj ET")
    # the axis the bars grow from
    ops.append(f"0.5 w {_CHART_X + _LABEL_W} {y:.1f} m {_CHART_X + _LABEL_W} {top - 14:.1f} l S")
    return ops, top - y + 18


def _chart_pages(charts: list[PdfChart]) -> list[str]:
    """Content streams: the charts one under another, a new page when the next does not fit."""
    pages: list[str] = []
    ops: list[str] = []
    top = float(_PAGE_H - 50)
    for chart in charts:
        block, used = _chart_ops(chart, top)
        if ops and top - used < 40:
            pages.append("\n".join(ops))
            ops, top = [], float(_PAGE_H - 50)
            block, used = _chart_ops(chart, top)
        ops += block
        top -= used
    if ops:
        pages.append("\n".join(ops))
    return pages


def text_pdf(lines: list[str], *, title: str = "Report", charts: list[PdfChart] | None = None) -> bytes:
    """The lines as text pages, then the charts (if any) on pages of their own."""
    pages = [lines[i:i + LINES_PER_PAGE] for i in range(0, len(lines), LINES_PER_PAGE)] or [[]]
    objects: list[bytes] = []

    def add(body: str | bytes) -> int:
        objects.append(body.encode("latin-1") if isinstance(body, str) else body)
        return len(objects)

    catalog = add("")  # placeholders filled below: 1 catalog, 2 pages, 3 font, 4 info
    pages_obj = add("")
    font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>")
    info = add(f"<< /Title ({_escape(title)}) /Producer (Cashier) >>")
    bold = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    streams = [f"BT /F1 {_FONT_SIZE} Tf {_LEADING} TL 40 {_PAGE_H - 50} Td\n"
               + "\n".join(f"({_escape(line)}) Tj T*" for line in page) + "\nET" for page in pages]
    streams += _chart_pages(list(charts or ()))
    kids: list[int] = []
    for stream in streams:
        data = stream.encode("latin-1")
        content = add(b"<< /Length " + str(len(data)).encode() + b" >>\nstream\n" + data + b"\nendstream")
        kids.append(add(f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {_PAGE_W} {_PAGE_H}] "
                        f"/Resources << /Font << /F1 {font} 0 R /F2 {bold} 0 R >> >> "
                        f"/Contents {content} 0 R >>"))
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
