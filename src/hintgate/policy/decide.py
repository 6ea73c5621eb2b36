"""Deciding one tools/call: allow, ask or deny, with a reason a person reads and the rule that decided.

Pure: no I/O, nothing from the MCP SDK, the web stack, the database or the
network; the gateway calls `decide` on every tools/call, so it stays cheap.
docs/policy.md explains all of it with examples.

Precedence, first that applies wins:

1. Deny rules. Rules are tool rules (they name a `tool` glob), server rules
   (a `server` glob and no tool) or global rules (tier and hints only). The
   most specific level with a matching rule decides: tool rule > server rule
   > global rule; at one level deny > ask > allow, and among equals the first
   in the list is cited. When the deciding rule denies, the call is denied in
   every mode, whatever a person approved before. A rule may also name people
   (`user`, `group`): it applies to their calls only, and a deny rule naming
   people that matches decides before any level's rules (a role's limit).
1a. Quarantine. A tool held for an operator (a high poisoning-scan finding
   not yet accepted, `CallFacts.quarantine`) asks on every call, in every
   mode, whatever rules, preferences or earlier approvals say; source
   `quarantine`.
1b. The gateway itself. A call whose arguments name the gateway's own
   listening address or its data directory (`CallFacts.names_gateway`,
   found by `hintgate.policy.own_places`) asks on every call, in every mode,
   bypass included, whatever allow rules or earlier approvals say: a tool
   pointed at the gateway could read other clients' calls or change its
   settings. Source `gateway-itself`.
2. Mode limits. `bypass` runs every call no deny rule stopped: ask and allow
   rules, preferences, taint and unknown tools do not apply. `read-only`
   denies every tool that is not read-only, whatever ask and allow rules say.
3. The deciding ask or allow rule; when no rule matches, the mode with its
   preferences:

   | tier           | default | accept-edits           | read-only |
   | -------------- | ------- | ---------------------- | --------- |
   | read-only      | allow*  | allow*                 | allow     |
   | additive write | ask     | allow                  | deny      |
   | destructive    | ask     | ask (allow when 'Always confirm destructive' is off) | deny |
   | unknown        | ask     | ask                    | deny      |

   (*ask when 'Auto-approve read-only tools' is off, and for a tool of an
   untrusted server whose only word that it reads is the server's own: its
   declaration, or inference from its name, description or schema. An
   operator's override, an allow rule or a person's approval for the session
   lets it run.) An explicit allow rule is the operator's decision: it allows
   unknown and destructive tools too.
4. Taint. Once a tool that taints has returned content in the session, an
   allow of a tool that is not read-only becomes ask (allow rules included:
   this is the defence against instructions injected through fetched content).
   Which tools taint is the `taint` setting (`taint_basis`): by default
   (`evidence`) those whose open world rests on evidence (declared by any
   server, inferred from what the tool does, or an operator's override), not
   on the spec default alone, which nearly every tool has; `strict` counts
   the default too; `off` turns taint off.
5. Earlier answers. An ask becomes allow when a person approved the tool for
   this session, or when the identical call (tool and canonical JSON of the
   arguments) of an idempotent tool was approved or allowed within
   `idempotent_retry_window` seconds, or (a rule with `confirm: first`)
   when a person approved a call of the tool in this session. A rule with
   `confirm: always` lets no earlier answer stand. In a tainted session, only approvals
   given after the taint count for tools that are not read-only; the call
   whose own result tainted the session counts as approved after it, so its
   identical idempotent retry does not ask again.

Trust is applied before all of this, by `hintgate.hints.annotations.resolve`: a
declared hint of an untrusted server that would make the tool look safer is
set aside (`Resolved.distrusted`), so no rule or mode sees it; so is one of a
`local` server that strong evidence contradicts. When setting it aside
changed the outcome, the reason says so and the source is `trust:untrusted`
or `trust:contradicted`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from hintgate.errors import UpstreamClosed, UpstreamDown, UpstreamTimeout
from hintgate.hints.annotations import Hint, Origin, Resolution, Tier, resolve
from hintgate.hints.calls.bound import per_call
from hintgate.hints.calls.judgement import Judgement
from hintgate.hints.trust import Trust
from hintgate.policy.principal import Approvers, Principal
from hintgate.policy.rules import Confirm, Level, Mode, PolicySettings, Rule, Taint, Verdict, parse_policy

if TYPE_CHECKING:
    from hintgate.hints.catalog import CatalogEntry

__all__ = [
    "UNSET",
    "UNTRUSTED_CONTENT",
    "CallFacts",
    "Confirm",
    "Decision",
    "DecisionSource",
    "Failure",
    "Level",
    "Mode",
    "PolicySettings",
    "Rule",
    "SessionState",
    "Taint",
    "Unset",
    "Verdict",
    "decide",
    "denied_by_rule",
    "failure_kind",
    "parse_policy",
    "should_retry",
    "taint_basis",
    "who_answers",
]

_NO_ARGUMENTS: Mapping[str, Any] = MappingProxyType({})


class DecisionSource(StrEnum):
    """What kind of thing decided a call: a rule, the mode, a preference, trust, taint or an earlier answer."""

    RULE = "rule"
    MODE_DEFAULT = "mode:default"
    MODE_ACCEPT_EDITS = "mode:accept-edits"
    MODE_READ_ONLY = "mode:read-only"
    MODE_BYPASS = "mode:bypass"
    AUTO_APPROVE_READ_ONLY = "preference:auto-approve-read-only"
    ALWAYS_CONFIRM_DESTRUCTIVE = "preference:always-confirm-destructive"
    UNTRUSTED = "trust:untrusted"
    CONTRADICTED = "trust:contradicted"
    TAINT = "taint:open-world"
    SESSION_APPROVAL = "session-approval"
    IDEMPOTENT_RETRY = "retry:idempotent"
    CONFIRM_FIRST = "confirm:first"
    UNKNOWN_TOOL = "unknown-tool"
    INPUT_SCHEMA = "input-schema"
    QUARANTINE = "quarantine"
    GATEWAY_ITSELF = "gateway-itself"


@dataclass(frozen=True, slots=True)
class Decision:
    """What happens to a call, why, and which rule or setting decided.

    Attributes:
        verdict: allow, ask or deny.
        reason: a sentence a person understands.
        by: the kind of rule or setting that decided.
        rule: the deciding rule's id (`rule:tool:delete_*#3`) when `by` is `RULE`.
    """

    verdict: Verdict
    reason: str
    by: DecisionSource
    rule: str | None = None

    @property
    def source(self) -> str:
        """The rule or setting cited: the rule's id, or the source's name (`mode:default`)."""
        return self.rule if self.rule is not None else self.by.value

    def to_json(self) -> dict[str, str]:
        """`{"verdict", "reason", "source"}`."""
        return {"verdict": self.verdict.value, "reason": self.reason, "source": self.source}


class Unset:
    """The type of `UNSET`: an argument left out, told apart from None."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET = Unset()
