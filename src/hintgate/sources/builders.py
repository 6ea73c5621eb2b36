"""The functions that make a running source from one config entry, by kind of source.

`BUILDERS` maps each kind of `hintgate.config.types.SOURCE_TYPES` to its
builder; a test holds the two tables to the same kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.config.model import GatewayConfig, OpenApiConfig, PythonConfig, ServerConfig, child_environment
from hintgate.sources.base import ChangeListener, Source
from hintgate.sources.processes import Prestarted

__all__ = ["BUILDERS", "Builder", "Surroundings", "build_mcp", "build_openapi", "build_python"]


@dataclass(frozen=True, slots=True)
class Surroundings:
    """What a builder is given beside the entry it builds, the same for every entry of one build.

    Attributes:
        config: the whole config the entry is part of.
        environ: the gateway's environment (a stdio server's child gets an allowed part of it).
        listener: called when a source's tools change.
        prestarted: the stdio processes started ahead of the gateway (None: none).
    """

    config: GatewayConfig
    environ: Mapping[str, str]
    listener: ChangeListener | None
    prestarted: Prestarted | None


Builder = Callable[[Any, Surroundings], Source]
"""Makes the running source (not started) of one config entry of its kind, in its surroundings."""


def build_mcp(server: ServerConfig, around: Surroundings) -> Source:
    from hintgate.sources.mcp import McpUpstream

    env = child_environment(server, around.config, around.environ)
    timeout = around.config.timeouts.list
    return McpUpstream(server, env=env, list_timeout=timeout, listener=around.listener, prestarted=around.prestarted)


def build_openapi(document: OpenApiConfig, around: Surroundings) -> Source:
    from hintgate.sources.openapi.source import OpenApiSource

    return OpenApiSource(document, listener=around.listener)


def build_python(registry: PythonConfig, around: Surroundings) -> Source:
    from hintgate.sources.python import PythonSource

    return PythonSource(registry, listener=around.listener)


BUILDERS: Mapping[str, Builder] = {"mcp": build_mcp, "openapi": build_openapi, "python": build_python}
"""Each kind of source (`SourceConfig.kind`) → the function that builds its sources."""
