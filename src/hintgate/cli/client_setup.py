"""What `hintgate serve --http` prints so that MCP clients connect: the URL with the token header, per client.

MCP clients send the API token as `Authorization: Bearer TOKEN`. The lines
are the exact configuration of the common clients, ready to paste: Claude
Code's `claude mcp add` command, the `mcpServers` JSON of Claude Desktop and
Cursor, and VS Code's `.vscode/mcp.json`.
"""

from __future__ import annotations

import json
import shlex

__all__ = ["client_setup"]


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
