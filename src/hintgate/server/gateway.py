"""The gateway: one MCP face over many sources, every tool fully annotated.

The gateway composes its parts and runs their life together: the sources (started, stopped, changed while
running: `hintgate.server.live`), the catalog (`hintgate.server.catalog_keeper`, with the pins of
`hintgate.server.pins`), the policy in force (`hintgate.server.policy_keeper`), operator overrides (stored,
applied, followed across replicas), sessions, and the call pipeline with its observers; a tools/call comes in
here (`call_tool`). The MCP face that serves it (the SDK server, stdio, the `/mcp` routes) is
`hintgate.server.face`; errors become MCP errors in `hintgate.server.errors`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from hintgate.config.model import GatewayConfig, IdentityConfig, ServerConfig
from hintgate.discovery.served import BadArguments, parse_call
from hintgate.discovery.views import BUILTIN_VIEWS, View
from hintgate.errors import HintgateError, StoreError
from hintgate.hints.catalog import (
    Catalog,
    CatalogEntry,
)
from hintgate.hints.pinfile import read_pins_file
from hintgate.hints.quarantine import Quarantine
from hintgate.observers.metrics import Metrics
from hintgate.outcome import CallObserver, Tracer
from hintgate.pipeline import Decided, ToolCalls
from hintgate.policy.approvals import ApprovalQueue
from hintgate.policy.own_places import OwnPlaces
from hintgate.policy.rules import PolicySettings, Rule
from hintgate.policy.seals import ApprovalSeals
from hintgate.request_context import RequestContext
from hintgate.results import server_down_error, tool_error
from hintgate.scan.guard import OnResultFinding
from hintgate.scan.workers import Scanner
from hintgate.server.broadcast import Broadcast
from hintgate.server.catalog_keeper import CatalogKeeper
from hintgate.server.client_call import ClientCall
from hintgate.server.discovery import Discovery, Listing, ListingCost
from hintgate.server.eras import MODERN_VERSIONS
from hintgate.server.errors import UnknownName, to_mcp_error
from hintgate.server.first_answer import FirstAnswer
from hintgate.server.live import ServerSet, SourceDiff, diff_sources
from hintgate.server.liveness import caller_probe
from hintgate.server.overrides import StoredOverrides
from hintgate.server.pins import PinKeeper
from hintgate.server.policy_keeper import PolicyKeeper
from hintgate.server.routing import Routes
from hintgate.server.scan_verdicts import KeptScans
from hintgate.server.sessions import SessionObservers, SessionsBeforeStore, SessionTracker
from hintgate.server.tasks import TaskRoutes
from hintgate.server.view_endpoint import VIEW_KEY
from hintgate.sources import build_source, build_sources
from hintgate.sources.base import Source, SourceState
from hintgate.sources.capabilities import LogsIn
from hintgate.sources.oauth import Credentials
from hintgate.sources.personal import login_page
from hintgate.sources.processes import Prestarted

if TYPE_CHECKING:
    from hintgate.observers.recording import Recording
    from hintgate.store import Store
    from hintgate.stored_state import StoredState


__all__ = ["FastPathCounts", "Gateway"]

logger = logging.getLogger(__name__)

_STANDARD_KINDS = ("tools", "prompts", "resources")

PRUNE_AFTER_FIRST_ANSWER = 10.0
"""Seconds the kept scans' pruning waits for the first listing to be written out before it runs anyway."""

_LISTED_AS_THEY_ARE = (SourceState.UP, SourceState.DISABLED)
"""Source states whose listing is the whole of what the server lists now (a disabled one lists nothing)."""


class FastPathCounts(Protocol):
    """What the gateway shows of the HTTP fast path (`hintgate.server.http_fast.HttpFastPath`)."""

    def stats(self) -> dict[str, Any]:
        """Requests answered on the fast path and sent the SDK's way (JSON-ready)."""
        ...


