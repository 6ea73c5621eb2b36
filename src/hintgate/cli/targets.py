"""What `hintgate lint` and `hintgate infer` look at: a TARGET and the tools it lists.

A TARGET is one of: `-- COMMAND [ARG...]` (a stdio server), an
`http(s)://` URL (streamable HTTP), a JSON file holding a tools/list result
(`{"tools": [...]}`), or `--config FILE --server NAME`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hintgate.config.loading import load_config
from hintgate.config.model import (
    DEFAULT_ENV_ALLOW,
    GatewayConfig,
    HttpTransport,
    ServerConfig,
    StdioTransport,
    Trust,
    child_environment,
)
from hintgate.errors import TargetError, ToolsFileError
from hintgate.hints.annotations import Hint
from hintgate.hints.lint import LintTrust
from hintgate.hints.trust import trust_by_origin

__all__ = ["Listing", "Target", "fetch_listing", "parse_target", "read_tools_file"]


@dataclass(frozen=True, slots=True)
class Target:
    """A parsed TARGET.

    Attributes:
        label: how to name it in reports.
        transport: how to reach a live server (None for a file).
        file: a JSON file holding a tools/list result.
        server: the server's config when the target came from `--config`.
        config: the whole config when the target came from `--config`.
    """

    label: str
    transport: StdioTransport | HttpTransport | None = None
    file: Path | None = None
    server: ServerConfig | None = None
    config: GatewayConfig | None = None

    @property
    def trusted(self) -> bool:
        """Whether the config says this server is trusted (a bare target is not)."""
        return self.server is not None and self.server.trust is Trust.TRUSTED

    def gateway_trust(self) -> LintTrust:
        """The trust the gateway would give this target, for `lint` and `infer`, and where it comes from.

        A configured server gets the trust the gateway gives it (its `trust`
        key, else the default for where it runs). A bare target gets the
        default for where it runs (`trust_by_origin`): a command is `local`, a
        URL `untrusted`. A tools file is the project's own listing: `local`,
        like the command that produced it.
        """
        if self.server is not None:
            return LintTrust(self.server.trust, self.server.trust_from.phrase)
        if self.file is not None:
            return LintTrust(Trust.LOCAL, "default for a tools file")
        remote = isinstance(self.transport, HttpTransport)
        return LintTrust(
            trust_by_origin("mcp", remote=remote), "default for a URL" if remote else "default for a local command"
        )

    def profile(self, given: str | None) -> str | None:
        """The HTTP-method inference profile: `given`, else the config's (None: the default)."""
        return given if given is not None or self.config is None else self.config.inference_profile

    def overrides(self, tool: str) -> tuple[dict[Hint, bool], str | None]:
        """What the config overrides of `tool`: its hints and its title (none of either for a bare target)."""
        found = self.server.override_for(tool) if self.server is not None else None
        return (dict(found.hints), found.title) if found is not None else ({}, None)


@dataclass(frozen=True, slots=True)
class Listing:
    """The tools a target listed, as raw JSON objects, and who listed them."""

    target: Target
    tools: list[dict[str, Any]]
    server: str | None = None


def parse_target(args: Sequence[str], *, config: str | None = None, server: str | None = None) -> Target:
    """Read a TARGET from the command line.

    Args:
        args: the words after the options: a command (after `--`), a URL, or a file.
        config: `--config FILE`.
        server: `--server NAME` (with `--config`).

    Raises:
        TargetError: nothing, or too much, was given.
        ConfigError: the config file is invalid.
    """
    if config is not None or server is not None:
        if args:
            raise TargetError("give either --config FILE --server NAME or a TARGET, not both")
        if config is None or server is None:
            raise TargetError("--config and --server go together")
        loaded = load_config(config)
        found = loaded.servers.get(server)
        if found is None:
            known = ", ".join(loaded.servers) or "none"
            raise TargetError(f"{config}: no server named {server!r} (servers: {known})")
        return Target(label=f"{config}#{server}", transport=found.transport, server=found, config=loaded)
    if not args:
        raise TargetError(
            "no TARGET: give `-- COMMAND [ARG...]`, an http(s):// URL, a tools/list JSON file, "
            "or --config FILE --server NAME"
        )
    first = args[0]
    if len(args) == 1 and first.startswith(("http://", "https://")):
        return Target(label=first, transport=HttpTransport(url=first, headers={}, kind="streamable-http"))
    if len(args) == 1 and (first.endswith(".json") or _is_data_file(first)):
        return Target(label=first, file=Path(first))
    return Target(label=" ".join(args), transport=StdioTransport(command=first, args=tuple(args[1:]), env={}, cwd=None))


def _is_data_file(word: str) -> bool:
    path = Path(word)
    return path.is_file() and not os.access(path, os.X_OK)


def read_tools_file(path: Path) -> list[dict[str, Any]]:
    """The tools of a JSON file: `{"tools": [...]}`, a JSON-RPC response wrapping one, or a bare list.

    Raises:
        ToolsFileError: with the file and the JSON path of what is wrong.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ToolsFileError(f"{path}: cannot read: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise ToolsFileError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from exc
    pointer = "$"
    if isinstance(data, dict) and isinstance(data.get("result"), dict):
        data, pointer = data["result"], "$.result"
    if isinstance(data, dict):
        if "tools" not in data:
            raise ToolsFileError(f"{path}: {pointer}: expected a tools/list result with a 'tools' list")
        data, pointer = data["tools"], f"{pointer}.tools"
    if not isinstance(data, list):
        raise ToolsFileError(f"{path}: {pointer}: expected a list of tools, got {type(data).__name__}")
    for index, tool in enumerate(data):
        if not isinstance(tool, dict):
            raise ToolsFileError(f"{path}: {pointer}[{index}]: expected a tool object, got {type(tool).__name__}")
        if not isinstance(tool.get("name"), str):
            raise ToolsFileError(f"{path}: {pointer}[{index}].name: every tool needs a string name")
    return data


async def fetch_listing(target: Target, *, timeout: float = 30.0, environ: Mapping[str, str] | None = None) -> Listing:
    """Start or reach the target and list its tools (all pages).

    Raises:
        TargetError: the file is bad, or the server failed to start, timed out or answered garbage.
    """
    if target.file is not None:
        return Listing(target, read_tools_file(target.file))
    from hintgate.sources.connection import connect

    assert target.transport is not None
    environ = os.environ if environ is None else environ
    name = target.server.name if target.server else target.label
    if target.server is not None and target.config is not None:
        env = child_environment(target.server, target.config, environ)
        timeout = min(timeout, target.server.startup_timeout) if timeout else target.server.startup_timeout
    else:
        env = {k: environ[k] for k in DEFAULT_ENV_ALLOW if k in environ}
    async with connect(target.transport, server=name, env=env, startup_timeout=timeout) as connection:
        tools = await connection.list_all("tools/list", "tools", timeout=timeout)
        info = connection.info
        label = f"{info.name} {info.version}".strip() if info else None
    return Listing(target, tools, server=label)
