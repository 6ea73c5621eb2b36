"""What the pipeline stages' tests share: a notes server's tools, one session, a policy a test replaces, calls."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from hintgate.config.model import Trust
from hintgate.hints.catalog import CatalogEntry, build_catalog, resolve_tool
from hintgate.pipeline import Decided
from hintgate.policy.decide import CallFacts, Decision, DecisionSource
from hintgate.policy.in_force import PolicyInForce
from hintgate.policy.rules import PolicySettings, Verdict
from hintgate.session import ClientSession
from hintgate.testing import FakeSource

ERA = "2025-11-25"

READ_NOTES = {
    "name": "read_notes",
    "description": "Read the notes.",
    "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}},
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
}
WRITE_NOTE = {
    "name": "write_note",
    "description": "Write a note.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    "annotations": {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False},
}


def notes(**handlers: Any) -> FakeSource:
    """A trusted notes server with a read and a write."""
    return FakeSource("notes", tools=[READ_NOTES, WRITE_NOTE], handlers=handlers, trust=Trust.TRUSTED)


def entry_of(source: FakeSource, tool: str) -> CatalogEntry:
    """The catalog entry of one of the source's tools (`notes_read_notes`...)."""
    tools = [resolve_tool(raw, trusted=True) for raw in source.tools]
    return build_catalog([(source.name, source.prefix, tools)]).entries[f"{source.prefix}_{tool}"]


class OneSession:
    """Every request is of one handshake-era session."""

    def __init__(self) -> None:
        self.session = ClientSession("s1", "client", "1", "http", ERA, datetime.now(UTC))

    def for_request(self, ctx: Any) -> ClientSession:
        return self.session


class Policy:
    """The policy in force: a test replaces it whole, as the gateway's keeper does."""

    def __init__(self, settings: PolicySettings) -> None:
        self.value = PolicyInForce(settings)

    def __call__(self) -> PolicyInForce:
        return self.value


def request(*, elicits: bool = False, version: str = ERA) -> Any:
    """A request's context as the pipeline reads it (a client that can be asked, when `elicits`)."""
    caps = SimpleNamespace(elicitation=SimpleNamespace(form=None, url=None)) if elicits else None
    return SimpleNamespace(protocol_version=version, request_id=7, session=SimpleNamespace(client_capabilities=caps))


def decided(
    entry: CatalogEntry,
    arguments: Mapping[str, Any] | None,
    session: ClientSession | None,
    verdict: Verdict = Verdict.ALLOW,
    *,
    ctx: Any = None,
    settings: PolicySettings | None = None,
) -> Decided:
    """A call decided as the test says (`verdict`), in `session`'s own state."""
    facts = CallFacts.from_entry(entry, arguments, None)
    state = session.policy if session is not None else OneSession().session.policy
    decision = Decision(verdict, f"{verdict.value} by the test", DecisionSource.RULE)
    return Decided(
        ctx, entry, arguments, session, state, facts, settings or PolicySettings(), (), decision, time.time()
    )
