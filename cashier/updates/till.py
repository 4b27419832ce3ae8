"""A till's side of signed updates: check, download and verify, wait for a quiet till, switch.

Verification is TUF's (python-tuf's client, on the repository ``tufup`` publishes): the
metadata chain from the root baked into the bundle (signatures, expiry, no older metadata than
already seen), the archive's length and hashes; and here, no version older than the running one
and the version stamped inside the archive.
A refusal leaves the running version as it was.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cashier.config import TillProfile, default_data_dir
from cashier.errors import CashierError, ValidationError
from cashier.updates.layout import Layout
from cashier.updates.versions import Channel, Published, pick
from cashier.version import release_dir, running_version

SELF_CHECK_TIMEOUT_S = 300


class UpdateRefused(CashierError):
    """The repository or the archive failed verification: nothing changes (exit 2)."""


class UpdateUnreachable(CashierError):
    """The update repository did not answer: try again later (exit 3)."""


class UpdateWaiting(CashierError):
    """A verified version is ready, but the till is busy (exit 1)."""

    def __init__(self, version: str, waits_for: list[str]) -> None:
        self.version = version
        self.waits_for = waits_for
        super().__init__(f"update {version} is ready and waits for {' and '.join(waits_for)}")


@dataclass(frozen=True)
class UpdateSource:
    """Where and what this till updates from."""

    url: str
    name: str  # cashier-<till_id>: one repository serves every till
    channel: Channel
    current: str
    trusted_root: Path  # root.json baked into the bundle (make package UPDATE_KEYS=DIR)
    state: Path  # TUF's metadata cache and downloads; kept across versions


def source_for_profile(profile: TillProfile) -> UpdateSource:
    """This till's source: the profile's ``update_url`` and channel, the root baked into it."""
    layout = Layout.of_running_program()
    release = release_dir()
    if not profile.update_url:
        raise ValidationError("update_url", "this till's profile names no update repository "
                                            "(update_url, or CASHIER_UPDATE_URL)")
    return UpdateSource(url=profile.update_url, name=f"cashier-{profile.till_id}",
                        channel=profile.update_channel, current=running_version(),
                        trusted_root=(release / "root.json") if release else Path(os.devnull),
                        state=layout.state if layout else default_data_dir() / "updates")


def _client(source: UpdateSource) -> Any:
    """python-tuf's client (``tufup``'s Client is a thin layer over the same Updater, but its
    package imports its repository tools and setuptools, which a till leaves out)."""
    from tuf.ngclient.updater import Updater

    metadata = source.state / "metadata"
    downloads = source.state / "downloads"
    for folder in (metadata, downloads):
        folder.mkdir(parents=True, exist_ok=True)
    if not (metadata / "root.json").exists():
        if not source.trusted_root.is_file():
            raise UpdateRefused("this till has no trusted update root: build it with "
                                "`make package ... UPDATE_KEYS=DIR`")
        shutil.copyfile(source.trusted_root, metadata / "root.json")
    base = source.url.rstrip("/")
    return Updater(metadata_dir=str(metadata), metadata_base_url=f"{base}/metadata/",
                   target_dir=str(downloads), target_base_url=f"{base}/targets/")


def _verified(action: Callable[[], Any], what: str) -> Any:
    """Run a TUF step; its failures become one line: refused (tampered, expired) or unreachable."""
    from tuf.api import exceptions as tuf_errors

    try:
        return action()
    except (tuf_errors.RepositoryError, tuf_errors.DownloadLengthMismatchError) as exc:
        raise UpdateRefused(f"{what} refused: {type(exc).__name__}: {exc}") from None
    except tuf_errors.DownloadError as exc:
        raise UpdateUnreachable(f"update repository unreachable ({what}): {exc}") from None
    except OSError as exc:
        raise UpdateUnreachable(f"update repository unreachable ({what}): {exc}") from None


def published_for(source: UpdateSource, name: str) -> list[Published]:
    """This till's versions in the targets metadata the client just verified and stored."""
    from tuf.api.metadata import Metadata

    stored = source.state / "metadata" / "targets.json"
    signed: Any = Metadata.from_file(str(stored)).signed
    targets = signed.targets
    found = []
    for path, target in targets.items():
        user = target.custom.get("user") if isinstance(target.custom, dict) else None
        if not path.startswith(f"{name}/") or not isinstance(user, dict):
            continue
        version, channel = user.get("version"), user.get("channel")
        if isinstance(version, str) and channel in ("stable", "pilot"):
            found.append(Published(version=version, channel=channel, target=path))
    return found


def check(source: UpdateSource) -> tuple[Any, Published | None]:
    """Refresh the metadata (verified) and name the version this till would take, if any (never
    one that failed its self-check here before)."""
    client = _client(source)
    _verified(client.refresh, "update metadata")
    failed = {p.name.removeprefix("failed-") for p in source.state.glob("failed-*")}
    takeable = [p for p in published_for(source, source.name) if p.version not in failed]
    return client, pick(takeable, source.current, source.channel)


def download(source: UpdateSource, client: Any, found: Published, layout: Layout) -> Path:
    """Download, verify and unpack ``found`` beside the other versions; returns its folder."""
    folder = layout.folder(found.version)
    if (folder / "cashier").exists():
        return folder
    info = _verified(lambda: client.get_targetinfo(found.target), "update metadata")
    if info is None:
        raise UpdateRefused(f"update {found.version}: {found.target} is not in the signed targets")
    archive = _verified(lambda: client.download_target(info), f"update {found.version} archive")
    layout.versions.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".partial-{found.version}-", dir=layout.versions))
    try:
        with tarfile.open(archive, "r:*") as tar:
            tar.extractall(partial, filter="data")  # no absolute paths, no links out
        tops = [p for p in partial.iterdir()]
        if len(tops) != 1 or tops[0].name != source.name or not (tops[0] / "cashier").is_file():
            raise UpdateRefused(f"update {found.version}: the archive does not hold {source.name}/")
        stamp = tops[0] / "_internal" / "release" / "VERSION"
        stamped = stamp.read_text().strip() if stamp.is_file() else None
        if stamped != found.version:
            raise UpdateRefused(f"update {found.version}: the archive says it is version {stamped}")
        os.replace(tops[0], folder)
    except (tarfile.TarError, OSError) as exc:
        raise UpdateRefused(f"update {found.version}: archive refused: {exc}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)
        with contextlib.suppress(OSError):
            Path(archive).unlink()
    return folder


def self_check(program: Path) -> tuple[bool, str]:
    """The new version's start-up self-check (``--smoke``: one training sale, offscreen)."""
    with tempfile.TemporaryDirectory(prefix="cashier-self-check-") as tmp:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "CASHIER_TRAINING": "true",
               "CASHIER_JOURNAL_PATH": str(Path(tmp) / "journal.sqlite"), "CASHIER_LOG_DIR": tmp,
               "HOME": tmp, "XDG_DATA_HOME": tmp, "XDG_STATE_HOME": tmp, "XDG_CONFIG_HOME": tmp}
        env.pop("CASHIER_UPDATE_URL", None)
        try:
            done = subprocess.run([str(program), "--smoke"], env=env, capture_output=True, text=True,
                                  timeout=SELF_CHECK_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, str(exc)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [""]
        return False, f"exit {done.returncode}: {tail[0][:200]}"
    return True, "ok"
