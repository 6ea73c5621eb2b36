"""Where tools come from: upstream MCP servers, OpenAPI documents, Python functions.

`build_sources` turns a config into the sources the gateway runs, one per
configured server or document, in config order.
"""

from __future__ import annotations

from collections.abc import Mapping

from hintgate.config.model import GatewayConfig, SourceConfig
from hintgate.config.types import SOURCE_TYPES
from hintgate.sources.base import ChangeListener, Source
from hintgate.sources.builders import BUILDERS, Surroundings
from hintgate.sources.processes import Prestarted

__all__ = ["build_source", "build_sources"]


def build_source(
    entry: SourceConfig,
    config: GatewayConfig,
    *,
    environ: Mapping[str, str],
    listener: ChangeListener | None = None,
    prestarted: Prestarted | None = None,
) -> Source:
    """The running source for one config entry (not started); a stdio server takes its process from `prestarted`."""
    return BUILDERS[entry.kind](entry, Surroundings(config, environ, listener, prestarted))


def build_sources(
    config: GatewayConfig,
    *,
    environ: Mapping[str, str],
    listener: ChangeListener | None = None,
    prestarted: Prestarted | None = None,
) -> dict[str, Source]:
    """One source per configured server, document and registry, keyed by its name.

    `prestarted` holds the stdio processes spawned ahead of the gateway (`sources.processes.prestarting`).
    """
    # In the table's order of kinds (mcpServers, then openapi, then python), as the file's sections are read.
    return {
        name: build_source(entry, config, environ=environ, listener=listener, prestarted=prestarted)
        for row in SOURCE_TYPES
        for name, entry in config.sources.items()
        if entry.kind == row.kind
    }
