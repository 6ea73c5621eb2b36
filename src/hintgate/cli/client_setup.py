"""What `hintgate serve --http` prints so that MCP clients connect: the URL with the token header, per client.

MCP clients send the API token as `Authorization: Bearer TOKEN`. The lines
are the configuration of the common clients: Claude Code's `claude mcp add`
command, the `mcpServers` JSON of Claude Desktop and Cursor, VS Code's
`.vscode/mcp.json`, and the steps of the MCP Inspector's page (what `npx
@modelcontextprotocol/inspector` installs on Node 20 is 0.15.0, whose page
takes the token alone as its "Bearer Token"; its `--cli` mode sends no header).

The token is shown in full once, at the start that made it. Later starts
refer to it (`TokenReference`): where it is kept, a shell command line that
reads it (`$(cat PATH)`), and `TOKEN` in what is pasted into a file (VS Code
prompts for it instead) so that a terminal's scrollback or a log does not keep
it at every start. Beside them `serve` prints a one-time sign-in link. Serving
stdio, stderr belongs to the MCP client that started the gateway, and clients
keep it in log files other users may read; there, unless stderr is a
terminal, the lines go to `SETUP_FILE` in the data directory (mode 0600,
replaced whole at each start, the token in full) and stderr only says where
(`keep_private`).
"""

from __future__ import annotations

import json
import os
import secrets
import shlex
from dataclasses import dataclass
from pathlib import Path

from hintgate.config.permissions import FILE_MODE, private_directory

__all__ = ["INSPECTOR", "SETUP_FILE", "TokenReference", "client_setup", "keep_private"]

SETUP_FILE = "dashboard-sign-in.txt"
"""The file in the data directory holding the clients' configuration and the dashboard's one-time link."""

INSPECTOR = "npx @modelcontextprotocol/inspector"
"""The MCP Inspector as its README starts it: 0.15.0 on Node 20 (later releases need Node 22)."""


@dataclass(frozen=True, slots=True)
class TokenReference:
    """Where the API token is, for lines that must not hold it.

    Attributes:
        phrase: what it is, for people ("the content of /home/u/.local/share/hintgate/api-token").
        shell: what a POSIX shell expands to it (`$(cat PATH)`, `$HINTGATE_API_TOKEN`).
        kept: the sentence `serve` starts with: "the API token is kept in PATH (readable by this user only)".
    """

    phrase: str
    shell: str
    kept: str

    @classmethod
    def file(cls, path: Path) -> TokenReference:
        """The token kept in the file `path`."""
        kept = f"the API token is kept in {path} (readable by this user only)"
        return cls(f"the content of {path}", f"$(cat {shlex.quote(str(path))})", kept)

    @classmethod
    def variable(cls, name: str) -> TokenReference:
        """The token given in the environment variable `name`."""
        return cls(f"the value of {name}", f"${name}", f"the API token is the value of {name}")


def client_setup(
    mcp_url: str, token: str, *, name: str = "hintgate", reference: TokenReference | None = None
) -> list[str]:
    """The lines telling MCP clients how to connect to `mcp_url` with `token`.

    With `reference` they refer to the token instead of holding it: a shell line reads it, a file to
    paste into holds `TOKEN` (VS Code's prompts for it, and keeps it in its secret storage).
    """
    placeholder = token if reference is None else "TOKEN"
    header = f"Authorization: Bearer {placeholder}"
    entry = {"url": mcp_url, "headers": {"Authorization": f"Bearer {placeholder}"}}
    vscode: dict[str, object] = {"servers": {name: {"type": "http", **entry}}}
    if reference is None:
        claude = shlex.join(["claude", "mcp", "add", "--transport", "http", name, mcp_url, "--header", header])
        sent = f"MCP clients send the header {header!r} to {mcp_url}"
    else:
        read = f'"Authorization: Bearer {reference.shell}"'
        claude = f"{shlex.join(['claude', 'mcp', 'add', '--transport', 'http', name, mcp_url])} --header {read}"
        sent = f"MCP clients send the header {header!r} to {mcp_url}, TOKEN being {reference.phrase}"
        prompt = f"{name}-token"
        vscode = {
            "inputs": [{"type": "promptString", "id": prompt, "description": f"{name} API token", "password": True}],
            "servers": {
                name: {"type": "http", "url": mcp_url, "headers": {"Authorization": f"Bearer ${{input:{prompt}}}"}}
            },
        }
    inspector = (
        f'MCP Inspector ({INSPECTOR}; 0.15 on Node 20): Transport Type "Streamable HTTP", URL {mcp_url}, '
        f'Authentication, Bearer Token: {placeholder} (the token alone, without "Bearer ")'
    )
    return [
        sent,
        f"  Claude Code: {claude}",
        f"  Claude Desktop, Cursor (mcpServers): {json.dumps({'mcpServers': {name: entry}})}",
        f"  VS Code (.vscode/mcp.json): {json.dumps(vscode)}",
        f"  {inspector}",
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
