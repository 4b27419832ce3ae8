"""The Manager screen's Catalog part against a real store service and PostgreSQL (issue #37): a
store manager signed in on the Store part searches, changes a price, a name and the active flag,
and adds a product; the store records who, and the window's till sells at the new price at once.
The part only shows and asks: a bad price is the core's refusal, nothing sent."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest
from PySide6.QtCore import Qt

from cashier.config import STORE_KEYRING_SERVICE
from tests.support.profiles import CLERKS
from tests.support.sandbox_server import ServedSandbox
from tests.support.store import ServedStore, add_till, cashier, put_manager
from ui.pages.manager import ManagerPage

pytestmark = pytest.mark.socket
SHEET = ("sku,name,price,category,tax_class,barcodes,active,variant_of,modifiers\n"
         "LAT,Latte,3.20,Coffee,reduced,,yes,,Extra shot=+0.50\n"
         "MUG,Mug,9.00,Shop,standard,3000,yes,,\n")


def test_catalog_part_changes_and_adds_products_through_the_store(
        ui: Any, make_gui: Any, qtbot: Any, tmp_path: Path, store_dsn: str,
        memory_keyring: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASHIER_ACCESS_TOKEN", "SOCKET-TOKEN")
    host = ServedSandbox("HD", tmp_path)
    store = ServedStore(store_dsn).start()
    try:
        db = ("--database", store_dsn)
        for args in (("category", "add", "Coffee"), ("category", "add", "Shop"),
                     ("tax-class", "add", "reduced", "--rate", "10"),
                     ("tax-class", "add", "standard", "--rate", "20")):
            assert cashier("catalog", *args, *db).returncode == 0
        sheet = tmp_path / "in.csv"
        sheet.write_text(SHEET)
        assert cashier("catalog", "import", str(sheet), *db).returncode == 0
        memory_keyring.set_password(STORE_KEYRING_SERVICE, "W1", add_till(store_dsn, "W1"))
        put_manager(store_dsn, "102", "2222", "Bob")
        gui = make_gui(training=False, till_id="W1", till_number=1, processing_option="HD",
                       host_url=host.api, store_url=store.url, clerks=CLERKS, pinpad=False,
                       drawer_float=None)
        assert gui.till.ctx.catalog.current().version == 5  # pulled as the till opened
        qtbot.keyClicks(gui.sign_in.pin, "1111")
        qtbot.keyClick(gui.sign_in.pin, Qt.Key.Key_Return)
        qtbot.keyClick(gui.window, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
        manager = gui.window.findChild(ManagerPage)
        assert manager is not None
        qtbot.keyClicks(manager.pin, "2222")
        qtbot.keyClick(manager.pin, Qt.Key.Key_Return)
        part = manager.catalog_part
        assert "Catalog version 5" in part.status.text() and part.table.rowCount() == 2
        qtbot.keyClicks(part.search, "lat")
        assert part.table.rowCount() == 1 and part.table.item(0, 1).text() == "Latte"
        part.table.selectRow(0)
        assert part.name.text() == "Latte" and part.price.text() == "3.20"
        # no store manager signed in yet: nothing is sent
        part.price.setText("3.80")
        qtbot.mouseClick(part.save_button, Qt.MouseButton.LeftButton)
        assert "Sign in to the store first" in part.message.text()
        store_part = manager.store_part
        qtbot.keyClicks(store_part.manager_id, "102")
        qtbot.keyClicks(store_part.manager_pin, "2222")
        qtbot.keyClick(store_part.manager_pin, Qt.Key.Key_Return)
        ui.until(lambda: store_part.session is not None, what="the store manager's session")
        # a bad price: the core's rule, in the cashier's words, nothing sent
        part.price.setText("3.805")
        qtbot.mouseClick(part.save_button, Qt.MouseButton.LeftButton)
        assert "decimals" in part.message.text()
        part.price.setText("3.80")
        part.name.setText("Caffe latte")
        qtbot.mouseClick(part.save_button, Qt.MouseButton.LeftButton)
        ui.until(lambda: "saved" in part.message.text(), what="the price change")
        assert part.message.text() == "LAT saved: catalog version 6."
        latte = gui.till.ctx.catalog.current().product("LAT")
        assert latte is not None and latte.price == Decimal("3.80") and latte.name == "Caffe latte"
        # a product stops being sold
        part.search.setText("mug")
        part.table.selectRow(0)
        part.active.setChecked(False)
        qtbot.mouseClick(part.save_button, Qt.MouseButton.LeftButton)
        ui.until(lambda: "version 7" in part.message.text(), what="the mug withdrawn")
        assert gui.till.ctx.catalog.current().by_barcode("3000") is None
        # a new product
        part.search.clear()
        qtbot.keyClicks(part.new_sku, "TEA")
        qtbot.keyClicks(part.new_name, "Green tea")
        qtbot.keyClicks(part.new_price, "2.30")
        part.new_category.setCurrentText("Coffee")
        part.new_tax_class.setCurrentText("reduced")
        qtbot.keyClicks(part.new_barcodes, "7001|7002")
        qtbot.mouseClick(part.add_button, Qt.MouseButton.LeftButton)
        ui.until(lambda: "TEA saved" in part.message.text(), what="the new product")
        tea = gui.till.ctx.catalog.current().by_barcode("7002")
        assert tea is not None and tea.sku == "TEA" and tea.price == Decimal("2.30")
        assert part.table.rowCount() == 3 and part.new_sku.text() == ""
        with psycopg.connect(store_dsn) as conn:
            made = conn.execute("SELECT version, made_by, till_id FROM catalog_versions WHERE "
                                "version > 5 ORDER BY version").fetchall()
        assert made == [(6, "manager 102", "W1"), (7, "manager 102", "W1"),
                        (8, "manager 102", "W1")]
    finally:
        store.stop()
        host.stop()
