"""Versions side by side on a till: ``ROOT/versions/X.Y.Z/`` and links ``current`` and ``previous``.

``/usr/bin/cashier`` points at ``ROOT/current/cashier``; switching replaces the ``current`` link
in one rename, so a start sees the old version or the new one, never half of each. The version
that ran before stays on disk, so a failed self-check switches back to it.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from packaging.version import InvalidVersion, Version

from cashier.errors import CashierError

KEEP_VERSIONS = 3


class LayoutError(CashierError):
    """The till's install folder cannot take a new version."""


class Layout:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.versions = root / "versions"
        self.current_link = root / "current"
        self.previous_link = root / "previous"
        #: TUF's trusted metadata and the downloads: kept across versions (rollback protection).
        self.state = root / "updates"

    @classmethod
    def of_running_program(cls) -> Layout | None:
        """The layout this packaged till runs from; None for a source run or an unpacked archive."""
        if not getattr(sys, "frozen", False):
            return None
        exe = Path(sys.executable).resolve()
        if exe.parent.parent.name != "versions":
            return None
        return cls(exe.parent.parent.parent)

    def folder(self, version: str) -> Path:
        return self.versions / version

    def _link_version(self, link: Path) -> str | None:
        if not link.is_symlink():
            return None
        return Path(os.readlink(link)).name

    def current(self) -> str | None:
        return self._link_version(self.current_link)

    def previous(self) -> str | None:
        return self._link_version(self.previous_link)

    def installed(self) -> list[str]:
        found = []
        for path in self.versions.iterdir() if self.versions.is_dir() else []:
            try:
                found.append((Version(path.name), path.name))
            except InvalidVersion:
                continue  # a half-unpacked ".partial" folder and the like
        return [name for _v, name in sorted(found)]

    def _point(self, link: Path, version: str) -> None:
        """Point ``link`` at ``versions/<version>`` in one rename (atomic on POSIX)."""
        if not (self.folder(version) / "cashier").exists():
            raise LayoutError(f"version {version} is not installed in {self.versions}")
        staging = link.with_name(f".{link.name}.new")
        staging.unlink(missing_ok=True)
        staging.symlink_to(Path("versions") / version)
        os.replace(staging, link)

    def switch(self, version: str) -> str | None:
        """Make ``version`` current; the one it replaces becomes ``previous``. Returns that one."""
        before = self.current()
        if before == version:
            return before
        if before is not None:
            self._point(self.previous_link, before)
        self._point(self.current_link, version)
        return before

    def roll_back(self) -> str:
        """Back to the version that ran before the last switch."""
        before = self.previous()
        if before is None:
            raise LayoutError("no previous version to roll back to")
        failed = self.current()
        self._point(self.current_link, before)
        if failed is not None:
            self.previous_link.unlink(missing_ok=True)
        return before

    def mark_failed(self, version: str) -> None:
        """A version that failed its self-check is never taken again (until IT publishes a newer)."""
        self.state.mkdir(parents=True, exist_ok=True)
        (self.state / f"failed-{version}").touch()

    def prune(self, keep: int = KEEP_VERSIONS) -> list[str]:
        """Delete old versions beyond ``keep``, never the current or previous one."""
        protected = {self.current(), self.previous()}
        old = [v for v in self.installed() if v not in protected]
        removed = old[: max(0, len(old) - max(0, keep - len(protected - {None})))]
        for version in removed:
            shutil.rmtree(self.folder(version), ignore_errors=True)
        return removed
