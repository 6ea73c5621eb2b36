"""Owner-only modes for what holds hintgate's secrets: the data directory (0700) and the SQLite files (0600).

The data directory keeps the API token, the sealing key and by default the
database, whose rows hold call arguments and results. Other users of the
machine have no business reading any of it, so hintgate creates them
owner-only whatever the umask, and tightens an existing one that others can
reach, saying so in the log (once per start).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
from pathlib import Path

__all__ = ["DIRECTORY_MODE", "FILE_MODE", "path_problem", "private_directory", "private_file", "private_sqlite"]

logger = logging.getLogger(__name__)

DIRECTORY_MODE = 0o700
FILE_MODE = 0o600
SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database (its write-ahead log, shared memory index, rollback journal)."""


def _tighten(path: Path, mode: int, what: str) -> None:
    try:
        current = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if current & 0o077:
        os.chmod(path, current & mode)
        logger.warning(
            "%s %s could be read by other users (mode %04o): made it owner-only (%04o)",
            what,
            path,
            current,
            current & mode,
        )


def private_directory(path: Path) -> None:
    """Create `path` (and missing parents) with the directory itself 0700, or tighten it if others can reach it.

    Raises:
        OSError: it cannot be made or used (`path_problem` says why in words): `NotADirectoryError` when
            `path` is a file.
    """
    if path.is_dir():
        _tighten(path, DIRECTORY_MODE, "the directory")
        return
    if path.exists():
        # Never chmod a file that stands where the directory should be.
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=DIRECTORY_MODE)
    os.chmod(path, DIRECTORY_MODE)  # mkdir's mode passes through the umask, which may take bits away, never add


def path_problem(path: Path, exc: OSError, *, directory: bool = True) -> str:
    """What stands in the way of using `path` (a directory, else a file), in words; `exc` is what trying raised.

    `OSError`'s own text names the wrong path ("File exists: '/a'" when `/a` is a file and `/a/b` was
    to be made): this names the path that is in the way and what it is.
    """
    wanted = "a directory" if directory else "a file"
    existing = next((p for p in (path, *path.parents) if p.exists()), None)
    if existing == path:
        if path.is_dir() != directory:
            return f"{path} is {'a file' if directory else 'a directory'}, not {wanted}"
        if isinstance(exc, PermissionError):
            return f"{path} belongs to another user or its mode keeps this user out (permission denied)"
    elif existing is not None and not existing.is_dir():
        return f"{existing} is a file, not a directory, so {path} cannot be made under it"
    elif existing is not None and isinstance(exc, PermissionError):
        return f"{path} cannot be made: this user may not write in {existing} (permission denied)"
    return f"{path}: {(exc.strerror or str(exc)).lower()}"


def private_file(path: Path) -> None:
    """Create `path` empty with mode 0600 if it is missing, or tighten it if others can read it.

    Raises:
        OSError: it cannot be made or used: `IsADirectoryError` when `path` is a directory.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        if path.is_dir():  # never chmod a directory that stands where the file should be
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path)) from None
        _tighten(path, FILE_MODE, "the file")
        return
    os.close(fd)


def private_sqlite(database: Path) -> None:
    """A SQLite database file owner-only before SQLite opens it, and its existing companion files too.

    SQLite creates a database's WAL and shared-memory files with the database
    file's own mode, so creating the database 0600 is what keeps them 0600.
    """
    private_file(database)
    for suffix in SQLITE_COMPANIONS:
        _tighten(Path(f"{database}{suffix}"), FILE_MODE, "the file")
