"""What every dashboard page shares: the frame (title, nav section, pending count), times, choices, errors."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = [
    "Choice",
    "ErrorPage",
    "Layout",
    "LoginPage",
    "Moment",
    "ServerState",
    "ServersFragment",
    "layout",
    "pretty_json",
]


@dataclass(frozen=True, slots=True)
class ServerState:
    """A configured source as the frame's banner and the catalog's server list show it.

    Attributes:
        name: the source's name.
        state: "up", "down", "restarting", "starting", "disabled" or "needs_login" (an OAuth login is needed).
        reason: why it is not up (the error), if known.
        retry: when the next restart attempt is planned, if one is.
        since: when it entered this state.
        tools: how many tools it lists now.
        trust: "trusted", "local" or "untrusted".
        trust_from: where the trust came from: "config", "origin" (the default for where it runs) or "runtime".
        origin: "config" (the config file's entry) or "runtime" (an entry changed while the gateway runs).
        change: the runtime change in force ("add", "edit", "enable", "disable"), if any.
        oauth: it logs in with OAuth (its entry has an `oauth` block).
        per_person: each person logs in to it with their own account (`oauth.perUser`).
    """

    name: str
    state: str
    reason: str | None
    retry: Moment | None
    since: Moment | None
    tools: int
    trust: str
    origin: str = "config"
    trust_from: str = "config"
    change: str | None = None
    oauth: bool = False
    per_person: bool = False

    @property
    def up(self) -> bool:
        """Whether it serves its tools."""
        return self.state == "up"


@dataclass(frozen=True, slots=True)
class Layout:
    """What every page's frame needs.

    Attributes:
        title: the page's own title (the `<title>` adds " · hintgate").
        section: the nav entry to mark current (catalog, sessions, calls, approvals, settings).
        pending: approvals waiting, for the count in the nav.
        servers: every configured source's state, for the banner when one is not up.
        held: tools held until an operator accepts them, for the count beside Changes.
        mine: the signed-in person's own login to each server that logs in per person (name: logged in);
            empty when no person is signed in.
        may: the permissions of the reader's role (`hintgate.policy.roles.Permission` values): the page
            leaves out the controls the role may not use (the server refuses them anyway).
        people: whether the gateway knows people (an `identity` section).
    """

    title: str
    section: str
    pending: int
    servers: tuple[ServerState, ...] = ()
    held: int = 0
    mine: Mapping[str, bool] = field(default_factory=dict)
    may: frozenset[str] = frozenset()
    people: bool = False

    @property
    def operates(self) -> bool:
        """Whether the reader may change what runs for everyone (`gateway:operate`)."""
        return "gateway:operate" in self.may

    @property
    def reads_settings(self) -> bool:
        """Whether the reader may read how the gateway is set up (`settings:read`)."""
        return "settings:read" in self.may

    @property
    def not_up(self) -> tuple[ServerState, ...]:
        """The sources that are not serving their tools: the banner names them."""
        return tuple(s for s in self.servers if not s.up)


@dataclass(frozen=True, slots=True)
class Moment:
    """A point in time: machine-readable and as shown."""

    iso: str
    text: str

    @classmethod
    def parse(cls, value: Any) -> Moment | None:
        """From an ISO 8601 string or a datetime; None stays None."""
        if value is None:
            return None
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
        zone = moment.strftime(" %Z") if moment.tzinfo is not None else ""
        return cls(moment.isoformat(), moment.strftime("%Y-%m-%d %H:%M:%S") + zone)


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a select or radio group."""

    value: str
    label: str
    selected: bool


def _when(epoch: float | None) -> Moment | None:
    return None if epoch is None else Moment.parse(datetime.fromtimestamp(epoch, tz=UTC))


def _logs_in(gateway: Gateway, name: str) -> tuple[bool, bool]:
    """Whether the server logs in with OAuth, and whether each person logs in to it."""
    from hintgate.sources.oauth import oauth_of

    server = gateway.server_config(name)
    oauth = oauth_of(server) if server is not None else None
    return oauth is not None, oauth is not None and oauth.per_user


def server_states(gateway: Gateway) -> tuple[ServerState, ...]:
    """Every configured source's state, in the config's order."""
    states = []
    for source in gateway.servers():
        oauth, per_person = _logs_in(gateway, source.name)
        states.append(
            ServerState(
                name=source.name,
                state=source.status.state.value,
                # A listing problem (a name listed twice, none of its copies served) shows beside the state's reason.
                reason="; ".join(filter(None, (source.status.reason, *gateway.catalog_keeper.problems_of(source.name))))
                or None,
                retry=_when(source.status.retry_at),
                since=_when(source.status.since),
                tools=len(source.tools),
                trust=source.trust.value,
                trust_from=source.trust_from.value,
                origin=gateway.server_set.origin(source.name),
                change=change.action if (change := gateway.server_set.change(source.name)) is not None else None,
                oauth=oauth,
                per_person=per_person,
            )
        )
    return tuple(states)


def layout(gateway: Gateway, title: str, section: str) -> Layout:
    """The frame of a page: its title, its nav section, the pending approvals and held tools, the servers' states."""
    return Layout(
        title=title,
        section=section,
        pending=gateway.pending_approvals(),
        servers=server_states(gateway),
        held=len(gateway.quarantined),
    )


@dataclass(frozen=True, slots=True)
class ServersFragment:
    """The catalog page's server list alone, refreshed after a server is changed."""

    layout: Layout


def pretty_json(value: Any) -> str:
    """JSON for people: indented, non-ASCII kept."""
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False, default=str)


@dataclass(frozen=True, slots=True)
class ErrorPage:
    """A page saying what went wrong."""

    layout: Layout
    status: int
    message: str


@dataclass(frozen=True, slots=True)
class LoginPage:
    """The sign-in form a browser gets when the token is required: the token, and the page to go to after.

    Attributes:
        next: the page asked for (a path of this gateway), where signing in leads.
        message: why the last attempt failed, if one did.
        loopback: whether the gateway listens on this machine only (loopback), which the page says.
    """

    next: str
    message: str | None = None
    loopback: bool = False
