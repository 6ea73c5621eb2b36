"""The functions that make a running source from one config entry, named by `hintgate.config.types`."""

from __future__ import annotations

from collections.abc import Mapping

from hintgate.config.model import GatewayConfig, OpenApiConfig, PythonConfig, ServerConfig, child_environment
from hintgate.sources.base import ChangeListener, Source

__all__ = ["build_mcp", "build_openapi", "build_python"]


def build_mcp(
    server: ServerConfig, config: GatewayConfig, environ: Mapping[str, str], listener: ChangeListener | None
) -> Source:
    from hintgate.sources.mcp import McpUpstream

    env = child_environment(server, config, environ)
    return McpUpstream(server, env=env, list_timeout=config.timeouts.list, listener=listener)


def build_openapi(
    document: OpenApiConfig, _config: GatewayConfig, _environ: Mapping[str, str], listener: ChangeListener | None
) -> Source:
    from hintgate.sources.openapi.source import OpenApiSource

    return OpenApiSource(document, listener=listener)


def build_python(
    registry: PythonConfig, _config: GatewayConfig, _environ: Mapping[str, str], listener: ChangeListener | None
) -> Source:
    from hintgate.sources.python import PythonSource

    return PythonSource(registry, listener=listener)
