"""A printer URL to a python-escpos printer, and raw ESC/POS bytes sent to it.

URLs: ``tcp://HOST[:9100]`` (raw TCP, "JetDirect"), ``usb://VENDOR:PRODUCT`` (hex ids),
``serial:///dev/ttyUSB0?baudrate=19200`` and ``file:///path`` (a test, a spooler or a device
file). python-escpos opens and writes the device; we build the bytes ourselves (with its
``Dummy`` printer, see ``layout``) so a job is composed once, off the device, and sent whole.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any
from urllib.parse import parse_qs, urlsplit

DEFAULT_TCP_PORT = 9100
_SCHEMES = ("tcp", "usb", "serial", "file")


@dataclass(frozen=True, slots=True)
class PrinterAddress:
    scheme: str
    host: str = ""
    port: int = DEFAULT_TCP_PORT
    vendor: int = 0
    product: int = 0
    path: str = ""
    baudrate: int = 19200

    def __str__(self) -> str:
        match self.scheme:
            case "tcp":
                return f"tcp://{self.host}:{self.port}"
            case "usb":
                return f"usb://{self.vendor:04x}:{self.product:04x}"
            case "serial":
                return f"serial://{self.path}?baudrate={self.baudrate}"
        return f"file://{self.path}"


def parse_url(url: str) -> PrinterAddress:
    """Raise ValueError with the rule when ``url`` is no printer URL we know."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in _SCHEMES:
        raise ValueError("must be tcp://HOST:9100, usb://VENDOR:PRODUCT, "
                         "serial:///dev/ttyUSB0?baudrate=19200 or file:///path")
    if scheme == "tcp":
        try:
            port = parts.port or DEFAULT_TCP_PORT
        except ValueError:
            raise ValueError("port must be a number from 1 to 65535") from None
        if not parts.hostname:
            raise ValueError("tcp:// needs a host, e.g. tcp://192.168.1.50:9100")
        return PrinterAddress("tcp", host=parts.hostname, port=port)
    if scheme == "usb":
        match = re.fullmatch(r"(?:0x)?([0-9a-fA-F]{1,4}):(?:0x)?([0-9a-fA-F]{1,4})", parts.netloc)
        if not match:
            raise ValueError("usb:// needs VENDOR:PRODUCT in hex, e.g. usb://04b8:0202")
        return PrinterAddress("usb", vendor=int(match.group(1), 16), product=int(match.group(2), 16))
    path = parts.path
    if parts.netloc or not path.startswith("/"):
        raise ValueError(f"{scheme}:// needs an absolute path, e.g. {scheme}:///dev/ttyUSB0")
    if scheme == "serial":
        baud = parse_qs(parts.query).get("baudrate", ["19200"])[0]
        if not baud.isdigit() or int(baud) not in (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200):
            raise ValueError("baudrate must be one of 1200 ... 115200 (e.g. 19200)")
        return PrinterAddress("serial", path=path, baudrate=int(baud))
    return PrinterAddress("file", path=path)


def open_printer(address: PrinterAddress, timeout_s: float) -> Any:
    """The python-escpos printer for ``address`` (not yet connected: ``send`` opens it)."""
    from escpos import printer

    match address.scheme:
        case "tcp":
            return printer.Network(address.host, port=address.port, timeout=timeout_s)
        case "usb":
            return printer.Usb(address.vendor, address.product, timeout=int(timeout_s * 1000))
        case "serial":
            return printer.Serial(address.path, baudrate=address.baudrate, timeout=timeout_s)
    return printer.File(address.path)


class PrinterOffline(Exception):
    """The printer could not be reached or did not take the job (off, unplugged, jammed)."""


class OutOfPaper(PrinterOffline):
    """The printer answered that its paper roll is out: the job was not sent (a drawer kick was)."""


class Paper(Enum):
    """What the printer's roll paper sensor says (DLE EOT 4)."""

    PLENTY = "plenty"
    LOW = "low"
    OUT = "out"
    #: not asked (a file printer), or the printer did not answer in time (many do not)
    UNKNOWN = "unknown"


#: DLE EOT 4, "transmit roll paper sensor status": a real-time command, answered at once with one
#: byte even while the printer is offline or busy, by printers that talk back at all.
PAPER_QUERY = b"\x10\x04\x04"
#: how long to wait for that byte: a printer that answers does so within milliseconds.
STATUS_READ_S = 0.5
_ASKABLE = ("tcp", "usb", "serial")


def paper_from_status(status: bytes) -> Paper:
    """The answer to DLE EOT 4: bits 1 and 4 always set and bits 0 and 7 always clear (anything
    else is not a status byte); bits 2-3 both set: near the end; bits 5-6 both set: out."""
    if len(status) != 1 or status[0] & 0x93 != 0x12:
        return Paper.UNKNOWN
    if status[0] & 0x60 == 0x60:
        return Paper.OUT
    if status[0] & 0x0C == 0x0C:
        return Paper.LOW
    return Paper.PLENTY


def _ask_paper(device: Any, scheme: str, read_s: float) -> Paper:
    """Send DLE EOT 4 on the open ``device`` and read its one-byte answer within ``read_s``."""
    device._raw(PAPER_QUERY)
    try:
        match scheme:
            case "tcp":
                device.device.settimeout(read_s)
                answer = device.device.recv(16)
            case "serial":
                device.device.timeout = read_s
                answer = device.device.read(1)
            case _:  # usb: pyusb's read takes its timeout in milliseconds
                answer = bytes(device.device.read(device.in_ep, 16, max(1, int(read_s * 1000))))
    except (TimeoutError, OSError):
        return Paper.UNKNOWN
    except Exception as exc:  # pyusb's USBTimeoutError is no OSError
        if "timeout" in type(exc).__name__.lower():
            return Paper.UNKNOWN
        raise
    return paper_from_status(bytes(answer[-1:]))


def send(address: PrinterAddress, data: bytes, timeout_s: float, *, ask_paper: bool = False,
         without_paper: bytes = b"") -> Paper:
    """Open the device, write ``data`` whole, close it; every failure is ``PrinterOffline``.

    With ``ask_paper`` (a job that needs paper, on a printer that answers) the roll is asked
    first: out of paper, only ``without_paper`` (the drawer kick) is written and ``OutOfPaper``
    raised, so the receipt never comes out later for a customer who has left. Returns what the
    printer said of its paper (``UNKNOWN`` when not asked or not answered).
    """
    device = open_printer(address, timeout_s)
    paper = Paper.UNKNOWN
    try:
        device.open()
        if ask_paper and address.scheme in _ASKABLE:
            paper = _ask_paper(device, address.scheme, min(STATUS_READ_S, timeout_s))
            if address.scheme == "tcp":
                device.device.settimeout(timeout_s)
            elif address.scheme == "serial":
                device.device.timeout = timeout_s
        if paper is Paper.OUT:
            if without_paper:
                device._raw(without_paper)
        elif data:
            device._raw(data)
    except Exception as exc:  # escpos raises its own errors, OSError, usb and serial errors
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise PrinterOffline(f"{address}: {detail}") from None
    finally:
        with contextlib.suppress(Exception):  # closing a dead connection is best effort
            device.close()
    if paper is Paper.OUT:
        raise OutOfPaper(f"{address}: the printer says its paper roll is out")
    return paper
