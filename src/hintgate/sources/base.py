"""What every source of tools offers the gateway: status, listings, calls.

Sources are upstream MCP servers (`sources.mcp`), OpenAPI documents and Python
registries. The gateway talks to all of them through `Source` (what only some
of them do is named in `sources.capabilities`); each keeps its
tools as the JSON objects an MCP `tools/list` would carry, so the catalog
resolves hints the same way whatever the origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from hintgate.config.model import SourceConfig, SourceTraits
from hintgate.derived import Derived
from hintgate.errors import UpstreamDown
from hintgate.hints.facts import ToolFacts
from hintgate.policy.principal import Principal
from hintgate.redaction import Redactor

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

__all__ = [
    "Backoff",
    "CallContext",
    "ChangeListener",
    "ConfiguredSource",
    "Source",
    "SourceConfig",
    "SourceState",
    "SourceStatus",
    "ToolFacts",
    "upstream_down",
]


class SourceState(enum.StrEnum):
    """Where a source is in its life."""

    STARTING = "starting"
    UP = "up"
    DOWN = "down"
    RESTARTING = "restarting"
    DISABLED = "disabled"
    NEEDS_LOGIN = "needs_login"
    """A server behind OAuth without a usable token: someone must log in; the reason says why."""


@dataclass(frozen=True, slots=True)
class SourceStatus:
    """A source's state, why it is in it, and since when.

    Attributes:
        state: the state.
        reason: why it is down or restarting (the error), else None.
        since: wall-clock time the state began.
        restarts: how many times it was restarted after failing.
        retry_at: wall-clock time of the next restart attempt, when one is planned.
        notifications_dropped: how many of its notifications were dropped since the gateway started
            because too many waited (a flood).
    """

    state: SourceState
    reason: str | None = None
    since: float = field(default_factory=time.time)
    restarts: int = 0
    retry_at: float | None = None
    notifications_dropped: int = 0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: every field, the state by its value."""
        return {**dataclasses.asdict(self), "state": self.state.value}


ChangeListener = Callable[[str, str], Awaitable[None]]
"""Called with (source name, what changed: "tools" | "prompts" | "resources" | "status")."""


class CallContext(Protocol):
    """What a source may ask of the client that made a call, while the call runs."""

    @property
    def session_key(self) -> object:
        """Equal for calls from the same client session (hashable), so a source can tell whose a message is."""

    @property
    def principal(self) -> Principal | None:
        """Who made the request, as the gateway verified it (None on stdio or without an identity provider)."""

    @property
    def elicits_url(self) -> bool:
        """Whether the client declared URL-mode elicitation (it can send its user to a web page)."""

    @property
    def asks_in_result(self) -> bool:
        """Whether questions reach this client in the call's result (2026-07-28), not as requests during it."""

    def declares(self, extension: str) -> bool:
        """Whether the client declared the protocol extension `extension` (its capabilities' `extensions`)."""

    def input_response(self, key: str) -> Mapping[str, Any] | None:
        """The client's answer, carried by this call, to the question asked under `key` in an earlier result."""

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        """Report progress of the call to its client (dropped if the client asked for none)."""

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """Relay a request (elicitation, sampling, roots) to the calling client and return its result."""

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        """Relay a notification (a log message) to the calling client."""


class Source(SourceTraits, Protocol):
    """A provider of tools behind the gateway: what every source does.

    The gateway runs `run()` as a task for the gateway's lifetime, waits for
    `wait_started()` before it serves, and reads the tools whenever a
    listener call says they changed. What only some sources do (prompts and
    resources, other requests, tasks, tool resolution, logins) is a named
    capability in `sources.capabilities` that a caller tests for. What it says
    of itself as its config does (name, kind, trust, prefix, call timeout,
    which tools it serves) is `SourceTraits`.
    """

    @property
    def startup_timeout(self) -> float:
        """Seconds its start may take."""

    @property
    def status(self) -> SourceStatus:
        """Its current status."""

    @property
    def tools(self) -> Sequence[Mapping[str, Any]]:
        """Its tools as MCP JSON objects (empty unless up)."""

    def tool_facts(self, raw: Mapping[str, Any]) -> ToolFacts:
        """What it knows about one of its listed tools beyond the JSON: the resolver's other inputs."""

    async def run(self) -> None:
        """Start, and keep it running until cancelled (restarting what fails)."""

    async def wait_started(self, timeout: float) -> None:
        """Return once the first start attempt succeeded or failed, or after `timeout` s."""

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None, *, meta: Mapping[str, Any] | None, context: CallContext
    ) -> dict[str, Any]:
        """Call a tool by its source-side name; returns the MCP `CallToolResult` JSON.

        Raises:
            UpstreamDown: the source is not up.
            UpstreamError: the call failed.
        """


