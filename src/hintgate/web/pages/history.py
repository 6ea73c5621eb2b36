"""What ran: recent sessions, one session with its calls in order, and the filtered call history."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, get_args
from urllib.parse import urlencode

from hintgate.web.api import SessionStatusName
from hintgate.web.badges import TIER_LABELS, Badge, hint_badges, tier_badge, verdict_badge
from hintgate.web.pages.catalog import TIERS
from hintgate.web.pages.frame import Choice, Layout, Moment, layout, pretty_json

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway
    from hintgate.store import CallFilter, Store

__all__ = [
    "CALLS_PER_PAGE",
    "SESSION_STATUSES",
    "VERDICTS",
    "CallDetail",
    "CallRow",
    "CallsFilters",
    "CallsPage",
    "SessionPage",
    "SessionRow",
    "SessionTab",
    "SessionsPage",
    "call_detail",
    "call_row",
    "calls_page",
    "session_page",
    "sessions_page",
]

VERDICTS: tuple[str, ...] = ("allow", "approved", "denied", "deny", "expired", "withdrawn")
CALLS_PER_PAGE = 25
_EXECUTION_NAMES = {"retry": "Retry by the gateway", "client_retry": "Retry by the client"}
"""How a call that did not run directly ran (`execution_type`), as shown."""


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A client session as listed."""

    id: str
    href: str
    client: str
    status: str
    started: Moment | None
    ended: Moment | None
    calls: int
    tokens: int
    transport: str | None
    replica: str | None = None
    user: str | None = None
    """The person who opened it (`api-token` for the API token); None when the gateway knew no users."""
    view: str | None = None
    """The view it was served (`/mcp/NAME`, `serve --view NAME`); None for the whole catalog."""


def _session_row(row: Mapping[str, Any]) -> SessionRow:
    client = " ".join(filter(None, (row.get("client_name"), row.get("client_version")))) or "unknown client"
    return SessionRow(
        id=row["id"],
        href=f"/sessions/{row['id']}",
        client=client,
        status=row.get("status") or "active",
        started=Moment.parse(row.get("started_at")),
        ended=Moment.parse(row.get("ended_at")),
        calls=int(row.get("tool_call_count") or 0),
        tokens=int(row.get("total_tokens") or 0),
        transport=row.get("transport"),
        replica=row.get("replica"),
        user=row.get("user_name"),
        view=row.get("view"),
    )


SESSION_STATUSES: tuple[str, ...] = get_args(SessionStatusName)


@dataclass(frozen=True, slots=True)
class SessionTab:
    """One of the sessions page's tabs (every session, active ones, closed ones)."""

    label: str
    href: str
    current: bool


@dataclass(frozen=True, slots=True)
class SessionsPage:
    """Recent sessions, filtered by status, replica and person; `recording` False when there is no store.

    `people` is whether the gateway knows people (an `identity` section, or a person asked for): the
    page then shows who opened each session, linked to that person's sessions and calls.
    """

    layout: Layout
    recording: bool
    sessions: list[SessionRow]
    tabs: list[SessionTab]
    status: str | None = None
    replica: str | None = None
    every_replica_href: str = "/sessions"
    user: str | None = None
    people: bool = False
    everyone_href: str = "/sessions"
    user_calls_href: str = "/calls"

    def replica_href(self, replica: str) -> str:
        """This page's tab, showing only `replica`'s sessions."""
        return _sessions_href(self.status, replica, self.user)

    def user_href(self, user: str) -> str:
        """This page's tab, showing only `user`'s sessions."""
        return _sessions_href(self.status, self.replica, user)


def _sessions_href(status: str | None, replica: str | None, user: str | None = None) -> str:
    pairs = [(k, v) for k, v in (("status", status), ("replica", replica), ("user", user)) if v]
    return "/sessions" + ("?" + urlencode(pairs) if pairs else "")


async def sessions_page(
    gateway: Gateway,
    store: Store | None,
    *,
    status: str | None = None,
    replica: str | None = None,
    user: str | None = None,
    limit: int = 50,
    owner: str | None = None,
) -> SessionsPage:
    """The most recent sessions, newest first: every one, the active or the closed ones; all replicas' or one's;
    everyone's or one person's; only `owner`'s (all the reader may see) when given."""
    rows = (
        []
        if store is None
        else await store.recent_sessions(limit, status=status, replica=replica, user=user, owner=owner)
    )
    tabs = [
        SessionTab(label, _sessions_href(value, replica, user), status == value)
        for value, label in ((None, "All"), ("active", "Active"), ("closed", "Closed"))
    ]
    return SessionsPage(
        layout(gateway, "Sessions", "sessions"),
        store is not None,
        [_session_row(r) for r in rows],
        tabs,
        status,
        replica,
        _sessions_href(status, None, user),
        user,
        people=gateway.identity is not None or user is not None or any(r.get("user_name") for r in rows),
        everyone_href=_sessions_href(status, replica, None),
        user_calls_href="/calls" + ("?" + urlencode({"user": user}) if user else ""),
    )


