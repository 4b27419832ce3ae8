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
    """The printer could not be reached or did not take the job (off, unplugged, no paper)."""


def send(address: PrinterAddress, data: bytes, timeout_s: float) -> None:
    """Open the device, write ``data`` whole, close it. Every failure is ``PrinterOffline``."""
    device = open_printer(address, timeout_s)
    try:
        device.open()
        device._raw(data)
    except Exception as exc:  # escpos raises its own errors, OSError, usb and serial errors
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise PrinterOffline(f"{address}: {detail}") from None
    finally:
        with contextlib.suppress(Exception):  # closing a dead connection is best effort
            device.close()
