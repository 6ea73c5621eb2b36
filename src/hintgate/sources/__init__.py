"""Where tools come from: upstream MCP servers, OpenAPI documents, Python functions.

`build_sources` turns a config into the sources the gateway runs, one per
configured server or document, in config order.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from hintgate.config.model import GatewayConfig, SourceConfig
from hintgate.config.types import SOURCE_TYPES, source_type
from hintgate.sources.base import ChangeListener, Source

__all__ = ["build_source", "build_sources"]


def build_source(
    entry: SourceConfig, config: GatewayConfig, *, environ: Mapping[str, str], listener: ChangeListener | None = None
) -> Source:
    """The running source for one config entry (not started)."""
    row = source_type(entry.kind)
    module, _, function = row.build.partition(":")
    build = getattr(importlib.import_module(module), function)
    source: Source = build(entry, config, environ, listener)
    return source


def build_sources(
    config: GatewayConfig, *, environ: Mapping[str, str], listener: ChangeListener | None = None
) -> dict[str, Source]:
    """One source per configured server, document and registry, keyed by its name."""
    sources: dict[str, Source] = {}
    for row in SOURCE_TYPES:
        module, _, function = row.build.partition(":")
        build = getattr(importlib.import_module(module), function)
        for name, entry in config.sources.items():
            if isinstance(entry, row.config):
                sources[name] = build(entry, config, environ, listener)
    return sources
