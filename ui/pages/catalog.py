"""The Manager screen's Catalog part: search the catalog, change a product's price, name,
category and active flag, add a product. It only shows and asks: the rules and the requests are
the core's (``cashier.store.catalog_desk.CatalogDesk``); a change needs the store manager signed
in on the Store part (the PIN the store checks against its own roster).
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from ui import a11y
from ui.i18n import format_money, tr
from ui.pages.base import hint
from ui.widgets.tables import filling


class CatalogPart(QGroupBox):
    """``page``: the Manager page (its Store part holds the store manager's session)."""

    COLUMNS = 5

    def __init__(self, page: Any) -> None:
        super().__init__()
        self.page = page
        #: the core's desk, made once the till's runtime is open (the page is built before)
        self.desk: Any = None
        self.shown: list[Any] = []
        col = QVBoxLayout(self)
        self.status = hint()
        self.search = QLineEdit()
        self.search.setMaxLength(40)
        self.search.textChanged.connect(self.refresh)
        self.table = QTableWidget(0, self.COLUMNS)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setMinimumHeight(150)
        self.table.itemSelectionChanged.connect(self._selected)
        # the selected product
        edit = QGridLayout()
        self.name = QLineEdit()
        self.name.setMaxLength(40)
        self.price = QLineEdit()
        self.price.setMaxLength(13)
        self.category = QComboBox()
        self.active = QCheckBox()
        self.save_button = page.button(lambda: tr("Save product"), "", self.save, "Primary")
        self.name_label, self.price_label, self.category_label = QLabel(), QLabel(), QLabel()
        for label, buddy in ((self.name_label, self.name), (self.price_label, self.price),
                             (self.category_label, self.category)):
            label.setBuddy(buddy)
        # two columns at most: the page fits 1024x768 at 125 % text in Spanish
        for row, (left, right) in enumerate(((self.name_label, self.name),
                                             (self.price_label, self.price),
                                             (self.category_label, self.category))):
            edit.addWidget(left, row, 0)
            edit.addWidget(right, row, 1)
        edit.addWidget(self.active, 3, 0)
        edit.addWidget(self.save_button, 3, 1)
        # a new product
        add = QGridLayout()
        self.new_sku, self.new_name, self.new_price = QLineEdit(), QLineEdit(), QLineEdit()
        self.new_sku.setMaxLength(32)
        self.new_name.setMaxLength(40)
        self.new_price.setMaxLength(13)
        self.new_barcodes = QLineEdit()
        self.new_category, self.new_tax_class = QComboBox(), QComboBox()
        self.add_button = page.button(lambda: tr("Add product"), "", self.add)
        add.addWidget(self.new_sku, 0, 0)
        add.addWidget(self.new_name, 0, 1)
        add.addWidget(self.new_price, 1, 0)
        add.addWidget(self.new_barcodes, 1, 1)
        add.addWidget(self.new_category, 2, 0)
        add.addWidget(self.new_tax_class, 2, 1)
        add.addWidget(self.add_button, 3, 1)
        self.message = hint()
        a11y.live(self.message)  # the store's answer to a change
        col.addWidget(self.status)
        col.addWidget(self.search)
        col.addWidget(self.table)
        col.addLayout(edit)
        self.new_label = QLabel()
        col.addWidget(self.new_label)
        col.addLayout(add)
        col.addWidget(self.message)

    # ---- what it shows ---------------------------------------------------------------------
    def retranslate(self) -> None:
        self.setTitle(tr("Catalog"))
        self.search.setPlaceholderText(tr("Search by name or sku"))
        a11y.name(self.search, tr("Search the catalog"))
        a11y.name_view(self.table, tr("Products"),
                       tr("One row per product: sku, name, price, category and whether it is sold."))
        self.table.setHorizontalHeaderLabels([tr("SKU"), tr("Name"), tr("Price"), tr("Category"),
                                              tr("Sold")])
        self.name_label.setText(tr("Name"))
        self.price_label.setText(tr("Price"))
        self.category_label.setText(tr("Category"))
        self.active.setText(tr("Sold at the counter"))
        self.new_label.setText(tr("New product"))
        a11y.name(self.category, tr("Category"))
        for w, words in ((self.new_sku, tr("New product's sku")),
                         (self.new_name, tr("New product's name")),
                         (self.new_price, tr("New product's price")),
                         (self.new_barcodes, tr("Barcodes, separated by |"))):
            w.setPlaceholderText(words)
            a11y.name(w, words)
        a11y.name(self.new_category, tr("New product's category"))
        a11y.name(self.new_tax_class, tr("New product's tax class"))
        self.refresh()

    def refresh(self) -> None:
        till = self.page.till
        if self.desk is None and till.ready:
            from cashier.store.catalog_desk import CatalogDesk

            self.desk = CatalogDesk(till.profile, till.ctx.catalog)
        desk = self.desk
        if desk is None:
            return
        if not desk.linked:
            self.page.say_in(self.status, lambda: tr(
                "This till sells its own list (no store): the catalog is changed at the store."))
        else:
            version = desk.catalog.version
            self.page.say_in(self.status, lambda: tr("Catalog version %s from the store.") % version)
        for w in (self.save_button, self.add_button, self.name, self.price, self.category,
                  self.active, self.new_sku, self.new_name, self.new_price, self.new_barcodes,
                  self.new_category, self.new_tax_class):
            w.setEnabled(desk.linked)
        self._fill_choices()
        self.shown = desk.find(self.search.text())
        with filling(self.table):
            self.table.setRowCount(len(self.shown))
            for r, p in enumerate(self.shown):
                cells = (p.sku, p.name, format_money(p.price, self.page.till.currency), p.category,
                         tr("yes") if p.active else tr("no"))
                for c, text in enumerate(cells):
                    self.table.setItem(r, c, QTableWidgetItem(text))

    def _fill_choices(self) -> None:
        assert self.desk is not None
        categories, taxes = self.desk.category_names(), self.desk.tax_class_names()
        for combo, names in ((self.category, categories), (self.new_category, categories),
                             (self.new_tax_class, taxes)):
            if [combo.itemText(i) for i in range(combo.count())] != names:
                current = combo.currentText()
                combo.clear()
                combo.addItems(names)
                if current in names:
                    combo.setCurrentText(current)

    def _selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.shown):
            return
        p = self.shown[rows[0].row()]
        self.name.setText(p.name)
        self.price.setText(str(p.price))
        self.category.setCurrentText(p.category)
        self.active.setChecked(p.active)

    def selected_sku(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.shown):
            return None
        return str(self.shown[rows[0].row()].sku)

    # ---- what it asks ----------------------------------------------------------------------
    def _session(self) -> str | None:
        session: str | None = self.page.store_part.session
        if session is None:
            self.page.say_in(self.message, lambda: tr(
                "Sign in to the store first (Store: manager number and PIN): the store checks "
                "who changes its catalog."))
            self.page.store_part.manager_id.setFocus()
        return session

    def save(self) -> None:
        from cashier.errors import CashierError

        sku = self.selected_sku()
        if sku is None or self.desk is None:
            self.page.say_in(self.message, lambda: tr("Choose a product in the list first."))
            return
        session = self._session()
        if session is None:
            return
        try:
            change = self.desk.change_of(sku, name=self.name.text(), price=self.price.text(),
                                         category=self.category.currentText(),
                                         active=self.active.isChecked())
        except CashierError as exc:
            self.page.say_refusal(self.message, exc)
            return
        self._send(asyncio.to_thread(self.desk.change, session, change))

    def add(self) -> None:
        from cashier.errors import CashierError

        if self.desk is None:
            return
        session = self._session()
        if session is None:
            return
        try:
            product = self.desk.product_of(
                sku=self.new_sku.text(), name=self.new_name.text(), price=self.new_price.text(),
                category=self.new_category.currentText(),
                tax_class=self.new_tax_class.currentText(), barcodes=self.new_barcodes.text())
        except CashierError as exc:
            self.page.say_refusal(self.message, exc)
            return
        self._send(asyncio.to_thread(self.desk.add, session, product))

    def _send(self, work: Any) -> None:
        self.page.say_in(self.message, lambda: tr("Sending to the store…"))

        def done(written: Any) -> None:
            version, sku = written.version, written.sku
            self.page.say_in(self.message, lambda: tr("%s saved: catalog version %s.") % (sku, version))
            for w in (self.new_sku, self.new_name, self.new_price, self.new_barcodes):
                w.clear()
            self.refresh()

        def failed(exc: BaseException) -> None:
            from cashier.errors import CashierError

            if not isinstance(exc, CashierError):
                raise exc
            self.page.say_refusal(self.message, exc)

        self.page.till.run(work, "catalog change", done=done, failed=failed)
