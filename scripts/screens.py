"""Render every screen and state of the window to PNG: ``make screens`` (``python
scripts/screens.py build/screens``). A developer tool: it is not part of the installed package.

Runs a training till on a throw-away journal and drives real flows against the embedded
sandbox, so each picture shows what a cashier would see, not a mock-up.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from cashier.journal.model import NewEntry


async def _until(predicate: Callable[[], Any], timeout_s: float = 15.0) -> Any:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while not (value := predicate()):
        if loop.time() > deadline:
            raise TimeoutError("screen state not reached")
        await asyncio.sleep(0.01)
    return value


class Shooter:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.shots: list[Path] = []

    async def shoot(self, widget: Any, name: str) -> None:
        # the loop paints while it waits: a processEvents() here would step the window's tasks
        # inside this one ("Cannot enter into task"), and a task stepped so never finishes
        await asyncio.sleep(0.1)
        path = self.out / f"{len(self.shots) + 1:02d}-{name}.png"
        widget.grab().save(str(path))
        self.shots.append(path)


#: What is done at each state: ``visit(widget, name)`` (a picture, an accessibility check).
Visit = Callable[[Any, str], Awaitable[Any]]
#: Builds a training till's window (not started) from profile overrides.
Build = Callable[..., Any]


def build_training(**overrides: Any) -> Any:
    """A training till on a throw-away journal, its window shown (not started)."""
    from cashier.config import load_profile
    from ui.app import build_gui

    tmp = Path(tempfile.mkdtemp(prefix="cashier-screens-"))
    overrides.setdefault("journal_path", tmp / "journal.sqlite")
    gui = build_gui(load_profile(None, **overrides), show_dialogs=False)
    gui.window.show()
    return gui


async def render(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    shooter = Shooter(out)
    await walk(shooter.shoot)
    return shooter.shots


async def walk(visit: Visit, build: Build = build_training, *, looks: bool = True,
               store: bool = True) -> None:
    """Every screen and state of the window, ``visit`` called at each: ``make screens`` takes a
    picture there, the accessibility test reads what a screen reader would. ``looks``: each
    screen again at the window sizes, in both themes and at large text (the same widgets);
    ``store``: the Manager's Store part against a real store (PostgreSQL)."""
    from ui.pages.journal import JournalPage
    from ui.pages.manager import ManagerPage
    from ui.pages.sale import TIP_PAD, SalePage
    from ui.pages.settings import SettingsPage
    from ui.pages.tabs import TabsPage

    shoot = visit
    gui = build()
    gui.window.resize(1180, 780)
    gui.window.show()
    await gui.start(poll_s=0)
    if gui.cashdesk is not None and gui.cashdesk.drawer.current() is None:
        gui.cashdesk.open(clerk=str(gui.till.profile.clerk_id), float_amount="100.00")  # for cash
    assert gui.pinpad is not None
    pad = gui.pinpad
    pad.resize(820, 600)
    w = gui.window
    sale: SalePage = w.go(SalePage)
    await shoot(w, "sale-empty")
    sale.amount.set_value(Decimal("42.50"))
    sale.key_tip_field()
    sale.tip.set_value(Decimal("6.00"))
    await shoot(w, "sale-typed-with-keyed-tip")
    sale.new_sale()
    # waiting on the PIN pad: the tip prompt, then the card
    sale.amount.set_value(Decimal("42.50"))
    sale.set_tip_mode(TIP_PAD)
    sale.charge_card()
    await _until(lambda: pad.prompt is not None and pad.prompt.kind == "tip")
    await shoot(w, "sale-waiting-tip")
    await shoot(pad, "pinpad-tip")
    pad.prompt.choose_tip("notip")
    await _until(lambda: pad.prompt is not None and pad.prompt.kind == "card")
    await shoot(w, "sale-waiting-card")
    await shoot(pad, "pinpad-card")
    pad.tap("4321000000001119")
    await _until(lambda: sale.stack.currentWidget() is sale.result_page)
    await shoot(w, "sale-approved")
    sale.show_receipt()
    await shoot(w, "sale-approved-receipt")
    await _email_states(gui, sale, shoot)
    await _ticket_states(sale, pad, shoot, w)
    await _finish_sale(sale, pad, Decimal("999998.00"))
    await shoot(w, "sale-declined")
    sale.cancel_ticket()
    await _until(lambda: sale.task is not None and sale.task.done() and sale.ticket is None)
    # a lost answer: the sale and the first status checks fail, so it stays UNKNOWN
    faults = gui.till.runtime.sandbox.faults if gui.till.runtime else None
    if faults is not None:
        from cashier.sandbox.faults import parse_rule

        faults.add([parse_rule({"path": "/api/rest/v1/transactions/sale", "action": "drop_after_commit",
                                "count": 1}),
                    parse_rule({"path": "/api/rest/v1/transactions/invoice", "action": "timeout_504",
                                "count": 3})])
        await _finish_sale(sale, pad, Decimal("15.00"))
        await shoot(w, "sale-checking-with-host")
        faults.clear()
        sale.new_sale()  # the cashier leaves it to recovery: the open ticket is cancelled
        sale.cancel_ticket()
        await _until(lambda: sale.task is not None and sale.task.done() and sale.ticket is None)
    # cancelled by the cashier
    sale.new_sale()
    sale.amount.set_value(Decimal("8.00"))
    sale.charge_card()
    await _until(lambda: pad.prompt is not None)
    sale.cancel_payment()
    await _until(lambda: sale.task is not None and sale.task.done()
                 and sale.stack.currentWidget() is sale.entry_page)
    await shoot(w, "sale-cancelled")
    sale.cancel_ticket()
    await _until(lambda: sale.task is not None and sale.task.done() and sale.ticket is None)
    sale.new_sale()
    # tabs
    tabs: TabsPage = w.go(TabsPage)
    tabs.amount.set_value(Decimal("60.00"))
    pad.auto.setChecked(True)
    tabs.open_tab()
    await _until(lambda: tabs.entries)
    tabs.table.selectRow(0)
    tabs.amount.set_value(Decimal("9.00"))
    await shoot(w, "tabs-open")
    from ui.pages.giftcard import GiftCardPage

    gift: GiftCardPage = w.go(GiftCardPage)
    gift.card_field.setText("2664654648774")
    gift.take_number()
    gift.amount.set_value(Decimal("20.00"))
    gift.act("activate")
    await _until(lambda: "Approved" in gift.result_title.text() or "Not done" in gift.result_title.text())
    gift.act("balance")
    await _until(lambda: gift.result_title.text().startswith(("Balance", "Not done")))
    await shoot(w, "giftcard-balance-history")
    await _qr_states(gui, shoot, looks)
    await _phone_link_states(gui, shoot)
    journal: JournalPage = w.go(JournalPage)
    await _until(lambda: journal.entries)
    journal.table.selectRow(0)
    await shoot(w, "journal-today")
    manager: ManagerPage = w.go(ManagerPage)
    await shoot(w, "manager-locked")
    manager.pin.setText("1111")
    manager.unlock()
    await shoot(w, "manager-pin-refused")
    manager.pin.setText("1234")
    manager.unlock()
    await _until(lambda: manager.reconciliation is not None)
    await shoot(w, "manager-unlocked")
    manager.close_batch()  # the first Alt+B names the totals and asks
    await _until(lambda: "Alt+B again" in manager.batch_message.text())
    await shoot(w, "manager-batch-close-asks")
    manager.close_batch()
    await _until(lambda: manager.batch_message.text() not in ("", "Closing the batch…")
                 and "Alt+B again" not in manager.batch_message.text())
    await shoot(w, "manager-batch-close")
    if store:
        await _store_states(gui, manager, shoot)
    w.go(SettingsPage)
    await shoot(w, "settings")
    # the same sale screen in Spanish, high contrast and large text
    gui.set_language("es")
    w.go(SalePage)
    sale.amount.set_value(Decimal("1234.50"))
    await shoot(w, "sale-spanish")
    gui.set_language("en")
    sale.new_sale()
    await _grid_states(gui, sale, shoot, looks)
    if looks:
        gui.set_theme(high_contrast=True)
        await shoot(w, "sale-high-contrast")
        gui.set_theme(high_contrast=False, font_scale=1.3)
        await shoot(w, "sale-large-text")
        gui.set_theme(font_scale=1.0)
    w.show_recovery(_FakeReport(await gui.till.ctx.journal.search(limit=2)))
    await shoot(w, "startup-recovery-banner")
    w.recovery_banner.setVisible(False)
    await every_screen(gui, shoot, looks)
    await gui.stop()
    from screens_cash import cash_states

    await cash_states(shoot, build)
    from screens_charts import chart_states

    await chart_states(shoot, build)
    from screens_offline import offline_states

    await offline_states(shoot, build)


