"""The servers a running gateway serves, changed while it runs: by the API, the CLI, the dashboard, a reload.

`ServerSet` holds the config file as last read and the runtime changes laid
over it (`hintgate.config.layering`), kept in the store when there is one.
Every operation validates first, stores the change, then applies only the
difference to the running gateway (`Gateway.apply_config`): unchanged servers
keep their process and connection, a removed or disabled one is stopped and
its tools leave the catalog, an added, enabled or changed one (re)starts, and
clients are told the lists changed.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from hintgate.config.layering import (
    Action,
    EntryProblem,
    InvalidEntry,
    Layered,
    ServerChange,
    is_overlay,
    lay_over,
    read_entry,
)
from hintgate.config.model import GatewayConfig, ServerConfig, SourceConfig
from hintgate.errors import HintgateError
from hintgate.hints.trust import Trust

if TYPE_CHECKING:
    from hintgate.store import Store

__all__ = [
    "ServerChangeRefused",
    "ServerSet",
    "SourceDiff",
    "UnknownServer",
    "diff_sources",
]

logger = logging.getLogger(__name__)


class UnknownServer(HintgateError):
    """No server of that name is configured (nor changed at run time)."""


class ServerChangeRefused(HintgateError):
    """A change that cannot be made as asked: a name already taken, a source of another kind."""


@dataclass(frozen=True, slots=True)
class SourceDiff:
    """What applying a config changed among the running sources, by name.

    Attributes:
        added: sources that were not running and now are (new, or enabled).
        restarted: sources whose definition changed: stopped and started anew.
        removed: sources that ran and no longer do (removed, or disabled).
        unchanged: sources left exactly as they were (same process, same connection).
    """

    added: tuple[str, ...] = ()
    restarted: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    unchanged: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        """Whether nothing changed."""
        return not (self.added or self.restarted or self.removed)

    def describe(self) -> str:
        """`added a; restarted b; removed c; 2 unchanged`, for the log."""
        parts = [
            f"{verb} {', '.join(names)}"
            for verb, names in (("added", self.added), ("restarted", self.restarted), ("removed", self.removed))
            if names
        ]
        parts.append(f"{len(self.unchanged)} unchanged")
        return "; ".join(parts)


def _runs_as(entry: SourceConfig, config: GatewayConfig) -> tuple[Any, ...]:
    """Everything a running source was built from: equal means the running one can stay."""
    return (entry, config.env_allow, config.timeouts.list)


def diff_sources(old: GatewayConfig, new: GatewayConfig) -> tuple[dict[str, str], SourceDiff]:
    """How the sources of `new` differ from those of `old`.

    Returns the verb for each source that must change (`start`, `restart`,
    `stop`, or `swap` for one that is disabled in both: its new definition
    replaces the old without anything to stop or start), and the diff people see.
    """
    plan: dict[str, str] = {}
    added, restarted, removed, unchanged = [], [], [], []
    for name, entry in new.sources.items():
        before = old.sources.get(name)
        if before is not None and _runs_as(before, old) == _runs_as(entry, new):
            unchanged.append(name)
        elif before is None or not before.enabled:
            plan[name] = "start" if entry.enabled else "swap"
            if entry.enabled:
                added.append(name)
            else:
                unchanged.append(name)
        elif not entry.enabled:
            plan[name] = "stop-keep"
            removed.append(name)
        else:
            plan[name] = "restart"
            restarted.append(name)
    for name, before in old.sources.items():
        if name not in new.sources:
            plan[name] = "stop"
            if before.enabled:
                removed.append(name)
    return plan, SourceDiff(tuple(added), tuple(restarted), tuple(removed), tuple(unchanged))


Apply = Callable[[GatewayConfig], Awaitable[SourceDiff]]


@dataclass(frozen=True, slots=True)
class ChangeResult:
    """What one operation did: the diff applied, and what the entry deserves a look for."""

    diff: SourceDiff
    warnings: tuple[str, ...] = ()
    persisted: bool = True


def _changes(rows: Iterable[Mapping[str, Any]]) -> dict[str, ServerChange]:
    """The stored changes by server name, from the store's rows."""
    return {
        row["name"]: ServerChange(
            name=row["name"],
            action=row["action"],
            config=row["config"],
            changed_at=row["changed_at"],
            changed_by=row["changed_by"],
        )
        for row in rows
    }