"""`CallFacts.from_entry(judgement=UNSET)`: judge the arguments (the default), as against None: judge nothing."""


@dataclass(frozen=True, slots=True)
class CallFacts:
    """What the policy knows about one call.

    Attributes:
        tool: the tool's public (namespaced) name.
        server: the name of the source it comes from.
        resolution: the tool's resolved hints with provenance.
        trusted: whether the server is trusted. When it is not but the
            resolution was made as if it were, the hints are resolved again
            untrusted, so a stale or careless caller cannot lend trust.
        arguments: the call's arguments.
        title: the tool's display title, if any.
        spelled: the name as its server spelled it (prefix joined, not sanitized), when it differs.
        quarantine: why the tool is quarantined, if it is: every call asks, whatever the mode.
        who: the person or program calling, for rules that name people (None: the gateway knows no users).
        names_gateway: why the arguments reach the gateway itself (its address or data directory), if they
            do: the call asks, whatever the mode.
        judgement: what this call does, judged from its arguments (`hintgate.hints.calls`), if they could be
            judged: `resolution` becomes the call's hints (`hints.calls.bound.per_call`), provenance `argument`.
        static: the tool's own resolved hints, before the judgement (derived from `resolution` when not given;
            when given, `resolution` is worked out from it again).
        tier: the call's tier (derived).
        read_only: resolved readOnlyHint (derived).
        idempotent: resolved idempotentHint (derived).
        open_world: resolved openWorldHint: content it returns taints the session (derived).
    """

    tool: str
    server: str
    resolution: Resolution
    trusted: bool
    arguments: Mapping[str, Any] = field(default_factory=lambda: _NO_ARGUMENTS)
    title: str | None = None
    spelled: str | None = None
    quarantine: str | None = None
    who: Principal | None = None
    names_gateway: str | None = None
    judgement: Judgement | None = None
    static: Resolution | None = None
    tier: Tier = field(init=False)
    read_only: bool = field(init=False)
    idempotent: bool = field(init=False)
    open_world: bool = field(init=False)

    def __post_init__(self) -> None:
        static = self.static if self.static is not None else self.resolution
        if static.trusted and not self.trusted:
            static = resolve(
                declared=static.declared,
                inferred=static.inferred,
                overrides=static.overrides,
                title_override=static.title,
                trust=Trust.UNTRUSTED,
            )
        resolution = static if self.judgement is None else per_call(static, self.judgement)
        object.__setattr__(self, "static", static)
        object.__setattr__(self, "resolution", resolution)
        hints = resolution.hints
        object.__setattr__(self, "tier", resolution.tier)
        object.__setattr__(self, "read_only", hints[Hint.READ_ONLY].value)
        object.__setattr__(self, "idempotent", hints[Hint.IDEMPOTENT].value)
        object.__setattr__(self, "open_world", hints[Hint.OPEN_WORLD].value)

    @classmethod
    def from_entry(
        cls,
        entry: CatalogEntry,
        arguments: Mapping[str, Any] | None = None,
        who: Principal | None = None,
        *,
        names_gateway: str | None = None,
        judgement: Judgement | Unset | None = UNSET,
    ) -> CallFacts:
        """The facts of a call of a catalog entry by `who`; trust is the entry's resolution's.

        This is where a call's arguments are judged (`entry.tool.judge`): every path that decides a
        tools/call (the pipeline, a gateway-served tool that calls another, `policy explain --args`)
        builds its facts here. `judgement` given (a judgement, or None for none) stands instead, as
        when an upstream answered tools/resolve and its answer was weighed.
        """
        resolution = entry.tool.resolution
        if isinstance(judgement, Unset):
            judge = entry.tool.judge
            judgement = judge.judge(arguments) if judge is not None and arguments else None
        return cls(
            tool=entry.name,
            server=entry.server,
            resolution=resolution,
            trusted=resolution.trusted,
            arguments=_NO_ARGUMENTS if arguments is None else arguments,
            title=entry.tool.title,
            spelled=entry.spelled or None,
            quarantine=entry.quarantine,
            who=who,
            names_gateway=names_gateway,
            judgement=judgement,
        )

    @property
    def does(self) -> str | None:
        """What the call does, for the question, the queue and the record ("DROP TABLE users; destructive")."""
        return self.judgement.reason if self.judgement is not None else None