async def _grid_states(gui: Any, sale: Any, shoot: Callable[[Any, str], Any], looks: bool) -> None:
    """The product grid (issue #37) on the test catalog (a café and shop: categories, a favourite,
    a latte's sizes, modifiers): a category, letters typed, the size asked, the modifiers asked,
    a line added; with ``looks`` also in Spanish at 125 % text and at 1280x800 at 150 %."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QKeyEvent

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' catalog
    from tests.support.catalogs import cafe

    w = gui.window

    def key(k: Qt.Key, text: str = "") -> None:
        sale.entry_key(QKeyEvent(QKeyEvent.Type.KeyPress, k, Qt.KeyboardModifier.NoModifier, text))

    gui.till.ctx.catalog.replace(cafe())
    sale.follow_catalog()
    await shoot(w, "sale-grid")
    sale.description.setText("la")
    await shoot(w, "sale-grid-letters")
    key(Qt.Key.Key_Return)
    await shoot(w, "sale-grid-which-size")
    key(Qt.Key.Key_2, "2")
    key(Qt.Key.Key_1, "1")
    await shoot(w, "sale-grid-modifiers")
    key(Qt.Key.Key_Return)
    await _until(lambda: sale.task is not None and sale.task.done() and sale.ticket is not None)
    key(Qt.Key.Key_PageDown)
    await shoot(w, "sale-grid-line-added")
    if looks:
        gui.set_language("es")
        for (width, height), scale in (((1024, 768), 1.25), ((1280, 800), 1.5)):
            w.resize(width, height)
            gui.set_theme(font_scale=scale)
            await shoot(w, f"sale-grid-{width}x{height}-{int(scale * 100)}-es")
            sale.product_grid.model.select("Coffee")
            sale.product_grid.touch(3)  # the latte, touched: its sizes
            await shoot(w, f"sale-grid-which-size-{width}x{height}-{int(scale * 100)}-es")
            key(Qt.Key.Key_Escape)
        gui.set_theme(font_scale=1.0)
        gui.set_language("en")
        w.resize(1180, 780)
    sale.cancel_ticket()
    await _until(lambda: sale.task is not None and sale.task.done() and sale.ticket is None)
    sale.new_sale()


async def _email_states(gui: Any, sale: Any, shoot: Callable[[Any, str], Any]) -> None:
    """E-mail receipt (Ctrl+E) on the result: the customer types on the PIN pad, a bad address
    is said in one line and asked again, and training's Mail window shows the message."""
    from ui.email_prompt import EmailDialog

    pad = gui.pinpad
    sale.email_receipt()
    dialog = await _until(lambda: sale.findChild(EmailDialog))
    dialog.ask_pad()
    await _until(lambda: pad.prompt is not None and pad.prompt.kind == "input")
    first = pad.prompt.id
    pad.input.setText("jane@example")
    await shoot(pad, "pinpad-email-address")
    pad.input_ok.click()
    await _until(lambda: pad.prompt is not None and pad.prompt.kind == "input" and pad.prompt.id != first)
    await shoot(dialog, "email-prompt-bad-address")
    pad.input.setText("jane@example.com")
    pad.input_ok.click()
    await _until(lambda: gui.mail_window is not None and gui.mail_window.shown)
    gui.mail_window.resize(720, 560)
    await shoot(gui.mail_window, "mail-window")
    gui.mail_window.hide()


