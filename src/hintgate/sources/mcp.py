"""Upstream MCP servers as sources: connected, listed, watched and restarted.

The connection itself (`sources.connection`) and its channels
(`sources.channels`: hintgate's own stdio, the SDK's streamable HTTP) live in
their own modules; this one supervises a server through them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

from hintgate.config.model import HttpTransport, ServerConfig
from hintgate.errors import (
    HintgateError,
    InputRequired,
    UpstreamError,
    UpstreamNeedsLogin,
    UpstreamRequestError,
    UpstreamTimeout,
)
from hintgate.policy.principal import Principal, PrincipalKind
from hintgate.random_ids import random_hex
from hintgate.results import tool_error
from hintgate.sources.base import (
    CallContext,
    ChangeListener,
    ConfiguredSource,
    SourceState,
    SourceStatus,
    upstream_down,
)
from hintgate.sources.connection import McpConnection, NotificationHandler, RequestHandler, ServerInfo, connect
from hintgate.sources.handshake import CLIENT_CAPABILITIES
from hintgate.sources.oauth import NOT_LOGGED_IN, Credentials, GatewayAuth, gateway_auth, oauth_of
from hintgate.sources.personal import PersonalConnections
from hintgate.sources.processes import Prestarted
from hintgate.sources.resolution import offers_resolution
from hintgate.sources.tasks import offers_tasks, tasks_declared

__all__ = ["PERSON_LOGIN_WAIT", "REFRESH_INTERVAL", "McpUpstream"]

logger = logging.getLogger(__name__)

_RESERVED_META = "io.modelcontextprotocol/"


def _hop_meta(meta: Mapping[str, Any] | None) -> dict[str, Any]:
    """A request's `_meta` minus the protocol's own keys, which belong to one hop.

    A 2026-07-28 client puts its protocol version, info and capabilities there;
    passed on, they would tell a handshake-era upstream the request is of an
    era its connection does not speak.
    """
    if not meta:
        return {}
    return {k: v for k, v in meta.items() if not k.startswith(_RESERVED_META)}


_PINGS_MISSED_LIMIT = 3

REFRESH_INTERVAL = 1.0
"""Seconds at least between two listings of one kind after `list_changed`: a server that sends it in a loop costs
one listing (and one catalog rebuild) a second. The notifications that arrive meanwhile wait as one
(`hintgate.sources.notifications`), so the listing made after the wait is the last one: it wins."""

REFRESH_COST_FACTOR = 10.0
"""A listing that took (with the catalog rebuild it caused) `t` seconds is followed by `t` times this at least
before the next: a server whose listings are costly may take a tenth of the gateway's time at most."""

REFRESH_MAX_INTERVAL = 300.0
"""Seconds at most between two listings of one kind, however costly the last one was."""

PERSON_LOGIN_WAIT = 300.0
"""Seconds a call waits for its person to log in, once their client agreed to open the login page."""

_LOGIN_REQUEST = "login"
"""The key a 2026-07-28 client's login question and its answer travel under."""