def _call_key(tool: str, arguments: Mapping[str, Any]) -> str | None:
    """Tool name and canonical JSON of the arguments; `None` when they have no canonical form."""
    try:
        text = json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=repr)
    except (TypeError, ValueError):  # keys of mixed types, or a cycle: not a JSON call
        return None
    return f"{tool}\0{text}"


@dataclass(slots=True)
class SessionState:
    """What one session has approved and read, as far as the policy cares.

    The gateway updates it: `approve_for_session` when a person approves a
    tool for the session, `record_approval` when a call runs (allowed, or
    approved once), `mark_result` when a tool returned content. Approvals
    given once are the gateway's, not stored here.

    Attributes:
        approved_for_session: tools a person approved for the whole session.
        approved_since_taint: those of them approved after the session was tainted.
        tainted_by: the first tool whose returned content tainted the session, if any.
        taint_reason: why that tool's content taints (`taint_basis`), if known.
        approved_once: tools a person approved at least one call of (for `confirm: first`).
        approved_once_since_taint: those of them approved after the session was tainted.
    """

    approved_for_session: set[str] = field(default_factory=set)
    approved_since_taint: set[str] = field(default_factory=set)
    tainted_by: str | None = None
    taint_reason: str | None = None
    approved_once: set[str] = field(default_factory=set)
    approved_once_since_taint: set[str] = field(default_factory=set)
    taint_scope: str | None = None
    """The server whose own tools the taint leaves alone (it came only from that untrusted server's content)."""
    # call key -> (when it ran, whether the session was tainted then, the call's id)
    _approvals: dict[str, tuple[float, bool, str | None]] = field(default_factory=dict, init=False, repr=False)

    max_remembered_calls: ClassVar[int] = 4096
    """Identical-call approvals kept per session; the oldest go first."""

    def approve_for_session(self, tool: str) -> None:
        """A person approved `tool` for the rest of the session."""
        self.approved_for_session.add(tool)
        if self.tainted_by is not None:
            self.approved_since_taint.add(tool)

    def approve_once(self, tool: str) -> None:
        """A person approved one call of `tool` (what `confirm: first` rules wait for)."""
        self.approved_once.add(tool)
        if self.tainted_by is not None:
            self.approved_once_since_taint.add(tool)

    def mark_open_world_result(self, tool: str, reason: str | None = None) -> None:
        """A `tool` whose content taints returned content: the session is tainted from now on."""
        if self.tainted_by is None:
            self.tainted_by = tool
            self.taint_reason = reason

    def mark_result(
        self, call: CallFacts, settings: PolicySettings, *, finding: str | None = None, claim: str | None = None
    ) -> bool:
        """`call` returned content: taint the session when its tool taints (`taint_basis`); True if it did now.

        A `finding` (the poisoning scan found the result addressing the model)
        taints whatever the tool, unless taint is off; so does a `claim` (the
        server marks its own result `untrusted` or `sensitive`, the
        trust-annotations extension). The call itself ran on
        an approval given before its own result arrived; that approval counts
        as given after the taint, so its identical idempotent retry is not
        asked again because of it.
        """
        if finding is not None and settings.taint is not Taint.OFF:
            reason: str | None = f"its result speaks to the model ({finding})"
        elif claim is not None and settings.taint is not Taint.OFF:
            reason = f"its server marks its result {claim}"
        else:
            reason = taint_basis(call, settings)
        if reason is None:
            return False
        scoped = reason == UNTRUSTED_CONTENT
        if self.tainted_by is not None:
            if self.taint_scope is not None and (not scoped or self.taint_scope != call.server):
                self.taint_scope = None  # someone else's words now reach every server's tools
            return False
        self.mark_open_world_result(call.tool, reason)
        self.taint_scope = call.server if scoped else None
        key = _call_key(call.tool, call.arguments)
        found = None if key is None else self._approvals.get(key)
        if key is not None and found is not None:
            self._approvals[key] = (found[0], True, found[2])
        return True

    def record_approval(
        self, tool: str, arguments: Mapping[str, Any], now: float, *, call_id: str | None = None
    ) -> None:
        """A call (record `call_id`) ran after an approval or an allow, at `now` (seconds, `decide`'s clock)."""
        key = _call_key(tool, arguments)
        if key is None:
            return
        approvals = self._approvals
        approvals.pop(key, None)  # re-insert so the dict stays oldest-first
        approvals[key] = (now, self.tainted_by is not None, call_id)
        while len(approvals) > self.max_remembered_calls:
            del approvals[next(iter(approvals))]

    def approved_at(self, tool: str, arguments: Mapping[str, Any], *, since_taint: bool = False) -> float | None:
        """When the identical call was last approved; with `since_taint`, only approvals given while tainted."""
        key = _call_key(tool, arguments)
        found = None if key is None else self._approvals.get(key)
        if found is None or (since_taint and not found[1]):
            return None
        return found[0]

    def earlier_call(self, tool: str, arguments: Mapping[str, Any], *, now: float, window: float) -> str | None:
        """The id of the identical call that ran within `window` seconds before `now`, if one did."""
        key = _call_key(tool, arguments)
        found = None if key is None else self._approvals.get(key)
        if found is None or not 0 <= now - found[0] <= window:
            return None
        return found[2]