async def _qr_states(gui: Any, shoot: Callable[[Any, str], Any], looks: bool = True) -> None:
    """QR from the Sale screen's F4: waiting with the code (also in high contrast, with
    ``looks``), paid by the training customer, and a second one cancelled before payment."""
    from cashier.flows.qr import QrPolling
    from ui.pages.qr import QrPage
    from ui.pages.sale import SalePage

    w = gui.window
    pad = gui.pinpad
    if pad is not None:
        pad.auto.setChecked(False)  # the virtual customer would press the form away at once
    qr: QrPage = w.page(QrPage)
    qr.polling = QrPolling(first_s=0.05, max_s=0.2, wait_s=60.0)
    sale: SalePage = w.go(SalePage)
    for cancel in (False, True):
        sale.new_sale()
        sale.amount.set_value(Decimal("18.75") if not cancel else Decimal("6.40"))
        sale.charge_qr()
        await _until(lambda: qr.wait_title.text() == "Waiting for the customer")
        if not cancel:
            await shoot(w, "qr-waiting-code")
            if pad is not None and gui.profile.processing_option == "LG":
                await _until(lambda: pad.prompt is not None and pad.prompt.kind == "form")
                await shoot(pad, "pinpad-qr-code")
            if looks:
                gui.set_theme(high_contrast=True)
                await shoot(w, "qr-waiting-code-high-contrast")
                gui.set_theme(high_contrast=False)
            qr.customer_pays()
        else:
            qr.cancel_payment()
        await _until(lambda: qr.stack.currentWidget() is qr.result_page)
        await shoot(w, "qr-cancelled" if cancel else "qr-paid")
        qr.new_sale()