class Gateway:
    """The running gateway: sources, catalog, overrides, the call pipeline and its MCP face.

    Use as an async context manager: entering starts every enabled upstream
    concurrently and waits (bounded by each one's startup timeout) for its
    first attempt, so the first `tools/list` is complete; leaving stops them.

    One concept, though it has more than 25 methods: the gateway composes its
    parts (the catalog keeper, the pins keeper, the policy keeper, the session
    tracker, the task routes, the call pipeline, the MCP face) and holds their
    life together: start, the late store, configuration changes, stop. What it
    does itself is that life and a call's way in (`listing`, `call_target`,
    `call_tool`); a third of its methods are one-line reads (`tool`, `servers`,
    `identity`, `pending_approvals`, ...) that hand a part's answer to web/ and
    cli/, so that they ask the gateway by name instead of reaching through it.
    """

    def __init__(
        self,
        config: GatewayConfig,
        *,
        environ: Mapping[str, str] | None = None,
        store: Store | None = None,
        sources: Mapping[str, Source] | None = None,
        policy: tuple[PolicySettings, tuple[Rule, ...]] | None = None,
        state_key: str | None = None,
        tracer: Tracer | None = None,
        credentials: Credentials | None = None,
        early: StoredState | None = None,
        prestarted: Prestarted | None = None,
        own_places: Callable[[], OwnPlaces] | None = None,
        approvals_url: Callable[[], str | None] | None = None,
        approvals_command: str | None = None,
    ) -> None:
        self.config = config
        self._prestarted = prestarted  # the stdio processes spawned ahead, for the sources built on entering
        environ = os.environ if environ is None else environ
        self._environ = environ
        self._built_from_config = sources is None
        # Built from the config once, on entering: the stored runtime changes are laid over the file first.
        self.sources: dict[str, Source] = dict(sources) if sources is not None else {}
        # Runtime changes are kept in the store for a config file; what --demo or --python serve stays as it is.
        layer_store = store if config.source is not None else None
        self.server_set = ServerSet(config, apply=self.apply_config, store=layer_store, environ=environ)
        """The config file and the runtime changes over it: what adds, edits, removes, enables and disables servers."""
        self._source_tasks: dict[str, asyncio.Task[None]] = {}
        self._reconfiguring = asyncio.Lock()
        self.credentials = credentials
        """Where the OAuth logins of servers behind OAuth are kept (None: such servers cannot log in)."""
        self.overrides = StoredOverrides(store)
        self.scanner = Scanner(deadline=config.scan_deadline)
        """Runs the poisoning scan of long definitions and results off the event loop, within its deadline."""
        self.routes = Routes()
        manual = frozenset(n for n, c in config.sources.items() if getattr(c, "pin", "auto") == "manual")
        self.pins = PinKeeper(store, manual=manual)
        self._kept_scans = KeptScans(store)  # the definitions' scans kept for the next start
        self.catalog_keeper = CatalogKeeper(
            self.sources,
            pins=self.pins,
            overrides=self.overrides,
            scanner=self.scanner,
            config=lambda: self.config,
            changed=self.tools_changed,
            stored_scans=self._kept_scans,
        )
        """The catalog and what it is made from: served listings, resolutions, scans, held tools."""
        self.store = store
        self.session_observers = SessionObservers()
        self.sessions = SessionTracker(
            on_start=self.session_observers.started,
            on_end=self.session_observers.ended,
            idle_timeout=config.timeouts.session_idle,
            modern_versions=MODERN_VERSIONS,
        )
        self.discovery = Discovery(config.search, {**BUILTIN_VIEWS, **config.views})
        """The lists clients get (views, people, search mode) and the search over them."""
        self.stdio_view: str | None = None
        """The view served on stdio (`serve --view NAME`), None for the whole catalog."""
        self.sessions.view_of = self.view_name
        # Replaced by ones kept in the store when it opens (`_wire_store`); the pipeline reads them at every call.
        self._approvals = ApprovalQueue()
        self._seals = ApprovalSeals()
        self._call_observers: list[CallObserver] = []
        self.metrics = Metrics(self.sources, lambda: self._approvals, store, by_user=config.metrics_by_user)
        self._call_observers.append(self.metrics)
        self.recording: Recording | None = None
        """Writes calls and sessions to the store (None without one); masks the gateway's secrets in them."""
        self._early = early
        # With the stored state read ahead, the store itself comes later (`attach_store`): no call runs before.
        self.first_answer = FirstAnswer(ready=early is None)
        """Whether the store is open yet, and when the first answer went out (a start that read its state ahead)."""
        self._sessions_before_store = SessionsBeforeStore() if early is not None else None
        if self._sessions_before_store is not None:
            self.session_observers.append(self._sessions_before_store)
        settings, rules = policy if policy is not None else config.policy
        self.policy = PolicyKeeper(self.overrides, settings, rules, OnResultFinding(config.on_result_finding))
        """The policy in force (the file's, with what was changed at run time over it), one value at a time."""
        self.tasks = TaskRoutes(
            self.sources,
            self.sessions,
            modern=MODERN_VERSIONS,
            entry_of=lambda name: self.catalog.entries.get(name),  # noqa: PLW0108 (each rebuild replaces the catalog)
            # The pipeline, built next, hands its tasks to these routes; they scan through it when tasks end.
            scan=lambda ctx, entry, result: self.calls.scan_task_result(ctx, entry, result),  # noqa: PLW0108
            words=lambda ctx, entry, value: self.calls.scan_task_words(ctx, entry, value),  # noqa: PLW0108
        )
        """Calls an upstream answered with a task handle, by the ids their clients hold."""
        self.calls = ToolCalls(
            self.sources,
            self.sessions,
            policy=self.policy.current,
            approvals=lambda: self._approvals,
            seals=lambda: self._seals,
            observers=lambda: self._call_observers,
            tasks=self.tasks,
            own_places=own_places,
            approvals_url=approvals_url,
            approvals_command=approvals_command,
            tracer=tracer,
            modern_versions=MODERN_VERSIONS,
            caller_probe=lambda ctx: caller_probe(self.mcp_server, ctx),
            client_for=ClientCall,
            scanner=self.scanner,
            # Concurrent calls' records share a commit: the store waits a little for those still running.
            running=lambda: self.store.running_calls if self.store is not None else None,
        )
        self.session_observers.append(self.tasks)
        self._tasks: list[asyncio.Task[None]] = []
        self.stdio_connection: Any = None
        self.state_key = state_key
        """The key that seals 2026-07-28 `requestState` (an ephemeral one when None)."""
        self.broadcast = Broadcast(self.sessions)
        self.mcp_server: Any = None
        """The MCP SDK's server serving this gateway, once built (`hintgate.server.face.build_server`)."""
        self.http_fast: FastPathCounts | None = None
        """The HTTP fast path in front of `/mcp`, when HTTP is served with it (`/api/health` shows its counts)."""
        if store is not None:
            self._wire_store(store)

    def _wire_store(self, store: Store) -> None:
        """Record calls and sessions to `store`, and keep the approval queue in it."""
        from hintgate.observers.recording import Recording

        # The file as an absolute path, resolved once: a reload reads the same file.
        source = self.config.source
        recording = Recording(store, config_path=str(source.resolve()) if source is not None else None)
        recording.hide(self.state_key)
        self.recording = recording
        self._call_observers.insert(0, recording)  # recorded before metrics count it, as always
        self.session_observers.insert(0, recording)
        self._approvals = ApprovalQueue(ledger=store.approvals)
        self.tasks.keep_in(store.tasks, replica=store.replica, recording=recording)
        # An answer used on one replica is used on all of them (`hintgate.store.used_nonces`).
        self._seals = ApprovalSeals(store.used_nonces)
        self.metrics.attach_recorder(store)

    async def __aenter__(self) -> Gateway:
        if self._early is not None:
            # Read ahead without the store: the first listing is decided by what the store holds.
            self.overrides.load_rows(
                hints=self._early.hints,
                titles=self._early.titles,
                confirms=self._early.confirms,
                policy=self._early.policy_settings,
                people=self._early.person_preferences,
                version=self._early.overrides_version,
            )
            self.policy.refresh()
            self.pins.load_pins(self._early.pins, self._early.pins_version, store_coming=True)
            self._kept_scans.load_rows(self._early.scan_verdicts, store_coming=True)
            if self._built_from_config and self.config.source is not None:
                self.config = self.server_set.load_rows(self._early.server_changes)  # the file with them over it
        if self.store is not None:
            await self.overrides.load()
            self.policy.refresh()
            await self.pins.load()
            await self._kept_scans.load()
            self._tasks.append(asyncio.create_task(self._follow_overrides(), name="overrides"))
            if self._built_from_config and self.server_set.persisted:
                self._tasks.append(asyncio.create_task(self.server_set.follow(), name="server-changes"))
                self.config = await self.server_set.load()  # the file with the stored runtime changes over it
        if self._built_from_config:
            self.sources.update(
                build_sources(self.config, environ=self._environ, listener=self._on_change, prestarted=self._prestarted)
            )
        if self.config.pins_file is not None:
            entries = read_pins_file(self.config.pins_file)
            seeded = await self.pins.seed(entries, actor=f"pins file {self.config.pins_file.name}")
            if seeded:
                logger.info("%d pins accepted from %s", seeded, self.config.pins_file)
        self._tasks.append(asyncio.create_task(self.sessions.expire_idle(), name="sessions"))
        self._tasks.append(asyncio.create_task(self.tasks.sweep(), name="tasks"))
        for source in self.sources.values():
            self._start_source(source)
        if self.store is not None:
            await self._cancel_left_behind(self.store)
        await asyncio.gather(
            *(s.wait_started(s.startup_timeout + self.config.timeouts.list) for s in self.sources.values())
        )
        # Names taken while upstreams came up in whatever order are forgotten: the first full build is in config order.
        self.catalog_keeper.forget_names()
        await self.catalog_keeper.prepare()
        self.rebuild()
        # The pins of the first full listing are stored before any client is served; read ahead, before any
        # call runs (`attach_store`).
        await self.pins.flush()
        if self.store is not None:
            self._tasks.append(asyncio.create_task(self._prune_kept_scans(), name="kept-scans"))
        return self

    async def attach_store(self, store: Store) -> None:
        """Take the store opened after a start that read its state ahead (`early`); calls waiting then run.

        In order: what changed in the store since it was read ahead is picked up (the listing is rebuilt and
        clients told), the pins of the first listing are written, the sessions begun meanwhile are recorded,
        then the waiting calls run (each decided by the policy and recorded as any other).
        """
        if self._early is None or self.store is not None:
            raise RuntimeError("attach_store is for a gateway started with its stored state read ahead")
        self.store = store
        self.overrides.attach(store)
        changed = await self.overrides.changed_elsewhere()
        if changed:
            self.policy.refresh()
        if await self.pins.attach(store):
            changed = True
        if changed:
            self.rebuild(("tools",))
        await self.pins.flush()
        await self._kept_scans.attach(store)
        self._wire_store(store)
        if self._sessions_before_store is not None:
            self.session_observers.remove(self._sessions_before_store)
            assert self.recording is not None
            self._sessions_before_store.replay(self.recording)
            self._sessions_before_store = None
        if self._built_from_config and self.config.source is not None:
            self.server_set.attach(store)
            self._tasks.append(asyncio.create_task(self.server_set.follow(), name="server-changes"))
        self._tasks.append(asyncio.create_task(self._follow_overrides(), name="overrides"))
        await self._cancel_left_behind(store)
        self.first_answer.store_opened()
        if changed:
            await self.broadcast.lists_changed(("tools",))
        self._tasks.append(asyncio.create_task(self._prune_kept_scans(), name="kept-scans"))

    async def _prune_kept_scans(self) -> None:
        """Once the first listing is out, delete the kept scans no longer needed (`KeptScans.prune`): those of other
        rules versions, and, when every server listed as it is, those of definitions none of them listed."""
        await self.first_answer.written(PRUNE_AFTER_FIRST_ANSWER)
        every = all(source.status.state in _LISTED_AS_THEY_ARE for source in self.sources.values())
        await self._kept_scans.prune(every_server_listed=every)

    async def _cancel_left_behind(self, store: Store) -> None:
        """Cancel upstream, in the background, the tasks an earlier run of this replica left unfinished."""
        try:
            left = await store.tasks.cancels_due(store.replica)
        except StoreError as exc:
            logger.warning("could not read the tasks an earlier run left unfinished: %s", exc)
            return
        if left:
            wait = max(s.startup_timeout for s in self.sources.values()) if self.sources else 0.0
            self._tasks.append(asyncio.create_task(self.tasks.cancel_left_behind(left, wait), name="tasks-left-behind"))

    async def __aexit__(self, *exc: object) -> None:
        self.sessions.close_all()
        await self.tasks.aclose()  # the departed sessions' tasks are cancelled upstream before the upstreams stop
        tasks = [*self._tasks, *self._source_tasks.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        self._source_tasks.clear()
        await self.pins.close()
        await self._kept_scans.close()
        await self.scanner.aclose()

    # -- the running sources -------------------------------------------------

    def _start_source(self, source: Source) -> None:
        """Start a source's supervision, giving it first what the gateway holds for it (OAuth, the login page)."""
        if isinstance(source, LogsIn):
            source.credentials = self.credentials
            if self.config.identity is not None:
                source.login_page = login_page(self.config.identity.audience, source.name)
        self._source_tasks[source.name] = asyncio.create_task(source.run(), name=f"source:{source.name}")

    async def _stop_source(self, name: str) -> None:
        """Stop a source's supervision: its connection closes, a stdio child is shut down."""
        task = self._source_tasks.pop(name, None)
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task

    async def apply_config(self, new: GatewayConfig) -> SourceDiff:
        """Run `new`, changing only what differs: the rest keeps its process and connection.

        A source whose definition changed is stopped and started anew; one
        removed or disabled is stopped, its tools leave the catalog and the
        approvals waiting on them are withdrawn; one added or enabled starts
        (waited for like at start). Clients are told the lists changed. The
        file's other settings (inference profile, timeouts, policy) take
        effect too.
        """
        async with self._reconfiguring:
            old = self.config
            plan, diff = diff_sources(old, new)
            for name, verb in plan.items():
                if verb in ("stop", "stop-keep", "restart"):
                    await self._stop_source(name)
            self.config = new
            self.scanner.deadline = new.scan_deadline
            self.discovery.configure(new.search, {**BUILTIN_VIEWS, **new.views})
            started: list[Source] = []
            for name, verb in plan.items():
                if verb == "stop":
                    self.sources.pop(name, None)
                    self.catalog_keeper.forget_server(name)
                    continue
                source = build_source(new.sources[name], new, environ=self._environ, listener=self._on_change)
                self.sources[name] = source
                if verb in ("start", "restart"):
                    self._start_source(source)
                    started.append(source)
            ordered = {name: self.sources[name] for name in new.sources if name in self.sources}
            self.sources.clear()
            self.sources.update(ordered)  # the same dict the pipeline and metrics hold
            for name in diff.removed:
                gone = "removed" if name not in new.sources else "disabled"
                reason = f"its server {name!r} was {gone} while the call waited"
                if withdrawn := self._approvals.withdraw_server(name, reason):
                    logger.warning("%s: %d waiting approvals withdrawn (the server was %s)", name, withdrawn, gone)
            if new.policy != old.policy or new.on_result_finding != old.on_result_finding:
                # The stored settings stay laid over the new file's, the stored confirm rules in front of its rules.
                self.policy.from_file(*new.policy, OnResultFinding(new.on_result_finding))
            await asyncio.gather(*(s.wait_started(s.startup_timeout + new.timeouts.list) for s in started))
            await self.catalog_keeper.prepare()
            self.rebuild()
            if not diff.empty or new != old:
                await self.broadcast.lists_changed(_STANDARD_KINDS)
            return diff

    # -- the catalog -------------------------------------------------------

    def rebuild(self, kinds: Sequence[str] = _STANDARD_KINDS) -> None:
        """Rebuild the catalog (and the prompt and resource routes) from the upstreams' listings.

        Tools are resolved and scanned again only where their definition or
        an input of their resolution changed (`CatalogKeeper.rebuild`).
        """
        up = [s for s in self.sources.values() if s.status.state is SourceState.UP]
        if "tools" in kinds:
            self.catalog_keeper.rebuild(up)
            self.discovery.catalog_changed(self.catalog)
        self.catalog_keeper.scan_servers(up)
        if "prompts" in kinds:
            self.routes.rebuild_prompts(up)
        if "resources" in kinds:
            self.routes.rebuild_resources(up)

    @property
    def catalog(self) -> Catalog:
        """The catalog clients are listed (each rebuild replaces it)."""
        return self.catalog_keeper.catalog

    @property
    def approvals(self) -> ApprovalQueue:
        """The calls waiting for a person (kept in the store once it opens)."""
        return self._approvals

    def pending_approvals(self) -> int:
        """How many approvals wait, on every replica as far as the last listing knows."""
        return self._approvals.known

    @property
    def identity(self) -> IdentityConfig | None:
        """How people sign in and what they may do, from the config in force (None: no people, one operator)."""
        return self.config.identity

    def listing_costs(self, tools: Sequence[Mapping[str, Any]] | None = None) -> list[ListingCost]:
        """What `tools/list` costs a client in each search mode: of the whole catalog, or of the `tools` given."""
        return self.discovery.costs(self.catalog, tools)

    @property
    def quarantined(self) -> Mapping[str, Quarantine]:
        """The held tools by public name, each with why it is held."""
        return self.catalog_keeper.quarantined

    async def _on_change(self, server: str, what: str) -> None:
        if what == "status":
            await self.catalog_keeper.prepare()
            self.rebuild()
            await self.broadcast.lists_changed(_STANDARD_KINDS)
        elif what in _STANDARD_KINDS:
            if what == "tools":
                await self.catalog_keeper.prepare()
            self.rebuild((what,))
            await self.broadcast.lists_changed((what,))
        elif what.startswith("resource-updated:"):
            await self.broadcast.resource_updated(what.partition(":")[2])

    async def tools_changed(self) -> None:
        """Rebuild the tool catalog (its inputs changed: pins, overrides) and tell clients their lists changed."""
        self.rebuild(("tools",))
        await self.broadcast.lists_changed(("tools",))

    def tool(self, name: str) -> CatalogEntry | None:
        """The catalog's tool of a public name (None when no server serves it now)."""
        return self.catalog_keeper.catalog.get(name)

    def tools(self) -> list[CatalogEntry]:
        """Every tool of the catalog, in the catalog's order."""
        return list(self.catalog_keeper.catalog.entries.values())

    def server_config(self, name: str) -> ServerConfig | None:
        """The config in force of the MCP server `name`; None when no MCP server has that name."""
        entry = self.config.sources.get(name)
        return entry if isinstance(entry, ServerConfig) else None

    def server(self, name: str) -> Source | None:
        """The source of a server name (None when no such server is configured or enabled)."""
        return self.sources.get(name)

    def servers(self) -> list[Source]:
        """Every configured, enabled server's source, in the config's order."""
        return list(self.sources.values())

    async def end_session(self, session_id: str) -> bool:
        """End an active session of this replica, as if its client had closed it; False when it cannot be.

        A 2026-07-28 session ends at once; a handshake-era HTTP session's connection is closed (its
        `Mcp-Session-Id` answers 404 from then on). A stdio session ends only with its client, and a session
        another replica serves is that replica's to end.
        """
        from hintgate.server import sdk  # the SDK's server side: loaded only when a session is ended

        session = self.sessions.end(session_id)
        if session is None:
            return False
        if not session.active:
            return True  # connectionless: ended above
        manager = sdk.session_manager_of(self.mcp_server) if self.mcp_server is not None else None
        transport = sdk.http_transport(manager, session.transport_id) if manager and session.transport_id else None
        if transport is None:
            return False
        await sdk.end_http_session(transport)
        return True

    async def _follow_overrides(self, interval: float = 2.0, notified_interval: float = 30.0) -> None:
        """Pick up overrides another replica wrote to the shared store (cheap: one counter read).

        On PostgreSQL a change is notified (`LISTEN`), so it is read at once; the
        counter is still read every `notified_interval` seconds in case a
        notification was missed. SQLite has no notifications: it is read every `interval`.
        """
        from hintgate.store.notify import OVERRIDES  # here: the gateway module does not load the store

        assert self.store is not None
        notifications = self.store.notifications
        changed = asyncio.Event()
        if notifications.available:
            notifications.subscribe(OVERRIDES, lambda _payload: changed.set())
        while True:
            if notifications.available:
                # Not `asyncio.wait_for`: on Python 3.11 it returns, instead of raising, when the task is
                # cancelled as the event is set, and this loop would outlive the gateway's stop.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(notified_interval):
                        await changed.wait()
                changed.clear()
            else:
                await asyncio.sleep(interval)
            try:
                overrides = await self.overrides.changed_elsewhere()
                if overrides:
                    self.policy.refresh()
                pins = await self.pins.changed_elsewhere()
                if overrides or pins:
                    await self.tools_changed()
            except HintgateError as exc:
                logger.warning("reading overrides or pins from the store failed: %s", exc)

    # -- telling observers and clients ------------------------------------

    # -- requests ----------------------------------------------------------

    def view_name(self, ctx: RequestContext | None) -> str | None:
        """The view a request came in on: its `/mcp/NAME` endpoint over HTTP, `serve --view` on stdio."""
        request = ctx.request if ctx is not None else None
        if request is None:
            return self.stdio_view
        view = request.scope.get(VIEW_KEY)
        return view if isinstance(view, str) else None

    def listing(self, ctx: RequestContext | None) -> tuple[Listing, View | None]:
        """What the request's client is listed (its view, its person, the search mode) and its view.

        Raises:
            McpError: the request's session was opened on another view, or its view is no longer served.
        """
        session = self.sessions.for_request(ctx) if ctx is not None else None
        name = session.view if session is not None else self.stdio_view
        try:
            view = self.discovery.view(name)
        except KeyError:
            raise to_mcp_error(UnknownName(f"the view {name!r} is not served (any more)")) from None
        principal = session.principal if session is not None else None
        return self.discovery.listing(self.catalog, self.calls.rules, view, principal), view

    def call_target(
        self, ctx: RequestContext | None, params: Mapping[str, Any]
    ) -> tuple[CatalogEntry, Mapping[str, Any] | None] | None:
        """The catalog tool a tools/call runs and its arguments (through `call_tool` too), without side effects
        beyond opening the request's session; None when it runs none (a search, an unknown tool, a bad call)."""
        name, arguments = params.get("name"), params.get("arguments")
        if not isinstance(name, str) or (arguments is not None and not isinstance(arguments, Mapping)):
            return None
        try:
            listing, view = self.listing(ctx)
        except Exception:  # the call itself says what is wrong
            return None
        if name == listing.call_name:
            try:
                name, arguments = parse_call(arguments)
            except BadArguments:
                return None
        entry = self.catalog.get(name)
        if entry is None or (view is not None and not view.admits(entry)):
            return None
        return entry, arguments

    async def call_tool(
        self, ctx: RequestContext | None, params: Mapping[str, Any] | None, *, decided: Decided | None = None
    ) -> dict[str, Any]:
        """Run a tools/call under the policy; returns the upstream's result JSON as it was, or a tool error.

        Every way a call comes in ends here (the SDK's handler, the raw-JSON middleware on any
        transport, stdio's direct calls), so here its session is kept from going idle while the call runs.
        `decided`: the call decided ahead (the HTTP fast path's), handed to the pipeline.
        """
        await self.first_answer.store()  # read ahead at start: decided and recorded once the store is open
        if ctx is None:
            return await self._call_tool(None, params, None)
        with self.sessions.serving(ctx) as session:
            result = await self._call_tool(ctx, params, decided)
            if result.get("resultType") == "input_required":
                # The answer must come back in this session: it stays open while the question does.
                session.hold(self.calls.settings.approval_timeout)
            return result

    async def _call_tool(
        self, ctx: RequestContext | None, params: Mapping[str, Any] | None, decided: Decided | None
    ) -> dict[str, Any]:
        if not isinstance(params, Mapping) or not isinstance(params.get("name"), str):
            raise to_mcp_error(UnknownName("tools/call needs a string 'name'"))
        name = params["name"]
        arguments = params.get("arguments")
        if arguments is not None and not isinstance(arguments, Mapping):
            raise to_mcp_error(UnknownName(f"tools/call {name!r}: 'arguments' must be an object"))
        listing, view = self.listing(ctx)
        if name == listing.search_name:
            return await self.discovery.search(self.catalog, listing, arguments)
        if name == listing.call_name:
            # The tool called through call_tool is decided, asked, recorded and scanned as a direct call of it.
            try:
                name, arguments = parse_call(arguments)
            except BadArguments as exc:
                return tool_error(f"{listing.call_name}: {exc}")
            params = {k: v for k, v in params.items() if k != "arguments"}
            params["name"] = name
            if arguments is not None:
                params["arguments"] = arguments
        entry = self.catalog.get(name)
        if entry is not None and view is not None and not view.admits(entry):
            entry = None  # outside the view: as unknown there as a tool no server has
        if entry is None:
            if view is None and (held := self.quarantined.get(name)) is not None:  # hidden until accepted
                return tool_error(held.notice)
            server = self.catalog_keeper.server_of(name) if view is None else None
            if server is not None and server in self.sources:
                status = self.sources[server].status
                reason = f" ({status.reason})" if status.reason else ""
                return server_down_error(name, server, f"is {status.state.value}{reason}")
            raise to_mcp_error(UnknownName(f"Unknown tool: {name}"))
        return await self.calls(ctx, entry, arguments, params, decided)