# ----------------------------------------------------------------- deciding

_NOTHING_KNOWN = "no hints declared, inferred or set"
_TIER_PHRASE = {
    Tier.ADDITIVE: "this tool writes (additive, not destructive)",
    Tier.DESTRUCTIVE: "this tool is destructive",
    Tier.UNKNOWN: f"nothing is known about this tool ({_NOTHING_KNOWN})",
}
_MODE_DECISIONS: Mapping[tuple[Mode, Tier], Decision] = {
    **{
        (mode, Tier.READ_ONLY): Decision(
            Verdict.ALLOW, "Read-only tools run without asking.", DecisionSource(f"mode:{mode}")
        )
        for mode in Mode
    },
    **{
        (Mode.READ_ONLY, tier): Decision(
            Verdict.DENY,
            f"Read-only mode runs only read-only tools; {_TIER_PHRASE[tier]}.",
            DecisionSource.MODE_READ_ONLY,
        )
        for tier in _TIER_PHRASE
    },
    **{
        (mode, Tier.UNKNOWN): Decision(
            Verdict.ASK,
            f"Nothing is known about this tool ({_NOTHING_KNOWN}), so it asks.",
            DecisionSource.UNKNOWN_TOOL,
        )
        for mode in (Mode.DEFAULT, Mode.ACCEPT_EDITS)
    },
    **{
        (Mode.DEFAULT, tier): Decision(
            Verdict.ASK,
            f"In default mode only read-only tools run without asking; {_TIER_PHRASE[tier]}.",
            DecisionSource.MODE_DEFAULT,
        )
        for tier in (Tier.ADDITIVE, Tier.DESTRUCTIVE)
    },
    (Mode.ACCEPT_EDITS, Tier.ADDITIVE): Decision(
        Verdict.ALLOW, "Accept-edits mode runs additive writes without asking.", DecisionSource.MODE_ACCEPT_EDITS
    ),
}
_ASK_READ_ONLY = Decision(
    Verdict.ASK,
    "Read-only tools ask too: 'Auto-approve read-only tools' is off.",
    DecisionSource.AUTO_APPROVE_READ_ONLY,
)
_ASK_WRITES_TOO = Decision(
    Verdict.ASK,
    "Read-only tools ask ('Auto-approve read-only tools' is off), so writes ask too, even in accept-edits mode.",
    DecisionSource.AUTO_APPROVE_READ_ONLY,
)
_ASK_DESTRUCTIVE = Decision(
    Verdict.ASK,
    "Destructive tools always ask: 'Always confirm destructive' is on.",
    DecisionSource.ALWAYS_CONFIRM_DESTRUCTIVE,
)
_ALLOW_DESTRUCTIVE = Decision(
    Verdict.ALLOW,
    "Accept-edits mode runs destructive tools too: 'Always confirm destructive' is off.",
    DecisionSource.MODE_ACCEPT_EDITS,
)
_BYPASS = Decision(Verdict.ALLOW, "Bypass mode runs every call that no deny rule stops.", DecisionSource.MODE_BYPASS)