@dataclass(frozen=True, slots=True)
class CallRow:
    """A recorded call as listed.

    Attributes:
        id: the call's id.
        tool: the tool's public name.
        server: the server it ran on.
        session_id: its session, if known.
        started: when it started.
        duration: how long it took, as shown ("12.3 ms").
        badges: the hints in force at call time.
        tier: the tier at call time, as a badge when the hint badges do not already say it.
        verdict: the final verdict as a badge.
        reason: why the policy decided so.
        rule: which rule or setting decided.
        approver: who answered, when a person was asked, as shown ("answered by api"); a question the
            client withdrew (it cancelled or went away) says so instead.
        error: the error, if the call failed.
        tokens: input plus output tokens.
        execution: how it ran when not directly ("Retry by the gateway", "Retry by the client"), else None.
        parent_id: the call it repeats, for a retry.
        result_finding: what the poisoning scan found in the result and did with it, when it spoke to the
            model ("HG611, HG612 in the result: redacted"), else None.
        user: the person who made it (`api-token` for the API token); None when the gateway knew no users.
    """

    id: str
    tool: str
    server: str
    session_id: str | None
    started: Moment | None
    duration: str
    badges: list[Badge]
    tier: Badge | None
    verdict: Badge
    reason: str | None
    rule: str | None
    approver: str | None
    error: str | None
    tokens: int
    execution: str | None = None
    parent_id: str | None = None
    result_finding: str | None = None
    user: str | None = None


def _result_finding(decision: Mapping[str, Any]) -> str | None:
    findings = decision.get("result_findings")
    if not isinstance(findings, list) or not findings:
        return None
    codes = ", ".join(sorted({str(f.get("code")) for f in findings if isinstance(f, Mapping)}))
    done = {"mark": "marked", "redact": "redacted", "block": "withheld"}.get(str(decision.get("result_action")), "")
    return f"The result spoke to the model ({codes}): {done}, and the session was tainted."


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _answered(decision: Mapping[str, Any]) -> str | None:
    approver = decision.get("approver")
    if decision.get("approval") == "withdrawn":
        return "withdrawn while it waited: the client cancelled it or went away, so it never ran"
    return None if not approver else f"answered by {approver}"


def call_row(row: Mapping[str, Any]) -> CallRow:
    """A listed call from the store's record."""
    snapshot = _mapping(row.get("hints"))
    annotations = _mapping(snapshot.get("annotations"))
    decision = _mapping(row.get("decision"))
    return CallRow(
        id=row["id"],
        tool=row["tool_name"],
        server=row["server_id"],
        session_id=row.get("session_id"),
        started=Moment.parse(row.get("started_at")),
        duration=f"{float(row.get('duration_ms') or 0):.1f} ms",
        badges=hint_badges(annotations, _mapping(snapshot.get("provenance"))) if annotations else [],
        tier=tier_badge(row.get("tier")),
        verdict=verdict_badge(row.get("verdict")),
        reason=decision.get("reason"),
        rule=decision.get("source"),
        approver=_answered(decision),
        error=row.get("error"),
        tokens=int(row.get("input_tokens") or 0) + int(row.get("output_tokens") or 0),
        execution=_EXECUTION_NAMES.get(row.get("execution_type") or "direct"),
        parent_id=row.get("parent_call_id"),
        result_finding=_result_finding(decision),
        user=row.get("user_name"),
    )


@dataclass(frozen=True, slots=True)
class SessionPage:
    """One session, its aggregates and its calls in order."""

    layout: Layout
    session: SessionRow
    errors: int
    input_tokens: int
    output_tokens: int
    tiers: list[tuple[str, int]]
    verdicts: list[tuple[str, int]]
    calls: list[CallRow]
    taint: str | None = None
    """While the session is open: which tool's content tainted it and why (writes ask since)."""

    @property
    def live(self) -> bool:
        """Whether the calls list keeps itself up to date (the session is still active)."""
        return self.session.status == "active"


async def session_page(
    gateway: Gateway, store: Store, session_id: str, *, owner: str | None = None
) -> SessionPage | None:
    """A session's page; None when the store has no such session (or `owner`, when given, did not open it)."""
    from hintgate.store import CallFilter

    row = await store.session(session_id, owner=owner)
    if row is None:
        return None
    calls = await store.calls(CallFilter(session_id=session_id, owner=owner), limit=1000)
    session = _session_row(row)
    return SessionPage(
        layout=layout(gateway, f"Session {session.client}", "sessions"),
        session=session,
        errors=int(row.get("errors") or 0),
        input_tokens=int(row.get("input_tokens") or 0),
        output_tokens=int(row.get("output_tokens") or 0),
        tiers=sorted((TIER_LABELS.get(k, k), v) for k, v in (row.get("tiers") or {}).items()),
        verdicts=sorted(
            (verdict_badge(None if k == "none" else k).text, v) for k, v in (row.get("verdicts") or {}).items()
        ),
        calls=[call_row(c) for c in calls],
        taint=_taint(gateway, session_id),
    )


