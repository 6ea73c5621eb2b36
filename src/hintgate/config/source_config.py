"""What every source's config entry offers, whatever its type (mcpServers, openapi and python entries).

The config reader keeps entries of every type in one mapping and the
sources are built from them through this protocol alone; each type's
dataclass (`ServerConfig`, `OpenApiConfig`, `PythonConfig`) satisfies it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from hintgate.config.model import ToolOverride, Trust, TrustFrom

__all__ = ["SourceConfig"]


class SourceConfig(Protocol):
    """What every source's config entry offers (mcpServers, openapi and python entries)."""

    @property
    def kind(self) -> str:
        """The type of source it configures ("mcp", "openapi", "python")."""

    @property
    def name(self) -> str:
        """The source's key."""

    @property
    def trust(self) -> Trust:
        """Its trust level."""

    @property
    def trust_from(self) -> TrustFrom:
        """Where its trust level came from."""

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