def _by_mode(tier: Tier, settings: PolicySettings) -> Decision:
    """The mode's verdict for a tool of `tier` when no rule decides (bypass is handled before).

    Monotonic in the tier (read-only < additive write < destructive < unknown):
    a mode never runs a tool unasked while it asks for one of a safer tier.
    """
    mode = settings.mode
    if mode is not Mode.READ_ONLY and not settings.auto_approve_read_only:
        if tier is Tier.READ_ONLY:
            return _ASK_READ_ONLY
        if mode is Mode.ACCEPT_EDITS and tier is not Tier.UNKNOWN:
            # Writes running unasked while reads ask would be the policy upside down.
            return _ASK_WRITES_TOO
    if mode is Mode.ACCEPT_EDITS and tier is Tier.DESTRUCTIVE:
        return _ASK_DESTRUCTIVE if settings.always_confirm_destructive else _ALLOW_DESTRUCTIVE
    return _MODE_DECISIONS[mode, tier]


def taint_basis(call: CallFacts, settings: PolicySettings) -> str | None:
    """Why content `call`'s tool returns taints the session, in a phrase; None when it does not.

    A tool taints when its resolved openWorldHint is true and, under the
    default `taint: evidence`, that value rests on something: a declaration
    (an untrusted server may always say its tool is riskier), an inference
    from what the tool does (fetching, browsing or searching the web, mail
    and messages, a URL parameter, an HTTP API), or an operator's override.
    The spec default alone does not taint: nearly every tool has it, since an
    untrusted server's closed-world claim is set aside. `taint: strict`
    counts the default too. Whatever its open world, content from an
    untrusted server taints (`UNTRUSTED_CONTENT`) for the tools of other
    servers: it is someone else's words, and the server's own tools could do
    whatever it says without being told.
    """
    if settings.taint is Taint.OFF:
        return None
    if not call.open_world:
        return None if call.trusted else UNTRUSTED_CONTENT
    provenance = call.resolution.hints[Hint.OPEN_WORLD].provenance
    origin = provenance.origin
    if origin is Origin.OVERRIDE:
        return "an operator's override says it reaches the open world"
    if origin is Origin.DECLARED:
        return "its server declares it reaches the open world"
    if origin is Origin.INFERRED:
        return f"what it does says it reaches the open world (inference rule {provenance.rule})"
    if origin is Origin.ARGUMENT:
        return f"what this call does reaches the open world (judged from its arguments: {provenance.rule})"
    if settings.taint is Taint.STRICT:
        return "it may reach the open world by the spec default, and taint is strict"
    return None if call.trusted else UNTRUSTED_CONTENT


UNTRUSTED_CONTENT = "its server is untrusted: what it returns is someone else's words"
"""Why an untrusted server's content taints, whatever its tool's open world (calls of that server stay as they were)."""


def _mind_trust(decision: Decision, call: CallFacts, settings: PolicySettings) -> Decision:
    """Say so when a declared claim set aside for distrust would have let the call run."""
    hints = call.resolution.hints
    if hints[Hint.READ_ONLY].distrusted is True:
        claimed, claim, declared = Tier.READ_ONLY, "to be read-only", "read-only"
    elif hints[Hint.DESTRUCTIVE].distrusted is False:
        claimed, claim, declared = Tier.ADDITIVE, "not to be destructive", "not destructive"
    else:
        return decision
    if _by_mode(claimed, settings).verdict is not Verdict.ALLOW:
        return decision
    if call.resolution.trust is Trust.LOCAL:
        hint = Hint.READ_ONLY if claimed is Tier.READ_ONLY else Hint.DESTRUCTIVE
        rule = call.resolution.hints[hint].provenance.rule
        reason = (
            f"{decision.reason} Its server declares it {declared}, but strong evidence (inference rule {rule}) "
            "says otherwise, and the riskier value wins; `hintgate lint` reports the contradiction."
        )
        return Decision(decision.verdict, reason, DecisionSource.CONTRADICTED)
    reason = f"{decision.reason} Its server is untrusted, so its own claim {claim} was not used."
    return Decision(decision.verdict, reason, DecisionSource.UNTRUSTED)


def vouched(call: CallFacts, hint: Hint) -> bool:
    """Whether a hint's value is on the word of an operator (override) or of a trusted server (declaration).

    An untrusted server controls its own declaration and the name, description
    and schema inference reads; inference is a guess even on a trusted server.
    """
    origin = call.resolution.hints[hint].provenance.origin
    return origin is Origin.OVERRIDE or (call.trusted and origin is Origin.DECLARED)


