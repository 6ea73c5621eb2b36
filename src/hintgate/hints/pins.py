"""Tool pins: the definition of every tool as an operator (or first use) accepted it, and what a change is.

Pure. A pin is kept per (server, upstream tool name). Its hash is SHA-256
over the tool's canonical form: a JSON object of the definition's `name`,
`title`, `description`, `inputSchema`, `outputSchema`, `annotations`,
`icons` and `execution` as the server declared them (absent and null members
left out), written with sorted keys, no insignificant whitespace and
non-ASCII characters as they are (UTF-8): every member of a tool the MCP
spec defines but `_meta`, of which only what the gateway serves is covered (a
Python registry's category and tags, `PINNED_META`). Any change to what a
client is given changes the hash.

When a pinned tool's hash changes, `classify` says what kind of change it is:

| change                                           | outcome                       |
|--------------------------------------------------|-------------------------------|
| only whitespace inside string values, the same   | cosmetic: accepted, pin moves |
|   keys at every level                            |                               |
| only hints, each one riskier                     | riskier: accepted, recorded   |
| hints that got safer (alone or with riskier)     | quarantined                   |
| anything else (text, schema, annotation title)   | quarantined                   |

A definition the poisoning scan flags is never accepted without an operator:
not on first use, not as cosmetic or riskier (`reconcile`'s `flagged`). An
operator's review covers exactly the definition they accepted: a change
accepted without one is not reviewed, so it is scanned again.

A tool never seen before is accepted on first use unless its server is
pinned by hand (`pin: manual`), its name is close to a pinned tool of
another server (`close_name`), or the same listing dropped one of the
server's tools (a rename, or one tool swapped for another); then it is
quarantined. A pinned tool no longer listed by its (running) server is
recorded as removed. A name listed twice by one server is a protocol error:
`reconcile` leaves its pin as it was and reports it (`Reconciled.duplicates`). An operator
may keep a held tool blocked (`Pin.block`): it stays held, out of the review
list, until its definition changes again. `reconcile`
applies all of this to a set of pins and a listing and returns the pins that
changed and the events to record.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import functools
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hintgate.hints.annotations import SPEC_DEFAULTS
from hintgate.hints.names import skeleton
from hintgate.hints.others import OtherTools, tool_owners

__all__ = [
    "CANONICAL_KEYS",
    "DIFF_MAX_LINES",
    "PINNED_META",
    "RELAUNCHED",
    "SCAN_HOLD",
    "Change",
    "ChangeKind",
    "Pin",
    "PinBlock",
    "PinEvent",
    "PinState",
    "Reconciled",
    "canonical",
    "canonical_json",
    "classify",
    "close_name",
    "definition_diff",
    "find_pins",
    "pin_hash",
    "reconcile",
]

DIFF_MAX_LINES = 60
"""Lines of a definition diff kept in a quarantine reason; the rest is counted."""
SCAN_HOLD = "flagged by the poisoning scan"
"""The reason of a pin held because the scan flags its definition (the findings are kept beside it)."""
RELAUNCHED = "command line changed"
"""Who accepted a definition that changed with the command line (or URL) the operator gave its server."""

CANONICAL_KEYS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons", "execution")
"""The members of a tool a pin covers: what the MCP spec (2025-11-25, 2026-07-28) defines for a tool, but `_meta`."""
PINNED_META = ("hintgate/python",)
"""The `_meta` keys a pin covers too: what the gateway serves from them (a Python registry's category and tags)."""
_WHITESPACE = re.compile(r"\s+")
# Each hint's value when a server leaves it out (MCP's defaults), by its wire name, and the value that is riskier.
_HINT_DEFAULTS = {hint.value: default for hint, default in SPEC_DEFAULTS.items()}
_RISKIER = _HINT_DEFAULTS  # the spec's defaults are each hint's riskier value
_SEPARATORS = re.compile(r"[\s_.\-/]+")


class PinState(enum.StrEnum):
    """Where a pinned tool stands."""

    ACCEPTED = "accepted"
    QUARANTINED = "quarantined"
    REMOVED = "removed"


class ChangeKind(enum.StrEnum):
    """What happened to a tool, as recorded in its history."""

    FIRST_USE = "first-use"  # first sight, accepted (trust on first use)
    NEW = "new"  # first sight, quarantined (`pin: manual`, or a name close to another server's tool)
    COSMETIC = "cosmetic"  # whitespace only: accepted
    RISKIER = "riskier"  # hints only, each riskier: accepted
    CHANGED = "changed"  # anything else: quarantined
    REMOVED = "removed"  # no longer listed
    RETURNED = "returned"  # listed again, as accepted
    ACCEPTED = "accepted"  # an operator accepted the definition as it is
    IMPORTED = "imported"  # accepted from a pins file
    BLOCKED = "blocked"  # an operator kept the held definition blocked


def canonical(tool: Mapping[str, Any]) -> dict[str, Any]:
    """The members of a tool definition a pin covers, absent and null ones left out.

    Of `_meta`, only what the gateway serves from it is covered (`PINNED_META`: a Python registry's category
    and tags); a tool without it has the same canonical form as before they were served.
    """
    form = {key: tool[key] for key in CANONICAL_KEYS if tool.get(key) is not None}
    meta = tool.get("_meta")
    if isinstance(meta, Mapping):
        pinned = {key: meta[key] for key in PINNED_META if meta.get(key) is not None}
        if pinned:
            form["_meta"] = pinned
    return form


def canonical_json(tool: Mapping[str, Any]) -> str:
    """The canonical form: `canonical(tool)` as JSON, sorted keys, no insignificant whitespace."""
    return json.dumps(canonical(tool), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def pin_hash(definition: str) -> str:
    """SHA-256 (hex) of a canonical form's UTF-8 bytes."""
    return hashlib.sha256(definition.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class Change:
    """A classified change: its kind (COSMETIC, RISKIER or CHANGED) and one line saying what moved."""

    kind: ChangeKind
    summary: str

    @property
    def accepted(self) -> bool:
        """Whether the change is accepted without an operator."""
        return self.kind in (ChangeKind.COSMETIC, ChangeKind.RISKIER)


def _squeeze(value: Any) -> Any:
    """Every string value with runs of whitespace made one space and the ends stripped; keys are left as
    they are, so a key with a space (`"readOnlyHint "`, a decoy `"folder "` parameter) stays a key of its own."""
    if isinstance(value, str):
        return _WHITESPACE.sub(" ", value).strip()
    if isinstance(value, Mapping):
        return {k: _squeeze(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_squeeze(v) for v in value]
    return value


def _same(a: Any, b: Any) -> bool:
    """Equal JSON values, types compared too (`true` is not `1`); objects with exactly the same keys."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _hints(form: Mapping[str, Any]) -> dict[str, Any]:
    annotations = form.get("annotations")
    given = annotations if isinstance(annotations, Mapping) else {}
    return {hint: given.get(hint, default) for hint, default in _HINT_DEFAULTS.items()}


def _without_hints(form: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(form)
    annotations = out.get("annotations")
    if isinstance(annotations, Mapping):
        rest = {k: v for k, v in annotations.items() if k not in _HINT_DEFAULTS}
        if rest:
            out["annotations"] = rest
        else:
            out.pop("annotations")
    return out


@functools.lru_cache(maxsize=2048)  # pure; a catalog's preparation off the event loop classifies ahead of it
def classify(old: str, new: str) -> Change:
    """What kind of change turns the canonical form `old` into `new` (two different forms)."""
    before, after = _squeeze(json.loads(old)), _squeeze(json.loads(new))
    if _same(before, after):
        return Change(ChangeKind.COSMETIC, "whitespace only")
    if not _same(_without_hints(before), _without_hints(after)):
        moved = sorted(k for k in {*before, *after} if not _same(before.get(k), after.get(k)))
        return Change(ChangeKind.CHANGED, f"changed: {', '.join(moved)}")
    old_hints, new_hints = _hints(before), _hints(after)
    changed = {h: (old_hints[h], new_hints[h]) for h in _HINT_DEFAULTS if old_hints[h] != new_hints[h]}
    shown = ", ".join(f"{h} {json.dumps(a)} → {json.dumps(b)}" for h, (a, b) in changed.items())
    if changed and all(b is _RISKIER[h] for h, (_, b) in changed.items()):
        return Change(ChangeKind.RISKIER, f"hints riskier: {shown}")
    if not changed:  # a hint spelled out with its default value, or a non-boolean one
        return Change(ChangeKind.CHANGED, "changed: annotations")
    return Change(ChangeKind.CHANGED, f"hints safer: {shown}")


@functools.lru_cache(maxsize=512)  # every rebuild asks again for the diffs of the held tools
def definition_diff(old: str | None, new: str, *, max_lines: int = DIFF_MAX_LINES) -> str:
    """A unified diff of two canonical forms, pretty-printed, capped at `max_lines` lines."""

    def lines(form: str | None) -> list[str]:
        if form is None:
            return []
        return json.dumps(json.loads(form), sort_keys=True, indent=2, ensure_ascii=False).splitlines()

    diff = list(difflib.unified_diff(lines(old), lines(new), "accepted", "now", lineterm="", n=1))
    if len(diff) > max_lines:
        diff = [*diff[:max_lines], f"... {len(diff) - max_lines} more lines"]
    return "\n".join(diff)


def _fold(name: str) -> str:
    return _SEPARATORS.sub("", skeleton(name))


def _swapped(a: str, b: str) -> bool:
    """Two neighbouring letters swapped, the typo a squatter picks (`send_emial`). A letter replaced or
    added is not counted: `search_notes` and `search_nodes`, `get_file` and `get_files` are different tools."""
    if len(a) != len(b) or a == b:
        return False
    diffs = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    i = diffs[0]
    return len(diffs) == 2 and diffs[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]


def close_name(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that `name` imitates: the same once case, separators and look-alike letters
    are folded, or (names of 6 letters or more) with two neighbouring letters swapped. Equal names are not close."""
    folded = _fold(name)
    for other in others:
        if other == name:
            continue
        theirs = _fold(other)
        if theirs == folded or (len(folded) >= 6 and _swapped(folded, theirs)):
            return other
    return None


@dataclass(frozen=True, slots=True)
class PinBlock:
    """An operator's decision to keep a held definition blocked: who, when, and why (may be empty)."""

    by: str
    at: datetime
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Pin:
    """One tool's pin.

    Attributes:
        server: the source's name.
        tool: the tool's name at the source.
        name: the name the gateway lists it under (when last seen).
        sha256: the hash of the definition last seen.
        definition: the canonical form last seen.
        accepted_sha256: the hash of the accepted definition (None: never accepted).
        accepted_definition: the accepted canonical form.
        state: accepted, quarantined or removed.
        reason: why it is quarantined (with the diff), or what the last accepted change was.
        reviewed: an operator accepted (or imported) this definition; trust on first use is not a review.
        blocked: an operator kept the definition last seen blocked (only while it is quarantined and the same).
    """

    server: str
    tool: str
    name: str
    sha256: str
    definition: str
    accepted_sha256: str | None
    accepted_definition: str | None
    state: PinState
    reason: str | None
    first_seen_at: datetime
    last_seen_at: datetime
    accepted_at: datetime | None
    accepted_by: str | None
    reviewed: bool = False
    blocked: PinBlock | None = None
    launch: str | None = None
    """How the operator's config started the server when this pin was last seen (`ServerConfig.launch`);
    None for a source without one, or a pin from before it was kept."""

    @property
    def key(self) -> tuple[str, str]:
        """(server, tool)."""
        return (self.server, self.tool)

    @property
    def diff(self) -> str:
        """The accepted definition against the one last seen (empty when they are the same)."""
        if self.accepted_sha256 == self.sha256:
            return ""
        return definition_diff(self.accepted_definition, self.definition)

    def accept(self, *, actor: str, at: datetime, reviewed: bool = True) -> Pin:
        """This pin with the definition last seen accepted."""
        state = PinState.REMOVED if self.state is PinState.REMOVED else PinState.ACCEPTED
        return self._accepting(self.definition, self.sha256, state, None, actor=actor, at=at, reviewed=reviewed)

    def block(self, *, actor: str, at: datetime, reason: str = "") -> Pin:
        """This (quarantined) pin kept blocked by an operator: still held, no longer waiting for review."""
        return dataclasses.replace(self, blocked=PinBlock(actor, at, reason))

    def with_accepted(self, definition: str, *, actor: str, at: datetime) -> Pin:
        """This pin with `definition` (a pins file's) accepted, reviewed; the definition last seen is then
        judged against it as a change would be: held unless the same, cosmetic or only riskier."""
        sha = pin_hash(definition)
        state = self.state
        reason: str | None = None
        accepted, accepted_sha = definition, sha
        if sha != self.sha256:
            change = classify(definition, self.definition)
            if change.accepted:
                accepted, accepted_sha = self.definition, self.sha256
                reason = f"pins file: {change.summary}"
            elif state is not PinState.REMOVED:
                state = PinState.QUARANTINED
                reason = f"differs from the pins file: {change.summary}"
        if reason is None and state is PinState.QUARANTINED:
            state = PinState.ACCEPTED
        # The file's definition was reviewed, not the one it let through.
        return self._accepting(accepted, accepted_sha, state, reason, actor=actor, at=at, reviewed=accepted_sha == sha)

    def _accepting(
        self,
        definition: str,
        sha256: str,
        state: PinState,
        reason: str | None,
        *,
        actor: str,
        at: datetime,
        reviewed: bool,
    ) -> Pin:
        """This pin with `definition` (hashing to `sha256`) the accepted one, in `state` for `reason`: an accepted
        definition ends an operator's block."""
        return dataclasses.replace(
            self,
            accepted_sha256=sha256,
            accepted_definition=definition,
            state=state,
            reason=reason,
            accepted_at=at,
            accepted_by=actor,
            reviewed=reviewed,
            blocked=None,
        )

    def same_as(self, other: Pin) -> bool:
        """Whether the two pins hold the same definitions, state and reason (when and by whom aside)."""
        return dataclasses.replace(self, accepted_at=other.accepted_at, accepted_by=other.accepted_by) == other

    @classmethod
    def unseen(cls, server: str, tool: str, definition: str, *, at: datetime) -> Pin:
        """A pin for a tool known only from a pins file: its definition as if seen and accepted."""
        sha = pin_hash(definition)
        return cls(server, tool, tool, sha, definition, sha, definition, PinState.ACCEPTED, None, at, at, None, None)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (times as ISO 8601), with the diff."""
        out = dataclasses.asdict(self)
        for key in ("first_seen_at", "last_seen_at", "accepted_at"):
            value = out[key]
            out[key] = value.isoformat() if value is not None else None
        out["state"] = self.state.value
        out["diff"] = self.diff
        del out["launch"]  # a fingerprint for the gateway's own comparison, nothing to show
        if self.blocked is not None:
            out["blocked"] = {"by": self.blocked.by, "at": self.blocked.at.isoformat(), "reason": self.blocked.reason}
        return out


def find_pins(pins: Iterable[Pin], tool: str, server: str | None = None) -> list[Pin]:
    """The pins of the tool the gateway lists as `tool` (only `server`'s, when given).

    With `server`, `tool` may also be the tool's name at that server: what an
    operator who names the server is likely to type.
    """
    candidates = list(pins)
    found = [p for p in candidates if p.name == tool and server in (None, p.server)]
    if not found and server is not None:
        found = [p for p in candidates if p.tool == tool and p.server == server]
    return found


@dataclass(frozen=True, slots=True)
class PinEvent:
    """One line of a tool's history."""

    server: str
    tool: str
    kind: ChangeKind
    sha256: str
    at: datetime
    actor: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Reconciled:
    """What `reconcile` found: the pins that changed (to write), the events to record, and the names a server
    listed more than once (server, tool), which no pin was compared with."""

    pins: tuple[Pin, ...] = ()
    events: tuple[PinEvent, ...] = ()
    duplicates: tuple[tuple[str, str], ...] = ()


def reconcile(
    pins: Mapping[tuple[str, str], Pin],
    listings: Mapping[str, Sequence[tuple[str, Mapping[str, Any]]]],
    *,
    now: datetime,
    manual: frozenset[str] = frozenset(),
    touch: frozenset[str] = frozenset(),
    form: Callable[[Mapping[str, Any]], tuple[str, str]] | None = None,
    flagged: Mapping[tuple[str, str], str] | None = None,
    launches: Mapping[str, str] | None = None,
) -> Reconciled:
    """Compare listings with the pins: first sights, changes, removals.

    Args:
        pins: the pins by (server, tool).
        listings: per running server, its tools as (public name, definition as the server sent it).
        now: the time to stamp.
        manual: servers whose new tools wait for an operator (`pin: manual`).
        touch: servers whose unchanged pins are returned too, `last_seen_at` moved to `now`
            (once per start, not at every listing).
        form: a definition's (canonical form, hash), when the caller keeps them; else computed.
        flagged: (server, tool) → what the poisoning scan found in the definition listed now (one line);
            such a definition is held unless an operator reviewed that very one.
        launches: server → how the operator's config starts it now (`ServerConfig.launch`). When it differs
            from the one its pins were last seen with, the operator changed the command line (or URL): what
            the server lists now is their change, so a changed definition is accepted as a new server's
            would be (trust on first use), unless the server is pinned by hand or the scan flags it.
    """
    flagged = flagged or {}
    launches = launches or {}
    changed: list[Pin] = []
    events: list[PinEvent] = []
    duplicates: list[tuple[str, str]] = []
    known_by_server: dict[str, set[str]] = {}
    accepted_by_server: dict[str, dict[str, None]] = {}
    for (server, tool), held in pins.items():
        known_by_server.setdefault(server, set()).add(tool)
        if held.state is PinState.ACCEPTED:
            accepted_by_server.setdefault(server, {})[tool] = None
    owners: dict[str, str] | None = None  # made when a new tool needs them
    for server, tools in listings.items():
        known = known_by_server.get(server, set())
        first_sight = not known
        counts: dict[str, int] = {}
        for _, raw in tools:
            counts[str(raw.get("name", ""))] = counts.get(str(raw.get("name", "")), 0) + 1
        # A name listed twice is no definition at all: neither copy may overwrite what the other found.
        twice = sorted(t for t, n in counts.items() if n > 1)
        duplicates.extend((server, t) for t in twice)
        listed = set(counts)
        gone = sorted(t for t in known - listed if pins[(server, t)].state is not PinState.REMOVED)
        launch = launches.get(server)
        relaunched = launch is not None and any(pins[(server, t)].launch not in (None, launch) for t in known)
        by_operator = relaunched and server not in manual
        unstamped = {t for t in known if launch is not None and pins[(server, t)].launch != launch}
        for public, raw in tools:
            tool = str(raw.get("name", ""))
            if counts[tool] > 1:
                continue
            definition, sha = form(raw) if form is not None else _form(raw)
            pin = pins.get((server, tool))
            finding = flagged.get((server, tool))
            event: PinEvent | None
            if pin is None:
                if owners is None:
                    owners = tool_owners(accepted_by_server)
                others = OtherTools(owners, accepted_by_server.get(server, {}))
                swapped = () if by_operator else gone  # tools the operator's new command line dropped
                changed_pin, event = _first_sight(
                    server, tool, public, definition, sha, now, manual, first_sight, others, swapped, finding
                )
            elif by_operator and finding is None and pin.state is not PinState.QUARANTINED and sha != pin.sha256:
                changed_pin, event = _relaunched(pin, public, definition, sha, now)
            else:
                found = _seen_again(pin, public, definition, sha, now, server in touch, finding)
                if found is None:
                    if tool not in unstamped:
                        continue
                    found = (pin, None)
                changed_pin, event = found
            unstamped.discard(tool)
            if launch is not None:
                changed_pin = dataclasses.replace(changed_pin, launch=launch)
            changed.append(changed_pin)
            if event is not None:
                events.append(event)
        for tool in gone:
            pin = pins[(server, tool)]
            unstamped.discard(tool)
            stamp = pin.launch if launch is None else launch
            changed.append(dataclasses.replace(pin, state=PinState.REMOVED, blocked=None, launch=stamp))
            events.append(PinEvent(server, tool, ChangeKind.REMOVED, pin.sha256, now, "gateway"))
        # Every pin of the server takes the launch, listed or not: a later change is judged afresh.
        changed.extend(dataclasses.replace(pins[(server, tool)], launch=launch) for tool in sorted(unstamped))
    return Reconciled(tuple(changed), tuple(events), tuple(duplicates))


def _form(raw: Mapping[str, Any]) -> tuple[str, str]:
    definition = canonical_json(raw)
    return definition, pin_hash(definition)


def _first_sight(
    server: str,
    tool: str,
    public: str,
    definition: str,
    sha: str,
    now: datetime,
    manual: frozenset[str],
    first_sight: bool,
    others: Iterable[str],
    gone: Sequence[str],
    finding: str | None,
) -> tuple[Pin, PinEvent]:
    reason: str | None = None
    if finding is not None:
        reason = f"{SCAN_HOLD}: {finding}"
    elif server in manual:
        reason = f"new tool of {server!r}, which is pinned by hand (pin: manual)"
    elif (near := close_name(tool, others)) is not None:
        reason = f"new tool whose name is close to {near!r}, a tool of another server"
    elif gone:
        shown = ", ".join(repr(t) for t in gone[:3]) + (f" and {len(gone) - 3} more" if len(gone) > 3 else "")
        reason = f"new tool listed in the same update that dropped {shown}: a rename or a swap waits for an operator"
    accepted = reason is None
    pin = Pin(
        server=server,
        tool=tool,
        name=public,
        sha256=sha,
        definition=definition,
        accepted_sha256=sha if accepted else None,
        accepted_definition=definition if accepted else None,
        state=PinState.ACCEPTED if accepted else PinState.QUARANTINED,
        reason=reason,
        first_seen_at=now,
        last_seen_at=now,
        accepted_at=now if accepted else None,
        accepted_by="first use" if accepted else None,
    )
    detail = reason or ("first sight of the server" if first_sight else "new tool")
    kind = ChangeKind.FIRST_USE if accepted else ChangeKind.NEW
    return pin, PinEvent(server, tool, kind, sha, now, "gateway", detail)


def _relaunched(pin: Pin, public: str, definition: str, sha: str, now: datetime) -> tuple[Pin, PinEvent]:
    """A tool whose definition changed with the command line the operator gave its server: accepted."""
    seen = dataclasses.replace(pin, name=public, last_seen_at=now, sha256=sha, definition=definition, blocked=None)
    seen = seen.accept(actor=RELAUNCHED, at=now, reviewed=False)
    detail = "changed with the command line (or URL) the operator gave its server: the operator's change"
    return seen, PinEvent(pin.server, pin.tool, ChangeKind.ACCEPTED, sha, now, RELAUNCHED, detail)


def _seen_again(
    pin: Pin, public: str, definition: str, sha: str, now: datetime, touch: bool, finding: str | None
) -> tuple[Pin, PinEvent | None] | None:
    """The pin after seeing `definition` again, and the event; None when nothing changed."""
    reviewed = pin.reviewed and pin.accepted_sha256 == sha
    if finding is not None and not reviewed and pin.state is PinState.ACCEPTED and sha == pin.sha256:
        # The definition did not change, but the scan now flags it (another server lists a tool it names).
        reason = f"{SCAN_HOLD}: {finding}"
        held = dataclasses.replace(pin, name=public, last_seen_at=now, state=PinState.QUARANTINED, reason=reason)
        return held, PinEvent(pin.server, pin.tool, ChangeKind.CHANGED, sha, now, "gateway", reason)
    if sha == pin.sha256 and pin.state is not PinState.REMOVED:
        if not touch and public == pin.name:
            return None
        return dataclasses.replace(pin, name=public, last_seen_at=now), None
    seen = dataclasses.replace(pin, name=public, last_seen_at=now, blocked=None)  # a new definition: reviewed anew
    seen = dataclasses.replace(seen, sha256=sha, definition=definition)
    if pin.accepted_sha256 == sha and (finding is None or reviewed):
        returned = pin.state is PinState.REMOVED
        kind = ChangeKind.RETURNED if returned else ChangeKind.ACCEPTED
        seen = dataclasses.replace(seen, state=PinState.ACCEPTED, reason=None)
        return seen, PinEvent(pin.server, pin.tool, kind, sha, now, "gateway", "the accepted definition again")
    if pin.accepted_definition is None:  # never accepted: it stays held, with the new definition
        reason = pin.reason or "new tool, not accepted yet"
        if finding is not None and not reason.startswith(SCAN_HOLD):
            reason = f"{reason}; {SCAN_HOLD}: {finding}"
        seen = dataclasses.replace(seen, state=PinState.QUARANTINED, reason=reason)
        return seen, PinEvent(pin.server, pin.tool, ChangeKind.NEW, sha, now, "gateway", reason)
    if pin.accepted_sha256 == sha:  # the accepted definition again, but the scan flags it now
        reason = f"{SCAN_HOLD}: {finding}"
        seen = dataclasses.replace(seen, state=PinState.QUARANTINED, reason=reason)
        return seen, PinEvent(pin.server, pin.tool, ChangeKind.CHANGED, sha, now, "gateway", reason)
    change = classify(pin.accepted_definition, definition)
    if change.accepted and finding is None:
        # Accepted without an operator: whatever they reviewed before, this definition is theirs no longer.
        seen = seen.accept(actor=change.kind.value, at=now, reviewed=False)
        seen = dataclasses.replace(seen, state=PinState.ACCEPTED, reason=change.summary)
        return seen, PinEvent(pin.server, pin.tool, change.kind, sha, now, "gateway", change.summary)
    reason = change.summary if finding is None else f"{change.summary}; {SCAN_HOLD}: {finding}"
    seen = dataclasses.replace(seen, state=PinState.QUARANTINED, reason=reason)
    kind = change.kind if finding is None else ChangeKind.CHANGED
    return seen, PinEvent(pin.server, pin.tool, kind, sha, now, "gateway", reason)
