"""Config files for tests: a server entry from a command line, and a config file written from its sections."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def entry(cmd: Sequence[str], **extra: Any) -> dict[str, Any]:
    """The `mcpServers` entry that runs `cmd` (the command, then its arguments), with `extra` keys beside."""
    return {"command": cmd[0], "args": list(cmd[1:]), **extra}


def config_file(
    tmp_path: Path,
    servers: Mapping[str, Any],
    policy: Mapping[str, Any] | None = None,
    *,
    name: str = "hintgate.json",
    **sections: Any,
) -> Path:
    """Write a JSON config file of `servers` (`mcpServers`), `policy` and any other `sections` into `tmp_path`."""
    path = tmp_path / name
    path.write_text(json.dumps({"mcpServers": servers, "policy": policy or {}, **sections}))
    return path