async def _phone_link_states(gui: Any, shoot: Callable[[Any, str], Any]) -> None:
    """Phone & link: a phone order typed, approved and declined; a payment link waiting as a QR
    code and paid by the training customer; a customer found with a default card."""
    from cashier.flows import card_not_present
    from cashier.sandbox.chargeapi.testcards import TEST_CARDS
    from ui.pages.phone_link import PhoneLinkPage

    w = gui.window
    page: PhoneLinkPage = w.go(PhoneLinkPage)
    page.link_watch = card_not_present.LinkWatch(first_s=0.05, max_s=0.2)
    declined = next(c.number for c in TEST_CARDS if c.outcome == "card_declined")
    for number, name in (("4242424242424242", "phone-order-approved"), (declined, "phone-order-declined")):
        page.amount.set_value(Decimal("64.90"))
        for field, text in zip(page.card_fields(), (number, "12/30", "123", "94107"), strict=True):
            field.setText(text)
        if name.endswith("approved"):
            page.number.setFocus()
            await shoot(w, "phone-order-typed")
        page.result = None
        page.charge_phone()
        await _until(lambda: page.result is not None)
        await shoot(w, name)
    page.tabs.setCurrentIndex(1)
    page.amount.set_value(Decimal("120.00"))
    page.create_link()
    await _until(lambda: page.watching and page.link is not None)
    await asyncio.sleep(0.2)
    await shoot(w, "pay-by-link-waiting")
    page.customer_pays()
    await _until(lambda: not page.watching)
    await shoot(w, "pay-by-link-paid")
    ctx = gui.till.ctx
    customer = await card_not_present.create_customer(ctx, "ana@example.com", description="Ana")
    token = (await ctx.charge_api.client.create_token("5555555555554444", "11", "2031")).id
    await card_not_present.add_card(ctx, customer, token=token)
    page.tabs.setCurrentIndex(2)
    page.customer_query.setText("ana@example.com")
    page.find_customer()
    await _until(lambda: page.customers)
    page.amount.set_value(Decimal("35.00"))
    await shoot(w, "customer-found")


#: The window sizes every screen is checked at: the smallest supported, and a large one.
SIZES = ((1024, 768), (1600, 1000))