_NO_FACTS = ToolFacts()


def upstream_down(name: str, status: SourceStatus) -> UpstreamDown:
    """The error for a call to a source that is not up: its state, why, and when it is retried."""
    if status.state is SourceState.NEEDS_LOGIN:
        return UpstreamDown(
            f"needs an OAuth login ({status.reason}): run `hintgate auth login {name}` or press Connect "
            "in the dashboard",
            server=name,
        )
    reason = f": {status.reason}" if status.reason else ""
    retry = f"; next restart in {max(0, status.retry_at - time.time()):.0f} s" if status.retry_at else ""
    return UpstreamDown(f"is {status.state.value}{reason}{retry}", server=name)


class Backoff:
    """Seconds to wait before restarting what failed: doubling from `first` up to `maximum`.

    A run that stayed up longer than `stable_after` seconds counts as healthy,
    so its failure starts the doubling over instead of continuing it.
    """

    def __init__(self, first: float = 1.0, maximum: float = 30.0, stable_after: float = 60.0) -> None:
        self.first = first
        self.maximum = maximum
        self.stable_after = stable_after
        self.failures = 0

    def next_delay(self, up_for: float = 0.0) -> float:
        """Count one more failure after a run of `up_for` seconds; the delay before the next attempt."""
        self.failures = 1 if up_for > self.stable_after else self.failures + 1
        return min(self.first * 2.0 ** (self.failures - 1), self.maximum)


def _from_config(read: Callable[[SourceConfig], _T]) -> Derived[ConfiguredSource, _T]:
    """One of `SourceTraits`' members that a `ConfiguredSource` answers as its config entry does."""
    return Derived(lambda source: read(source.config))


