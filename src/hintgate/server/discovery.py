"""What each client is listed, and the gateway's own `search_tools`: views, people and search mode applied.

A client's list is the catalog narrowed by its endpoint's view (`/mcp/NAME`,
`serve --view NAME`), then by who it is (a tool a deny rule refuses that
person is not listed), then shaped by `search.mode` (`search_tools` and
`call_tool` beside the rest, or in its place). Lists are kept per view and
person until the catalog, the rules or the settings change: `tools/list` is
asked often, and deciding costs rules × tools.

`search_tools` ranks the client's own list only: filters (its view, its
person, `readOnly`, `tier`, `server`, `tags`) mask the catalog before the
ranking, so a tool the client may not see never takes a place in it. The
index is built once per catalog, at the first search, in a worker thread (so
the event loop keeps serving while the static vectors are read, once per
process, and the tools are indexed), and built again in the background
whenever the catalog changes after that.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hintgate.discovery.served import (
    BadArguments,
    SearchMode,
    SearchRequest,
    SearchSettings,
    call_definition,
    own_names,
    parse_search,
    search_answer,
    search_definition,
)
from hintgate.discovery.views import View
from hintgate.hints.annotations import Hint
from hintgate.hints.catalog import Catalog, CatalogEntry
from hintgate.policy.decide import CallFacts, Rule, denied_by_rule
from hintgate.policy.principal import Principal
from hintgate.results import tool_error

if TYPE_CHECKING:
    import numpy as np

    from hintgate.discovery.index import ToolIndex

__all__ = ["Discovery", "Listing", "ListingCost"]

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class Listing:
    """What one client (a view, a person) is listed, and what its own search may return.

    Attributes:
        tools: the catalog's tools it may see, in catalog order (view and person applied).
        wire: its `tools/list`: `tools` as `search.mode` shapes it, with the gateway's own tools.
        search_name: the name `search_tools` has in it, None when it is not served.
        call_name: likewise for `call_tool`.
    """

    tools: tuple[Mapping[str, Any], ...]
    wire: tuple[Mapping[str, Any], ...]
    search_name: str | None
    call_name: str | None
    names: frozenset[str] = field(init=False)
    _mask: Any = None

    def __post_init__(self) -> None:
        self.names = frozenset(str(t.get("name")) for t in self.tools)

    def mask(self, catalog: Catalog) -> np.ndarray:
        """Per tool of `catalog.wire`, whether this client may see it (kept: asked at every search)."""
        if self._mask is None:
            import numpy as np

            self._mask = np.fromiter((str(w.get("name")) in self.names for w in catalog.wire), bool, len(catalog.wire))
        return self._mask  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class ListingCost:
    """What the whole catalog's `tools/list` costs a client in one search mode.

    Attributes:
        mode: the search mode.
        tools: the tools it lists (the gateway's own two included).
        bytes: the listed tools as compact JSON (every page together), in UTF-8 bytes.
        tokens: an estimate of the o200k tokens of that JSON (`hintgate.store.tokens.estimate_tokens`).
        current: whether it is the mode in force.
    """

    mode: SearchMode
    tools: int
    bytes: int
    tokens: int
    current: bool

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: every field, the mode by its value."""
        return {**dataclasses.asdict(self), "mode": self.mode.value}


class _Indexed:
    """A catalog's index with the per-tool facts its filters read, aligned with `catalog.wire`."""

    def __init__(self, catalog: Catalog) -> None:
        import numpy as np

        from hintgate.discovery.index import ToolIndex

        self.catalog = catalog
        self.index: ToolIndex = ToolIndex(catalog.wire)
        entries: list[CatalogEntry] = list(catalog.entries.values())
        # Read-only only when the hint in force and the listed annotation both say so.
        self.read_only = np.fromiter(
            (
                e.tool.resolution.hints[Hint.READ_ONLY].value is True
                and isinstance(e.wire.get("annotations"), Mapping)
                and e.wire["annotations"].get("readOnlyHint") is True
                for e in entries
            ),
            bool,
            len(entries),
        )
        self.tiers = np.array([e.tier.value for e in entries], dtype=object)
        self.servers = np.array([e.server for e in entries], dtype=object)
        self.tags = [e.tags for e in entries]

    def allowed(self, request: SearchRequest, listing: Listing) -> np.ndarray:
        """Per tool, whether the request's filters and the client's list admit it."""
        import numpy as np

        mask = listing.mask(self.catalog).copy()
        if request.read_only:
            mask &= self.read_only
        if request.tier is not None:
            mask &= self.tiers == request.tier.value
        if request.server is not None:
            mask &= self.servers == request.server
        if request.tags:
            wanted = frozenset(request.tags)
            mask &= np.fromiter((wanted <= tags for tags in self.tags), bool, len(self.tags))
        return mask


class Discovery:
    """The lists clients get and the search over them, for one gateway.

    Args:
        settings: the config's `search` section.
        views: the views served, built-in ones included, by name.
    """

    def __init__(self, settings: SearchSettings, views: Mapping[str, View]) -> None:
        self.settings = settings
        self.views = dict(views)
        self._basis: tuple[Any, ...] | None = None
        self._listings: dict[tuple[str | None, str | None, frozenset[str]], Listing] = {}
        self._indexed: _Indexed | None = None
        self._building: tuple[Catalog, asyncio.Task[_Indexed]] | None = None
        self.searched = False
        """Whether a search was made: from then on each new catalog is indexed as soon as it is built."""

    def configure(self, settings: SearchSettings, views: Mapping[str, View]) -> None:
        """Take a reloaded config's `search` and `views` (lists are made again)."""
        self.settings, self.views = settings, dict(views)
        self._basis = None

    def view(self, name: str | None) -> View | None:
        """The view of that name (None for the whole catalog).

        Raises:
            KeyError: no view has that name.
        """
        return None if name is None else self.views[name]

    def listing(self, catalog: Catalog, rules: Sequence[Rule], view: View | None, who: Principal | None) -> Listing:
        """What a client of `view` who is `who` is listed."""
        basis = self._basis  # the listings kept are of these very values: any new one starts them afresh
        if basis is None or basis[0] is not catalog or basis[1] is not rules or basis[2] is not self.settings:
            self._basis, self._listings = (catalog, rules, self.settings), {}
        key = (
            view.name if view is not None else None,
            who.name if who is not None else None,
            who.groups if who is not None else frozenset(),
        )
        found = self._listings.get(key)
        if found is None:
            found = self._listing(catalog, rules, view, who)
            if len(self._listings) >= 1024:
                self._listings.clear()
            self._listings[key] = found
        return found

    def _listing(self, catalog: Catalog, rules: Sequence[Rule], view: View | None, who: Principal | None) -> Listing:
        tools: list[Mapping[str, Any]] = []
        for wire in catalog.wire:
            entry = catalog.get(str(wire.get("name")))
            if entry is None:
                tools.append(wire)
                continue
            if view is not None and not view.admits(entry):
                continue
            if who is not None and denied_by_rule(CallFacts.from_entry(entry, None, who), rules) is not None:
                continue
            tools.append(wire)
        if not self.settings.served(len(tools)):
            return Listing(tuple(tools), tuple(tools), None, None)
        taken = [*catalog.entries]
        search_name, call_name = own_names(taken)
        own = (search_definition(search_name, call_name), call_definition(call_name, search_name, tools))
        return Listing(tuple(tools), tuple(self.settings.listing(tools, own)), search_name, call_name)

    def costs(self, catalog: Catalog, tools: Sequence[Mapping[str, Any]] | None = None) -> list[ListingCost]:
        """What `tools/list` costs a client in each search mode: of the whole catalog (no view, no person), or of
        the `tools` a client is given."""
        from hintgate.store.tokens import estimate_tokens  # the dashboard's and the CLI's: off the call path

        tools = list(catalog.wire if tools is None else tools)
        search_name, call_name = own_names([*catalog.entries])
        own = (search_definition(search_name, call_name), call_definition(call_name, search_name, tools))
        out = []
        for mode in SearchMode:
            listed = dataclasses.replace(self.settings, mode=mode).listing(tools, own)
            text = json.dumps({"tools": listed}, separators=(",", ":"), ensure_ascii=False)
            size = len(text.encode("utf-8", "surrogatepass"))
            out.append(ListingCost(mode, len(listed), size, estimate_tokens(text), mode is self.settings.mode))
        return out

    # -- the index

    def catalog_changed(self, catalog: Catalog) -> None:
        """A new catalog was built: once search is in use, index it now, in the background."""
        if not self.searched or (self._indexed is not None and self._indexed.catalog is catalog):
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # built outside the loop (a test): the next search indexes it
        self._build(catalog)

    def _build(self, catalog: Catalog) -> asyncio.Task[_Indexed]:
        """The task indexing `catalog`: the one under way, or a new one."""
        if self._building is not None and self._building[0] is catalog:
            return self._building[1]

        async def build() -> _Indexed:
            # Indexing reads every tool's text and, the first time, the vectors' file: never on the loop.
            return await asyncio.to_thread(_Indexed, catalog)

        task = asyncio.create_task(build(), name="search-index")
        self._building = (catalog, task)
        task.add_done_callback(self._built)
        return task

    def _built(self, task: asyncio.Task[_Indexed]) -> None:
        if self._building is not None and self._building[1] is task:
            self._building = None
        if task.cancelled():
            return
        if (exc := task.exception()) is not None:
            logger.warning("the search index could not be built: %s: %s", type(exc).__name__, exc)
            return
        self._indexed = task.result()

    async def indexed(self, catalog: Catalog) -> _Indexed:
        """The index of `catalog`, built now if it is not yet (shared by the searches that wait for it)."""
        self.searched = True
        if self._indexed is not None and self._indexed.catalog is catalog:
            return self._indexed
        return await asyncio.shield(self._build(catalog))

    async def search(self, catalog: Catalog, listing: Listing, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """Answer a `search_tools` call: the client's tools best fitting the query, filtered first."""
        try:
            request = parse_search(arguments)
        except BadArguments as exc:
            return tool_error(f"{listing.search_name}: {exc}")
        indexed = await self.indexed(catalog)
        ranked = indexed.index.rank(request.query, allowed=indexed.allowed(request, listing), limit=request.limit)
        return search_answer([(catalog.wire[i], score) for i, score in ranked])
