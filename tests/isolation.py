"""What tests pass to the processes they start, so nothing lands in the user's own directories."""

from __future__ import annotations

import os


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a hintgate child started through the MCP SDK's stdio client.

    That client passes only a few variables on, so the test's private data
    directory and home are named explicitly: a child never writes into the
    user's own.
    """
    return {
        "PYTHONUNBUFFERED": "1",
        "HOME": os.environ["HOME"],
        "HINTGATE_DATA_DIR": os.environ["HINTGATE_DATA_DIR"],
        **extra,
    }
