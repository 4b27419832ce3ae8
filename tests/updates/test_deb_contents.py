"""What the till's Debian package holds (``packaging/deb.py`` on a tiny bundle: fast; the real
package is installed, updated and purged in tests/packaging/test_deb_updates.py)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cashier.config import load_profile

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="needs dpkg-deb")


def _deb_module() -> Any:
    spec = importlib.util.spec_from_file_location("deb", ROOT / "packaging" / "deb.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(tmp_path: Path, **profile: Any) -> Path:
    bundle = tmp_path / "bundle"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "cashier").write_text("#!/bin/sh\n")
    (bundle / "cashier").chmod(0o755)
    return Path(_deb_module().build_deb(bundle, load_profile(None, **profile), "1.4.0", tmp_path / "dist",
                                        level=0))


def _listing(deb: Path) -> dict[str, str]:
    lines = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    listing = {}
    for line in lines:
        mode, owner, *_rest = line.split(maxsplit=5)
        path = line.split(" ./", 1)[1]
        listing["/" + path.rstrip("/")] = f"{mode} {owner}"
    return listing


def test_the_package_installs_the_program_desktop_entry_and_icon(tmp_path: Path) -> None:
    deb = _build(tmp_path, till_id="Store7_Till2", company_name="Corner Shop")
    assert deb.name == "cashier-store7-till2_1.4.0_amd64.deb"  # Debian's spelling of the name
    listing = _listing(deb)
    assert "/opt/cashier-Store7_Till2/versions/1.4.0/cashier" in listing
    assert listing["/usr/bin/cashier -> /opt/cashier-Store7_Till2/current/cashier"].endswith("root/root")
    assert "/usr/share/applications/cashier-Store7_Till2.desktop" in listing
    assert "/usr/share/icons/hicolor/scalable/apps/cashier.svg" in listing
    assert not any(path.startswith("/etc/xdg/autostart") for path in listing)
    def field(name: str) -> str:
        return subprocess.run(["dpkg-deb", "-f", str(deb), name], capture_output=True, text=True,
                              check=True).stdout.strip()

    assert field("Package") == "cashier-store7-till2" and field("Version") == "1.4.0"
    assert {"libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxkbcommon-x11-0"} <= {
        dep.strip() for dep in field("Depends").split(",")}
    scripts = tmp_path / "control"
    subprocess.run(["dpkg-deb", "-e", str(deb), str(scripts)], check=True)
    postinst = (scripts / "postinst").read_text()
    assert "chmod 2770" in postinst and "/var/lib/cashier /var/log/cashier" in postinst
    postrm = (scripts / "postrm").read_text()
    assert "/var/lib/cashier" not in postrm.split("set -e", 1)[1]  # a journal outlives the package
    assert "/var/log/cashier" not in postrm


def test_a_kiosk_till_starts_at_login(tmp_path: Path) -> None:
    listing = _listing(_build(tmp_path, till_id="kiosk-1", kiosk=True))
    assert "/etc/xdg/autostart/cashier-kiosk-1.desktop" in listing


def test_the_package_holds_the_mail_timer_not_enabled(tmp_path: Path) -> None:
    """A till with no window sends its e-mailed receipts through a systemd timer IT enables for
    the till's user (decision 019); the package enables nothing by itself."""
    deb = _build(tmp_path, till_id="Store7_Till2")
    listing = _listing(deb)
    for unit in ("cashier-mail@.service", "cashier-mail@.timer"):
        assert listing[f"/usr/lib/systemd/system/{unit}"].startswith("-rw-r--r-- root/root")
    tree = tmp_path / "tree"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)], check=True)
    service = (tree / "usr/lib/systemd/system/cashier-mail@.service").read_text()
    assert "ExecStart=/usr/bin/cashier receipt outbox --send-due" in service and "User=%i" in service
    assert not any("timers.target.wants" in path for path in listing)
