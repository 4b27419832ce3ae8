"""The till's Debian package, made with ``dpkg-deb`` only: ``dist/cashier-<till_id>_<ver>_amd64.deb``.

What it installs (IT's guide, docs/guides/it.md, "Packaging a till"):

- ``/opt/cashier-<till_id>/versions/<ver>/``: the bundle; ``current`` links to the version that
  runs (updates add folders beside it and switch the link: ``cashier.updates.layout``);
- ``/usr/bin/cashier`` -> ``/opt/cashier-<till_id>/current/cashier``; the desktop entry and icon;
  with ``kiosk = true`` in the profile, an autostart entry (the window opens full screen);
- ``cashier-mail@.service`` and ``.timer`` (systemd, not enabled): for a till with no window,
  every five minutes ``cashier receipt outbox --send-due`` as the till's user sends the e-mailed
  receipts that are due (``systemctl enable --now cashier-mail@USER.timer``; decision 019);
- ``postinst``: the ``cashier`` group, ``/var/lib/cashier`` and ``/var/log/cashier`` (root and
  the group only, 2770), the program folder writable by the group (so the till can update
  itself), and ``current`` pointed at this version unless an update already runs a newer one.

``remove`` and ``purge`` delete the program and what updates added to it, never the journal or
the logs: a journal outlives any package.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"

#: What the bundle needs from the system (the spec leaves the base desktop libraries out, and
#: Qt's xcb platform plugin loads the xcb utility libraries at run time). All in Debian 12.
DEPENDS = (
    "libc6", "libstdc++6", "libgcc-s1", "zlib1g", "libzstd1", "liblz4-1", "libbz2-1.0",
    "libffi8", "libglib2.0-0", "libdbus-1-3", "libfontconfig1", "libfreetype6", "libpng16-16",
    "libx11-6", "libx11-xcb1", "libxcb1", "libxcb-cursor0", "libxcb-icccm4", "libxcb-image0",
    "libxcb-keysyms1", "libxcb-randr0", "libxcb-render-util0", "libxcb-render0", "libxcb-shape0",
    "libxcb-shm0", "libxcb-sync1", "libxcb-xfixes0", "libxcb-xinerama0", "libxcb-xkb1",
    "libxkbcommon0", "libxkbcommon-x11-0", "libegl1", "libgl1", "libopengl0", "passwd",
)

POSTINST = """#!/bin/sh
# cashier-@TILL_ID@: the till's group and folders; current -> this version.
set -e
APP=/opt/cashier-@TILL_ID@
VERSION=@VERSION@
if [ "$1" = configure ]; then
    getent group cashier >/dev/null || groupadd --system cashier
    # the journal and the logs: root and the cashier group only; never emptied here
    for dir in /var/lib/cashier /var/log/cashier; do
        [ -d "$dir" ] || mkdir -p "$dir"
        chown root:cashier "$dir"
        chmod 2770 "$dir"
    done
    # the till updates itself: the group may add versions and switch the link
    chown root:cashier "$APP" "$APP/versions"
    chmod 2775 "$APP" "$APP/versions"
    mkdir -p "$APP/updates"
    chown root:cashier "$APP/updates"
    chmod 2770 "$APP/updates"
    running=""
    [ -L "$APP/current" ] && running=$(basename "$(readlink "$APP/current")")
    if [ -z "$running" ] || [ ! -x "$APP/versions/$running/cashier" ] \\
            || dpkg --compare-versions "$running" lt "$VERSION"; then
        ln -sfn "versions/$VERSION" "$APP/.current.new"
        mv -T "$APP/.current.new" "$APP/current"
    fi
    if command -v update-desktop-database >/dev/null; then
        update-desktop-database -q /usr/share/applications || true
    fi
fi
exit 0
"""

POSTRM = """#!/bin/sh
# cashier-@TILL_ID@: the program goes; the journal (/var/lib/cashier) and logs never do.
set -e
APP=/opt/cashier-@TILL_ID@
case "$1" in
    remove|purge)
        # the links and the versions updates added (dpkg removed its own files already)
        rm -f "$APP/current" "$APP/previous" "$APP/.current.new" "$APP/.previous.new"
        rm -rf "$APP/versions" "$APP/updates"
        rmdir "$APP" 2>/dev/null || true
        ;;