async def every_screen(gui: Any, shoot: Callable[[Any, str], Any], looks: bool = True) -> None:
    """Each screen as it stands at the end of the run, at both sizes, in both themes and both
    languages, then at 1024x768 with 150 % text: the matrix the layout promise covers (without
    ``looks``: once, in English)."""
    w = gui.window
    for width, height in SIZES if looks else SIZES[:1]:
        w.resize(width, height)
        for high_contrast in (False, True) if looks else (False,):
            gui.set_theme(high_contrast=high_contrast)
            for language in ("en", "es") if looks else ("en",):
                gui.set_language(language)
                for index, page in enumerate(w.pages):
                    w.show_page(index)
                    name = type(page).__name__.removesuffix("Page").lower()
                    theme = "hc" if high_contrast else "normal"
                    await shoot(w, f"{name}-{width}x{height}-{theme}-{language}")
    if looks:  # issue #39: a small till's screen with large text, in both languages
        gui.set_theme(high_contrast=False, font_scale=1.5)
        w.resize(1024, 768)
        for language in ("en", "es"):
            gui.set_language(language)
            for index, page in enumerate(w.pages):
                w.show_page(index)
                name = type(page).__name__.removesuffix("Page").lower()
                await shoot(w, f"{name}-1024x768-150-{language}")
        gui.set_theme(font_scale=1.0)
    gui.set_language("en")
    gui.set_theme(high_contrast=False)
    w.resize(1180, 780)


class _FakeReport:
    """The banner's input shape, filled with real journal entries for the picture."""

    def __init__(self, entries: list[Any]) -> None:
        self.resolved = entries
        self.still_open: list[Any] = []


async def _finish_sale(sale: Any, pad: Any, amount: Decimal) -> None:
    """One card tender for ``amount`` on a new ticket; a decline leaves the ticket open."""
    sale.new_sale()
    sale.amount.set_value(amount)
    pad.auto.setChecked(True)
    sale.charge_card()
    await _until(lambda: sale.task is not None and sale.task.done())
    await asyncio.sleep(0.05)
    pad.auto.setChecked(False)


async def _ticket_states(sale: Any, pad: Any, shoot: Callable[[Any, str], Any], w: Any) -> None:
    """The ticket: lines typed, a split in progress (card part approved), change due after
    cash, and a partial approval with what remains."""
    sale.new_sale()
    for name, price in (("Coffee beans 1kg", "18.90"), ("Mug", "7.50"), ("Filter papers", "3.25")):
        sale.description.setText(name)
        sale.amount.set_value(Decimal(price))
        sale.prefilled = False  # as typing does
        sale.add_line()
        await _until(lambda: sale.task.done())
    await shoot(w, "ticket-open")
    sale.amount.set_value(Decimal("10.00"))
    sale.prefilled = False
    pad.auto.setChecked(True)
    sale.charge_card()
    await _until(lambda: sale.task.done() and sale.stack.currentWidget() is sale.entry_page)
    await shoot(w, "ticket-split-in-progress")
    sale.amount.set_value(Decimal("40.00"))
    sale.prefilled = False
    sale.pay_cash()
    await _until(lambda: sale.stack.currentWidget() is sale.result_page)
    await shoot(w, "ticket-change-due")
    await _ticket_refund_dialog(sale, shoot, w)
    sale.new_sale()
    sale.amount.set_value(Decimal("219.00"))
    sale.charge_card()
    await _until(lambda: sale.task.done() and sale.stack.currentWidget() is sale.entry_page)
    await shoot(w, "ticket-partial-approval")
    sale.cancel_ticket()  # money was taken: the first F12 names it and asks again
    await shoot(w, "ticket-cancel-confirm")
    sale.cancel_ticket()
    await _until(lambda: sale.task.done() and sale.ticket is None)
    pad.auto.setChecked(False)


async def _ticket_refund_dialog(sale: Any, shoot: Callable[[Any, str], Any], w: Any) -> None:
    """The Journal's F7 on the ticket just paid: the mug ticked, what goes back where."""
    from PySide6.QtCore import Qt

    from ui.pages.journal import JournalPage

    journal = w.go(JournalPage)
    journal.refresh()
    await _until(lambda: journal.entries)
    paid = next(e for e in journal.entries if e.ticket_id is not None)  # the newest first
    journal.table.selectRow(journal.entries.index(paid))
    journal.refund_ticket()
    await _until(lambda: journal.ticket_dialog is not None and journal.ticket_dialog.isVisible())
    dialog = journal.ticket_dialog
    dialog.lines.item(1).setCheckState(Qt.CheckState.Checked)
    await shoot(dialog, "journal-ticket-refund-lines")
    dialog.reject()
    w.go(type(sale))


