"""Filling a table whose columns fit their contents."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtWidgets import QHeaderView, QTableWidget

FIT = QHeaderView.ResizeMode.ResizeToContents


@contextmanager
def filling(table: QTableWidget) -> Iterator[QTableWidget]:
    """Cells set one by one under a header that fits its columns to their contents: Qt measured
    every row again after each cell and laid the screen out again (3 ms a cell on the Manager
    screen, whose catalog of 65 products took a second to show). The fitted columns wait while
    the cells are set and are measured once, when they fit again at the end."""
    header = table.horizontalHeader()
    fitted = [c for c in range(header.count()) if header.sectionResizeMode(c) == FIT]
    for column in fitted:
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
    try:
        yield table
    finally:
        for column in fitted:
            header.setSectionResizeMode(column, FIT)
