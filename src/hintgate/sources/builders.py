"""The functions that make a running source from one config entry, by kind of source.

`BUILDERS` maps each kind of `hintgate.config.types.SOURCE_TYPES` to its
builder; a test holds the two tables to the same kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hintgate.config.model import GatewayConfig, OpenApiConfig, PythonConfig, ServerConfig, child_environment
from hintgate.sources.base import ChangeListener, Source
from hintgate.sources.processes import Prestarted

__all__ = ["BUILDERS", "Builder", "build_mcp", "build_openapi", "build_python"]

Builder = Callable[[Any, GatewayConfig, Mapping[str, str], ChangeListener | None, Prestarted | None], Source]
"""Makes the running source (not started) of one config entry of its kind: (entry, config, the gateway's
environment, its change listener, the processes started ahead of it)."""


def build_mcp(
    server: ServerConfig,
    config: GatewayConfig,
    environ: Mapping[str, str],
    listener: ChangeListener | None,
    prestarted: Prestarted | None,
) -> Source:
    from hintgate.sources.mcp import McpUpstream

    env = child_environment(server, config, environ)
    return McpUpstream(server, env=env, list_timeout=config.timeouts.list, listener=listener, prestarted=prestarted)


def build_openapi(
    document: OpenApiConfig,
    _config: GatewayConfig,
    _environ: Mapping[str, str],
    listener: ChangeListener | None,
    _prestarted: Prestarted | None,
) -> Source:
    from hintgate.sources.openapi.source import OpenApiSource

    return OpenApiSource(document, listener=listener)


def build_python(
    registry: PythonConfig,
    _config: GatewayConfig,
    _environ: Mapping[str, str],
    listener: ChangeListener | None,
    _prestarted: Prestarted | None,
) -> Source:
    from hintgate.sources.python import PythonSource

    return PythonSource(registry, listener=listener)


BUILDERS: Mapping[str, Builder] = {"mcp": build_mcp, "openapi": build_openapi, "python": build_python}
"""Each kind of source (`SourceConfig.kind`) → the function that builds its sources."""
