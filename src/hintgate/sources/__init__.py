"""Where tools come from: upstream MCP servers, OpenAPI documents, Python functions.

`build_sources` turns a config into the sources the gateway runs, one per
configured server or document, in config order.
"""

from __future__ import annotations

from collections.abc import Mapping

from hintgate.config.model import GatewayConfig, child_environment
from hintgate.sources.base import ChangeListener, Source

__all__ = ["build_sources"]


def build_sources(
    config: GatewayConfig, *, environ: Mapping[str, str], listener: ChangeListener | None = None
) -> dict[str, Source]:
    """One source per configured server, document and registry, keyed by its name."""
    from hintgate.sources.mcp import McpUpstream
    from hintgate.sources.openapi.source import OpenApiSource
    from hintgate.sources.python import PythonSource

    sources: dict[str, Source] = {}
    for name, server in config.servers.items():
        sources[name] = McpUpstream(
            server,
            env=child_environment(server, config, environ),
            list_timeout=config.timeouts.list,
            listener=listener,
        )
    for name, document in config.openapi.items():
        sources[name] = OpenApiSource(document, listener=listener)
    for name, registry in config.python.items():
        sources[name] = PythonSource(registry, listener=listener)
    return sources