def _reads_on_its_own_word(call: CallFacts) -> bool:
    """Read-only only because an untrusted server's own text says so (no operator's override)."""
    return (
        call.read_only
        and not call.trusted
        and call.resolution.hints[Hint.READ_ONLY].provenance.origin is not Origin.OVERRIDE
    )


def _unvouched_write(call: CallFacts) -> Decision | None:
    """The question for a write of an untrusted server the mode would run: its tier is the server's own word.

    None when an operator's override of destructiveHint vouches for the tier.
    Its reads ask (`_unvouched_read`); a write whose tier rests on the same
    server-controlled text running unasked would let a riskier tool through
    where a safer one asks.
    """
    provenance = call.resolution.hints[Hint.DESTRUCTIVE].provenance
    if provenance.origin is Origin.OVERRIDE:
        return None
    if call.tier is Tier.ADDITIVE:
        basis = _basis(call, Hint.DESTRUCTIVE)
        what = f"that this write is additive (not destructive) rests on {basis}, which the server controls"
    else:
        what = "it is destructive"
    reason = (
        f"Its server is untrusted and {what}; its writes ask like its reads, so no write of it runs unasked "
        "while its reads ask."
    )
    return Decision(Verdict.ASK, reason, DecisionSource.UNTRUSTED)


def _basis(call: CallFacts, hint: Hint) -> str:
    """What a hint's value rests on, for a reason: the server's declaration or inference from its text."""
    provenance = call.resolution.hints[hint].provenance
    if provenance.origin is Origin.DECLARED:
        return "its own declaration"
    if provenance.origin is Origin.DEFAULT:
        return "the spec default"
    if provenance.origin is Origin.ARGUMENT:
        return "its arguments, read through the parameter its server's schema describes"
    return "its tool's name, description or schema" + (
        f" (inference rule {provenance.rule})" if provenance.rule else ""
    )


def _unvouched_read(call: CallFacts) -> Decision:
    """The question for a read-only tool whose only word that it reads is its untrusted server's."""
    provenance = call.resolution.hints[Hint.READ_ONLY].provenance
    if provenance.origin is Origin.DECLARED:
        basis = "its own declaration"
    elif provenance.origin is Origin.ARGUMENT:
        basis = "its arguments, read through the parameter its server's schema describes"
    else:
        basis = "its tool's name, description or schema" + (
            f" (inference rule {provenance.rule})" if provenance.rule else ""
        )
    reason = (
        f"Its server is untrusted, and that this tool only reads rests on {basis}, which the server controls; "
        "untrusted read-only tools ask unless the operator vouches for them."
    )
    return Decision(Verdict.ASK, reason, DecisionSource.UNTRUSTED)


def _deciding_rule(call: CallFacts, rules: Sequence[Rule]) -> Rule | None:
    """The rule that decides: the most specific level that matches, then the strongest effect, then the first.

    A deny rule naming people (`user`, `group`) that matches decides first, at any level: a role's limit
    is not lifted by a more specific rule written for everyone.
    """
    best: Rule | None = None
    if call.who is not None:
        for rule in rules:
            if (
                rule.effect is Verdict.DENY
                and rule.names_people
                and rule.matches(
                    call.tool, call.server, call.tier, call.resolution.hints, call.spelled, call.who, call.arguments
                )
            ):
                return rule
    for rule in rules:
        # Skip the match when the rule could not beat the one found already.
        if best is not None and (rule.rank > best.rank or (rule.rank == best.rank and rule.strength <= best.strength)):
            continue
        if rule.matches(
            call.tool, call.server, call.tier, call.resolution.hints, call.spelled, call.who, call.arguments
        ):
            best = rule
    return best


def denied_by_rule(call: CallFacts, rules: Sequence[Rule]) -> Rule | None:
    """The deny rule that decides every call of this tool by this caller, whatever its arguments, if one does.

    A person's `tools/list` leaves such tools out: no call of theirs could run.
    """
    rule = _deciding_rule(call, rules) if rules else None
    return rule if rule is not None and rule.effect is Verdict.DENY else None


def who_answers(decision: Decision, rules: Sequence[Rule], settings: PolicySettings) -> Approvers:
    """Who may answer a person's call that `decision` asks about.

    The deciding rule's approvers, with what they leave unsaid from the global ones
    (`policy.approvers`, `policy.selfApproval`); the global ones when no rule names any; anyone
    signed in, and never the caller, when nothing does.
    """
    rule = next((r for r in rules if r.id == decision.rule), None) if decision.rule is not None else None
    everywhere = settings.approvers
    if rule is not None and rule.approvers is not None:
        return rule.approvers.over(everywhere)
    return everywhere or Approvers()


