"""Files the till writes on purpose (a report, an export): the one rule for where and how.

A path given on the command line is untrusted: an existing file is replaced only when asked
(``--force``); a device, a pipe, a socket, a folder or a symbolic link is never written to (as
root, a rename over ``/dev/full`` would replace the device node). The data goes to a temporary
file in the same folder, owner-only, synced, then renamed over the target: a reader never sees
half a file, and a failure leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from cashier.errors import ValidationError


def check_output(path: str, *, force: bool, field: str = "--output") -> Path:
    """The target ``path`` may be written: a new name in an existing folder, or (with
    ``force``) an existing regular file. Refused with one line naming ``field`` otherwise."""
    if not path:
        raise ValidationError(field, "must name a file")
    target = Path(path)
    if path.endswith(("/", os.sep)) or target.is_dir():
        raise ValidationError(field, f"{path} is a folder: give a file name in it")
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise ValidationError(field, f"{path} cannot be used: {exc.strerror}") from None
    if info is not None:
        if not stat.S_ISREG(info.st_mode):
            raise ValidationError(field, f"{path} is not a regular file (a device, a pipe, a "
                                         "socket or a link): give a new file name")
        if not force:
            raise ValidationError(field, f"{path} already exists: give --force to replace it, "
                                         "or a new file name")
    folder = target.parent
    if not folder.is_dir():
        raise ValidationError(field, f"folder {folder} does not exist")
    return target


def write_output(path: str, data: bytes, *, force: bool, field: str = "--output") -> Path:
    """``data`` to ``path`` atomically (``check_output`` first); on any failure nothing is left
    behind and the old file, if any, stays as it was."""
    target = check_output(path, force=force, field=field)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise ValidationError(field, f"cannot write in {target.parent}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise ValidationError(field, f"{path} was not written: {exc.strerror}; nothing was "
                                     "left behind") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target


__all__ = ["check_output", "write_output"]
