"""Which published version a till takes: newer than its own, on its channel.

A stable till takes stable versions only; a pilot till takes pilot and stable ones, so IT can try
a version on a few tills before every till gets it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from packaging.version import InvalidVersion, Version

from cashier.errors import ValidationError

Channel = Literal["stable", "pilot"]
CHANNELS: tuple[Channel, ...] = ("stable", "pilot")


def parse_version(text: str, field: str = "version") -> Version:
    """X.Y.Z (PEP 440): one clear line for anything else."""
    try:
        version = Version(text)
    except InvalidVersion:
        raise ValidationError(field, f"{text!r} is not a version such as 1.2.3") from None
    if str(version) != text:
        raise ValidationError(field, f"{text!r} is not written canonically (use {version})")
    return version


@dataclass(frozen=True)
class Published:
    """One version in the repository, for one till."""

    version: str
    channel: Channel
    target: str  # the TUF target path of its archive


def channel_takes(till_channel: Channel, published_channel: str) -> bool:
    return published_channel == "stable" or (till_channel == "pilot" and published_channel == "pilot")


def pick(published: list[Published], current: str, channel: Channel) -> Published | None:
    """The newest version this till's channel takes that is newer than ``current`` (no rollback)."""
    now = Version(current)
    newer = [p for p in published if channel_takes(channel, p.channel) and Version(p.version) > now]
    return max(newer, key=lambda p: Version(p.version), default=None)
