"""Where tools come from: upstream MCP servers, OpenAPI documents, Python functions.

`build_sources` turns a config into the sources the gateway runs, one per
configured server or document, in config order.
"""

from __future__ import annotations

from collections.abc import Mapping

from hintgate.config.model import GatewayConfig
from hintgate.sources.base import ChangeListener, Source

__all__ = ["build_sources"]


def build_sources(
    config: GatewayConfig, *, environ: Mapping[str, str], listener: ChangeListener | None = None
) -> dict[str, Source]:
    """One source per configured server, document and registry, keyed by its name."""
    from hintgate.sources.types import SOURCE_TYPES

    sources: dict[str, Source] = {}
    for row in SOURCE_TYPES:
        for name, entry in config.sources.items():
            if isinstance(entry, row.config):
                sources[name] = row.build(entry, config, environ, listener)
    return sources
