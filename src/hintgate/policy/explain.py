"""What a person is shown about a call before it runs: the hint warnings, and the dry run of every tool.

Pure, like `hintgate.policy.decide`, whose facts and verdicts it shows:
approval questions carry `warnings`; `hintgate policy explain` prints `explain`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from hintgate.hints.annotations import Hint, Origin, Tier
from hintgate.hints.trust import Trust
from hintgate.policy.decide import UNSET, CallFacts, Decision, SessionState, Verdict, decide, taint_basis, who_answers
from hintgate.policy.principal import Approvers, Principal, PrincipalKind
from hintgate.policy.rules import Mode, PolicySettings, Rule

if TYPE_CHECKING:
    from hintgate.hints.catalog import CatalogEntry

__all__ = ["ExplainRow", "explain", "warnings"]


def warnings(call: CallFacts, settings: PolicySettings | None = None) -> list[str]:
    """The hint warnings an approval prompt shows; none when `show_hint_warnings` is off.

    The open-world warning is given only when something says so (declared,
    inferred or set): from the spec default alone it would be on nearly every
    tool and mean nothing.
    """
    if settings is not None and not settings.show_hint_warnings:
        return []
    out: list[str] = []
    tier = call.tier
    # A call judged by its arguments is spoken of as the call: the tool may do more on other calls.
    it = "This call" if call.judgement is not None else "This tool"
    if tier is Tier.UNKNOWN:
        out.append("Nothing is known about this tool: no hints declared, inferred or set")
    elif tier is Tier.DESTRUCTIVE:
        out.append(f"{it} may make destructive changes")
    elif tier is Tier.READ_ONLY:
        out.append(f"{it} only reads data")
    hints = call.resolution.hints
    if call.open_world and hints[Hint.OPEN_WORLD].provenance.origin is not Origin.DEFAULT:
        out.append("This tool can reach external systems (open world)")
    claims = [_CLAIMS[hint, r.distrusted] for hint, r in hints.items() if r.distrusted is not None]
    if claims:
        # Only claims that were set aside: a declaration that was used is not news to the person asked.
        said = " and ".join(claims)
        if call.resolution.trust is Trust.LOCAL:
            said = f"Its server says it is {said}, but strong evidence says otherwise"
        else:
            said = f"Its untrusted server says it is {said}"
        out.append(f"{said}; that was set aside, not used to approve it")
    return out


_CLAIMS: Mapping[tuple[Hint, bool], str] = {
    (Hint.READ_ONLY, True): "read-only",
    (Hint.READ_ONLY, False): "not read-only",
    (Hint.DESTRUCTIVE, False): "not destructive",
    (Hint.DESTRUCTIVE, True): "destructive",
    (Hint.IDEMPOTENT, True): "idempotent",
    (Hint.IDEMPOTENT, False): "not idempotent",
    (Hint.OPEN_WORLD, False): "closed world",
    (Hint.OPEN_WORLD, True): "open world",
}


@dataclass(frozen=True, slots=True)
class ExplainRow:
    """One tool in `hintgate policy explain`: what each mode would do to a first call of it.

    Attributes:
        tool: the public name.
        server: the source.
        tier: the tool's tier.
        title: its display title, if any.
        decisions: mode → decision, in the order asked for.
        warnings: the hint warnings an approval prompt would show.
        taints: why content it returns would taint the session (`taint_basis`); None when it would not.
        trust: its server's trust level, and where that came from ("config", "origin", "runtime") when known.
        answerers: mode → who may answer where that mode's decision asks, for a person's dry run
            (`explain(who=...)`); empty otherwise.
        does: what the call with the given arguments does (`explain(arguments=...)`), when they could be judged.
    """

    tool: str
    server: str
    tier: Tier
    title: str | None
    decisions: Mapping[Mode, Decision]
    warnings: tuple[str, ...]
    taints: str | None = None
    trust: tuple[Trust, str | None] = (Trust.UNTRUSTED, None)
    answerers: Mapping[Mode, Approvers] = field(default_factory=lambda: MappingProxyType({}))
    does: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The `--format json` shape."""
        return {
            "tool": self.tool,
            "server": self.server,
            "tier": self.tier.value,
            "title": self.title,
            "decisions": {mode.value: d.to_json() for mode, d in self.decisions.items()},
            "warnings": list(self.warnings),
            "taints": self.taints,
            "trust": self.trust[0].value,
            "trust_from": self.trust[1],
            "answered_by": {mode.value: a.to_json() for mode, a in self.answerers.items()},
            "does": self.does,
        }


def explain(
    entries: Iterable[CatalogEntry],
    settings: PolicySettings,
    rules: Sequence[Rule],
    modes: Sequence[Mode] = tuple(Mode),
    who: Principal | None = None,
    trust_from: Mapping[str, str] | None = None,
    arguments: Mapping[str, Any] | None = None,
) -> list[ExplainRow]:
    """A dry run: each tool's verdict and reason in each mode, in a fresh session.

    With `who`, as that person (their name and groups) would get them; rules naming people apply only then.
    `trust_from` gives, by server, where its trust came from, for the rows to say. With `arguments`, for a
    call with those arguments: judged by them, and matched by rules on arguments; without, for a call
    whose arguments are not known (the tool's own hints).
    """
    per_mode = [(mode, dataclasses.replace(settings, mode=mode)) for mode in modes]
    rows: list[ExplainRow] = []
    for entry in entries:
        call = CallFacts.from_entry(entry, arguments, who, judgement=UNSET if settings.judge_arguments else None)
        decisions = {mode: decide(call, SessionState(), s, rules, now=0.0) for mode, s in per_mode}
        person = who is not None and who.kind is PrincipalKind.USER
        asks = [(mode, d) for mode, d in decisions.items() if d.verdict is Verdict.ASK] if person else []
        answerers = {mode: who_answers(d, rules, settings) for mode, d in asks}
        rows.append(
            ExplainRow(
                tool=call.tool,
                server=call.server,
                tier=call.tier,
                title=call.title,
                decisions=MappingProxyType(decisions),
                warnings=tuple(warnings(call, settings)),
                taints=taint_basis(call, settings),
                trust=(call.resolution.trust, (trust_from or {}).get(call.server)),
                answerers=MappingProxyType(answerers),
                does=call.does,
            )
        )
    return rows
