"""The protocol eras a client may speak: which versions are the 2026-07-28 era's."""

from __future__ import annotations

from mcp_types.version import MODERN_PROTOCOL_VERSIONS

__all__ = ["MODERN_VERSIONS"]

MODERN_VERSIONS = frozenset(MODERN_PROTOCOL_VERSIONS)
"""Protocol versions of the 2026-07-28 era: no connection, no handshake, `resultType` on every result."""
