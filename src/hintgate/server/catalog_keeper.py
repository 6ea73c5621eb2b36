"""The catalog keeper: each server's listing → what is served → its pins → held or served → the catalog.

Every change of what a server lists (a `notifications/tools/list_changed`, a restart, an override, a config
change) comes here: the listing is cut to what is served (`hints.listing.served`), each tool is resolved and
scanned (again only where its definition or an input of its resolution changed: `ResolveMemo`, `ScanMemo`),
the pins (`hintgate.server.pins.PinKeeper`) compare it with what was accepted, a changed or flagged tool is held
(hidden, or served as it was last accepted), and the catalog clients are listed is built, reusing every unchanged
entry. What servers say besides their tools (instructions, prompts, resources) is scanned here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from typing import Any

from hintgate.config.model import GatewayConfig, ListingLimits
from hintgate.errors import HintgateError
from hintgate.hints.annotations import Hint
from hintgate.hints.catalog import (
    Catalog,
    CatalogEntry,
    ResolvedTool,
    ResolveMemo,
    build_catalog,
    public_name,
    resolve_tool,
    wire_tool,
)
from hintgate.hints.listing import served
from hintgate.hints.others import OtherTools, tool_owners
from hintgate.hints.pins import Pin, canonical_json, classify, pin_hash
from hintgate.hints.quarantine import OnFinding, Quarantine, ScanMemo, StoredScans, quarantine_catalog, scan_catalog
from hintgate.scan.findings import ScanFinding, high_findings
from hintgate.scan.verdicts import definition_key
from hintgate.scan.workers import Scanner
from hintgate.server.overrides import KEEP, Keep, StoredOverrides
from hintgate.server.pins import PinKeeper, source_texts
from hintgate.sources.base import Source, SourceState

__all__ = ["HELD_LINES", "CatalogKeeper"]

logger = logging.getLogger(__name__)


class CatalogKeeper:
    """The catalog in force and everything it is made from: served listings, resolutions, scans, held tools.

    Args:
        sources: the sources by name (the gateway's own mapping: it changes as servers come and go).
        pins: the tools' pins, which say what is held.
        overrides: the operators' stored hint and title overrides.
        scanner: runs the poisoning scan of long definitions off the event loop.
        config: gives the config in force (limits, inference profile, pin modes, what a finding does).
        changed: rebuilds the catalog and tells clients, after an operator accepted, blocked or overrode tools.
        stored_scans: definitions' scans kept beyond the process (the store's): what it holds is not scanned again.

    Attributes:
        catalog: the catalog clients are listed (held tools left out or served as last accepted).
        quarantined: the held tools by public name, each with why it is held.
        resolved: resolved tools kept between rebuilds: one server's new list re-resolves only its tools.
        scans: poisoning scans kept between rebuilds: only new definitions are scanned.
        listing_problems: per running server, what is wrong with its last tool listing (a name listed twice).
        server_findings: high scan findings in each running server's instructions, prompt and resource
            descriptions.
        dashboard_url: the dashboard's base URL when one is served (a held tool's log line points to it).
        store_flag: the `--db URL` a command needs to reach this gateway's store, with a leading space; empty
            for the default.
    """

    def __init__(
        self,
        sources: Mapping[str, Source],
        *,
        pins: PinKeeper,
        overrides: StoredOverrides,
        scanner: Scanner,
        config: Callable[[], GatewayConfig],
        changed: Callable[[], Awaitable[None]],
        stored_scans: StoredScans | None = None,
    ) -> None:
        self._sources = sources
        self._pins = pins
        self._overrides = overrides
        self._scanner = scanner
        self._config = config
        self._changed = changed
        self.catalog = Catalog({})
        self._built = Catalog({})  # the catalog before quarantine, reused entry by entry by the next build
        self.resolved = ResolveMemo()
        self.scans = ScanMemo(stored_scans)
        self._last_server_of: dict[str, str] = {}
        self.quarantined: dict[str, Quarantine] = {}
        self._held_said: dict[str, tuple[object, ...]] = {}  # what was logged of each held tool, so once per change
        # Held tools' accepted definitions, parsed once per pin (the memos know them by object), and the other
        # servers' tool names of the catalog being built; both for `_accepted_wire`.
        self._accepted_raws: dict[tuple[str, str, str | None], Mapping[str, Any]] = {}
        self._accepted_next: dict[tuple[str, str, str | None], Mapping[str, Any]] = {}
        self._owners: tuple[dict[str, str], dict[str, dict[str, None]]] | None = None
        # Each source's listing as checked against the limits: (the list object, the limits, tools served, problems).
        self._served_of: dict[str, tuple[object, ListingLimits, list[Mapping[str, Any]], list[str]]] = {}
        self._problems_said: dict[str, list[str]] = {}
        self._wrong_said: dict[str, list[str]] = {}  # per server: the hints of the wrong type last logged
        self._preparing = asyncio.Lock()
        self.dashboard_url: str | None = None
        self.store_flag = ""
        self._bound_names: dict[str, tuple[str, str]] = {}  # public name → its tool, as of the rebuild in progress
        self.listing_problems: dict[str, list[str]] = {}
        self.server_findings: dict[str, list[ScanFinding]] = {}

    def point_to(self, *, dashboard_url: str | None, store_flag: str) -> None:
        """Where a held tool's log line sends the operator: the dashboard, and the `--db` a command needs."""
        self.dashboard_url, self.store_flag = dashboard_url, store_flag

    def problems_of(self, server: str) -> list[str]:
        """What is wrong with a running server's last tool listing (empty when nothing is)."""
        return list(self.listing_problems.get(server, ()))

    def any_listing_problems(self) -> bool:
        """Whether a running server's last listing has a problem (some of its tools are not served)."""
        return bool(self.listing_problems)

    def flagged_servers(self) -> list[tuple[str, list[ScanFinding]]]:
        """The servers whose instructions, prompts or resources the scan flags, by name, with the findings."""
        return [(name, found) for name, found in sorted(self.server_findings.items()) if found]

    async def accept_held(self, name: str, *, actor: str) -> Quarantine:
        """Accept a quarantined tool's current definition: it is served as usual, clients are told.

        Raises:
            KeyError: no tool of that name is quarantined.
        """
        held = self.quarantined[name]
        # The review covers the definition held (its fingerprint), not one the server listed since.
        await self.accept_pins(
            lambda p: p.name == name and p.server == held.server and p.sha256 == held.fingerprint, actor=actor
        )
        return held

    async def accept_pins(self, choose: Callable[[Pin], bool], *, actor: str, held_only: bool = False) -> list[Pin]:
        """Accept the definition last seen of the chosen pins (in the store first); clients are told.

        With `held_only`, pins accepted on first use and not quarantined are left as they are.
        """
        accepted = await self._pins.accept(choose, actor=actor, review=not held_only)
        if accepted:
            await self._changed()
        return accepted

    async def block_pins(self, choose: Callable[[Pin], bool], *, actor: str, reason: str = "") -> list[Pin]:
        """Keep the chosen quarantined pins blocked (in the store first): they stay held, out of review."""
        return await self._pins.block(choose, actor=actor, reason=reason)

    async def apply_overrides(
        self, tool: str, changes: Mapping[Hint, bool | None], *, actor: str, title: str | Keep | None = KEEP
    ) -> None:
        """Set (true / false) or clear (None) an operator's overrides of a public tool name.

        Written to the store first (when there is one), then applied to the
        catalog at once; clients are told the tool list changed. `title` sets
        the tool's title (None clears the stored one, `KEEP` leaves it).
        """
        await self._overrides.apply(tool, changes, actor=actor, title=title)
        await self._changed()

    def server_of(self, public: str) -> str | None:
        """The server that last served a public tool name (its tool may be gone while the server is down)."""
        return self._last_server_of.get(public)

    def forget_server(self, server: str) -> None:
        """Forget the public names a server held: it was removed, a newcomer may take them."""
        for public in [p for p, owner in self._last_server_of.items() if owner == server]:
            del self._last_server_of[public]

    def forget_names(self) -> None:
        """Forget which server held which name: the next full build takes them in config order."""
        self._last_server_of.clear()

    def resolve(self, source: Source, raw: Mapping[str, Any]) -> ResolvedTool:
        """Resolve one source tool: declared, config and stored overrides, inference, trust."""
        key, inputs = self._resolution(source, raw)
        return self.resolved.get(key, raw, inputs, lambda: _resolve(raw, inputs))

    def _resolution(self, source: Source, raw: Mapping[str, Any]) -> tuple[tuple[str, str], _Inputs]:
        """The memo key of a source tool's resolution and its inputs besides the definition."""
        name = str(raw.get("name", ""))
        bound = self._pins.by_key.get((source.name, name))
        public = bound.name if bound is not None else public_name(source.prefix, name)
        # A stored override belongs to the tool that holds the public name, not to a newcomer that wants it.
        owner = bound is not None or (
            self._last_server_of.get(public, source.name) == source.name and public not in self._bound_names
        )
        return (source.name, name), self._inputs(source, raw, public if owner else None)

    def _inputs(self, source: Source, raw: Mapping[str, Any], overridden: str | None) -> _Inputs:
        """A source tool's resolution inputs besides its definition; the stored overrides and title are those of
        the public name `overridden` (None: the tool takes none)."""
        overrides = self._overrides.by_tool.get(overridden) if overridden is not None else None
        title = self._overrides.titles.get(overridden) if overridden is not None else None
        return (source.tool_facts(raw), source.trust, overrides, title, self._config().inference_profile)

    def _served(self, source: Source) -> tuple[list[Mapping[str, Any]], list[str]]:
        """The tools of `source`'s listing that are served (`config.limits`), and what is said of the others.

        Kept per listing: a listing (the list object a source holds) is checked once.
        """
        listing, limits = source.tools, self._config().limits
        kept = self._served_of.get(source.name)
        if kept is None or kept[0] is not listing or kept[1] != limits:
            tools, problems = served(listing, most=limits.tools_per_server, text_length=limits.text_length)
            kept = self._served_of[source.name] = (listing, limits, tools, problems)
        return kept[2], kept[3]

    async def prepare(self) -> None:
        """Do off the event loop what the next catalog rebuild would do with new tool definitions.

        The listings are checked against the limits, and every definition no catalog resolved or scanned yet is
        resolved and scanned on a worker thread, and so is the last accepted definition of each tool whose new
        one will be held; the rebuild that follows takes them from the memos (`resolved`, `scans`). Meanwhile
        the catalog in force is served. One preparation at a time; what changes meanwhile is done by the
        rebuild itself.
        """
        async with self._preparing:
            limits = self._config().limits
            up = [s for s in self._sources.values() if s.status.state is SourceState.UP]
            listings = [(s, s.tools) for s in up]

            def check() -> list[tuple[list[Mapping[str, Any]], list[str]]]:
                return [
                    served(listing, most=limits.tools_per_server, text_length=limits.text_length)
                    for _, listing in listings
                ]

            for (source, listing), (tools, problems) in zip(listings, await asyncio.to_thread(check), strict=True):
                self._served_of[source.name] = (listing, limits, tools, problems)
            resolutions: list[tuple[Hashable, Mapping[str, Any], _Inputs]] = []
            scans: list[Mapping[str, Any]] = []
            accepted: list[tuple[tuple[str, str, str | None], str, _Inputs, Mapping[str, Any]]] = []
            for source, _ in listings:
                for raw in self._served(source)[0]:
                    name = raw.get("name")
                    if not isinstance(name, str) or not source.wants(name):
                        continue
                    key, inputs = self._resolution(source, raw)
                    if self.resolved.wants(key, raw, inputs):
                        resolutions.append((key, raw, inputs))
                    if self.scans.wants(raw):
                        scans.append(raw)
                    pin = self._pins.by_key.get((source.name, name))
                    if pin is not None and pin.accepted_definition is not None:
                        ref = (source.name, name, pin.accepted_sha256)
                        if ref not in self._accepted_raws:
                            held_inputs = self._inputs(source, raw, pin.name)
                            accepted.append((ref, pin.accepted_definition, held_inputs, raw))
            if not (resolutions or scans or accepted):
                return
            work = _Preparation(
                resolutions, scans, accepted, inline=self._scanner.definitions, stored=self.scans.stored
            )
            await asyncio.to_thread(work.run)
            # A long definition is scanned in a worker process, under the scan's deadline (`hintgate.scan.workers`):
            # on a thread, one long regex call would still hold the GIL, and so the event loop.
            long = await asyncio.gather(*(self._scanner.tool(raw) for raw, _ in work.long))
            for memo_key, raw, inputs, tool in work.resolved:
                self.resolved.prime(memo_key, raw, inputs, tool)
            for raw, findings, words, digest, scanned in work.scanned:
                self.scans.prime(raw, findings, words, key=digest, scanned=scanned)
            for (raw, digest), scan in zip(work.long, long, strict=True):
                if scan is not None:
                    self.scans.prime(raw, *scan, key=digest)
            self._accepted_raws.update(work.accepted_raws)

    def rebuild(self, up: Sequence[Source]) -> None:
        """Rebuild the catalog from the listings of the servers that are up (`up`, in config order).

        Tools are resolved and scanned again only where their definition or
        an input of their resolution changed (`resolved`, `scans`): after one
        server's `list_changed` that is its tools; the merged catalog reuses
        every other entry as it was.
        """
        self._bound_names = self._pins.bound_names()
        groups = []
        for source in up:
            resolved = []
            for raw in self._served(source)[0]:
                name = raw.get("name")
                if not isinstance(name, str) or not source.wants(name):
                    continue
                try:
                    resolved.append(self.resolve(source, raw))
                except HintgateError as exc:
                    logger.warning("%s: tool %r skipped: %s", source.name, name, exc)
            # Served all the same (the hint taken as not declared): said once per change, the health unmoved.
            wrong = [said for tool in resolved for said in _wrong_types(tool)]
            if wrong and self._wrong_said.get(source.name) != wrong:
                logger.warning("%s: %s", source.name, "; ".join(wrong))
            self._wrong_said[source.name] = wrong
            groups.append((source.name, source.prefix, resolved))
        self.resolved.done()
        bound = self._pins.bound(self._sources)
        self._built = build_catalog(groups, held=self._last_server_of, previous=self._built, bound=bound)
        self.catalog = self._built
        for problem in self.catalog.problems:
            logger.warning("%s", problem)
        for entry in self.catalog.entries.values():
            self._last_server_of[entry.name] = entry.server
        listings: dict[str, list[tuple[str, Mapping[str, Any]]]] = {s.name: [] for s in up}
        for entry in self.catalog.entries.values():
            listings[entry.server].append((entry.name, entry.tool.raw))
        self.listing_problems = {}
        for source in up:  # every copy of a name listed twice: the pins see them, and refuse them
            tools, left_out = self._served(source)
            twice = _listed_twice(source, tools)
            for raw in twice:
                listings[source.name].append((public_name(source.prefix, str(raw["name"])), raw))
            problems = [*left_out]
            if twice:
                names = sorted({str(raw["name"]) for raw in twice})
                problems += [
                    f"tool {name!r} is listed more than once in one listing (a protocol error): none is served"
                    for name in names
                ]
            if problems:
                self.listing_problems[source.name] = problems
                if self._problems_said.get(source.name) != problems:
                    logger.warning("%s: %s", source.name, "; ".join(problems))
            self._problems_said[source.name] = problems
        self._pins.manual = frozenset(
            n for n, c in self._config().sources.items() if getattr(c, "pin", "auto") == "manual"
        )
        self._pins.launches = {n: c.launch for n, c in self._config().servers.items()}
        fingerprints = {e.name: self._pins.fingerprint(e.tool.raw) for e in self.catalog.entries.values()}
        findings = scan_catalog(
            self.catalog, reviewed=self._pins.reviewed(), memo=self.scans, fingerprints=fingerprints
        )
        flagged = {
            (entry.server, entry.upstream_name): ", ".join(sorted({f.code for f in findings[entry.name]}))
            for entry in self.catalog.entries.values()
            if entry.name in findings
        }
        self._pins.observe(listings, flagged=flagged)
        self._owners, self._accepted_next = None, {}
        self.catalog, self.quarantined = quarantine_catalog(
            self.catalog,
            changed=self._pins.quarantined(),
            on_finding=OnFinding(self._config().on_change),
            fingerprints=fingerprints,
            findings=findings,
            serve=self._accepted_wire,
        )
        # Accepted definitions parsed for this catalog are kept; so are those prepared for the next one.
        self._owners, self._accepted_raws = None, {**self._accepted_next}
        said: dict[str, tuple[object, ...]] = {}
        untold: dict[str, int] = {}
        told = 0
        for held in self.quarantined.values():
            said[held.name] = (held.fingerprint, held.change, held.hidden, tuple(f.code for f in held.findings))
            if self._held_said.get(held.name) != said[held.name]:
                if told < HELD_LINES:  # a server that changes a thousand tools at once gets a count, not a flood
                    logger.warning("%s", self.held_line(held))
                    told += 1
                else:
                    untold[held.server] = untold.get(held.server, 0) + 1
        for server, count in untold.items():
            where = f" or on {self.dashboard_url}/changes" if self.dashboard_url else ""
            logger.warning(
                "%d more tools of server %s are held until an operator accepts them: "
                "`hintgate pins list --server %s%s`%s",
                count,
                server,
                server,
                self.store_flag,
                where,
            )
        self._held_said = said

    def held_line(self, held: Quarantine) -> str:
        """One log line for a held tool: why, what it means meanwhile, and how to accept it (command, dashboard)."""
        why = [held.change] if held.change is not None else []
        why += [f"{f.code} {f.message}" for f in held.findings]
        meanwhile = "hidden from clients" if held.hidden else "listed as accepted, every call asks"
        where = f" or on {self.dashboard_url}/changes" if self.dashboard_url else ""
        return (
            f"{held.name} (server {held.server}) is held until an operator accepts it ({meanwhile}): "
            f"{'; '.join(why)}; review and accept it with `hintgate pins accept {held.name}{self.store_flag}`{where}"
        )

    def _accepted_wire(self, entry: CatalogEntry) -> Mapping[str, Any] | None:
        """The `tools/list` entry of a held tool's last accepted definition; None when it has none that may be
        served (never accepted, or the accepted one is what is held, or the scan flags it and no operator
        reviewed it).

        Called for every held tool of a rebuild: the other servers' tool names are gathered once per rebuild
        (`_others_of`), and an accepted definition, parsed once per pin, is resolved and scanned through the
        memos, so a server whose every tool changed costs its tools once, not its tools squared.
        """
        pin = self._pins.by_key.get((entry.server, entry.upstream_name))
        source = self._sources.get(entry.server)
        if pin is None or source is None or pin.accepted_definition is None or pin.accepted_sha256 == pin.sha256:
            return None
        key = (entry.server, entry.upstream_name, pin.accepted_sha256)
        raw = self._accepted_raws.get(key)
        if raw is None:
            raw = json.loads(pin.accepted_definition)
        self._accepted_next[key] = raw
        others = self._others_of(entry.server)
        siblings = self._owners[1].get(entry.server, {}) if self._owners is not None else ()
        if not pin.reviewed and high_findings(self.scans.findings(raw, others, siblings)):
            return None
        inputs = self._inputs(source, raw, entry.name)
        resolved = self.resolved.get(("accepted", *key), raw, inputs, lambda: _resolve(raw, inputs))
        return wire_tool(entry.name, entry.server, resolved)

    def _others_of(self, server: str) -> OtherTools:
        """The tools of every server but `server` in the catalog being built (gathered once per rebuild)."""
        if self._owners is None:
            by_server: dict[str, dict[str, None]] = {}
            for other in self.catalog.entries.values():
                by_server.setdefault(other.server, {})[other.upstream_name] = None
            self._owners = (tool_owners(by_server), by_server)
        owners, by_server = self._owners
        return OtherTools(owners, by_server.get(server, {}))

    def scan_servers(self, up: Sequence[Source]) -> None:
        """Scan what each running server says besides its tools; a new high finding is logged once."""
        by_server: dict[str, set[str]] | None = None
        owners: dict[str, str] = {}
        for source in up:
            texts = source_texts(source)
            if not texts:
                self.server_findings.pop(source.name, None)
                continue
            if by_server is None:
                by_server = {}
                for entry in self.catalog.entries.values():
                    by_server.setdefault(entry.server, set()).add(entry.upstream_name)
                owners = tool_owners(by_server)
            others = OtherTools(owners, by_server.get(source.name, set()))
            from hintgate.scan.poisoning import scan_texts  # loaded where a text is first scanned

            found = high_findings(scan_texts(texts, others=others, siblings=by_server.get(source.name, set())))
            if found and found != self.server_findings.get(source.name):
                shown = "; ".join(f"{f.code} {f.message} (at {f.path}:{f.start}-{f.end})" for f in found)
                logger.warning(
                    "%s: the server's instructions, prompts or resources are flagged: %s", source.name, shown
                )
            self.server_findings[source.name] = found


