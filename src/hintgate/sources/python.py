"""Python tool registries as a source: `module:attribute` imported, its tools called in process.

The registry is imported when the source starts. An import that fails (no
such module, an exception at import time, an attribute that is not a
registry) marks the source down with the reason; the gateway keeps serving
the others. Handlers run in the gateway's process: async ones on its event
loop, sync ones in a worker thread; an exception becomes an `isError` result.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import logging
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from hintgate.config.model import PythonConfig
from hintgate.errors import ConfigError, UpstreamError, UpstreamTimeout
from hintgate.hints.catalog import ToolFacts
from hintgate.sources.base import CallContext, ChangeListener, ConfiguredSource, SourceState, SourceStatus
from hintgate.tooldef import ToolDefinition, ToolRegistry, labels_of

__all__ = ["PythonSource", "import_registry"]

logger = logging.getLogger(__name__)


def import_registry(spec: str, *, path: Iterable[str] = ()) -> ToolRegistry:
    """Import `module:attribute` and return it as a `ToolRegistry`.

    The attribute may be a `ToolRegistry`, one `ToolDefinition`, or an iterable
    of them; `path` directories are put in front of `sys.path` first.

    Raises:
        ConfigError: the module cannot be imported, has no such attribute, or
            the attribute holds no tools; the message says which and why.
    """
    module_name, _, attribute = spec.partition(":")
    for directory in reversed(list(path)):
        if directory not in sys.path:
            sys.path.insert(0, directory)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any exception the module raises while importing
        raise ConfigError(f"cannot import {module_name!r}: {type(exc).__name__}: {exc}") from exc
    found: Any = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise ConfigError(f"module {module_name!r} has no attribute {attribute!r}")
        found = getattr(found, part)
    if isinstance(found, ToolRegistry):
        return found
    if isinstance(found, ToolDefinition):
        return ToolRegistry([found])
    if isinstance(found, Iterable) and not isinstance(found, str | bytes | Mapping):
        items = list(found)
        if all(isinstance(item, ToolDefinition) for item in items):
            return ToolRegistry(items)
    raise ConfigError(f"{spec!r} is a {type(found).__name__}, not a ToolRegistry or ToolDefinitions")


class PythonSource(ConfiguredSource):
    """A registry of Python tools behind the gateway."""

    def __init__(
        self,
        config: PythonConfig,
        *,
        listener: ChangeListener | None = None,
        registry: ToolRegistry | None = None,
    ) -> None:
        super().__init__(config, listener=listener)
        self.config: PythonConfig = config
        self.registry = registry

    async def run(self) -> None:
        """Import the registry, list its tools, and stay up until cancelled."""
        if not self.config.enabled:
            self._first_attempt.set()
            return
        try:
            if self.registry is None:
                self.registry = import_registry(self.config.registry, path=self.config.path)
        except ConfigError as exc:
            logger.warning("%s is down: %s", self.name, exc)
            self._first_attempt.set()
            await self._set_status(SourceStatus(SourceState.DOWN, str(exc)))
            return
        self.tools = [definition.to_mcp_tool() for definition in self.registry]
        await self.started()
        await asyncio.Event().wait()

    def tool_facts(self, raw: Mapping[str, Any]) -> ToolFacts:
        """The config file's overrides and title, and the tool's category and tags (served under `_meta`)."""
        facts = super().tool_facts(raw)
        category, tags = labels_of(raw)
        if category is None and not tags:
            return facts
        return dataclasses.replace(facts, category=category, tags=tags)

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None, *, meta: Mapping[str, Any] | None, context: CallContext
    ) -> dict[str, Any]:
        """Run a tool's handler; its exceptions become `isError` results.

        Raises:
            UpstreamDown: the registry did not import.
            UpstreamTimeout: the handler ran longer than the call timeout.
        """
        definition = self.serving(self.registry).get(name)
        if definition is None:
            raise UpstreamError(f"has no tool {name!r}", server=self.name)
        try:
            async with asyncio.timeout(self.config.call_timeout):
                return await definition.call(arguments)
        except TimeoutError:
            raise UpstreamTimeout(
                f"{name} did not finish within {self.config.call_timeout:g} s", server=self.name
            ) from None
