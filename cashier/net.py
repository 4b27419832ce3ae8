"""Where plain HTTP is allowed: only to this machine, decided by parsing the host name."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit


def is_loopback_host(host: str) -> bool:
    """127.0.0.0/8, ::1 or ``localhost``; nothing that merely starts like one
    (``127.attacker.example``, ``localhost.evil.example``)."""
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_loopback_url(url: str) -> bool:
    """The URL's parsed host (user info and port taken off) is a loopback address."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    return host is not None and is_loopback_host(host)