class McpUpstream(ConfiguredSource):
    """One upstream MCP server, kept running: started, listed, watched and restarted.

    `run()` is the supervisor: it connects, lists tools, prompts and resources,
    and when the connection ends marks the server down with the reason and
    restarts it with exponential backoff (1 s doubling to 30 s). Listeners hear
    of every change so the gateway can rebuild its catalog and tell its clients.

    A stdio child's exit ends its connection at once; a remote server going
    away does not (HTTP has no connection to lose while idle), so a streamable
    HTTP upstream is pinged every `ping_interval` seconds while idle and a
    failed exchange (refused connection, lost session, pings unanswered)
    ends the connection the same way.

    Besides what every source does, it has every capability of
    `sources.capabilities`: it forwards requests, serves prompts and
    resources, may resolve calls and run tasks, and may sit behind a login.

    One concept for all its methods: one upstream server as the gateway reaches it. They are the
    supervisor's steps, the requests made on its connection, the answers to what its server asks, and the
    same for a person's own connection to it (`oauth.perUser`), which differs only in whose login it uses;
    every one reads the connection's state.
    """

    def __init__(
        self,
        config: ServerConfig,
        *,
        env: Mapping[str, str],
        list_timeout: float = 30.0,
        listener: ChangeListener | None = None,
        ping_interval: float = 15.0,
        login_poll: float = 5.0,
        prestarted: Prestarted | None = None,
    ) -> None:
        super().__init__(config, listener=listener)
        self._prestarted = prestarted
        self.config: ServerConfig = config
        self._env = env
        self.prompts: list[dict[str, Any]] = []
        self.resources: list[dict[str, Any]] = []
        self.resource_templates: list[dict[str, Any]] = []
        self._list_timeout = list_timeout
        self._ping_interval = ping_interval
        self._connection: McpConnection | None = None
        self._progress_tokens = itertools.count(1)
        self._progress: dict[str, CallContext] = {}
        self._calls: dict[int, CallContext] = {}
        self._call_ids = itertools.count(1)
        self._refreshing: set[str] = set()
        self._refreshed_at: dict[str, float] = {}  # loop time of the last listing of each kind
        self._refresh_gap: dict[str, float] = {}  # seconds the next listing of each kind waits, by the last one's cost
        self._stale: set[str] = set()  # kinds changed again while a listing of them was fetched
        self._refresh_tasks: set[asyncio.Task[None]] = set()  # listings waiting out the interval
        self._login_poll = login_poll
        self._logged_in = asyncio.Event()
        self._logged_out = asyncio.Event()
        self.credentials: Credentials | None = None
        """Where OAuth logins are kept (the gateway sets it); a server behind OAuth needs it."""
        self._login_version: object | None = None  # the stored login last opened and found to hold tokens
        oauth = oauth_of(config)
        self.personal = PersonalConnections(config, self._open) if oauth and oauth.per_user else None
        """Each person's own connection, for a server that logs in per person (`oauth.perUser`); else None."""
        self.login_page: str | None = None
        """Where a person logs in to it (the gateway sets it from its identity section), for a per-person login."""

    @property
    def info(self) -> ServerInfo | None:
        """What it said about itself in its last handshake."""
        return self._connection.info if self._connection else None

    @property
    def offers_resolution(self) -> bool:
        """Whether its last handshake offered the Tool Resolution extension (it answers tools/resolve)."""
        info = self.info
        return info is not None and offers_resolution(info.capabilities)

    @property
    def instructions(self) -> str | None:
        """What its last handshake told the model about it (`instructions`), if anything."""
        info = self.info
        return info.instructions if info is not None else None

    @property
    def tasks_outlive_gateway(self) -> bool:
        """Whether its tasks outlive this gateway: a server reached by URL, not a stdio child of it."""
        return isinstance(self.config.transport, HttpTransport)

    @property
    def logs_in_per_person(self) -> bool:
        """Whether each person logs in to it with their own account (`oauth.perUser`)."""
        return self.personal is not None

    @property
    def offers_tasks(self) -> bool:
        """Whether its last handshake offered the Tasks extension (it may answer a call with a task handle)."""
        info = self.info
        return info is not None and offers_tasks(info.capabilities)

    async def run(self) -> None:
        """Supervise the server until cancelled."""
        try:
            await self.supervise(self._attempt)
        finally:
            if self.personal is not None:
                self.personal.close_all()

    async def _attempt(self) -> str | None:
        """Connect and serve until the connection ends; why it ended, or None once a needed login happened."""
        reason = await self._run_once()
        self.tools, self.prompts, self.resources, self.resource_templates = [], [], [], []
        if isinstance(reason, UpstreamNeedsLogin):
            await self._wait_for_login(reason.detail)
            return None
        return reason

    def logged_in(self) -> None:
        """Someone logged in (the dashboard's Connect): a server waiting in `needs_login` connects now."""
        self._logged_in.set()

    def logged_out(self) -> None:
        """Its login was forgotten (through the API): a connected server goes to `needs_login` now."""
        self._logged_out.set()

    async def _login_gone(self) -> str | None:
        """Why a server behind OAuth has no login any more (forgotten, or refused in another process); else None."""
        if self.credentials is None or not oauth_of(self.config):
            return None
        # Asked at every ping: the stored login is opened (decrypted) only when it was written since.
        try:
            version = await self.credentials.version(self.name)
            if version is not None and version == self._login_version:
                return None
            document = None if version is None else await self.credentials.load(self.name)
        except HintgateError as exc:
            return str(exc)
        if document is None:
            return "it was logged out: its tokens were forgotten"
        if not document.get("tokens"):
            return str(document.get("refused") or NOT_LOGGED_IN)
        self._login_version = version
        return None

    async def _wait_for_login(self, reason: str) -> None:
        """Stay in `needs_login` until a login happened, here or in another process (seen in the store)."""
        logger.warning("%s needs an OAuth login: %s", self.name, self.redact.text(reason))
        self._first_attempt.set()
        self._logged_in.clear()
        await self._set_status(SourceStatus(SourceState.NEEDS_LOGIN, reason, restarts=self._status.restarts))
        seen: object | None = None  # the stored login last opened here: opened again only once rewritten
        while not self._logged_in.is_set():
            try:
                async with asyncio.timeout(self._login_poll):
                    await self._logged_in.wait()
            except TimeoutError:
                if self.credentials is None:
                    continue
                try:
                    version = await self.credentials.version(self.name)
                    if version is None or version == seen:
                        continue
                    document = await self.credentials.load(self.name)
                except HintgateError:
                    continue
                seen = version
                if document and document.get("tokens"):
                    return

    async def _run_once(self) -> str | UpstreamNeedsLogin:
        """Connect, serve until the connection ends; returns why it ended."""
        try:
            auth = await gateway_auth(self.config, self.credentials) if oauth_of(self.config) else None
            async with self._open(auth) as connection:
                self._connection = connection
                await self._refresh_all(connection)
                await self.started()
                if isinstance(self.config.transport, HttpTransport):
                    return await self._watch(connection)
                closed = await connection.wait_closed()
                return closed.detail
        except UpstreamNeedsLogin as exc:
            return exc
        except UpstreamError as exc:
            return exc.detail
        except OSError as exc:  # a broken pipe or similar the transport did not translate
            return f"{type(exc).__name__}: {exc}"
        except Exception as exc:  # whatever a transport raises must not end the supervision
            logger.exception("%s: the connection failed unexpectedly", self.name)
            return f"{type(exc).__name__}: {exc}"
        finally:
            self._connection = None
            for task in list(self._refresh_tasks):
                task.cancel()

    async def _watch(self, connection: McpConnection) -> str:
        """Wait for a remote connection to end, pinging it while idle; returns why it ended.

        A refused connection or a lost session ends the connection itself (the
        ping only provokes the exchange); pings that go unanswered
        `_PINGS_MISSED_LIMIT` times in a row end it here. A server behind OAuth
        whose login is gone from the store goes to `needs_login`.
        """
        ended = asyncio.ensure_future(connection.wait_closed())
        self._logged_out.clear()
        logged_out = asyncio.ensure_future(self._logged_out.wait())
        missed = 0
        try:
            while True:
                waits: set[asyncio.Future[Any]] = {ended, logged_out}
                await asyncio.wait(waits, timeout=self._ping_interval, return_when=asyncio.FIRST_COMPLETED)
                if ended.done():
                    if isinstance(ended.result(), UpstreamNeedsLogin):
                        raise ended.result()
                    return ended.result().detail
                # A logout here or in another process (`hintgate auth logout`) is seen at once or within a ping.
                gone = await self._login_gone()
                if gone is not None:
                    raise UpstreamNeedsLogin(gone, server=self.name)
                if logged_out.done():
                    self._logged_out.clear()
                    logged_out = asyncio.ensure_future(self._logged_out.wait())
                try:
                    await connection.request("ping", timeout=self._ping_interval)
                    missed = 0
                except UpstreamTimeout as exc:
                    missed += 1
                    if missed >= _PINGS_MISSED_LIMIT:
                        return f"{missed} pings in a row went unanswered ({exc.detail})"
                except UpstreamRequestError:
                    missed = 0  # it answered, if only to refuse
                except UpstreamError:
                    continue  # the connection ended: `ended` says why
        finally:
            ended.cancel()
            logged_out.cancel()

    async def _refresh_all(self, connection: McpConnection) -> None:
        caps = connection.info.capabilities if connection.info else {}
        self.tools = await self._list(connection, "tools/list", "tools") if "tools" in caps else []
        self.prompts = await self._list(connection, "prompts/list", "prompts") if "prompts" in caps else []
        if "resources" in caps:
            self.resources = await self._list(connection, "resources/list", "resources")
            self.resource_templates = await self._list(
                connection, "resources/templates/list", "resourceTemplates", optional=True
            )

    async def _list(
        self, connection: McpConnection, method: str, key: str, *, optional: bool = False
    ) -> list[dict[str, Any]]:
        try:
            return await connection.list_all(method, key, timeout=self._list_timeout)
        except UpstreamRequestError as exc:
            if optional and exc.code == -32601:
                return []
            raise

    async def _on_notification(self, method: str, params: dict[str, Any] | None) -> None:
        if method == "notifications/progress" and params:
            context = self._progress.get(str(params.get("progressToken")))
            if context is not None:
                await context.progress(params.get("progress", 0), params.get("total"), params.get("message"))
            return
        kind = {
            "notifications/tools/list_changed": "tools",
            "notifications/prompts/list_changed": "prompts",
            "notifications/resources/list_changed": "resources",
        }.get(method)
        if kind is not None:
            await self._list_changed(kind)
        elif method == "notifications/resources/updated":
            await self._notify("resource-updated:" + str((params or {}).get("uri", "")))
        elif method == "notifications/message":
            # A log line of the server's, most likely about a call in flight: it goes
            # to that call's client when there is only one it can be; never a guess.
            owner = self._owner()
            if owner is not None:
                await owner.client_notify(method, params)
            else:
                logger.info("%s: %s", self.name, self.redact.value((params or {}).get("data")))

    async def _list_changed(self, kind: str) -> None:
        """A `list_changed` of `kind`: listed now, or, within a second of the last listing, once that second ends.

        The later listing runs in a task of its own: the notifications of this
        connection are handled one at a time, and a call's progress must not
        wait behind a list change. A change that arrives while a later listing
        is pending is covered by it; one that arrives while it is fetched makes
        it list again, so the last listing wins.
        """
        if self._connection is None:
            return
        if kind in self._refreshing:
            self._stale.add(kind)
            return
        gap = self._refresh_gap.get(kind, REFRESH_INTERVAL)
        wait = self._refreshed_at.get(kind, -gap) + gap - asyncio.get_running_loop().time()
        if wait <= 0:
            await self._refresh(kind)
            return
        self._refreshing.add(kind)
        task = asyncio.get_running_loop().create_task(self._refresh(kind, after=wait), name=f"refresh:{kind}")
        self._refresh_tasks.add(task)
        task.add_done_callback(self._refresh_tasks.discard)

    async def _refresh(self, kind: str, *, after: float = 0.0) -> None:
        self._refreshing.add(kind)
        loop = asyncio.get_running_loop()
        try:
            while True:
                if after > 0:
                    await asyncio.sleep(after)
                connection = self._connection
                if connection is None:
                    return
                self._stale.discard(kind)
                self._refreshed_at[kind] = loop.time()
                if kind == "tools":
                    self.tools = await self._list(connection, "tools/list", "tools")
                elif kind == "prompts":
                    self.prompts = await self._list(connection, "prompts/list", "prompts")
                else:
                    self.resources = await self._list(connection, "resources/list", "resources")
                if kind not in self._stale:
                    break
                # Changed again while it was listed: list once more, once the last listing's gap has passed.
                after = self._refresh_gap.get(kind, REFRESH_INTERVAL)
        except UpstreamError as exc:
            logger.warning("%s: refreshing %s failed: %s", self.name, kind, exc.detail)
            return
        finally:
            self._refreshing.discard(kind)
        await self._notify(kind)
        self._measured(kind, loop.time() - self._refreshed_at[kind])

    def _measured(self, kind: str, cost: float) -> None:
        """Space the next listing of `kind` by what this one cost (its listing and the rebuild it caused)."""
        gap = min(REFRESH_MAX_INTERVAL, max(REFRESH_INTERVAL, REFRESH_COST_FACTOR * cost))
        before = self._refresh_gap.get(kind, REFRESH_INTERVAL)
        self._refresh_gap[kind] = gap
        if gap > 2 * REFRESH_INTERVAL and gap > 1.5 * before:
            logger.warning(
                "%s: listing its %s took %.1f s with the catalog it rebuilt; its next list_changed is listed "
                "%.0f s after this one at the earliest",
                self.name,
                kind,
                cost,
                gap,
            )

    async def _on_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        # Neither stdio nor the SDK's HTTP client says which call a server's request
        # belongs to: it goes to the client only when just one client has calls here.
        if not self._calls:
            raise UpstreamRequestError(f"{method} arrived while no client call was in progress", code=-32603)
        owner = self._owner()
        if owner is None:
            clients = len({context.session_key for context in self._calls.values()})
            raise UpstreamRequestError(
                f"hintgate cannot tell which client {method} is for: {len(self._calls)} calls from "
                f"{clients} clients are in flight on this server, and nothing in the request names one",
                code=-32603,
            )
        return await owner.client_request(method, params)

    def _owner(self) -> CallContext | None:
        """The caller the server's own requests and logs belong to: the one client with calls here, else None."""
        if not self._calls or len({context.session_key for context in self._calls.values()}) != 1:
            return None
        return self._calls[max(self._calls)]

    def _require(self) -> McpConnection:
        connection = self.serving(self._connection)
        if connection.closed is not None:
            # Ended, and the supervisor has not yet marked it down: say why now.
            raise upstream_down(self.name, SourceStatus(SourceState.DOWN, connection.closed.detail))
        return connection

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        meta: Mapping[str, Any] | None,
        context: CallContext,
    ) -> dict[str, Any]:
        """Forward a tools/call; returns the upstream's result JSON untouched.

        Raises:
            UpstreamDown: the server is not up.
            UpstreamError: the call failed (timeout, crash, JSON-RPC error).
        """
        person = self._person(context)
        connection = self._require() if person is None else None
        params: dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        token: str | None = None
        forwarded = _hop_meta(meta)
        if self.offers_tasks:
            # The gateway takes task handles for every client: it hands them on, or waits for the task's end.
            forwarded.update(tasks_declared())
        if forwarded:
            if "progressToken" in forwarded:
                # Tokens are the client's; several clients share this upstream, so
                # the gateway mints its own and maps progress back.
                token = f"hintgate-{next(self._progress_tokens)}"
                forwarded["progressToken"] = token
                self._progress[token] = context
            params["_meta"] = forwarded
        call_id = next(self._call_ids)
        self._calls[call_id] = context
        try:
            if person is not None:
                return await self._as_person(person, "tools/call", params, context, tool=name)
            assert connection is not None
            return await connection.request("tools/call", params, timeout=self.config.call_timeout)
        finally:
            del self._calls[call_id]
            if token is not None:
                del self._progress[token]

    async def request(self, method: str, params: dict[str, Any] | None, *, context: CallContext) -> dict[str, Any]:
        """Forward any other request (prompts/get, resources/read, completion/complete...)."""
        person = self._person(context)
        connection = self._require() if person is None else None
        if params and "_meta" in params:
            meta = _hop_meta(params["_meta"])
            params = {k: v for k, v in params.items() if k != "_meta"}
            if meta:
                params["_meta"] = meta
        call_id = next(self._call_ids)
        self._calls[call_id] = context
        try:
            if person is not None:
                return await self._as_person(person, method, params, context, tool=None)
            assert connection is not None
            return await connection.request(method, params, timeout=self.config.call_timeout)
        finally:
            del self._calls[call_id]

    # -- a server that logs in per person

    def _person(self, context: CallContext) -> Principal | None:
        """The person whose own connection a request takes: None for the shared one.

        Only a server that logs in per person has such connections, and only a
        person (a token from the identity provider) uses one; the API token and
        the machine's own user are the operator, who uses the shared login.
        """
        if self.personal is None:
            return None
        principal = context.principal
        return principal if principal is not None and principal.kind is PrincipalKind.USER else None

    def _open(self, auth: GatewayAuth | None, person: str | None = None) -> AbstractAsyncContextManager[McpConnection]:
        """A connection to the server as its config says to reach it: the shared one, or `person`'s own
        (`oauth.perUser`: what the server sends on it concerns that person's calls only)."""
        on_notification: NotificationHandler = self._on_notification
        on_request: RequestHandler = self._on_request
        if person is not None:
            on_notification = functools.partial(self._on_person_notification, person)
            on_request = functools.partial(self._on_person_request, person)
        return connect(
            self.config.transport,
            server=self.name,
            env=self._env,
            startup_timeout=self.config.startup_timeout,
            capabilities=CLIENT_CAPABILITIES,
            on_notification=on_notification,
            on_request=on_request,
            redact=self.redact,
            on_drop=self.count_dropped,
            auth=auth,
            prestarted=self._prestarted if person is None else None,
        )

    def _person_calls(self, person: str) -> list[CallContext]:
        return [c for c in self._calls.values() if (p := c.principal) is not None and p.key == person]

    async def _on_person_notification(self, person: str, method: str, params: dict[str, Any] | None) -> None:
        if method == "notifications/progress" and params:
            context = self._progress.get(str(params.get("progressToken")))
            if context is not None and context in self._person_calls(person):
                await context.progress(params.get("progress", 0), params.get("total"), params.get("message"))
        elif method == "notifications/message":
            calls = self._person_calls(person)
            if len({c.session_key for c in calls}) == 1:
                await calls[-1].client_notify(method, params)
        # A list change seen on a person's connection is the shared listing's business: it lists on its own.

    async def _on_person_request(self, person: str, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        # Only this person's calls can own a request from their own connection.
        calls = self._person_calls(person)
        if len({c.session_key for c in calls}) != 1:
            raise UpstreamRequestError(
                f"hintgate cannot tell which of {person}'s clients {method} is for ({len(calls)} calls in flight)",
                code=-32603,
            )
        return await calls[-1].client_request(method, params)

    async def _as_person(
        self, who: Principal, method: str, params: dict[str, Any] | None, context: CallContext, *, tool: str | None
    ) -> dict[str, Any]:
        """Send a request on the person's own connection (found by their key); until they log in, answer how to.

        Raises:
            UpstreamRequestError: a request other than a tool call, while the person has not logged in.
            UpstreamError: the request failed.
        """
        assert self.personal is not None
        if self.credentials is None:
            raise UpstreamRequestError(
                f"server {self.name!r} logs in per person, and this gateway keeps no logins (it runs without a store)",
                code=-32603,
            )
        person = who.key
        credentials = self.credentials.person(person, who.name)
        # A login forgotten or written elsewhere (`hintgate auth logout --user`, a refresh on another replica)
        # is seen at the next call: one indexed read of the sealed row before it and one after, nothing decrypted.
        with contextlib.suppress(HintgateError):
            self.personal.check(person, await credentials.version(self.name))
        for attempt in (1, 2):
            try:
                async with self.personal.use(person, credentials) as connection:
                    try:
                        return await connection.request(method, params, timeout=self.config.call_timeout)
                    finally:
                        with contextlib.suppress(HintgateError):
                            self.personal.saw(person, await credentials.version(self.name))
            except UpstreamNeedsLogin as exc:
                self.personal.close(person)
                text = self._login_text(who.name, exc.detail, tool)
                if tool is None:
                    raise UpstreamRequestError(text, code=-32603) from None
                if attempt == 2 or not await self._person_logs_in(person, credentials, context, text):
                    return tool_error(text)
        raise AssertionError("unreachable")  # pragma: no cover

    def _login_text(self, person: str, reason: str, tool: str | None) -> str:
        where = f"log in at {self.login_page}" if self.login_page else "ask the operator for the gateway's login page"
        # `tool` is the server's own name for it; the client knows it by the gateway's (prefixed) name.
        again = ", then call the tool again" if tool else ", then ask again"
        why = "" if reason == NOT_LOGGED_IN else f" ({reason})"
        return (
            f"{person} is not logged in to server {self.name!r}, which each person logs in to on their own"
            f"{why}: {where}{again}."
        )

    async def _person_logs_in(self, person: str, credentials: Credentials, context: CallContext, text: str) -> bool:
        """Send the person to the login page through their client (URL-mode elicitation); whether they logged in.

        False at once when the client cannot open a page for its user or declines. A 2026-07-28 client,
        which cannot be sent a request during a call, is asked in the call's result (`InputRequired`) and
        answers on its next call.

        Raises:
            InputRequired: a 2026-07-28 client is to be sent to the login page; its next call carries the answer.
        """
        assert self.personal is not None
        if self.login_page is None or not context.elicits_url:
            return False
        if context.asks_in_result:
            answer = context.input_response(_LOGIN_REQUEST)
            if answer is None:
                # No elicitationId at 2026-07-28: nothing follows the question to say the page was done with.
                ask = {"mode": "url", "message": text, "url": self.login_page}
                raise InputRequired(
                    text,
                    {_LOGIN_REQUEST: {"method": "elicitation/create", "params": ask}},
                    open_for=PERSON_LOGIN_WAIT,  # an approval the call had lasts while the person logs in
                )
            # What the client says is only a hint: the kept login is what lets the call run.
            accepted = answer.get("action") == "accept"
            return accepted and await self.personal.wait_for_login(
                person, credentials, PERSON_LOGIN_WAIT, poll=self._login_poll
            )
        elicitation = random_hex()
        ask = {"mode": "url", "message": text, "url": self.login_page, "elicitationId": elicitation}
        try:
            answer = await context.client_request("elicitation/create", ask)
        except UpstreamRequestError as exc:
            logger.info("%s: the login page could not be offered to %s: %s", self.name, person, exc.detail)
            return False
        if answer.get("action") != "accept":
            return False
        if not await self.personal.wait_for_login(person, credentials, PERSON_LOGIN_WAIT, poll=self._login_poll):
            return False
        await context.client_notify("notifications/elicitation/complete", {"elicitationId": elicitation})
        return True

    def person_logged_in(self, person: str) -> None:
        """The person whose key is `person` logged in here (the gateway's login page): their waiting calls go on,
        on a new connection."""
        if self.personal is not None:
            self.personal.logged_in(person)

    def person_logged_out(self, person: str) -> None:
        """The login of the person whose key is `person` was forgotten: their connection closes now."""
        if self.personal is not None:
            self.personal.close(person)
