"""Owner-only modes for what holds hintgate's secrets: the data directory (0700) and the SQLite files (0600).

The data directory keeps the API token, the sealing key and by default the
database, whose rows hold call arguments and results. Other users of the
machine have no business reading any of it, so hintgate creates them
owner-only whatever the umask, and tightens an existing one that others can
reach, saying so in the log (once per start).
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from pathlib import Path

__all__ = ["DIRECTORY_MODE", "FILE_MODE", "private_directory", "private_file", "private_sqlite"]

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
    """Create `path` (and missing parents) with the directory itself 0700, or tighten it if others can reach it."""
    if path.is_dir():
        _tighten(path, DIRECTORY_MODE, "the directory")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=DIRECTORY_MODE)
    os.chmod(path, DIRECTORY_MODE)  # mkdir's mode passes through the umask, which may take bits away, never add


def private_file(path: Path) -> None:
    """Create `path` empty with mode 0600 if it is missing, or tighten it if others can read it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
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