def _earlier_answer(
    call: CallFacts, session: SessionState, settings: PolicySettings, now: float, tainted: bool
) -> Decision | None:
    """An allow standing in for a question a person has in effect answered already."""
    approved = session.approved_since_taint if tainted else session.approved_for_session
    if call.tool in approved:
        return Decision(
            Verdict.ALLOW, f"A person approved {call.tool} for this session.", DecisionSource.SESSION_APPROVAL
        )
    window = settings.idempotent_retry_window
    if window > 0 and call.idempotent:
        at = session.approved_at(call.tool, call.arguments, since_taint=tainted)
        if at is not None and 0 <= now - at <= window:
            reason = (
                f"The same call (same tool and arguments) was approved {now - at:.0f} s ago and this tool is "
                "idempotent, so it runs again without asking."
            )
            return Decision(Verdict.ALLOW, reason, DecisionSource.IDEMPOTENT_RETRY)
    return None


def decide(
    call: CallFacts, session: SessionState, settings: PolicySettings, rules: Sequence[Rule], *, now: float
) -> Decision:
    """Decide whether a call runs, asks or is denied; the precedence is in the module docstring.

    The reason of an ask or a deny is true for this tool (hints declared and
    set aside are named, not called undeclared) and, when the mode or the
    server's trust decided, ends with the one step that changes it.

    Args:
        call: the tool, its resolved hints, its server's trust and the arguments.
        session: what the session approved and read; not changed here.
        settings: mode and preferences.
        rules: the operator's rules, in config order.
        now: the current time in seconds, on the clock `SessionState.record_approval` was given.
    """
    decision = _decide(call, session, settings, rules, now=now)
    if call.judgement is not None:
        decision = dataclasses.replace(decision, reason=f"{decision.reason} {_judged(call)}")
    if decision.verdict is Verdict.ALLOW:
        return decision
    reason = decision.reason
    if _NOTHING_KNOWN in reason:
        reason = reason.replace(_NOTHING_KNOWN, _unknown_phrase(call))
    fix = _FIXES.get(decision.by)
    if fix is not None:
        reason = f"{reason} {fix(call)}"
    return dataclasses.replace(decision, reason=reason) if reason != decision.reason else decision


def _judged(call: CallFacts) -> str:
    """What the call does, as its arguments say ("This call: DROP TABLE users; destructive (judged from ...).")."""
    assert call.judgement is not None
    static = call.static.tier if call.static is not None else call.tier
    bound = (
        ""
        if call.tier is not static or call.judgement.act.label in call.tier.value
        else (f"; its tool's static hints ({static.value}) bound it")
    )
    return f"This call: {call.judgement.reason} (judged from its arguments{bound})."


def _unknown_phrase(call: CallFacts) -> str:
    """Why a tool's tier is unknown, truly: nothing declared, or declared and set aside, or declared but not these."""
    declared = call.resolution.declared.set_hints()
    if not declared:
        return _NOTHING_KNOWN
    hints = call.resolution.hints
    set_aside = [
        f"{h.value} {str(r.distrusted).lower()}"
        for h in (Hint.READ_ONLY, Hint.DESTRUCTIVE)
        if (r := hints[h]).distrusted is not None
    ]
    if set_aside:
        return (
            f"its server declared {' and '.join(set_aside)}, set aside because the server is untrusted; "
            "nothing is inferred or set"
        )
    return "neither readOnlyHint nor destructiveHint is declared, inferred or set"


def _allow_rule(call: CallFacts) -> str:
    return f"To run it without asking: the allow rule {{allow: {{tool: {call.tool}}}}}."


def _trust_step(call: CallFacts) -> str:
    return f"To believe the hints its server declares: hintgate trust {call.server}."


def _override_step(call: CallFacts) -> str:
    if call.resolution.declared.set_hints() and not call.trusted:
        return _trust_step(call)
    return (
        f"To say what it does: an override of its hints (the tool's page on the dashboard, or the server's "
        f"`overrides:`), or the allow rule {{allow: {{tool: {call.tool}}}}}."
    )


def _read_only_mode_step(_call: CallFacts) -> str:
    return "If it only reads, an override of readOnlyHint true says so; otherwise another mode runs it."


def _contradicted_step(_call: CallFacts) -> str:
    return "If its declaration is right, an override of the hint says so."


def _preference_step(_call: CallFacts) -> str:
    return "Turning 'Auto-approve read-only tools' on runs read-only tools without asking."


