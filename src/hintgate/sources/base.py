"""What every source of tools offers the gateway: status, listings, calls.

Sources are upstream MCP servers (`sources.mcp`), OpenAPI documents and Python
registries. The gateway talks to all of them through `Source`; each keeps its
tools as the JSON objects an MCP `tools/list` would carry, so the catalog
resolves hints the same way whatever the origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from hintgate.config.model import ToolOverride, Trust
from hintgate.hints.annotations import Hint, ParsedAnnotations

logger = logging.getLogger(__name__)

__all__ = [
    "CallContext",
    "ChangeListener",
    "ConfiguredSource",
    "Source",
    "SourceConfig",
    "SourceState",
    "SourceStatus",
]


class SourceState(enum.StrEnum):
    """Where a source is in its life."""

    STARTING = "starting"
    UP = "up"
    DOWN = "down"
    RESTARTING = "restarting"
    DISABLED = "disabled"


@dataclass(frozen=True, slots=True)
class SourceStatus:
    """A source's state, why it is in it, and since when.

    Attributes:
        state: the state.
        reason: why it is down or restarting (the error), else None.
        since: wall-clock time the state began.
        restarts: how many times it was restarted after failing.
        retry_at: wall-clock time of the next restart attempt, when one is planned.
    """

    state: SourceState
    reason: str | None = None
    since: float = field(default_factory=time.time)
    restarts: int = 0
    retry_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "state": self.state.value,
            "reason": self.reason,
            "since": self.since,
            "restarts": self.restarts,
            "retry_at": self.retry_at,
        }


ChangeListener = Callable[[str, str], Awaitable[None]]
"""Called with (source name, what changed: "tools" | "prompts" | "resources" | "status")."""


class CallContext(Protocol):
    """What a source may ask of the client that made a call, while the call runs."""

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        """Report progress of the call to its client (dropped if the client asked for none)."""

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """Relay a request (elicitation, sampling, roots) to the calling client and return its result."""

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        """Relay a notification (a log message) to the calling client."""


class Source(Protocol):
    """A provider of tools behind the gateway.

    The gateway runs `run()` as a task for the gateway's lifetime, waits for
    `wait_started()` before it serves, and reads the listings whenever a
    listener call says they changed.
    """

    @property
    def name(self) -> str:
        """The source's name (its key in the config)."""

    @property
    def trust(self) -> Trust:
        """Whether its declared hints are believed."""

    @property
    def prefix(self) -> str:
        """What its tools' names are prefixed with in the gateway ("" for none)."""

    @property
    def call_timeout(self) -> float:
        """Seconds a call may take."""

    @property
    def startup_timeout(self) -> float:
        """Seconds its start may take."""

    @property
    def status(self) -> SourceStatus:
        """Its current status."""

    @property
    def tools(self) -> Sequence[Mapping[str, Any]]:
        """Its tools as MCP JSON objects (empty unless up)."""

    @property
    def prompts(self) -> Sequence[Mapping[str, Any]]:
        """Its prompts as MCP JSON objects."""

    @property
    def resources(self) -> Sequence[Mapping[str, Any]]:
        """Its resources as MCP JSON objects."""

    @property
    def resource_templates(self) -> Sequence[Mapping[str, Any]]:
        """Its resource templates as MCP JSON objects."""

    def wants(self, tool_name: str) -> bool:
        """Whether one of its tools is served (include / exclude)."""

    def declared_for(self, tool: Mapping[str, Any]) -> ParsedAnnotations | None:
        """Declared annotations that do not live in `tool["annotations"]` (an OpenAPI extension), else None."""

    def http_method(self, tool: Mapping[str, Any]) -> str | None:
        """The HTTP method behind a tool, for method-based inference, else None."""

    def operator_overrides(self, tool_name: str) -> tuple[Mapping[Hint, bool], str | None]:
        """The config file's hint overrides and title for a tool."""

    async def run(self) -> None:
        """Start, and keep it running until cancelled (restarting what fails)."""

    async def wait_started(self, timeout: float) -> None:
        """Return once the first start attempt succeeded or failed, or after `timeout` s."""

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None, *, meta: Mapping[str, Any] | None, context: CallContext
    ) -> dict[str, Any]:
        """Call a tool by its source-side name; returns the MCP `CallToolResult` JSON.

        Raises:
            UpstreamDown: the source is not up.
            UpstreamError: the call failed.
        """

    async def request(self, method: str, params: dict[str, Any] | None, *, context: CallContext) -> dict[str, Any]:
        """Forward another request (prompts/get, resources/read, ...).

        Sources without prompts or resources raise `UpstreamRequestError`.
        """


