"""The types of source, one row each: how a config names them, reads, checks, builds and documents them.

Adding a type of source is one module (its config dataclass, its `Source`,
its section validator) and one row here: the config reader reads the
sections this table names, `hintgate config check` asks each row for its
notes, `build_sources` asks each row for its sources, and the docs test
checks that every row's docs section exists.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.config.mcp_entry import read_servers
from hintgate.config.model import (
    _GLOB_CHARS,
    GatewayConfig,
    OpenApiConfig,
    PythonConfig,
    ServerConfig,
    SourceConfig,
    child_environment,
)
from hintgate.config.openapi_entry import read_openapis
from hintgate.config.python_entry import read_pythons
from hintgate.config.reader import _Reader
from hintgate.config.yamlpos import Key
from hintgate.sources.base import ChangeListener, Source

__all__ = ["SOURCE_TYPES", "SourceType", "source_type"]

Validator = Callable[[_Reader, Any, tuple[Key, ...]], None]
"""Reads one config section (all its entries), reporting problems to the reader and adding what is valid."""
Builder = Callable[[Any, GatewayConfig, Mapping[str, str], ChangeListener | None], Source]
"""Makes the source for one of its config entries: (entry, whole config, environment, change listener)."""
Checker = Callable[[Any, str], list[str]]
"""What `config check` notes about one entry that loads (given the file's name)."""


@dataclass(frozen=True, slots=True)
class SourceType:
    """One type of source.

    Attributes:
        kind: its name in the API and the dashboard (`Source.kind`, the config dataclass's `kind`).
        key: the config file's top-level key of its section.
        aliases: other spellings of that key (read when `key` is not given).
        noun: what one entry is called in messages ("server").
        config: the dataclass one entry of the section becomes.
        read: the section's validator (`hintgate.config.mcp_entry` and its siblings).
        check: what `config check` notes about one entry.
        build: makes the running source for one entry.
        docs: the docs file and section heading describing its config.
    """

    kind: str
    key: str
    aliases: tuple[str, ...]
    noun: str
    config: type[SourceConfig]
    read: Validator
    check: Checker
    build: Builder
    docs: tuple[str, str]


def _check_server(server: ServerConfig, file: str) -> list[str]:
    notes = []
    if not server.enabled:
        notes.append(f"{file}: server {json.dumps(server.name)} is disabled")
    for pattern in server.overrides:
        if _GLOB_CHARS.isdisjoint(pattern) and not server.wants(pattern):
            notes.append(
                f"{file}: server {json.dumps(server.name)}: the override for {json.dumps(pattern)} "
                "never applies: include/exclude filter that tool out"
            )
    return notes


def _no_notes(_entry: SourceConfig, _file: str) -> list[str]:
    return []


def _build_mcp(
    server: ServerConfig, config: GatewayConfig, environ: Mapping[str, str], listener: ChangeListener | None
) -> Source:
    from hintgate.sources.mcp import McpUpstream

    env = child_environment(server, config, environ)
    return McpUpstream(server, env=env, list_timeout=config.timeouts.list, listener=listener)


def _build_openapi(
    document: OpenApiConfig, _config: GatewayConfig, _environ: Mapping[str, str], listener: ChangeListener | None
) -> Source:
    from hintgate.sources.openapi.source import OpenApiSource

    return OpenApiSource(document, listener=listener)


def _build_python(
    registry: PythonConfig, _config: GatewayConfig, _environ: Mapping[str, str], listener: ChangeListener | None
) -> Source:
    from hintgate.sources.python import PythonSource

    return PythonSource(registry, listener=listener)


SOURCE_TYPES: tuple[SourceType, ...] = (
    # Table order is the order sections are read in and sources are built in;
    # a name or prefix given twice is reported at the later entry.
    SourceType(
        kind="mcp",
        key="mcpServers",
        aliases=("servers",),  # VS Code's name for mcpServers
        noun="server",
        config=ServerConfig,
        read=read_servers,
        check=_check_server,
        build=_build_mcp,
        docs=("config.md", "A server"),
    ),
    SourceType(
        kind="openapi",
        key="openapi",
        aliases=(),
        noun="OpenAPI source",
        config=OpenApiConfig,
        read=read_openapis,
        check=_no_notes,
        build=_build_openapi,
        docs=("config.md", "An OpenAPI source"),
    ),
    SourceType(
        kind="python",
        key="python",
        aliases=(),
        noun="Python registry",
        config=PythonConfig,
        read=read_pythons,
        check=_no_notes,
        build=_build_python,
        docs=("config.md", "A Python registry"),
    ),
)


def source_type(kind: str) -> SourceType:
    """The row of a kind.

    Raises:
        KeyError: no type of source has that kind.
    """
    for row in SOURCE_TYPES:
        if row.kind == kind:
            return row
    raise KeyError(f"no source type {kind!r}; known: {', '.join(r.kind for r in SOURCE_TYPES)}")