class ConfiguredSource:
    """What the sources share: their config's identity, status, tools, first start, listener.

    Subclasses implement `run` and `call_tool`, override what differs
    (`tool_facts`, `wants`), and add the capabilities they have
    (`sources.capabilities`).
    """

    startup_default = 30.0
    """Seconds the gateway waits for a first start when the config sets no startup timeout."""

    def __init__(self, config: SourceConfig, *, listener: ChangeListener | None = None) -> None:
        self.config = config
        self._listener = listener
        self._status = SourceStatus(SourceState.STARTING if config.enabled else SourceState.DISABLED)
        self.tools: list[dict[str, Any]] = []
        self._first_attempt = asyncio.Event()
        secrets = getattr(config, "secrets", None)  # Python registries hold none
        self.redact = Redactor(secrets() if secrets is not None else ())
        """Hides the config's secrets in upstream text hintgate shows (status reasons, errors, logs)."""

    # What it says of itself (`SourceTraits`) is what its config entry says, read from `config` at each use;
    # read-only: a trait is changed by giving the source another config entry.
    name = _from_config(lambda config: config.name)
    kind = _from_config(lambda config: config.kind)
    trust = _from_config(lambda config: config.trust)
    trust_from = _from_config(lambda config: config.trust_from)
    prefix = _from_config(lambda config: config.prefix)
    call_timeout = _from_config(lambda config: config.call_timeout)

    @property
    def startup_timeout(self) -> float:
        """Seconds its start may take."""
        timeout: float = getattr(self.config, "startup_timeout", self.startup_default)
        return timeout

    @property
    def status(self) -> SourceStatus:
        """Its current status."""
        return self._status

    def wants(self, tool_name: str) -> bool:
        """Whether the config's include / exclude globs let a tool through."""
        return self.config.wants(tool_name)

    def tool_facts(self, raw: Mapping[str, Any]) -> ToolFacts:
        """The config file's overrides and title for a tool; its declared hints stay in `annotations`."""
        override = self.config.override_for(str(raw.get("name", "")))
        return ToolFacts(overrides=override.hints, title=override.title) if override else _NO_FACTS

    def upstream_down(self) -> UpstreamDown:
        """The error a call gets while the source is not up."""
        return upstream_down(self.name, self._status)

    def serving(self, handle: _T | None) -> _T:
        """`handle`, what a call goes through (a connection, an HTTP client, a registry), while the source is up.

        Raises:
            UpstreamDown: the source is not up, or has no handle yet.
        """
        if handle is None or self._status.state is not SourceState.UP:
            raise self.upstream_down()
        return handle

    async def supervise(self, attempt: Callable[[], Awaitable[str | None]], *, verb: str = "restarting") -> None:
        """Run `attempt` until cancelled, and again each time it ends: every source's one supervision loop.

        `attempt` starts the source and serves until it fails, returning why.
        Then the source is down with that reason and the time of the next
        attempt, waits (`Backoff`: doubling, from the start again after a run
        that stayed up a while) and is restarting. An attempt that returns
        None waited for what makes trying again at once worthwhile (a login):
        the next one starts at once, with the backoff started over. A disabled
        source is never attempted. Once stopped, a source that failed reads
        down with its last reason: nothing restarts it any more.

        Args:
            attempt: one start and serve of the source; returns why it ended.
            verb: what the log line says is done next ("restarting", "retrying").
        """
        if not self.config.enabled:
            self._first_attempt.set()
            return
        clock = asyncio.get_running_loop().time
        backoff = Backoff()
        try:
            while True:
                started = clock()
                reason = await attempt()
                if reason is None:
                    backoff = Backoff()
                    continue
                delay = backoff.next_delay(up_for=clock() - started)
                await self.wait_to_retry(reason, delay, restarts=self._status.restarts, verb=verb)
                await self._set_status(SourceStatus(SourceState.RESTARTING, reason, restarts=self._status.restarts + 1))
        finally:
            # Stopped: no restart is under way or planned any more; a failed source is down, with its last reason.
            if self._status.state is SourceState.RESTARTING or self._status.retry_at is not None:
                self._status = dataclasses.replace(self._status, state=SourceState.DOWN, retry_at=None)

    async def wait_to_retry(self, reason: str, delay: float, *, restarts: int, verb: str = "restarting") -> None:
        """Mark the source down with `reason`, say when it is retried, and wait `delay` s."""
        reason = self.redact.text(reason)
        logger.warning("%s is down (%s); %s in %g s", self.name, reason, verb, delay)
        self._first_attempt.set()
        await self._set_status(SourceStatus(SourceState.DOWN, reason, restarts=restarts, retry_at=time.time() + delay))
        await asyncio.sleep(delay)

    async def started(self) -> None:
        """Mark the source up, its restarts so far kept: its first start attempt is over."""
        self._first_attempt.set()
        await self._set_status(SourceStatus(SourceState.UP, restarts=self._status.restarts))

    async def wait_started(self, timeout: float) -> None:
        """Wait until the first start attempt has succeeded or failed (at most `timeout` s)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._first_attempt.wait()

    def count_dropped(self, count: int) -> None:
        """Count notifications dropped in a flood; the status shows the total (no listener is told)."""
        self._status = dataclasses.replace(
            self._status, notifications_dropped=self._status.notifications_dropped + count
        )

    async def _set_status(self, status: SourceStatus) -> None:
        if status.reason is not None and self.redact:
            status = dataclasses.replace(status, reason=self.redact.text(status.reason))
        self._status = dataclasses.replace(status, notifications_dropped=self._status.notifications_dropped)
        await self._notify("status")

    async def _notify(self, what: str) -> None:
        if self._listener is not None:
            try:
                await self._listener(self.name, what)
            except Exception:
                logger.exception("%s: change listener failed", self.name)
