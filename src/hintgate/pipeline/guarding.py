"""The stage that guards what an upstream says before the client reads it: its result, its errors, a task's words.

Every string is read by the poisoning scan (`hintgate.scan`); what speaks to the model, or was not read
within the scan's deadline, is marked, redacted or withheld as `integrity.onResultFinding` says, and
taints the session (later writes ask). The upstream's own `_meta` never reaches the client. For a client
that declared the trust-annotations extension, a result carries its claims (`sources.trust_annotations`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from hintgate.errors import UpstreamRequestError
from hintgate.results import WrittenResult
from hintgate.scan.findings import UNSCANNED, Key, Level, Location, ScanFinding, high_findings
from hintgate.scan.guard import OnResultFinding, redacted
from hintgate.sources.trust_annotations import TRUST, annotated
from hintgate.sources.trust_annotations import claims as trust_claims

if TYPE_CHECKING:
    from hintgate.hints.catalog import CatalogEntry
    from hintgate.outcome import CallAttempt
    from hintgate.pipeline.call_policy import CallPolicy
    from hintgate.policy.decide import CallFacts, SessionState
    from hintgate.scan.workers import Scanner
    from hintgate.session import ClientSession
    from hintgate.sources.base import CallContext

__all__ = ["GuardedCall", "ResultGuard", "TaskCall", "withheld_unread"]

logger = logging.getLogger(__name__)

_READ_DEPTH = 32  # levels of nesting read string by string; deeper, a value is read as its JSON text


class GuardedCall(Protocol):
    """The call whose upstream's words are guarded (a `Decided` call is one)."""

    @property
    def entry(self) -> CatalogEntry:
        """The catalog tool it called."""

    @property
    def facts(self) -> CallFacts:
        """What the policy knows of it (whether its tool's content taints)."""

    @property
    def state(self) -> SessionState:
        """The session state it taints."""

    @property
    def session(self) -> ClientSession | None:
        """Its client session, whose own state is tainted too."""


@dataclass(frozen=True, slots=True)
class TaskCall:
    """A call seen again when its task speaks or ends, after the request that decided it (a `GuardedCall`)."""

    entry: CatalogEntry
    facts: CallFacts
    state: SessionState
    session: ClientSession | None