async def _store_states(gui: Any, manager: Any, shoot: Callable[[Any, str], Any]) -> None:
    """The manager's Store part against a real store: a PostgreSQL cluster of its own, the store
    service, and two other tills' days pushed from their journals (skipped, with a note, when
    PostgreSQL's server is not installed)."""
    import json
    import shutil
    import subprocess

    from cashier.config import load_profile
    from cashier.journal.model import Kind, State
    from cashier.journal.recorder import JournalRecorder
    from cashier.store import StoreError
    from cashier.store.localpg import LocalPostgres, free_port
    from cashier.store.outbox import Outbox

    base = Path(tempfile.mkdtemp(prefix="cashier-screens-store-"))
    base.chmod(0o755)  # the postgres user reaches its data folder inside
    cluster = LocalPostgres(base / "pg", fast=True)
    try:
        dsn = cluster.start()
    except StoreError as exc:
        print(f"screens: no Store part picture ({exc})", file=sys.stderr)
        return
    port = free_port()
    cli = [sys.executable, "-m", "cashier.cli", "store"]
    server = subprocess.Popen([*cli, "serve", "--database", dsn, "--port", str(port)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and "listening" in server.stdout.readline()
        url = f"http://127.0.0.1:{port}"

        def token(till: str) -> str:
            out = subprocess.run([*cli, "add-till", till, "--database", dsn], capture_output=True,
                                 text=True, check=True).stdout
            return str(json.loads(out)["token"])

        for number, till, clerk, sales in ((2, "till-2", "Ana", ("18.40", "7.95", "31.00")),
                                           (3, "till-3", "Bo", ("12.00", "4.25"))):
            path = base / f"{till}.sqlite"
            journal = JournalRecorder(path, till_id=till, till_number=number)
            from screens_charts import training_day

            # the store's charts: a day first (the journal's time never goes back)
            training_day(journal, tickets=12 * number, seed=number)
            for i, text in enumerate(sales):
                entry = journal.create(NewEntry(Kind.SALE, Decimal(text), actor=clerk, clerk=clerk))
                journal.transition(entry.id, State.APPROVED, actor=clerk, approved=Decimal(text),
                                   card_type=("VS", "MC")[i % 2])
            journal.create(NewEntry(Kind.SALE, Decimal("9.99"), actor=clerk, clerk=clerk, sent=True))
            journal.close()
            profile = load_profile(None, training=False, till_id=till, till_number=number,
                                   host_url="https://host.example/api", terminal_id="1",
                                   store_url=url, journal_path=path)
            outbox = Outbox(profile, token=token(till))
            outbox.sync(10.0)
            outbox.close()
        os.environ["CASHIER_STORE_TOKEN"] = token(gui.till.profile.till_id)
        gui.till.profile.store_url = url  # the training till reads the store; it never pushes
        part = manager.store_part
        # every till's figures need a store manager, the PIN checked by the store (issue #26)
        subprocess.run([*cli, "add-manager", "9", "--name", "Manager", "--database", dsn],
                       input="9999\n", capture_output=True, text=True, check=True)
        from cashier.store.close import sign_in_manager

        part.session = sign_in_manager(gui.till.profile, "9", "9999")
        part.retranslate()
        part.refresh()
        await _until(lambda: part.totals is not None)
        from PySide6.QtWidgets import QScrollArea

        area = part.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is not None:
            area.ensureWidgetVisible(part)
        await shoot(gui.window, "manager-store")
        # the store's charts (one bar per till) at the smallest size, in Spanish
        size = gui.window.size()
        gui.window.resize(1024, 768)
        gui.set_language("es")
        if area is not None:
            area.ensureWidgetVisible(part.charts)
        await shoot(gui.window, "manager-store-charts-1024x768-es")
        gui.set_language("en")
        gui.window.resize(size)
    finally:
        os.environ.pop("CASHIER_STORE_TOKEN", None)
        gui.till.profile.store_url = None
        server.terminate()
        server.wait(15)
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)


def main(argv: list[str]) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from ui.loop import make_loop

    out = Path(argv[1] if len(argv) > 1 else "build/screens")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    loop = make_loop(app)
    asyncio.set_event_loop(loop)
    with loop:
        shots = loop.run_until_complete(render(out))
    for path in shots:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