def _taint(gateway: Gateway, session_id: str) -> str | None:
    """What tainted a session the gateway holds open, in a sentence; None when nothing did (or it is gone)."""
    live = gateway.sessions.get(session_id)
    state = None if live is None else live.policy
    if state is None or state.tainted_by is None:
        return None
    why = f" ({state.taint_reason})" if state.taint_reason else ""
    return f"{state.tainted_by} returned content{why}; writes in this session ask since."


_CALL_QUERY = ("server", "tool", "tier", "verdict", "user")
"""The fields of a `CallFilter` the call history's query string carries, in the order it writes them."""


@dataclass(frozen=True, slots=True)
class CallsFilters:
    """The call history's filters as given (a field left None does not filter), and how far into it the page is."""

    where: CallFilter
    offset: int = 0

    def wanted(self, owner: str | None = None) -> CallFilter:
        """The calls these filters pick, for the store; `owner`'s only (all the reader may see) when given."""
        return replace(self.where, owner=owner)

    def query(self, **changes: Any) -> str:
        """This filter set's query string, with `changes` applied."""
        values = {name: getattr(self.where, name) for name in _CALL_QUERY}
        values.update(changes)
        offset = changes.get("offset", self.offset)
        pairs = [(k, v) for k, v in values.items() if v and k != "offset"]
        if offset:
            pairs.append(("offset", str(offset)))
        return "?" + urlencode(pairs) if pairs else ""


@dataclass(frozen=True, slots=True)
class CallsPage:
    """The call history, filtered and paged."""

    layout: Layout
    recording: bool
    calls: list[CallRow]
    filters: CallsFilters
    server_choices: list[Choice]
    tool_choices: list[Choice]
    tier_choices: list[Choice]
    verdict_choices: list[Choice]
    newer_href: str | None
    older_href: str | None
    people: bool = False
    """Whether the gateway knows people (an identity provider): the page then filters by person."""


async def calls_page(
    gateway: Gateway, store: Store | None, filters: CallsFilters, *, owner: str | None = None
) -> CallsPage:
    """The call history page; `owner`'s calls only (all the reader may see) when given."""
    rows: list[dict[str, Any]] = []
    if store is not None:
        rows = await store.calls(filters.wanted(owner), limit=CALLS_PER_PAGE + 1, offset=filters.offset)
    more = len(rows) > CALLS_PER_PAGE
    where = filters.where
    tools = sorted({entry.name for entry in gateway.tools()} | ({where.tool} if where.tool else set()))
    verdict_names = {
        "allow": "Allowed",
        "approved": "Approved (asked)",
        "denied": "Denied (asked)",
        "deny": "Denied",
        "expired": "Expired (nobody answered)",
        "withdrawn": "Withdrawn (the caller left)",
    }
    return CallsPage(
        layout=layout(gateway, "Calls", "calls"),
        recording=store is not None,
        calls=[call_row(r) for r in rows[:CALLS_PER_PAGE]],
        filters=filters,
        server_choices=[Choice("", "Every server", where.server is None)]
        + [Choice(s, s, where.server == s) for s in sorted(gateway.sources)],
        tool_choices=[Choice("", "Every tool", where.tool is None)] + [Choice(t, t, where.tool == t) for t in tools],
        tier_choices=[Choice("", "Every tier", where.tier is None)]
        + [Choice(t, TIER_LABELS[t], where.tier == t) for t in TIERS],
        verdict_choices=[Choice("", "Every verdict", where.verdict is None)]
        + [Choice(v, verdict_names[v], where.verdict == v) for v in VERDICTS],
        newer_href="/calls" + filters.query(offset=max(0, filters.offset - CALLS_PER_PAGE)) if filters.offset else None,
        older_href="/calls" + filters.query(offset=filters.offset + CALLS_PER_PAGE) if more else None,
        people=gateway.identity is not None or where.user is not None,
    )


@dataclass(frozen=True, slots=True)
class CallDetail:
    """A call's arguments, response and decision, shown on demand."""

    id: str
    arguments_json: str
    arguments_truncated: bool
    response_json: str
    response_truncated: bool
    response_size: int | None
    decision_json: str


async def call_detail(store: Store, call_id: str, *, owner: str | None = None) -> CallDetail | None:
    """A call's details; None when there is no such call (or `owner`, when given, did not make it)."""
    row = await store.call(call_id, owner=owner)
    if row is None:
        return None
    return CallDetail(
        id=row["id"],
        arguments_json=pretty_json(row.get("arguments")),
        arguments_truncated=bool(row.get("arguments_truncated")),
        response_json=pretty_json(row.get("response")),
        response_truncated=bool(row.get("response_truncated")),
        response_size=row.get("response_size"),
        decision_json=pretty_json(row.get("decision")),
    )