esac
exit 0
"""


#: The e-mailed receipts' sender for a till with no window (issue #41; decision 019): a template
#: IT enables for the till's user. No desktop session, so no keyring: the SMTP password comes
#: from /etc/cashier/smtp.env (``CASHIER_SMTP_PASSWORD=...``, root:cashier 0640) when the login
#: needs one.
MAIL_SERVICE = """[Unit]
Description=Cashier: send the e-mailed receipts waiting in %i's outbox
After=network-online.target
Wants=network-online.target

[Service]
Type=oneshot
User=%i
Group=cashier
EnvironmentFile=-/etc/cashier/smtp.env
ExecStart=/usr/bin/cashier receipt outbox --send-due --limit 10
TimeoutStartSec=15min
"""

MAIL_TIMER = """[Unit]
Description=Cashier: send %i's e-mailed receipts every five minutes

[Timer]
OnBootSec=1min
OnUnitActiveSec=5min
RandomizedDelaySec=20s

[Install]
WantedBy=timers.target
"""

MAIL_UNITS = {"cashier-mail@.service": MAIL_SERVICE, "cashier-mail@.timer": MAIL_TIMER}


def _desktop(till_id: str, exec_line: str) -> str:
    template = (ROOT / "packaging" / "cashier.desktop").read_text()
    return template.replace("@TILL_ID@", till_id).replace("Exec=cashier", f"Exec={exec_line}")


def _installed_kib(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if not p.is_dir()) // 1024 + 1


def package_name(till_id: str) -> str:
    """``cashier-<till_id>`` as Debian spells package names (lower case, no underscore)."""
    return f"cashier-{till_id}".lower().replace("_", "-")


def build_deb(bundle: Path, profile: Any, version: str, dist: Path, level: int = 6) -> Path:
    """Stage the package tree under build/ and pack it with ``dpkg-deb --root-owner-group``."""
    till_id = profile.till_id
    name = f"cashier-{till_id}"
    stage = BUILD / "deb" / name
    shutil.rmtree(stage, ignore_errors=True)
    app = stage / "opt" / name
    shutil.copytree(bundle, app / "versions" / version, symlinks=True)
    for extra in (f"{name}.desktop", "cashier.svg"):  # installed where the desktop looks instead
        (app / "versions" / version / extra).unlink(missing_ok=True)
    (stage / "usr" / "bin").mkdir(parents=True)
    (stage / "usr" / "bin" / "cashier").symlink_to(f"/opt/{name}/current/cashier")
    applications = stage / "usr" / "share" / "applications"
    applications.mkdir(parents=True)
    (applications / f"{name}.desktop").write_text(_desktop(till_id, "/usr/bin/cashier"))
    icons = stage / "usr" / "share" / "icons" / "hicolor" / "scalable" / "apps"
    icons.mkdir(parents=True)
    shutil.copyfile(ROOT / "packaging" / "cashier.svg", icons / "cashier.svg")
    units = stage / "usr" / "lib" / "systemd" / "system"
    units.mkdir(parents=True)
    for unit, text in MAIL_UNITS.items():
        (units / unit).write_text(text)
    if profile.kiosk:
        autostart = stage / "etc" / "xdg" / "autostart"
        autostart.mkdir(parents=True)
        (autostart / f"{name}.desktop").write_text(_desktop(till_id, "/usr/bin/cashier"))
    control = stage / "DEBIAN"
    control.mkdir()
    (control / "control").write_text(
        f"Package: {package_name(till_id)}\n"
        f"Version: {version}\n"
        "Architecture: amd64\n"
        f"Maintainer: {profile.company_name} IT <root@localhost>\n"
        f"Installed-Size: {_installed_kib(stage)}\n"
        f"Depends: {', '.join(DEPENDS)}\n"
        "Provides: cashier-till\n"
        "Conflicts: cashier-till\n"
        "Replaces: cashier-till\n"
        "Section: misc\n"
        "Priority: optional\n"
        f"Description: Cashier payment counter for till {till_id}\n"
        " The till's program with its profile baked in; updates arrive signed\n"
        " (cashier update). The journal in /var/lib/cashier outlives the package.\n")
    for script, text in (("postinst", POSTINST), ("postrm", POSTRM)):
        path = control / script
        path.write_text(text.replace("@TILL_ID@", till_id).replace("@VERSION@", version))
        path.chmod(0o755)
    dist.mkdir(parents=True, exist_ok=True)
    deb = dist / f"{package_name(till_id)}_{version}_amd64.deb"
    deb.unlink(missing_ok=True)
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", f"-z{level}", "--build", str(stage), str(deb)],
                   check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(stage, ignore_errors=True)
    return deb
