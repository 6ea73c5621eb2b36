"""A policy that never inverts: for every server, no tool asks while a riskier tool of it runs unasked.

A property test over random catalogs, trusts, modes, preferences and rules.
Something specific to one of the two tools may still set them apart (a
rule, an operator's override, a hold, taint, a confirm setting, an earlier
answer); then the reason names it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
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

TIER_NAMES = {
    Tier.READ_ONLY: ["get_note", "list_items"],
    Tier.ADDITIVE: ["create_item", "add_tag"],
    Tier.DESTRUCTIVE: ["delete_item", "purge_all"],
    Tier.UNKNOWN: ["frobnicate"],
}
"""Names whose inference alone gives each tier."""
TIER_HINTS: dict[Tier, dict[Hint, bool]] = {
    Tier.READ_ONLY: {Hint.READ_ONLY: True},
    Tier.ADDITIVE: {Hint.READ_ONLY: False, Hint.DESTRUCTIVE: False},
    Tier.DESTRUCTIVE: {Hint.READ_ONLY: False, Hint.DESTRUCTIVE: True},
}
"""The hints that give each tier, however they are come by (declared, an operator's override)."""


@st.composite
def random_tool(draw: Any, trust: Trust, index: int) -> CallFacts:
    """Any tool: a name, hints declared and overridden at random."""
    name = f"{draw(st.sampled_from(NAMES))}_{index}"
    declared = {h.value: v for h in Hint if (v := draw(hint_values)) is not None}
    overrides = {h: v for h in Hint if (v := draw(hint_values)) is not None and draw(st.integers(0, 3)) == 0}
    return facts(name, declared, overrides, trust, draw(st.integers(0, 9)) == 0)


@st.composite
def tool_of_tier(draw: Any, trust: Trust, index: int, tier: Tier) -> CallFacts:
    """A tool aimed at `tier`, by one of the ways a tool comes by it: its name, its server's word, an override.

    Inversions hide where a tier rests on different words for different tools
    (an untrusted server's own declaration beside inference from a name), so
    each way is drawn as often as the others.
    """
    way = draw(st.sampled_from(["name", "declared", "override", "declared-and-name"]))
    name = draw(st.sampled_from(TIER_NAMES[tier] if way in ("name", "declared-and-name") else NAMES))
    hints = TIER_HINTS.get(tier, {})
    declared = {h.value: v for h, v in hints.items()} if way.startswith("declared") else {}
    overrides = dict(hints) if way == "override" else {}
    for hint in (Hint.IDEMPOTENT, Hint.OPEN_WORLD):
        value = draw(hint_values)
        if value is not None:
            declared[hint.value] = value
    return facts(f"{name}_{index}", declared, overrides, trust, quarantined=False)


def facts(
    name: str, declared: dict[str, bool], overrides: dict[Hint, bool], trust: Trust, quarantined: bool
) -> CallFacts:
    tool = resolve_tool({"name": name, "annotations": declared}, trust=trust, overrides=overrides)
    return CallFacts(
        tool=f"s_{name}",
        server="s",
        resolution=tool.resolution,
        trusted=trust.believed,
        quarantine="Held for an operator: its definition changed." if quarantined else None,
    )


@st.composite
def tools(draw: Any, trust: Trust) -> list[CallFacts]:
    """One server's tools: at least two aimed at different tiers, and others at random."""
    first, second = draw(st.permutations(list(Tier)))[:2]
    calls = [draw(tool_of_tier(trust, 0, first)), draw(tool_of_tier(trust, 1, second))]
    for index in range(2, 2 + draw(st.integers(0, 3))):
        tier = draw(st.sampled_from(list(Tier)))
        calls.append(draw(st.one_of(random_tool(trust, index), tool_of_tier(trust, index, tier))))
    return calls


rule_bodies = st.one_of(
    st.builds(lambda name, index: {"tool": f"s_{name}_{index}"}, st.sampled_from(NAMES), st.integers(0, 5)),
    st.builds(lambda tier: {"tier": tier}, st.sampled_from([t.value for t in Tier])),
    st.just({"server": "s"}),
)
# No rules as often as some: a rule names one tool, and so sets it apart; the mode and trust alone must not.
rules = st.one_of(
    st.just([]),
    st.lists(
        st.builds(lambda effect, body: {effect: body}, st.sampled_from(["allow", "ask", "deny"]), rule_bodies),
        min_size=1,
        max_size=3,
    ),
)


def vouched_tier(call: CallFacts) -> bool:
    """Whether the hint that makes a write's tier is an operator's override (something about that tool)."""
    hints = call.resolution.hints
    return any(hints[h].provenance.origin is Origin.OVERRIDE for h in (Hint.READ_ONLY, Hint.DESTRUCTIVE))


def specific(call: CallFacts, decision: Decision) -> bool:
    return decision.by in SPECIFIC or vouched_tier(call)


# Each trust and mode is its own run, so every one of them gets its share of examples whatever the draws
# favour; a run's examples are enough to find an inversion that needs two of the four other settings.
@pytest.mark.parametrize("trust", list(Trust))
@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.READ_ONLY])
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    auto_read=st.booleans(),
    confirm_destructive=st.booleans(),
    written=rules,
    tainted=st.booleans(),
)
def test_no_tool_asks_while_a_riskier_tool_of_its_server_runs_unasked(
    trust: Trust,
    mode: Mode,
    data: st.DataObject,
    auto_read: bool,
    confirm_destructive: bool,
    written: list[dict[str, Any]],
    tainted: bool,
) -> None:
    calls = data.draw(tools(trust), label="calls")
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