class SourceConfig(Protocol):
    """What every source's config section offers (mcpServers, openapi and python entries)."""

    @property
    def name(self) -> str:
        """The source's key."""

    @property
    def trust(self) -> Trust:
        """Its trust level."""

    @property
    def prefix(self) -> str:
        """Its tools' name prefix."""

    @property
    def enabled(self) -> bool:
        """Whether it runs."""

    @property
    def call_timeout(self) -> float:
        """Seconds a call may take."""

    def wants(self, tool_name: str) -> bool:
        """Whether include / exclude globs let a tool through."""

    def override_for(self, tool_name: str) -> ToolOverride | None:
        """The config's overrides for a tool."""


class ConfiguredSource:
    """What the sources share: their config's identity, status, listings, first start, listener.

    Subclasses implement `run`, `call_tool` and `request`, and override what
    differs (`declared_for`, `http_method`, `wants`, `operator_overrides`).
    """

    startup_default = 30.0
    """Seconds the gateway waits for a first start when the config sets no startup timeout."""

    def __init__(self, config: SourceConfig, *, listener: ChangeListener | None = None) -> None:
        self.config = config
        self._listener = listener
        self._status = SourceStatus(SourceState.STARTING if config.enabled else SourceState.DISABLED)
        self.tools: list[dict[str, Any]] = []
        self.prompts: list[dict[str, Any]] = []
        self.resources: list[dict[str, Any]] = []
        self.resource_templates: list[dict[str, Any]] = []
        self._first_attempt = asyncio.Event()

    @property
    def name(self) -> str:
        """Its key in the config."""
        return self.config.name

    @property
    def trust(self) -> Trust:
        """Whether the hints it declares are believed."""
        return self.config.trust

    @property
    def prefix(self) -> str:
        """What its tools' names are prefixed with."""
        return self.config.prefix

    @property
    def call_timeout(self) -> float:
        """Seconds one call may take."""
        return self.config.call_timeout

    @property
    def startup_timeout(self) -> float:
        """Seconds its start may take."""
        timeout: float = getattr(self.config, "startup_timeout", self.startup_default)
        return timeout

    @property
    def status(self) -> SourceStatus:
        """Its current status."""
        return self._status

    def wants(self, tool_name: str) -> bool:
        """Whether the config's include / exclude globs let a tool through."""
        return self.config.wants(tool_name)

    def declared_for(self, tool: Mapping[str, Any]) -> ParsedAnnotations | None:
        """Declared hints travel in the tool's `annotations` unless a subclass says otherwise."""
        return None

    def http_method(self, tool: Mapping[str, Any]) -> str | None:
        """No HTTP method is behind the tool unless a subclass says otherwise."""
        return None

    def operator_overrides(self, tool_name: str) -> tuple[Mapping[Hint, bool], str | None]:
        """The config file's overrides for one of its tools."""
        override = self.config.override_for(tool_name)
        return (override.hints, override.title) if override else ({}, None)

    async def wait_started(self, timeout: float) -> None:
        """Wait until the first start attempt has succeeded or failed (at most `timeout` s)."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._first_attempt.wait(), timeout)

    async def _set_status(self, status: SourceStatus) -> None:
        self._status = status
        await self._notify("status")

    async def _notify(self, what: str) -> None:
        if self._listener is not None:
            try:
                await self._listener(self.name, what)
            except Exception:
                logger.exception("%s: change listener failed", self.name)