@dataclass(frozen=True, slots=True, eq=False)
class ResultGuard:
    """Reads what upstreams say with the poisoning scan, and marks, redacts or withholds what speaks to the model.

    Attributes:
        policy: the policy in force (the result action, and the taint setting).
        scanner: runs the scan (off the event loop for long texts, within its deadline).
    """

    policy: CallPolicy
    scanner: Scanner

    async def result(
        self, result: dict[str, Any], call: GuardedCall, attempt: CallAttempt, client: CallContext | None = None
    ) -> dict[str, Any]:
        """A tool's result as the client gets it: scanned (and marked, redacted or withheld), tainting the session;
        for a client that declared the trust-annotations extension, with its claims (`sources.trust_annotations`).

        The upstream's own `_meta` never reaches the client; text the scan did not read counts as flagged.
        What the scan found, and what was done about it, go on `attempt`.
        """
        entry, facts = call.entry, call.facts
        action = self.policy.on_result_finding
        returned = not result.get("isError") and bool(result.get("content") or result.get("structuredContent"))
        upstream = trust_claims(result)  # read before the guard changes the result: a claim, once made, stays
        guarded = await self.scanner.guard(result, action=action, tool=entry.name)
        if guarded.findings:
            attempt.result_findings = tuple(f.to_json() for f in guarded.findings)
            attempt.result_action = action.value
            logger.warning(
                "the result of %s speaks to the model or was not scanned whole (%s); %s it and tainted the session",
                entry.name,
                guarded.summary(),
                {"mark": "marked", "redact": "redacted", "block": "withheld"}[action.value],
            )
        result = guarded.result
        if guarded.json is not None:
            result = WrittenResult(result, guarded.json)  # written once: the answer and the record reuse it
            attempt.written = (result, guarded.json)
        if returned or guarded.findings or upstream:
            self._taint(call, guarded.summary(), upstream.said() or None)
        if client is not None and client.declares(TRUST):
            # Someone else's words: a source not trusted, a tool that reaches the open world, or flagged content.
            untrusted = not facts.trusted or facts.open_world
            result = annotated(result, untrusted=untrusted, upstream=upstream, findings=attempt.result_findings or ())
        return result

    async def error(self, exc: UpstreamRequestError, call: GuardedCall, attempt: CallAttempt) -> UpstreamRequestError:
        """The server's JSON-RPC error as the client gets it: its message and data read like a result."""
        words = {"message": exc.message, "data": exc.data}
        guarded = await self.words(words, call, "the error message")
        if guarded == words:
            return exc
        attempt.result_action = self.policy.on_result_finding.value
        message = guarded["message"] if isinstance(guarded["message"], str) else "the server's error was withheld"
        return UpstreamRequestError(message, code=exc.code, data=guarded["data"], server=exc.server)

    async def words(self, value: Mapping[str, Any], call: GuardedCall, what: str) -> dict[str, Any]:
        """`value` (an upstream's words besides a result: an error, a task's status or questions) as the client
        gets it: every string read by the scan, and redacted, withheld or marked as a result would be; a flagged
        or unread one taints the session. Withheld (`block`), or unread and not marked, a string is replaced whole.
        """
        entry = call.entry
        texts = list(_strings(value))
        if not texts:
            return dict(value)
        found = await self.scanner.strings(texts, tool=entry.name)
        if found is None:  # not read within the deadline: every string counts as flagged
            unread = f"{what} was not scanned: the scan did not finish within {self.scanner.deadline:g} s"
            found = [
                ScanFinding(UNSCANNED, unread, "", 0, len(t), entry.name, severity=Level.HIGH, location=place)
                for place, t in texts
            ]
        high = high_findings(found)
        if not high:
            return dict(value)
        codes = ", ".join(sorted({f.code for f in high}))
        logger.warning(
            "%s of %s speaks to the model or was not scanned (%s); the session is tainted", what, entry.name, codes
        )
        self._taint(call, f"{codes}: {high[0].message}")
        action = self.policy.on_result_finding
        if action is OnResultFinding.MARK:
            return dict(value)
        changed = redacted(value, high) if action is OnResultFinding.REDACT else None
        if changed is None:  # withheld: every flagged string replaced whole
            places = {f.location for f in high}
            whole = (
                f"[hintgate withheld this text of {entry.name}: it speaks to the model or was not scanned ({codes})]"
            )
            changed = _replace_strings(value, places, whole)
        return dict(changed)

    def _taint(self, call: GuardedCall, finding: str | None, claim: str | None = None) -> None:
        settings = self.policy.settings
        call.state.mark_result(call.facts, settings, finding=finding, claim=claim)
        session = call.session
        if session is not None and session.policy is not call.state:
            session.policy.mark_result(call.facts, settings, finding=finding, claim=claim)


def withheld_unread(value: Mapping[str, Any]) -> dict[str, Any]:
    """`value` with every string replaced: the words of a tool no longer listed, which cannot be scanned."""
    whole = "[hintgate withheld this text: its tool is no longer listed, so it could not be scanned]"
    return dict(_replace_strings(value, {place for place, _ in _strings(value)}, whole))


def _strings(value: Any, location: Location = (), depth: int = 0) -> Iterator[tuple[Location, str]]:
    """Every string of a JSON value (keys of mappings too), with its place; a value nested past 32 levels is
    given as its JSON text at its place, so that it is read (and replaced whole when flagged)."""
    if isinstance(value, str):
        yield location, value
    elif depth > _READ_DEPTH and isinstance(value, Mapping | list):
        yield location, json.dumps(value, default=str)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and location:
                yield (*location, Key(key)), key
            yield from _strings(item, (*location, key), depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, (*location, i), depth + 1)


def _replace_strings(value: Any, places: set[Location | None], whole: str, location: Location = ()) -> Any:
    """`value` with the strings (and keys) at `places` replaced by `whole` (a copy; the rest shared)."""
    if location in places:
        return whole
    if isinstance(value, Mapping):
        return {
            (whole if (*location, Key(key)) in places else key): _replace_strings(item, places, whole, (*location, key))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_replace_strings(item, places, whole, (*location, i)) for i, item in enumerate(value)]
    return value
