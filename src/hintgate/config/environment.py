"""The gateway's own secrets in its environment: read once at start, then wiped from the process.

A stdio server runs as the same user as the gateway, so it may read
`/proc/<gateway pid>/environ`. That file is not `os.environ` nor the C
library's `environ` array: it is the block of `NAME=value` strings the kernel
put on the stack at `exec`, between the `env_start` and `env_end` addresses of
`/proc/self/stat`, and `unsetenv` only drops the array's pointer to a string,
leaving its bytes there. So `wipe` does both: it deletes each variable from
`os.environ` (which calls `unsetenv`) and overwrites its `NAME=value` bytes in
that block with NULs, after which `/proc/<pid>/environ` no longer holds them.

Only this process is wiped: a child started earlier keeps its copy, and a
value may still be in other memory of the process (Python's own strings), which
only a process with the user's power over this one can read.
"""

from __future__ import annotations

import ctypes
import logging
import os
from collections.abc import Iterable
from pathlib import Path

__all__ = ["GATEWAY_SECRETS", "wipe"]

logger = logging.getLogger(__name__)

GATEWAY_SECRETS = ("HINTGATE_API_TOKEN", "HINTGATE_STATE_KEY", "HINTGATE_DATABASE_URL")
"""The variables that hold the gateway's own secrets (the database URL may carry a password)."""

_ENV_START = 50  # proc(5): the fields of /proc/PID/stat holding env_start and env_end, counted from 1
_ENV_END = 51


def _block(stat: str) -> tuple[int, int] | None:
    """(env_start, env_end) from the text of /proc/self/stat; None when the kernel does not say."""
    # The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    fields = stat[stat.rindex(")") + 2 :].split()
    try:
        start, end = int(fields[_ENV_START - 3]), int(fields[_ENV_END - 3])
    except (IndexError, ValueError):
        return None
    return (start, end) if 0 < start < end else None


def wipe(names: Iterable[str] = GATEWAY_SECRETS) -> list[str]:
    """Remove `names` from this process's environment, the `/proc/self/environ` block included.

    Returns:
        The names that were set and are now gone.
    """
    present = [name for name in names if name in os.environ]
    for name in present:
        del os.environ[name]
    if not present:
        return present
    try:
        start, end = _block(Path("/proc/self/stat").read_text(encoding="utf-8", errors="replace")) or (0, 0)
        block = Path("/proc/self/environ").read_bytes()
    except OSError:  # not Linux: there is no such file for a child to read
        return present
    if not start or len(block) > end - start:
        logger.warning("cannot find this process's environment block; %s stay readable there", ", ".join(present))
        return present
    prefixes = tuple(name.encode() + b"=" for name in present)
    offset = 0
    for entry in block.split(b"\0"):
        if entry.startswith(prefixes):
            ctypes.memset(start + offset, 0, len(entry))
        offset += len(entry) + 1
    return present
