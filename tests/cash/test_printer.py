"""The receipt printer: bytes on a loopback TCP printer, a printer that refuses, the file printer."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import cashier.printing.queue as print_queue
from cashier.cashdesk import CashDesk
from cashier.journal.model import NewEntry
from cashier.printing.device import Paper, paper_from_status, parse_url
from cashier.printing.layout import PrintJob, UnsafeReceipt
from cashier.printing.queue import PrintQueue
from tests.support.journal_entries import card_entry, cash_entry
from tests.support.loopback_printer import KICK_BYTES, LoopbackPrinter, refusing_url

CUT = b"\x1dV"
KICK_PIN2 = b"\x1bp\x00"
KICK_PIN5 = b"\x1bp\x01"
PAN = "4111111111111111"


@pytest.mark.parametrize("url,expected", [
    ("tcp://10.0.0.5", "tcp://10.0.0.5:9100"),
    ("tcp://printer.local:9101", "tcp://printer.local:9101"),
    ("usb://04b8:0202", "usb://04b8:0202"),
    ("serial:///dev/ttyUSB0?baudrate=19200", "serial:///dev/ttyUSB0?baudrate=19200"),
    ("file:///tmp/receipts.bin", "file:///tmp/receipts.bin"),
])
def test_printer_urls(url: str, expected: str) -> None:
    assert str(parse_url(url)) == expected


@pytest.mark.parametrize("url,rule", [
    ("lpt://1", "must be tcp://"), ("tcp://", "needs a host"), ("usb://epson", "VENDOR:PRODUCT"),
    ("serial:///dev/ttyS0?baudrate=12", "baudrate"), ("file://relative/x", "absolute path"),
])
def test_bad_printer_urls_name_the_rule(url: str, rule: str) -> None:
    with pytest.raises(ValueError, match=rule):
        parse_url(url)


def test_cash_ticket_prints_receipt_cut_then_kicks_both_pins(make_desk: Callable[..., CashDesk],
                                                             loopback: LoopbackPrinter) -> None:
    desk = make_desk(printer_url=loopback.url)
    desk.open(clerk="101", float_amount="100.00")
    assert loopback.wait_jobs(1) and loopback.jobs.pop(0) == KICK_BYTES  # the float goes in
    entry = cash_entry(desk.recorder, "12.50", tendered="20.00", ticket=True)
    assert entry.ticket_id is not None and entry.invoice is None  # cash has no invoice
    desk.ticket_done(entry.ticket_id, clerk="101")
    assert loopback.wait_jobs(1)
    data = loopback.jobs[0]
    text = data.decode("cp437", "replace")
    assert "CASH" in text and "12.50" in text and "Cash given" in text and "7.50" in text
    assert "Corner Shop" in text and f"Ticket {entry.ticket_id}" in text
    cut_at = data.index(CUT)
    assert data.index(KICK_PIN2) > cut_at and data.index(KICK_PIN5) > cut_at
    # the kick is journaled with the clerk
    moves = desk.drawer.moves(desk.drawer.require_open())
    assert [(m["type"], m["clerk"]) for m in moves] == [("float", "101"), ("kick", "101")]
    assert desk.printer_status == "ready"


def test_card_receipt_never_carries_the_card_number(make_desk: Callable[..., CashDesk],
                                                    loopback: LoopbackPrinter) -> None:
    desk = make_desk(printer_url=loopback.url)
    entry = card_entry(desk.recorder, "40.00", tip="4.00", ticket=True)
    assert entry.ticket_id is not None
    desk.ticket_done(entry.ticket_id, clerk="101", signature=True)
    assert loopback.wait_jobs(2)
    customer, merchant = (job.decode("cp437") for job in loopback.jobs)
    for text in (customer, merchant):
        assert PAN not in text and PAN[:6] not in text.replace("**** 1111", "")
        assert "**** 1111" in text and "VISA" in text
    assert KICK_PIN2 not in loopback.data  # no drawer for a card ticket
    assert "MERCHANT COPY" in merchant and "Signature" in merchant and "Signature" not in customer


def test_a_job_with_a_card_number_is_refused() -> None:
    with pytest.raises(UnsafeReceipt):
        PrintJob(title="receipt", lines=[f"Card {PAN}"])
    with pytest.raises(UnsafeReceipt):
        PrintJob(title="receipt", lines=["Card 4111 1111 1111 1111"])


def test_lines_fit_a_58mm_printer(make_desk: Callable[..., CashDesk]) -> None:
    desk = make_desk(extra="")
    desk.profile.printer.width = 32
    entry = card_entry(desk.recorder, "1234.56", brand="AMERICAN EXPRESS CORPORATE")
    job = desk.receipt_job(entry, copy="merchant", signature=True)
    assert job.lines and all(len(line) <= 32 for line in job.lines)
    assert any(line.endswith("**** 1111") for line in job.lines)


def test_refusing_printer_never_blocks_and_the_ticket_can_be_reprinted(
        make_desk: Callable[..., CashDesk], loopback: LoopbackPrinter,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import json

    from cashier.cli import main

    desk = make_desk(printer_url=refusing_url())
    desk.open(clerk="101", float_amount="50.00")
    entry = cash_entry(desk.recorder, "9.99", tendered="10.00", ticket=True)
    assert entry.ticket_id is not None
    desk.ticket_done(entry.ticket_id, clerk="101")
    assert desk.printer is not None and desk.printer.wait_idle(5)
    assert desk.printer_status.startswith("offline:") and "Connection refused" in desk.printer_status
    assert desk.recorder.get(entry.id).state == "approved"  # the ticket completed anyway
    # the reprint from the journal, on the same refusing printer: not printed, exit 3
    monkeypatch.setenv("CASHIER_PROFILE", str(tmp_path / "till.toml"))
    assert main(["receipt", "print", str(entry.ticket_id)]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["printed"] is False and out["status"].startswith("offline")
    # the printer back (the profile now points at a working one): printed, exit 0
    monkeypatch.setenv("CASHIER_PRINTER__URL", loopback.url)
    assert main(["receipt", "print", str(entry.ticket_id)]) == 0
    assert json.loads(capsys.readouterr().out)["printed"] is True
    assert loopback.wait_jobs(1) and b"9.99" in loopback.jobs[0]
    assert KICK_PIN2 not in loopback.jobs[0]  # a reprint does not open the drawer


def test_submit_returns_before_the_printer_answers() -> None:
    release = threading.Event()
    started = threading.Event()
    printed: list[str] = []

    def slow_sink(job: PrintJob) -> None:
        started.set()
        release.wait(5)
        printed.append(job.title)

    queue = PrintQueue(slow_sink)
    assert queue.submit(PrintJob(title="one", lines=["a"]))
    assert queue.submit(PrintJob(title="two", lines=["b"]))
    assert started.wait(5) and printed == []  # submit came back while the printer was busy
    release.set()
    assert queue.wait_idle(5) and printed == ["one", "two"]
    queue.stop()


def test_file_printer(make_desk: Callable[..., CashDesk], tmp_path: Path) -> None:
    target = tmp_path / "printer.bin"
    desk = make_desk(printer_url=f"file://{target}")
    desk.open(clerk="101", float_amount="20.00")
    desk.no_sale("customer needs change", clerk="101")
    assert desk.printer is not None and desk.printer.wait_idle(5)
    data = target.read_bytes()
    assert data == KICK_BYTES  # a bare kick, no paper, no cut
    moves = desk.drawer.moves(desk.drawer.require_open())
    assert moves[-1]["type"] == "no_sale" and moves[-1]["reason"] == "customer needs change"


def test_a_qr_payment_code_prints_as_a_qr_code(make_desk: Callable[..., CashDesk],
                                               loopback: LoopbackPrinter) -> None:
    from decimal import Decimal

    from cashier.journal.model import Kind

    desk = make_desk(printer_url=loopback.url)
    entry = desk.recorder.create(NewEntry(Kind.QR, Decimal("9.00"), actor="101", clerk="101"))
    job = desk.receipt_job(entry, qr="https://pay.example/q/ABC123")
    assert desk.printer is not None and desk.printer.submit(job) and desk.printer.wait_idle(5)
    assert loopback.wait_jobs(1)
    data = loopback.jobs[0]
    assert b"\x1d(k" in data and b"https://pay.example/q/ABC123" in data  # native QR, GS ( k
    assert data.index(b"\x1d(k") < data.index(CUT)


@pytest.mark.parametrize("answer,paper", [
    (b"\x12", Paper.PLENTY), (b"\x1e", Paper.LOW), (b"\x72", Paper.OUT), (b"\x7e", Paper.OUT),
    (b"\x16", Paper.PLENTY),  # one near-end bit alone is not the defined "near end" (both bits)
    (b"", Paper.UNKNOWN), (b"\x00", Paper.UNKNOWN), (b"\xff", Paper.UNKNOWN),  # not status bytes
    (b"\x12\x12", Paper.UNKNOWN),
])
def test_the_roll_paper_sensor_answer(answer: bytes, paper: Paper) -> None:
    assert paper_from_status(answer) is paper


def until(predicate: Callable[[], bool], timeout_s: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def quick_recheck(monkeypatch: pytest.MonkeyPatch) -> None:
    """The printer thread asks again after 0.1 s instead of 10 s (the roll is changed at once)."""
    monkeypatch.setattr(print_queue, "RECHECK_NOT_READY_S", 0.1)


def test_out_of_paper_shows_still_opens_the_drawer_and_clears_when_the_roll_is_changed(
        make_desk: Callable[..., CashDesk], quick_recheck: None) -> None:
    printer = LoopbackPrinter(paper="out")
    try:
        desk = make_desk(printer_url=printer.url)
        desk.open(clerk="101", float_amount="50.00")
        assert printer.wait_jobs(1) and printer.jobs.pop(0) == KICK_BYTES  # the float goes in
        entry = cash_entry(desk.recorder, "9.99", tendered="20.00", ticket=True)
        assert entry.ticket_id is not None
        desk.ticket_done(entry.ticket_id, clerk="101")
        assert desk.printer is not None and desk.printer.wait_idle(5)
        assert desk.printer.state == "out_of_paper"
        assert desk.printer_status.startswith("out_of_paper:") and "paper roll is out" in desk.printer_status
        # the cashier can still give change: the kick went out, the receipt did not
        assert printer.wait_jobs(1)
        assert printer.jobs == [KICK_BYTES]
        assert [r.printed for r in desk.printer.results] == [True, False]  # the float's kick, the receipt
        assert desk.recorder.get(entry.id).state == "approved"  # the ticket completed anyway
        desk.no_sale("customer needs change", clerk="101")  # a bare kick: no paper needed
        assert desk.printer.wait_idle(5) and printer.wait_jobs(2)
        assert printer.jobs[1] == KICK_BYTES and desk.printer.state == "out_of_paper"  # still out
        # a new roll: the thread asks again and the status bar turns back to ready, unprompted
        printer.paper = "plenty"
        assert until(lambda: desk.printer_status == "ready")
        assert len(printer.jobs) == 2  # asking printed nothing
        # and the receipt is reprinted from the journal
        _, _, queued = desk.print_receipt(str(entry.ticket_id))
        assert queued
        assert printer.wait_jobs(3) and b"9.99" in printer.jobs[2] and KICK_PIN2 not in printer.jobs[2]
    finally:
        printer.close()


def test_paper_low_still_prints_and_says_so(make_desk: Callable[..., CashDesk]) -> None:
    printer = LoopbackPrinter(paper="low")
    try:
        desk = make_desk(printer_url=printer.url)
        entry = card_entry(desk.recorder, "12.00", ticket=True)
        assert entry.ticket_id is not None
        desk.ticket_done(entry.ticket_id, clerk="101")
        assert desk.printer is not None and desk.printer.wait_idle(5)
        assert printer.wait_jobs(1) and b"12.00" in printer.jobs[0]
        assert desk.printer_status == "paper_low" and desk.printer.printing
    finally:
        printer.close()


def test_a_printer_that_never_answers_is_asked_once(make_desk: Callable[..., CashDesk]) -> None:
    printer = LoopbackPrinter(paper=None)  # most network printers
    try:
        desk = make_desk(printer_url=printer.url)
        for amount in ("1.00", "2.00", "3.00"):
            entry = card_entry(desk.recorder, amount, ticket=True)
            assert entry.ticket_id is not None
            desk.ticket_done(entry.ticket_id, clerk="101")
        assert desk.printer is not None and desk.printer.wait_idle(10)
        assert printer.wait_jobs(3)
        assert printer.queries == 1 and desk.printer_status == "ready"
        assert all(r.printed for r in desk.printer.results)
    finally:
        printer.close()


def test_an_unplugged_printer_shows_offline_then_ready_once_back(quick_recheck: None) -> None:
    from cashier.printing.device import parse_url as parse
    from cashier.printing.queue import DevicePrinter

    printer = LoopbackPrinter()
    url = printer.url
    printer.close()  # off: nobody listens on its port
    device = DevicePrinter(parse(url), 1.0)
    queue = PrintQueue(device.print, probe=device.probe)
    try:
        assert queue.submit(PrintJob(title="receipt", lines=["hello"])) and queue.wait_idle(5)
        assert queue.state == "offline"
        again = LoopbackPrinter()  # back on, on another port: point the device at it
        try:
            device.address = parse(again.url)
            # (the loopback counts a query once the connection has closed)
            assert until(lambda: queue.status == "ready" and again.queries >= 1)
            assert again.jobs == []
        finally:
            again.close()
    finally:
        queue.stop()


def test_printer_status_and_test_page_from_the_command_line(
        make_desk: Callable[..., CashDesk], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What the IT person runs at each new till: is the printer there, has it paper, does the
    profile's width fit the paper."""
    import json

    from cashier.cli import main

    printer = LoopbackPrinter(paper="out")
    try:
        make_desk(printer_url=printer.url).close()  # writes the till's profile
        monkeypatch.setenv("CASHIER_PROFILE", str(tmp_path / "till.toml"))
        assert main(["printer", "status"]) == 3
        out = json.loads(capsys.readouterr().out)
        assert out["state"] == "out_of_paper" and out["printer"] == printer.url
        printer.paper = "low"
        assert main(["printer", "status"]) == 0
        assert json.loads(capsys.readouterr().out)["state"] == "paper_low"
        printer.paper = "plenty"
        assert main(["printer", "test"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["printed"] is True and out["status"] == "ready"
        assert printer.wait_jobs(1)
        ruler = "123456789012345678901234567890123456789012"  # width 42
        assert ruler in out["lines"] and ruler.encode() in printer.jobs[0]
        assert all(len(line) <= 42 for line in out["lines"]) and CUT in printer.jobs[0]
        assert KICK_PIN2 not in printer.jobs[0]
        monkeypatch.setenv("CASHIER_PRINTER__URL", refusing_url())
        assert main(["printer", "status"]) == 3
        assert json.loads(capsys.readouterr().out)["state"] == "offline"
        assert main(["printer", "test"]) == 3
        assert json.loads(capsys.readouterr().out)["printed"] is False
    finally:
        printer.close()


def test_a_serial_printer_on_a_pty_answers_its_paper(tmp_path: Path) -> None:
    """The serial path end to end: pyserial on a pseudo-terminal whose other end is the printer
    (it answers DLE EOT 4 "out", then "plenty" once a roll is in)."""
    import os
    import pty
    import select

    from cashier.printing.device import PAPER_QUERY, OutOfPaper, send
    from tests.support.loopback_printer import PAPER_ANSWERS

    master, slave = pty.openpty()
    import tty

    tty.setraw(slave)  # bytes as they are: no echo, no newline translation
    address = parse_url(f"serial://{os.ttyname(slave)}?baudrate=19200")
    paper = {"now": "out"}
    received = bytearray()
    stop = threading.Event()

    def printer() -> None:
        while not stop.is_set():
            ready, _, _ = select.select([master], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            received.extend(chunk)
            if chunk.endswith(PAPER_QUERY):
                os.write(master, PAPER_ANSWERS[paper["now"]])

    thread = threading.Thread(target=printer, daemon=True)
    thread.start()
    try:
        job = PrintJob(title="receipt", lines=["Coffee   3.50"], kick=True)
        with pytest.raises(OutOfPaper):
            send(address, job.to_escpos(), 1.0, ask_paper=True, without_paper=job.kick_escpos())
        assert until(lambda: bytes(received).endswith(KICK_BYTES))
        assert b"Coffee" not in received  # only the kick went out
        paper["now"] = "plenty"
        assert send(address, job.to_escpos(), 1.0, ask_paper=True) is Paper.PLENTY
        assert until(lambda: b"Coffee" in received)
    finally:
        stop.set()
        thread.join(1)
        os.close(master)
        os.close(slave)