_FIXES: Mapping[DecisionSource, Callable[[CallFacts], str]] = {
    DecisionSource.MODE_DEFAULT: _allow_rule,
    DecisionSource.ALWAYS_CONFIRM_DESTRUCTIVE: _allow_rule,
    DecisionSource.UNTRUSTED: _trust_step,
    DecisionSource.UNKNOWN_TOOL: _override_step,
    DecisionSource.MODE_READ_ONLY: _read_only_mode_step,
    DecisionSource.CONTRADICTED: _contradicted_step,
    DecisionSource.AUTO_APPROVE_READ_ONLY: _preference_step,
}
"""The one step that changes an ask or a deny the mode or trust gave, by what decided it."""


def _decide(
    call: CallFacts, session: SessionState, settings: PolicySettings, rules: Sequence[Rule], *, now: float
) -> Decision:
    rule = _deciding_rule(call, rules) if rules else None
    if rule is not None and rule.effect is Verdict.DENY:
        return Decision(Verdict.DENY, rule.reason, DecisionSource.RULE, rule.id)
    if call.quarantine is not None:
        # Held for an operator: no mode, rule or earlier approval lets a poisoned definition run unasked.
        return Decision(Verdict.ASK, call.quarantine, DecisionSource.QUARANTINE)
    if call.names_gateway is not None:
        # A tool pointed at the gateway itself could steer it: no mode, rule or earlier approval covers that.
        return Decision(Verdict.ASK, call.names_gateway, DecisionSource.GATEWAY_ITSELF)
    mode = settings.mode
    if mode is Mode.BYPASS:
        return _BYPASS
    if mode is Mode.READ_ONLY and not call.read_only:
        return _mind_trust(_by_mode(call.tier, settings), call, settings)
    decision = (
        _by_mode(call.tier, settings)
        if rule is None
        else Decision(rule.effect, rule.reason, DecisionSource.RULE, rule.id)
    )
    if rule is None and decision.verdict is Verdict.ALLOW and not call.trusted:
        if _reads_on_its_own_word(call):
            decision = _unvouched_read(call)
        elif not call.read_only:
            decision = _unvouched_write(call) or decision
    tainted_by = session.tainted_by
    tainted = (
        tainted_by is not None and settings.taint_enabled and not call.read_only and session.taint_scope != call.server
    )
    if decision.verdict is Verdict.ALLOW:
        if not tainted:
            return decision
        reason = f"This session has read content from an open-world tool ({tainted_by}); writes now ask."
        if session.taint_reason:
            reason += f" It taints because {session.taint_reason}."
        if rule is not None:
            reason += f" Rule {rule.cite()} would have allowed it."
        decision = Decision(Verdict.ASK, reason, DecisionSource.TAINT)
    elif rule is None:
        decision = _mind_trust(decision, call, settings)
    confirm = None if rule is None else rule.confirm
    if confirm is Confirm.ALWAYS:
        return decision
    earlier = _earlier_answer(call, session, settings, now, tainted)
    if earlier is not None:
        return earlier
    if rule is not None and confirm is Confirm.FIRST:
        once = session.approved_once_since_taint if tainted else session.approved_once
        if call.tool in once:
            reason = f"A person approved a call of {call.tool} in this session; rule {rule.cite()} asks the first time."
            return Decision(Verdict.ALLOW, reason, DecisionSource.CONFIRM_FIRST)
    if tainted and decision.by is not DecisionSource.TAINT:
        reason = f"{decision.reason} This session has also read content from an open-world tool ({tainted_by})."
        decision = dataclasses.replace(decision, reason=reason)
    return decision


# ------------------------------------------------------------------ retries


class Failure(StrEnum):
    """How an upstream call failed, as far as retrying it is concerned."""

    TRANSIENT = "transient"
    """The call did not reach the tool (the server is down or restarting, the connection dropped)."""
    TIMEOUT = "timeout"
    """No answer in time: the call may or may not have run."""
    PERMANENT = "permanent"
    """The server answered with an error, or broke the protocol: trying again will not help."""


def failure_kind(error: BaseException) -> Failure:
    """Classify an upstream error for `should_retry`."""
    if isinstance(error, UpstreamTimeout):
        return Failure.TIMEOUT
    if isinstance(error, UpstreamDown | UpstreamClosed | ConnectionError):
        return Failure.TRANSIENT
    return Failure.PERMANENT


def should_retry(call: CallFacts, error_kind: Failure | str) -> bool:
    """Whether the gateway may repeat a failed call by itself.

    Only transient failures and timeouts, and only for tools whose repetition
    is harmless: read-only or idempotent on the word of someone hintgate
    believes (`vouched`: an operator's override, or a trusted server's
    declaration). Inference never earns a retry, nor does an untrusted
    server's claim: a slow write named `get_...` would run twice.

    Raises:
        ValueError: `error_kind` is not a `Failure` value.
    """
    if Failure(error_kind) is Failure.PERMANENT:
        return False
    return (call.read_only and vouched(call, Hint.READ_ONLY)) or (call.idempotent and vouched(call, Hint.IDEMPOTENT))