def _listed_twice(source: Source, tools: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Every copy of each tool name `source` listed more than once among `tools` (the names it serves only)."""
    counts: dict[str, int] = {}
    for raw in tools:
        name = raw.get("name")
        if isinstance(name, str) and source.wants(name):
            counts[name] = counts.get(name, 0) + 1
    return [raw for raw in tools if counts.get(raw.get("name"), 0) > 1]  # type: ignore[arg-type]


HELD_LINES = 20
"""Held tools told one line each per rebuild; the others are counted by server in one line."""

_Inputs = tuple[Any, Any, Any, Any, Any]
"""A resolution's inputs besides the definition: facts, trust, stored overrides, stored title, inference profile."""


def _resolve(raw: Mapping[str, Any], inputs: _Inputs) -> ResolvedTool:
    facts, trust, overrides, title, profile = inputs
    return resolve_tool(raw, facts=facts, trust=trust, overrides=overrides, title_override=title, profile=profile)


class _Preparation:
    """What `CatalogKeeper.prepare` hands a worker thread: pure work on definitions, nothing of the gateway's."""

    def __init__(
        self,
        resolutions: list[tuple[Hashable, Mapping[str, Any], _Inputs]],
        scans: list[Mapping[str, Any]],
        accepted: list[tuple[tuple[str, str, str | None], str, _Inputs, Mapping[str, Any]]],
        *,
        inline: int,
        stored: StoredScans | None = None,
    ) -> None:
        self._resolutions, self._scans, self._accepted = resolutions, scans, accepted
        self._inline = inline
        self._stored = stored
        self.resolved: list[tuple[Hashable, Mapping[str, Any], _Inputs, ResolvedTool]] = []
        self.scanned: list[tuple[Mapping[str, Any], list[ScanFinding], frozenset[str], str | None, bool]] = []
        """(definition, findings, named words, its key, whether it was scanned now rather than taken as stored)."""
        self.long: list[tuple[Mapping[str, Any], str | None]] = []
        """Definitions too long to scan here, with their keys: for a worker process (`hintgate.scan.workers`)."""
        self.accepted_raws: dict[tuple[str, str, str | None], Mapping[str, Any]] = {}

    def run(self) -> None:
        for key, raw, inputs in self._resolutions:
            with contextlib.suppress(HintgateError):  # the rebuild logs it when it meets it
                self.resolved.append((key, raw, inputs, _resolve(raw, inputs)))
        for raw in self._scans:
            self._scan(raw)
        for ref, definition, inputs, raw in self._accepted:
            form = canonical_json(raw)
            if pin_hash(form) == ref[2]:
                continue  # the listed definition is the accepted one: nothing will be held
            classify(definition, form)  # what the pins will call the change (kept by its cache)
            accepted = json.loads(definition)
            self.accepted_raws[ref] = accepted
            self._scan(accepted)
            with contextlib.suppress(HintgateError):
                self.resolved.append((("accepted", *ref), accepted, inputs, _resolve(accepted, inputs)))

    def _scan(self, raw: Mapping[str, Any]) -> None:
        key = definition_key(raw) if self._stored is not None else None
        found = self._stored.get(key) if self._stored is not None else None
        if found is not None:
            self.scanned.append((raw, *found, key, False))
        elif len(json.dumps(raw, ensure_ascii=False, default=str)) > self._inline:
            self.long.append((raw, key))
        else:
            from hintgate.scan.poisoning import named_words, scan_tool  # loaded where a definition is first scanned

            self.scanned.append((raw, scan_tool(raw), named_words(raw), key, True))


def _wrong_types(tool: ResolvedTool) -> list[str]:
    """What a tool declares with the wrong type (`readOnlyHint: "yes"`), each said with what is done instead."""
    said = []
    for key, value in tool.parsed.invalid.items():
        shown = json.dumps(value, default=str)
        shown = shown if len(shown) <= 40 else f"{shown[:39]}…"
        wanted = "a string" if key == "title" else "true or false"
        said.append(f"tool {tool.name!r} declares {key} {shown}, not {wanted}: taken as not declared")
    return said
