"""What `hintgate serve --http` prints so that MCP clients connect: the URL with the token header, per client.

MCP clients send the API token as `Authorization: Bearer TOKEN`. The lines
are the exact configuration of the common clients, ready to paste: Claude
Code's `claude mcp add` command, the `mcpServers` JSON of Claude Desktop and
Cursor, and VS Code's `.vscode/mcp.json`.

They hold the API token, and `serve` prints them beside a one-time sign-in
link: fine on the operator's terminal, not in a log another program keeps.
Serving stdio, stderr belongs to the MCP client that started the gateway,
and clients keep it in log files other users may read; there, unless stderr
is a terminal, the lines go to `SETUP_FILE` in the data directory (mode 0600,
replaced whole at each start) and stderr only says where (`keep_private`).
"""

from __future__ import annotations

import json
import os
import secrets
import shlex
from pathlib import Path

from hintgate.config.permissions import FILE_MODE, private_directory

__all__ = ["SETUP_FILE", "client_setup", "keep_private"]

SETUP_FILE = "dashboard-sign-in.txt"
"""The file in the data directory holding the clients' configuration and the dashboard's one-time link."""


def client_setup(mcp_url: str, token: str, *, name: str = "hintgate") -> list[str]:
    """The lines telling MCP clients how to connect to `mcp_url` with `token`."""
    header = f"Authorization: Bearer {token}"
    entry = {"url": mcp_url, "headers": {"Authorization": f"Bearer {token}"}}
    vscode = {"servers": {name: {"type": "http", **entry}}}
    claude = shlex.join(["claude", "mcp", "add", "--transport", "http", name, mcp_url, "--header", header])
    return [
        f"MCP clients send the header {header!r} to {mcp_url}",
        f"  Claude Code: {claude}",
        f"  Claude Desktop, Cursor (mcpServers): {json.dumps({'mcpServers': {name: entry}})}",
        f"  VS Code (.vscode/mcp.json): {json.dumps(vscode)}",
    ]


def keep_private(data_dir: Path, lines: list[str]) -> Path:
    """Write `lines` to `SETUP_FILE` in `data_dir`, readable by this user only; returns its path.

    Written to a new 0600 file, then moved over the old one: never a moment
    where the file is readable by others or holds half of it.
    """
    private_directory(data_dir)
    path = data_dir / SETUP_FILE
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write("".join(f"{line}\n" for line in lines))
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path
