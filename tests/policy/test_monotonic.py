"""A policy that never inverts: for every server, no tool asks while a riskier tool of it runs unasked.

A property test over random catalogs, trusts, modes, preferences and rules.
Something specific to one of the two tools may still set them apart (a
rule, an operator's override, a hold, taint, a confirm setting, an earlier
answer); then the reason names it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hintgate.hints.annotations import Hint, Origin, Tier
from hintgate.hints.catalog import resolve_tool
from hintgate.hints.trust import Trust
from hintgate.policy.decide import CallFacts, Decision, DecisionSource, Mode, SessionState, Verdict, decide
from hintgate.policy.rules import parse_policy

RANK = {Tier.READ_ONLY: 0, Tier.ADDITIVE: 1, Tier.DESTRUCTIVE: 2, Tier.UNKNOWN: 3}
"""Riskier is higher: unknown is the riskiest, since nothing says what it does."""

SPECIFIC = {
    DecisionSource.RULE,
    DecisionSource.QUARANTINE,
    DecisionSource.TAINT,
    DecisionSource.CONFIRM_FIRST,
    DecisionSource.SESSION_APPROVAL,
    DecisionSource.IDEMPOTENT_RETRY,
}
"""Decisions that come from something about one tool (or one session), not from the mode and the server."""

# Names whose inference runs from reads to deletes, and one that infers nothing.
NAMES = ["get_note", "list_items", "create_item", "add_tag", "update_item", "delete_item", "purge_all", "frobnicate"]
hint_values = st.sampled_from([None, True, False])


@st.composite
def tools(draw: Any) -> list[CallFacts]:
    trust = draw(st.sampled_from(list(Trust)))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=6, unique=True))
    calls = []
    for name in names:
        declared = {h.value: v for h in Hint if (v := draw(hint_values)) is not None}
        overrides = {h: v for h in Hint if (v := draw(hint_values)) is not None and draw(st.integers(0, 3)) == 0}
        tool = resolve_tool({"name": name, "annotations": declared}, trust=trust, overrides=overrides)
        quarantine = "Held for an operator: its definition changed." if draw(st.integers(0, 9)) == 0 else None
        calls.append(
            CallFacts(
                tool=f"s_{name}",
                server="s",
                resolution=tool.resolution,
                trusted=trust.believed,
                quarantine=quarantine,
            )
        )
    return calls


rule_bodies = st.one_of(
    st.builds(lambda name: {"tool": f"s_{name}"}, st.sampled_from(NAMES)),
    st.builds(lambda tier: {"tier": tier}, st.sampled_from([t.value for t in Tier])),
    st.just({"server": "s"}),
)
rules = st.lists(
    st.builds(lambda effect, body: {effect: body}, st.sampled_from(["allow", "ask", "deny"]), rule_bodies),
    max_size=3,
)


def vouched_tier(call: CallFacts) -> bool:
    """Whether the hint that makes a write's tier is an operator's override (something about that tool)."""
    hints = call.resolution.hints
    return any(hints[h].provenance.origin is Origin.OVERRIDE for h in (Hint.READ_ONLY, Hint.DESTRUCTIVE))


def specific(call: CallFacts, decision: Decision) -> bool:
    return decision.by in SPECIFIC or vouched_tier(call)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    calls=tools(),
    mode=st.sampled_from([Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.READ_ONLY]),
    auto_read=st.booleans(),
    confirm_destructive=st.booleans(),
    written=rules,
    tainted=st.booleans(),
)
def test_no_tool_asks_while_a_riskier_tool_of_its_server_runs_unasked(
    calls: list[CallFacts],
    mode: Mode,
    auto_read: bool,
    confirm_destructive: bool,
    written: list[dict[str, Any]],
    tainted: bool,
) -> None:
    policy, parsed = parse_policy({"rules": written})
    policy = dataclasses.replace(
        policy, mode=mode, auto_approve_read_only=auto_read, always_confirm_destructive=confirm_destructive
    )
    session = SessionState()
    if tainted:
        session.mark_open_world_result("web_fetch", "its server declares it reaches the open world")
    decided = [(call, decide(call, session, policy, parsed, now=0.0)) for call in calls]
    for riskier, ran in decided:
        if ran.verdict is not Verdict.ALLOW:
            continue
        for safer, asked in decided:
            if RANK[safer.tier] >= RANK[riskier.tier] or asked.verdict is not Verdict.ASK:
                continue
            assert specific(riskier, ran) or specific(safer, asked), (
                f"{riskier.tool} ({riskier.tier}) runs: {ran.reason} [{ran.source}]; "
                f"{safer.tool} ({safer.tier}) asks: {asked.reason} [{asked.source}]"
            )
            if asked.by is DecisionSource.RULE:
                assert "rule" in asked.reason.lower()


def test_an_untrusted_server_s_additive_write_asks_in_accept_edits_like_its_reads() -> None:
    policy, _ = parse_policy({"mode": "accept-edits"})
    calls = [
        CallFacts(
            tool=f"s_{name}",
            server="s",
            resolution=resolve_tool({"name": name}, trust=Trust.UNTRUSTED).resolution,
            trusted=False,
        )
        for name in ("get_note", "create_item")
    ]
    read, write = (decide(call, SessionState(), policy, (), now=0.0) for call in calls)
    assert (calls[0].tier, read.verdict) == (Tier.READ_ONLY, Verdict.ASK)
    assert (calls[1].tier, write.verdict) == (Tier.ADDITIVE, Verdict.ASK)
    assert "rests on its tool's name, description or schema (inference rule name.verb.create)" in write.reason
    assert write.source == "trust:untrusted"


def test_an_operator_s_override_lets_an_untrusted_server_s_additive_write_run_in_accept_edits() -> None:
    policy, _ = parse_policy({"mode": "accept-edits"})
    tool = resolve_tool({"name": "create_item"}, trust=Trust.UNTRUSTED, overrides={Hint.DESTRUCTIVE: False})
    call = CallFacts(tool="s_create_item", server="s", resolution=tool.resolution, trusted=False)
    assert decide(call, SessionState(), policy, (), now=0.0).verdict is Verdict.ALLOW


def test_with_auto_approve_read_only_off_accept_edits_asks_for_writes_too() -> None:
    policy, _ = parse_policy({"mode": "accept-edits", "preferences": {"autoApproveReadOnly": False}})
    tool = resolve_tool({"name": "create_item"}, trust=Trust.TRUSTED)
    call = CallFacts(tool="s_create_item", server="s", resolution=tool.resolution, trusted=True)
    decision = decide(call, SessionState(), policy, (), now=0.0)
    assert decision.verdict is Verdict.ASK
    assert "'Auto-approve read-only tools' is off" in decision.reason
