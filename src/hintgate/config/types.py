"""The types of source, one row each: how a config names them, reads, checks, builds and documents them.

Adding a type of source is one module (its config dataclass, its `Source`,
its section validator), one row here and its builder in
`hintgate.sources.builders.BUILDERS`: the config reader reads the sections
this table names, `hintgate config check` asks each row for its notes,
`build_sources` builds each row's entries in the table's order, and the docs
test checks that every row's docs section exists.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hintgate.config.mcp_entry import read_server
from hintgate.config.model import (
    GLOB_CHARS,
    OpenApiConfig,
    PythonConfig,
    ServerConfig,
    SourceConfig,
    StdioTransport,
)
from hintgate.config.openapi_entry import read_openapi
from hintgate.config.python_entry import read_python
from hintgate.config.yamlpos import Key

if TYPE_CHECKING:
    from hintgate.config.reader import Reader

__all__ = ["SOURCE_TYPES", "SourceType", "source_type"]

EntryReader = Callable[["Reader", str, Any, tuple[Key, ...]], None]
"""Reads one entry of a source section (the reader, the entry's name, its value, its path), reporting problems to
the reader and adding the source when it is valid."""
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
        entries: what the section is, in messages ("a mapping of server names to servers").
        read_entry: the reader of one entry (`hintgate.config.mcp_entry` and its siblings).
        check: what `config check` notes about one entry.
        docs: the docs file and section heading describing its config.
    """

    kind: str
    key: str
    aliases: tuple[str, ...]
    noun: str
    config: type[SourceConfig]
    entries: str
    read_entry: EntryReader
    check: Checker
    docs: tuple[str, str]

    def read(self, reader: Reader, value: Any, path: tuple[Key, ...]) -> None:
        """Read the section at `path`: each of its entries by name."""
        reader.entries(value, path, self.entries, self.read_entry)


def _check_server(server: ServerConfig, file: str) -> list[str]:
    notes = []
    if not server.enabled:
        notes.append(f"{file}: server {json.dumps(server.name)} is disabled")
    elif (missing := _missing_command(server)) is not None:
        notes.append(f"{file}: server {json.dumps(server.name)}: {missing}")
    for pattern in server.overrides:
        if GLOB_CHARS.isdisjoint(pattern) and not server.wants(pattern):
            notes.append(
                f"{file}: server {json.dumps(server.name)}: the override for {json.dumps(pattern)} "
                "never applies: include/exclude filter that tool out"
            )
    return notes


def _missing_command(server: ServerConfig) -> str | None:
    """Why a stdio server's command cannot be started on this machine, or None when it can be found.

    Found the way the gateway will look for it: a path (relative to the server's `cwd`), else on
    the `PATH` the child gets (its own `env`'s, else the gateway's).
    """
    transport = server.transport
    if not isinstance(transport, StdioTransport):
        return None
    command = transport.command
    shown = json.dumps(command)
    if os.sep in command:
        path = Path(command)
        if not path.is_absolute() and transport.cwd is not None:
            path = Path(transport.cwd) / path
        if not path.is_file():
            return f"command {shown} does not exist ({os.path.abspath(path)})"
        return None if os.access(path, os.X_OK) else f"command {shown} is not executable ({os.path.abspath(path)})"
    search = transport.env.get("PATH", os.environ.get("PATH", os.defpath))
    if shutil.which(command, path=search) is None:
        return f"command {shown} was not found on PATH: install it, or give its full path"
    return None


def _no_notes(_entry: SourceConfig, _file: str) -> list[str]:
    return []


SOURCE_TYPES: tuple[SourceType, ...] = (
    # Table order is the order sections are read in and sources are built in;
    # a name or prefix given twice is reported at the later entry.
    SourceType(
        kind="mcp",
        key="mcpServers",
        aliases=("servers",),  # VS Code's name for mcpServers
        noun="server",
        config=ServerConfig,
        entries="a mapping of server names to servers",
        read_entry=read_server,
        check=_check_server,
        docs=("config.md", "A server"),
    ),
    SourceType(
        kind="openapi",
        key="openapi",
        aliases=(),
        noun="OpenAPI source",
        config=OpenApiConfig,
        entries="a mapping of source names to OpenAPI documents",
        read_entry=read_openapi,
        check=_no_notes,
        docs=("config.md", "An OpenAPI source"),
    ),
    SourceType(
        kind="python",
        key="python",
        aliases=(),
        noun="Python registry",
        config=PythonConfig,
        entries="a mapping of source names to Python tool registries",
        read_entry=read_python,
        check=_no_notes,
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
