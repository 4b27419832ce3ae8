"""The back office's side: signing keys and the static update repository (``tufup``'s).

``init_keys(DIR)`` makes the four TUF keys (root, targets, snapshot, timestamp) and the first
signed root metadata, ``DIR/root.json``, which ``make package UPDATE_KEYS=DIR`` bakes into every
till as its trusted root. DIR stays off the tills and out of every repository.
``publish(ARCHIVE, DIR, REPO)`` adds one till's version to REPO (``metadata/`` and ``targets/``):
any static HTTP server serves it, ``cashier store serve --updates REPO`` too.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from packaging.version import Version

from cashier.errors import ValidationError
from cashier.updates.versions import Channel, Published, parse_version

ROLES = ("root", "targets", "snapshot", "timestamp")
#: Days each signature lasts: a till refuses expired metadata, so publish (any version) within.
EXPIRATION_DAYS = {"root": 365, "targets": 90, "snapshot": 90, "timestamp": 30}
ARCHIVE_NAME = re.compile(r"^(cashier-[A-Za-z0-9_.-]{1,32})_([0-9][0-9A-Za-z.+!-]*)\.tar\.xz$")


def _repository(app_name: str, repo: Path, keys: Path) -> Any:
    """tufup's Repository on REPO and DIR, without its prompts or its config file in the cwd."""
    from tufup.repo import Keys, Repository, Roles

    class _Repo(Repository):  # type: ignore[misc]
        def save_config(self) -> None:  # REPO describes itself; nothing is written to the cwd
            return None

        def load_config(self) -> dict[str, Any]:
            return dict(self.config_dict)

    expiry: Any = dict(EXPIRATION_DAYS)
    (repo / "metadata").mkdir(parents=True, exist_ok=True)  # tufup would ask on the terminal
    repository = _Repo(app_name=app_name, repo_dir=repo, keys_dir=keys, expiration_days=expiry)
    repository.keys = Keys(dir_path=keys)
    repository.roles = Roles(dir_path=repo / "metadata")
    repository.roles.initialize(keys=repository.keys, expiration_days=expiry)
    return repository


def init_keys(keys: Path) -> list[Path]:
    """New keys and the trusted root in ``keys`` (refused when keys are already there)."""
    from tufup.repo import Keys

    if keys.exists() and any(keys.iterdir()):
        raise ValidationError("DIR", f"{keys} is not empty: keys are never overwritten "
                                     "(a new root would lock every till out)")
    keys.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(keys, 0o700)
    Keys(dir_path=keys).create()
    seed = keys / "seed"
    seed.mkdir()
    repository = _repository("cashier", seed, keys)
    repository.threshold_sign("root", [keys])  # writes seed/metadata/1.root.json and root.json
    shutil.copyfile(seed / "metadata" / "root.json", keys / "root.json")
    shutil.rmtree(seed)
    for role in ROLES:
        os.chmod(keys / role, 0o600)
    return sorted(keys.iterdir())


def _check_keys(keys: Path, repo: Path) -> None:
    missing = [name for name in (*ROLES, "root.json") if not (keys / name).is_file()]
    if missing:
        raise ValidationError("--keys", f"{keys} lacks {', '.join(missing)} "
                                        "(make them with `cashier update keys init DIR`)")
    if keys.resolve().is_relative_to(repo.resolve()) or repo.resolve().is_relative_to(keys.resolve()):
        raise ValidationError("--keys", "the keys folder must stay out of the repository folder")


def publish(archive: Path, keys: Path, repo: Path, channel: Channel = "stable") -> Published:
    """Add ``dist/cashier-<till_id>_<version>.tar.xz`` to REPO, signed with the keys in DIR."""
    match = ARCHIVE_NAME.match(archive.name)
    if not match:
        raise ValidationError("ARCHIVE", f"{archive.name} is not named cashier-<till_id>_<version>.tar.xz "
                                         "(as `make package` names it)")
    if not archive.is_file():
        raise ValidationError("ARCHIVE", f"{archive} does not exist")
    name, version = match.group(1), match.group(2)
    parse_version(version, "ARCHIVE")
    _check_keys(keys, repo)
    metadata = repo / "metadata"
    metadata.mkdir(parents=True, exist_ok=True)
    (repo / "targets").mkdir(exist_ok=True)
    if not (metadata / "root.json").exists():  # a new repository starts from the tills' root
        shutil.copyfile(keys / "root.json", metadata / "1.root.json")
        shutil.copyfile(keys / "root.json", metadata / "root.json")
    repository = _repository(name, repo, keys)
    for path in repository.roles.targets.signed.targets:
        prefix, _, rest = path.partition("/")
        published = rest.partition("/")[0]
        if prefix == name and Version(published) >= Version(version):
            raise ValidationError("ARCHIVE", f"{name} {published} is already published: a new "
                                             "version must be newer (a till never goes back)")
    folder = repo / "targets" / name / version
    folder.mkdir(parents=True, exist_ok=True)
    stored = folder / archive.name
    shutil.copyfile(archive, stored)
    repository.roles.add_or_update_target(
        local_path=stored, url_path_segments=[name, version],
        custom={"user": {"version": version, "channel": channel}, "tufup": {"required": False}})
    repository.publish_changes(private_key_dirs=[keys])
    return Published(version=version, channel=channel, target=f"{name}/{version}/{archive.name}")