class ServerSet:
    """The config file, the runtime changes over it, and the operations that change what runs.

    Args:
        file: the config file as read (the gateway's config at start).
        apply: makes the gateway run a config, changing only the difference.
        store: where changes are kept; without one they last until the gateway stops.
        environ: what `${VAR}` in an added server may refer to.
    """

    def __init__(self, file: GatewayConfig, *, apply: Apply, store: Store | None, environ: Mapping[str, str]) -> None:
        self._apply = apply
        self._store = store
        self._environ = environ
        self._changes: dict[str, ServerChange] = {}
        self.layered = Layered(config=file, file=file)
        self._lock = asyncio.Lock()

    def attach(self, store: Store) -> None:
        """Keep changes in `store` from now on (opened after a start that read them ahead: `load_rows`)."""
        self._store = store

    @property
    def persisted(self) -> bool:
        """Whether changes outlive the gateway (kept in its store)."""
        return self._store is not None

    def origin(self, name: str) -> str:
        """`runtime` when a server's definition comes from a runtime change, else `config`."""
        return self.layered.origin(name)

    def change(self, name: str) -> ServerChange | None:
        """The runtime change in force for a server, if any."""
        return self.layered.changes.get(name)

    async def load(self) -> GatewayConfig:
        """Read the stored changes and lay them over the file; returns the config to run (nothing applied)."""
        if self._store is not None:
            self._changes = await self._stored()
        self.layered = self._lay(self.layered.file)
        return self.layered.config

    def load_rows(self, rows: Iterable[Mapping[str, Any]]) -> GatewayConfig:
        """Lay the stored changes read ahead of the store (`hintgate.stored_state`) over the file, as `load` does."""
        self._changes = _changes(rows)
        self.layered = self._lay(self.layered.file)
        return self.layered.config

    async def _stored(self) -> dict[str, ServerChange]:
        assert self._store is not None
        return _changes(await self._store.server_changes.all())

    follow_interval = 5.0
    """Seconds between two looks at the store for changes other gateways made."""

    async def follow(self) -> None:
        """Apply the changes other gateways sharing the store make (replicas), every `follow_interval` seconds."""
        while True:
            await asyncio.sleep(self.follow_interval)
            try:
                await self.catch_up()
            except HintgateError as exc:
                logger.warning("reading server changes from the store failed: %s", exc)

    async def catch_up(self) -> SourceDiff | None:
        """Run the stored changes if they differ from those in force; returns the diff, or None when equal."""
        if self._store is None:
            return None
        async with self._lock:
            stored = await self._stored()
            if _effect(stored) == _effect(self._changes):
                return None
            self._changes = stored
            layered = self._lay(self.layered.file)
            diff = await self._apply(layered.config)
            self.layered = layered
            logger.info("server changes made elsewhere applied: %s", diff.describe())
            return diff

    def _lay(self, file: GatewayConfig) -> Layered:
        layered = lay_over(file, self._changes.values(), environ=self._environ)
        for problem in layered.problems:
            logger.warning("%s", problem)
        return layered

    # -- a new config file ---------------------------------------------------

    async def reload_file(self, file: GatewayConfig) -> SourceDiff:
        """Run a newly read config file, with the runtime changes laid over it again."""
        async with self._lock:
            layered = self._lay(file)
            diff = await self._apply(layered.config)
            self.layered = layered
            return diff

    # -- runtime operations --------------------------------------------------

    async def add(self, name: str, entry: Any, *, actor: str) -> ChangeResult:
        """Add a server that does not run yet (an `mcpServers` entry).

        Raises:
            ServerChangeRefused: a source of that name exists.
            InvalidEntry: the entry is not valid, each problem with its JSON path.
        """
        async with self._lock:
            current = self.layered.config.sources
            if name in current:
                kind = current[name].kind
                raise ServerChangeRefused(f"a {_noun(kind)} named {json.dumps(name)} exists; edit it with PUT instead")
            action: Action = "edit" if name in self.layered.file.sources else "add"
            return await self._define(name, entry, action, actor)

    async def edit(self, name: str, entry: Any, *, actor: str) -> ChangeResult:
        """Replace a server's definition with a new `mcpServers` entry (the whole entry).

        Raises:
            UnknownServer: no server of that name.
            ServerChangeRefused: the source of that name is not an MCP server.
            InvalidEntry: the entry is not valid.
        """
        async with self._lock:
            current = self._existing(name)
            if not isinstance(current, ServerConfig):
                raise ServerChangeRefused(
                    f"{json.dumps(name)} is an {_noun(current.kind)}; only MCP servers are edited at run time"
                )
            action: Action = "edit" if name in self.layered.file.sources else "add"
            return await self._define(name, entry, action, actor)

    async def remove(self, name: str, *, actor: str) -> ChangeResult:
        """Stop a server and take it out of the set (for a file's server, until the change is reset).

        Raises:
            UnknownServer: no server of that name.
        """
        async with self._lock:
            self._existing(name)
            if name in self.layered.file.sources:
                change = ServerChange(name, "remove", None, datetime.now(UTC), actor)
                return await self._commit(name, change)
            return await self._commit(name, None)

    async def set_enabled(self, name: str, enabled: bool, *, actor: str) -> ChangeResult:
        """Enable or disable a server.

        Raises:
            UnknownServer: no server of that name.
        """
        async with self._lock:
            self._existing(name)
            before = self._changes.get(name)
            action: Action = "enable" if enabled else "disable"
            if before is not None and before.config is not None:
                return await self._commit(name, ServerChange(name, action, before.config, datetime.now(UTC), actor))
            file_entry = self.layered.file.sources.get(name)
            if file_entry is not None and file_entry.enabled == enabled:
                return await self._commit(name, None)  # as the file has it: no change needed
            return await self._commit(name, ServerChange(name, action, None, datetime.now(UTC), actor))

    async def set_trust(self, name: str, trust: Trust, *, actor: str) -> ChangeResult:
        """Set how far a server's declared hints are believed; kept as a runtime change until reset.

        Raises:
            UnknownServer: no server of that name.
        """
        async with self._lock:
            current = self._existing(name)
            before = self._changes.get(name)
            now = datetime.now(UTC)
            if before is not None and before.config is not None and not is_overlay(before.config):
                entry = {**before.config, "trust": trust.value}
                return await self._commit(name, ServerChange(name, before.action, entry, now, actor))
            action: Action = before.action if before is not None else ("enable" if current.enabled else "disable")
            return await self._commit(name, ServerChange(name, action, {"trust": trust.value}, now, actor))

    async def reset(self, name: str, *, actor: str) -> ChangeResult:
        """Drop a server's runtime change: the config file's entry (or none) applies again.

        Raises:
            UnknownServer: the server has no runtime change.
        """
        async with self._lock:
            if name not in self._changes:
                raise UnknownServer(f"server {json.dumps(name)} has no runtime change to reset")
            logger.info("server %r: runtime change reset by %s", name, actor)
            return await self._commit(name, None)

    # -- the steps -----------------------------------------------------------

    def _existing(self, name: str) -> SourceConfig:
        current = self.layered.config.sources.get(name)
        if current is None:
            raise UnknownServer(f"no server named {json.dumps(name)}")
        return current

    async def _define(self, name: str, entry: Any, action: Action, actor: str) -> ChangeResult:
        others = {n: s for n, s in self.layered.config.sources.items() if n != name}
        _, warnings = read_entry(name, entry, base=self.layered.file, environ=self._environ, others=others)
        stored = {k: v for k, v in entry.items() if k != "name"}
        result = await self._commit(name, ServerChange(name, action, stored, datetime.now(UTC), actor))
        return ChangeResult(result.diff, warnings, result.persisted)

    async def _commit(self, name: str, change: ServerChange | None) -> ChangeResult:
        """Store the change (or drop the server's), then run the config it makes."""
        changes = dict(self._changes)
        if change is None:
            changes.pop(name, None)
        else:
            changes[name] = change
        layered = lay_over(self.layered.file, changes.values(), environ=self._environ)
        if change is not None and name not in layered.changes:
            # Validated above, so only a clash with what runs now can get here.
            raise InvalidEntry([EntryProblem((), "; ".join(layered.problems) or "cannot be applied")])
        if self._store is not None:
            if change is None:
                await self._store.server_changes.clear(name)
            else:
                await self._store.server_changes.set(name, change.action, change.config, actor=change.changed_by)
        self._changes = changes
        verb = change.action if change is not None else "reset"
        logger.info("server %r: %s (%s)", name, verb, change.changed_by if change else "runtime change dropped")
        diff = await self._apply(layered.config)
        self.layered = layered
        return ChangeResult(diff, persisted=self._store is not None)


def _effect(changes: Mapping[str, ServerChange]) -> dict[str, tuple[str, str]]:
    """What changes do, without when or by whom: equal means the same servers run."""
    return {n: (c.action, json.dumps(c.config, sort_keys=True)) for n, c in changes.items()}


def _noun(kind: str) -> str:
    from hintgate.config.types import source_type

    return source_type(kind).noun
