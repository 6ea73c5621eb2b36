"""A call's hints: its tool's resolved hints with what its arguments say laid over them, within the bound trust allows.

Pure. The tools/resolve draft (`io.modelcontextprotocol/tool-resolution`)
bounds a resolution by the static annotations: static readOnly true means
every call reads; static destructive false (not read-only) means no call
destroys; static idempotent true means every write is idempotent; static
openWorld false means no call reaches the open world. hintgate keeps that
bound where the static value is a word it believes (an operator's override,
a trusted server's declaration): a SELECT through a trusted `execute_sql`
declared destructive resolves read-only, while a DROP through a trusted tool
declared read-only stays read-only (the server said the tool cannot write:
it runs its statements in a read-only transaction, say). Elsewhere (a
`local` or `untrusted` server, a hint that was only inferred or defaulted)
the arguments decide both ways: a DROP through a tool declared read-only is
destructive, a SELECT through one declared destructive is a read. The
values judged carry provenance `argument` with the judge's rule.
"""

from __future__ import annotations

import dataclasses

from hintgate.hints.annotations import CAUTIOUS, Hint, Origin, Provenance, Resolution, Resolved, Tier
from hintgate.hints.calls.judgement import Act, Judgement
from hintgate.hints.trust import Trust

__all__ = ["bounded", "draft_bounded", "judgement_of", "per_call", "weigh_upstream", "within_draft_bound"]


def bounded(static: Resolution, hint: Hint) -> bool:
    """Whether a call's `hint` may not be riskier than the tool's: its value is an override or a trusted declaration."""
    origin = static.hints[hint].provenance.origin
    return origin is Origin.OVERRIDE or (origin is Origin.DECLARED and static.trust is Trust.TRUSTED)


def per_call(static: Resolution, judgement: Judgement) -> Resolution:
    """The hints of one call: `judgement`'s values over the tool's resolved `static` hints, within the bound.

    A judged value riskier than a bounded static one (`bounded`) is left out;
    every other judged value replaces the static one, with provenance
    `argument:<rule>`. When the call resolves read-only, destructive and
    idempotent follow (false, true), as they do for a tool.
    """
    hints = dict(static.hints)
    provenance = Provenance(Origin.ARGUMENT, judgement.rule)
    for hint, value in judgement.hints().items():
        current = static.hints[hint]
        if value == current.value:
            if current.provenance.origin is not Origin.OVERRIDE:
                hints[hint] = Resolved(value, provenance)
            continue
        if value == CAUTIOUS[hint] and bounded(static, hint):
            continue  # the word hintgate believes says this tool never does that
        hints[hint] = Resolved(value, provenance)
    read_only = hints[Hint.READ_ONLY]
    if read_only.value:
        for hint, forced in ((Hint.DESTRUCTIVE, False), (Hint.IDEMPOTENT, True)):
            if hints[hint].value != forced and hints[hint].provenance.origin is not Origin.OVERRIDE:
                hints[hint] = Resolved(forced, read_only.provenance)
    return dataclasses.replace(static, hints=hints)


def within_draft_bound(static: Resolution, resolved: dict[Hint, bool]) -> bool:
    """Whether per-call values keep the draft's conservative relation to the static ones (spec defaults applied)."""
    if static.value(Hint.READ_ONLY) and not resolved[Hint.READ_ONLY]:
        return False
    if static.tier is not Tier.READ_ONLY:
        if not static.value(Hint.DESTRUCTIVE) and resolved[Hint.DESTRUCTIVE] and not resolved[Hint.READ_ONLY]:
            return False
        if static.value(Hint.IDEMPOTENT) and not resolved[Hint.IDEMPOTENT] and not resolved[Hint.READ_ONLY]:
            return False
    return not (not static.value(Hint.OPEN_WORLD) and resolved[Hint.OPEN_WORLD])


def judgement_of(hints: dict[Hint, bool], what: str, rule: str) -> Judgement:
    """A judgement standing for four hints an upstream resolved for a call."""
    act = Act.of(read_only=hints[Hint.READ_ONLY], destructive=hints[Hint.DESTRUCTIVE])
    return Judgement(act, what, rule, hints[Hint.IDEMPOTENT], hints[Hint.OPEN_WORLD])


def weigh_upstream(static: Resolution, own: Judgement | None, answer: Judgement) -> Judgement | None:
    """What a call's hints rest on when its server resolved them (tools/resolve), by how far it is trusted.

    - trusted: its answer stands (it knows its tool; the draft's bound was checked before).
    - local: its answer stands unless hintgate's own judgement of the arguments is riskier: then that.
    - untrusted: its answer may only make the call riskier, than hintgate's judgement, or than the
      tool's static hints when hintgate could not judge: a server cannot vouch for its own call.

    None: the tool's static hints stand.
    """
    if static.trust is Trust.TRUSTED:
        return answer
    if own is not None:
        return own if own.act >= answer.act else answer
    if static.trust is Trust.LOCAL:
        return answer
    static_act = Act.of(read_only=static.tier is Tier.READ_ONLY, destructive=static.tier is not Tier.ADDITIVE)
    return answer if answer.act > static_act else None


def draft_bounded(static: Resolution, call: Resolution) -> dict[Hint, bool]:
    """A call's four hints as the draft lets a server answer them: never riskier than the tool's listed hints.

    The gateway decides with the call's own hints, which for a server it does not fully trust may be
    riskier than the tool's listing (a DROP through a tool listed read-only). A `tools/resolve` answer
    riskier than the listing is a bound violation a client must discard, so the answer keeps the listed
    value there (and says under `_meta` what the gateway decides with).
    """
    values = {h: call.value(h) for h in Hint}
    for hint in Hint:
        listed = static.value(hint)
        if listed != CAUTIOUS[hint] and values[hint] == CAUTIOUS[hint]:
            if hint in {Hint.DESTRUCTIVE, Hint.IDEMPOTENT} and static.value(Hint.READ_ONLY):
                continue  # under a read-only listing these follow readOnly below
            values[hint] = listed
    if values[Hint.READ_ONLY]:
        values[Hint.DESTRUCTIVE], values[Hint.IDEMPOTENT] = False, True
    return values
