"""The Tool Resolution extension served: `tools/resolve` answers the four hints of one exact call.

The draft extension `io.modelcontextprotocol/tool-resolution` (the MCP Tool
Annotations interest group's) lets a client ask, before `tools/call`, what
one call with these exact arguments would do. hintgate answers it for every
tool whose calls it judges by their arguments (`hints.calls`) and every tool
an upstream marks as resolvable:

- advertised in the `initialize` answer's capabilities (handshake era) and in
  `server/discover` (2026-07-28), as `extensions: {RESOLUTION: {}}`;
- `tools/list` marks those tools (`_meta[RESOLUTION] = {"resolvable": true}`)
  for a client that declared the extension (in `initialize`, or on that very
  request in the 2026-07-28 era), and leaves the marker out for others;
- `tools/resolve` checks the capability on the request (-32021 without it),
  the tool (-32602 unknown or unmarked) and the arguments against the tool's
  schema (-32602 with the problem); it executes nothing. The answer has
  exactly the draft's members (`resultType`, `name`, `annotations` with the
  four hints), hintgate's own account under `_meta["hintgate/resolution"]`:
  what the call does, each hint's provenance, and the tier the gateway
  decides the call with.

The answer's hints never break the draft's bound: where the gateway itself
finds a call riskier than the tool's listing (a DROP through a tool a
`local` server lists read-only), the answer keeps the listed value, as a
conforming server must, and `_meta` says the call is riskier; the
`tools/call` is decided with the riskier hints all the same.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict

from hintgate.arguments import argument_problem
from hintgate.hints.annotations import Hint
from hintgate.hints.calls.bound import draft_bounded
from hintgate.hints.catalog import Catalog, CatalogEntry
from hintgate.policy.decide import CallFacts, denied_by_rule
from hintgate.request_context import RequestContext
from hintgate.server.errors import mcp_error
from hintgate.sources.capabilities import Resolves
from hintgate.sources.resolution import RESOLUTION, marked

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["META_KEY", "RESOLVE", "ToolResolution", "resolve_params_model"]

RESOLVE = "tools/resolve"
"""The extension's method."""

META_KEY = "hintgate/resolution"
"""Where a `tools/resolve` answer carries hintgate's account of the call (its own reasons and provenance)."""

_MARKER = {RESOLUTION: {"resolvable": True}}
_INVALID_PARAMS = -32602
_MISSING_CAPABILITY = -32021


@functools.cache
def resolve_params_model() -> type[Any]:
    """The params model of `tools/resolve`: a tool's `name` and the complete `arguments` of the intended call.

    Made once (a model's class costs about 0.02 s of CPU to make), by the first MCP face built or ahead of it
    (`hintgate.cli.serve.prepare_first_listing`).
    """
    from mcp_types import RequestParams

    class ResolveToolParams(RequestParams):
        model_config = ConfigDict(populate_by_name=True)
        name: str
        arguments: dict[str, Any]

    return ResolveToolParams


def resolvable(gateway: Gateway, entry: CatalogEntry) -> bool:
    """Whether the gateway answers `tools/resolve` for this tool: it judges its calls, or its server resolves them."""
    if not gateway.calls.settings.judge_arguments:
        return False
    if entry.tool.resolvable:
        return True
    source = gateway.sources.get(entry.server)
    return marked(entry.tool.raw) and isinstance(source, Resolves) and source.offers_resolution


class ToolResolution:
    """The extension as the gateway serves it: the capability, the tools/list marker and `tools/resolve`."""

    def __init__(self, gateway: Gateway) -> None:
        self._gateway = gateway
        self._marked: tuple[object, dict[str, Mapping[str, Any]], object] | None = None

    @staticmethod
    def extensions() -> dict[str, dict[str, Any]]:
        """What the gateway advertises for it: the empty settings object of this revision."""
        return {RESOLUTION: {}}

    @staticmethod
    def declared(ctx: RequestContext | None) -> bool:
        """Whether the request's client declared the extension (per request in 2026-07-28, at initialize before)."""
        if ctx is None:
            return False
        capabilities = ctx.session.client_capabilities
        extensions = getattr(capabilities, "extensions", None) if capabilities is not None else None
        if not isinstance(extensions, Mapping):
            return False
        settings = extensions.get(RESOLUTION)
        return isinstance(settings, Mapping) and not settings

    def listing(self, ctx: RequestContext | None, tools: Sequence[Mapping[str, Any]]) -> Sequence[Mapping[str, Any]]:
        """A page's tools with the resolvable ones marked, for a client that declared the extension."""
        if not self.declared(ctx):
            return tools
        marks = self._marks(self._gateway.catalog)
        return [marks.get(str(tool.get("name")), tool) for tool in tools]

    def _marks(self, catalog: Catalog) -> dict[str, Mapping[str, Any]]:
        """The marked tools/list entries of the catalog, by name (made once per catalog)."""
        settings = self._gateway.calls.settings  # judging may be turned off while the gateway runs
        if self._marked is not None and self._marked[0] is catalog and self._marked[2] is settings:
            return self._marked[1]
        marks: dict[str, Mapping[str, Any]] = {}
        for name, entry in catalog.entries.items():
            if resolvable(self._gateway, entry):
                wire = entry.wire
                meta = wire.get("_meta")
                marks[name] = {**wire, "_meta": {**(meta if isinstance(meta, Mapping) else {}), **_MARKER}}
        self._marked = (catalog, marks, settings)
        return marks

    async def resolve(self, ctx: RequestContext, params: Mapping[str, Any]) -> dict[str, Any]:
        """Answer `tools/resolve`: the four hints of this exact call, nothing executed."""
        if not self.declared(ctx):
            raise mcp_error(
                _MISSING_CAPABILITY,
                "Missing required client capability",
                {"requiredCapabilities": {"extensions": {RESOLUTION: {}}}},
            )
        gateway = self._gateway
        name = params.get("name")
        arguments = params.get("arguments")
        if not isinstance(name, str) or not isinstance(arguments, Mapping):
            raise mcp_error(_INVALID_PARAMS, "tools/resolve needs the tool's name and the call's complete arguments")
        session = gateway.sessions.for_request(ctx)
        _listing, view = gateway.listing(ctx)
        entry = gateway.catalog.get(name)
        if entry is not None and view is not None and not view.admits(entry):
            entry = None  # outside the request's view: as unknown there as a tool no server has
        who = session.principal
        if entry is None or (
            who is not None and denied_by_rule(CallFacts.from_entry(entry, None, who), gateway.calls.rules)
        ):
            raise mcp_error(_INVALID_PARAMS, f"Unknown tool: {name}")
        if not resolvable(gateway, entry):
            raise mcp_error(_INVALID_PARAMS, f"Tool {name} is not marked resolvable: its static annotations stand")
        problem = argument_problem(entry.tool.raw.get("inputSchema"), arguments)
        if problem is not None:
            raise mcp_error(_INVALID_PARAMS, f"The arguments do not match the tool's input schema: {problem}")
        facts = await gateway.calls.facts(ctx, entry, arguments, session.principal)
        static = entry.tool.resolution
        answered = draft_bounded(static, facts.resolution)
        riskier = any(answered[h] != facts.resolution.value(h) for h in Hint)
        account: dict[str, Any] = {
            "does": facts.does,
            "provenance": facts.resolution.provenance(),
            "tier": facts.tier.value,
            "listedTier": static.tier.value,
        }
        if riskier:
            account["riskierThanListed"] = True
        return {
            "resultType": "complete",
            "name": name,
            "annotations": {hint.value: answered[hint] for hint in Hint},
            "_meta": {META_KEY: account},
        }
