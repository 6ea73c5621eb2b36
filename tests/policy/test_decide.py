"""The policy engine: modes, preferences, rule precedence, trust, unknown tools, taint, retries, parsing, explain."""

from __future__ import annotations

import dataclasses
import itertools
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from hintgate.errors import ConfigError, UpstreamClosed, UpstreamDown, UpstreamRequestError, UpstreamTimeout
from hintgate.hints.annotations import Annotations, Hint, Inferred, Resolution, Tier, resolve
from hintgate.hints.catalog import build_catalog, resolve_tool
from hintgate.hints.trust import Trust
from hintgate.policy.decide import (
    UNTRUSTED_CONTENT,
    CallFacts,
    Confirm,
    Decision,
    DecisionSource,
    Failure,
    Level,
    Mode,
    PolicySettings,
    Rule,
    SessionState,
    Verdict,
    decide,
    failure_kind,
    parse_policy,
    should_retry,
    taint_basis,
)
from hintgate.policy.explain import explain, warnings
from hintgate.policy.rules import POLICY_SETTINGS, PREFERENCE_KEYS, TOP_KEYS, PolicySetting, Taint

ALLOW, ASK, DENY = Verdict.ALLOW, Verdict.ASK, Verdict.DENY

READ_ONLY = resolve(declared=Annotations(read_only=True, open_world=False), trust=Trust.TRUSTED)
ADDITIVE = resolve(declared=Annotations(read_only=False, destructive=False, open_world=False), trust=Trust.TRUSTED)
DESTRUCTIVE = resolve(declared=Annotations(read_only=False, destructive=True), trust=Trust.TRUSTED)
UNKNOWN = resolve(declared=Annotations())
IDEMPOTENT_WRITE = resolve(
    declared=Annotations(read_only=False, destructive=False, idempotent=True), trust=Trust.TRUSTED
)
BY_TIER = {Tier.READ_ONLY: READ_ONLY, Tier.ADDITIVE: ADDITIVE, Tier.DESTRUCTIVE: DESTRUCTIVE, Tier.UNKNOWN: UNKNOWN}


def facts(
    resolution: Resolution,
    tool: str = "notes_tool",
    server: str = "notes",
    arguments: Mapping[str, Any] | None = None,
    trusted: bool | None = None,
) -> CallFacts:
    return CallFacts(
        tool=tool,
        server=server,
        resolution=resolution,
        trusted=resolution.trusted if trusted is None else trusted,
        arguments=arguments or {},
    )


def run(
    call: CallFacts,
    mode: Mode = Mode.DEFAULT,
    rules: Sequence[Rule] = (),
    session: SessionState | None = None,
    now: float = 0.0,
    **settings: Any,
) -> Decision:
    return decide(call, session or SessionState(), PolicySettings(mode=mode, **settings), rules, now=now)


# ------------------------------------------------------------------ modes

MODE_TABLE = {
    Mode.DEFAULT: {
        Tier.READ_ONLY: (ALLOW, "mode:default"),
        Tier.ADDITIVE: (ASK, "mode:default"),
        Tier.DESTRUCTIVE: (ASK, "mode:default"),
        Tier.UNKNOWN: (ASK, "unknown-tool"),
    },
    Mode.ACCEPT_EDITS: {
        Tier.READ_ONLY: (ALLOW, "mode:accept-edits"),
        Tier.ADDITIVE: (ALLOW, "mode:accept-edits"),
        Tier.DESTRUCTIVE: (ASK, "preference:always-confirm-destructive"),
        Tier.UNKNOWN: (ASK, "unknown-tool"),
    },
    Mode.READ_ONLY: {
        Tier.READ_ONLY: (ALLOW, "mode:read-only"),
        Tier.ADDITIVE: (DENY, "mode:read-only"),
        Tier.DESTRUCTIVE: (DENY, "mode:read-only"),
        Tier.UNKNOWN: (DENY, "mode:read-only"),
    },
    Mode.BYPASS: dict.fromkeys(Tier, (ALLOW, "mode:bypass")),
}


@pytest.mark.parametrize(("mode", "tier"), list(itertools.product(Mode, Tier)))
def test_each_mode_decides_each_tier_as_documented(mode: Mode, tier: Tier) -> None:
    decision = run(facts(BY_TIER[tier]), mode)
    assert (decision.verdict, decision.source) == MODE_TABLE[mode][tier]
    assert decision.reason.endswith(".")


def test_reasons_are_sentences_a_person_reads() -> None:
    assert run(facts(READ_ONLY)).reason == "Read-only tools run without asking."
    assert run(facts(DESTRUCTIVE), Mode.ACCEPT_EDITS).reason == (
        "Destructive tools always ask: 'Always confirm destructive' is on. "
        "To run it without asking: the allow rule {allow: {tool: notes_tool}}."
    )
    assert run(facts(ADDITIVE)).reason == (
        "In default mode only read-only tools run without asking; this tool writes (additive, not destructive). "
        "To run it without asking: the allow rule {allow: {tool: notes_tool}}."
    )
    assert run(facts(DESTRUCTIVE), Mode.READ_ONLY).reason == (
        "Read-only mode runs only read-only tools; this tool is destructive. "
        "If it only reads, an override of readOnlyHint true says so; otherwise another mode runs it."
    )


@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.ACCEPT_EDITS])
def test_read_only_tools_ask_when_auto_approve_read_only_is_off(mode: Mode) -> None:
    decision = run(facts(READ_ONLY), mode, auto_approve_read_only=False)
    assert decision.verdict is ASK
    assert decision.source == "preference:auto-approve-read-only"
    assert "'Auto-approve read-only tools' is off" in decision.reason


def test_read_only_mode_runs_read_only_tools_even_with_auto_approve_off() -> None:
    assert run(facts(READ_ONLY), Mode.READ_ONLY, auto_approve_read_only=False).verdict is ALLOW


def test_always_confirm_destructive_wins_over_accept_edits() -> None:
    decision = run(facts(DESTRUCTIVE), Mode.ACCEPT_EDITS, always_confirm_destructive=True)
    assert decision.verdict is ASK
    assert decision.source == "preference:always-confirm-destructive"


def test_accept_edits_runs_destructive_tools_when_always_confirm_destructive_is_off() -> None:
    decision = run(facts(DESTRUCTIVE), Mode.ACCEPT_EDITS, always_confirm_destructive=False)
    assert (decision.verdict, decision.source) == (ALLOW, "mode:accept-edits")


def test_default_mode_asks_for_destructive_tools_whatever_the_preference() -> None:
    assert run(facts(DESTRUCTIVE), always_confirm_destructive=False).verdict is ASK


def test_always_confirm_destructive_does_not_apply_in_bypass() -> None:
    assert run(facts(DESTRUCTIVE), Mode.BYPASS, always_confirm_destructive=True).verdict is ALLOW


def test_decide_does_not_change_the_session() -> None:
    session = SessionState(tainted_by="web_fetch")
    run(facts(IDEMPOTENT_WRITE), Mode.ACCEPT_EDITS, session=session)
    assert session == SessionState(tainted_by="web_fetch")


# ------------------------------------------------------------- precedence

LEVEL_RULE: dict[Level, dict[str, Any]] = {
    Level.TOOL: {"tool": "notes_*"},
    Level.SERVER: {"server": "notes"},
    Level.GLOBAL: {"tiers": frozenset({Tier.ADDITIVE})},
}


def rules_at(spec: Mapping[Level, Sequence[Verdict]]) -> list[Rule]:
    rules = [Rule(effect, **LEVEL_RULE[level]) for level in Level for effect in spec.get(level, ())]
    return [Rule(r.effect, r.tool, r.server, r.tiers, r.hints, index=i) for i, r in enumerate(rules)]


@pytest.mark.parametrize(
    ("tool_effect", "server_effect", "global_effect"),
    list(itertools.product([None, ALLOW, ASK, DENY], repeat=3)),
)
def test_the_most_specific_level_with_a_matching_rule_decides(
    tool_effect: Verdict | None, server_effect: Verdict | None, global_effect: Verdict | None
) -> None:
    given = {Level.TOOL: tool_effect, Level.SERVER: server_effect, Level.GLOBAL: global_effect}
    # Listed least specific first, so that list order cannot be what decides.
    rules = rules_at({level: [effect] for level, effect in reversed(given.items()) if effect is not None})
    decision = run(facts(ADDITIVE), Mode.DEFAULT, rules)
    deciding = next(((level, e) for level, e in given.items() if e is not None), None)
    if deciding is None:
        assert (decision.verdict, decision.source) == (ASK, "mode:default")
    else:
        assert decision.verdict is deciding[1]
        assert decision.source.startswith(f"rule:{deciding[0]}:")


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.parametrize(
    "effects",
    [list(p) for n in (1, 2, 3) for c in itertools.combinations(Verdict, n) for p in itertools.permutations(c)],
)
def test_deny_beats_ask_beats_allow_at_one_level(level: Level, effects: list[Verdict]) -> None:
    strongest = max(effects, key=[ALLOW, ASK, DENY].index)
    decision = run(facts(ADDITIVE), Mode.DEFAULT, rules_at({level: effects}))
    assert decision.verdict is strongest
    assert decision.source == f"{rules_at({level: effects})[effects.index(strongest)].id}"


def test_tool_rule_beats_server_rule() -> None:
    rules = [Rule(DENY, server="notes", index=0), Rule(ALLOW, tool="notes_tool", index=1)]
    assert run(facts(DESTRUCTIVE), rules=rules).verdict is ALLOW
    rules = [Rule(ALLOW, server="notes", index=0), Rule(DENY, tool="notes_tool", index=1)]
    assert run(facts(READ_ONLY), rules=rules).verdict is DENY


def test_server_rule_beats_global_rule() -> None:
    rules = [Rule(DENY, tiers=frozenset({Tier.DESTRUCTIVE})), Rule(ALLOW, server="notes", index=1)]
    decision = run(facts(DESTRUCTIVE), rules=rules)
    assert (decision.verdict, decision.source) == (ALLOW, "rule:server:notes#1")


def test_first_rule_is_cited_among_equal_rules_at_one_level() -> None:
    rules = [Rule(ASK, tool="other"), Rule(ASK, tool="notes_*", index=1), Rule(ASK, tool="*_tool", index=2)]
    assert run(facts(READ_ONLY), rules=rules).source == "rule:tool:notes_*#1"


def test_the_mode_decides_when_no_rule_matches() -> None:
    rules = [Rule(DENY, tool="github_*"), Rule(DENY, server="github"), Rule(DENY, hints={Hint.READ_ONLY: False})]
    assert run(facts(READ_ONLY), rules=rules).source == "mode:default"


def test_rule_with_tool_and_server_is_a_tool_rule_and_needs_both_to_match() -> None:
    rule = Rule(DENY, tool="notes_*", server="prod")
    assert rule.level is Level.TOOL
    assert run(facts(READ_ONLY, server="notes"), rules=[rule]).verdict is ALLOW
    assert run(facts(READ_ONLY, server="prod"), rules=[rule]).verdict is DENY


def test_globs_match_whole_names_ignoring_case_and_look_alike_letters() -> None:
    rule = Rule(DENY, tool="delete*")
    assert run(facts(READ_ONLY, tool="delete_note"), rules=[rule]).verdict is DENY
    assert run(facts(READ_ONLY, tool="Delete_note"), rules=[rule]).verdict is DENY
    assert run(facts(READ_ONLY, tool="DELETE_NOTE"), rules=[rule]).verdict is DENY
    assert run(facts(READ_ONLY, tool="notes_delete"), rules=[rule]).verdict is ALLOW


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize(
    ("public", "spelled"),
    [
        ("gh_delete_repo", "gh_delete repo"),  # a space, served as `_`
        ("gh_Delete_repo", "gh_Delete_repo"),  # a capital
        ("gh_d_lete_repo", "gh_d\u0435lete_repo"),  # a Cyrillic е, served as `_`
        ("gh_\uff44elete_repo", "gh_\uff44elete_repo"),  # a fullwidth ｄ
    ],
)
def test_a_deny_rule_catches_every_spelling_of_a_name_in_every_mode(mode: Mode, public: str, spelled: str) -> None:
    call = CallFacts(tool=public, server="gh", resolution=READ_ONLY, trusted=True, spelled=spelled)
    assert run(call, mode, [Rule(DENY, tool="gh_delete_*")]).verdict is DENY


def test_an_allow_rule_matches_the_public_name_only_not_a_spelling_that_folds_to_it() -> None:
    call = CallFacts(tool="gh_g_t_secret", server="gh", resolution=ADDITIVE, trusted=True, spelled="gh_g\u0435t_secret")
    assert run(call, rules=[Rule(Verdict.ALLOW, tool="gh_get_*")]).verdict is ASK


def test_global_rules_match_by_hint_and_tier() -> None:
    by_hint = Rule(DENY, hints={Hint.DESTRUCTIVE: True})
    by_tier = Rule(DENY, tiers=frozenset({Tier.ADDITIVE, Tier.READ_ONLY}))
    assert by_hint.level is by_tier.level is Level.GLOBAL
    assert run(facts(DESTRUCTIVE), Mode.BYPASS, [by_hint]).verdict is DENY
    assert run(facts(ADDITIVE), Mode.BYPASS, [by_hint]).verdict is ALLOW
    assert run(facts(ADDITIVE), Mode.BYPASS, [by_tier]).verdict is DENY
    assert run(facts(DESTRUCTIVE), Mode.BYPASS, [by_tier]).verdict is ALLOW


def test_tier_destructive_does_not_match_unknown_tools_but_destructive_hint_does() -> None:
    assert run(facts(UNKNOWN), Mode.BYPASS, [Rule(DENY, tiers=frozenset({Tier.DESTRUCTIVE}))]).verdict is ALLOW
    assert run(facts(UNKNOWN), Mode.BYPASS, [Rule(DENY, hints={Hint.DESTRUCTIVE: True})]).verdict is DENY


def test_deny_rules_deny_in_bypass() -> None:
    assert run(facts(READ_ONLY), Mode.BYPASS, [Rule(DENY, server="notes")]).verdict is DENY


def test_ask_rules_do_not_ask_in_bypass() -> None:
    assert run(facts(READ_ONLY), Mode.BYPASS, [Rule(ASK, server="notes")]).source == "mode:bypass"


def test_read_only_mode_denies_writes_even_when_a_rule_allows_them() -> None:
    decision = run(facts(ADDITIVE), Mode.READ_ONLY, [Rule(ALLOW, tool="*")])
    assert (decision.verdict, decision.source) == (DENY, "mode:read-only")


def test_rules_can_ask_for_or_deny_read_only_tools_in_read_only_mode() -> None:
    assert run(facts(READ_ONLY), Mode.READ_ONLY, [Rule(ASK, tool="*")]).verdict is ASK
    assert run(facts(READ_ONLY), Mode.READ_ONLY, [Rule(DENY, tool="*")]).verdict is DENY


def test_an_explicit_allow_rule_wins_over_always_confirm_destructive() -> None:
    decision = run(facts(DESTRUCTIVE), Mode.ACCEPT_EDITS, [Rule(ALLOW, tool="notes_tool")])
    assert (decision.verdict, decision.source) == (ALLOW, "rule:tool:notes_tool#0")


def test_an_ask_rule_at_the_same_level_keeps_a_broad_allow_from_running_destructive_tools() -> None:
    rules = [Rule(ALLOW, server="notes"), Rule(ASK, server="notes", tiers=frozenset({Tier.DESTRUCTIVE}), index=1)]
    assert run(facts(DESTRUCTIVE), rules=rules).verdict is ASK
    assert run(facts(ADDITIVE), rules=rules).verdict is ALLOW


def test_rule_ids_name_level_pattern_and_index() -> None:
    assert Rule(ASK, tool="delete_*", index=3).id == "rule:tool:delete_*#3"
    assert Rule(DENY, server="github", tiers=frozenset({Tier.DESTRUCTIVE}), index=0).id == "rule:server:github#0"
    assert Rule(DENY, tiers=frozenset({Tier.DESTRUCTIVE}), index=2).id == "rule:global:tier=destructive#2"
    assert Rule(DENY, hints={Hint.DESTRUCTIVE: True}, index=4).id == "rule:global:destructiveHint=true#4"


def test_a_rule_decision_cites_the_rule_and_where_the_config_has_it() -> None:
    _, rules = parse_policy({"rules": [{"deny": {"server": "notes", "tier": "destructive"}}]})
    decision = run(facts(DESTRUCTIVE), rules=rules)
    assert decision == Decision(
        DENY,
        "Denied by rule deny server=notes tier=destructive (config policy.rules[0]).",
        DecisionSource.RULE,
        "rule:server:notes#0",
    )


def test_a_rule_reason_carries_the_operators_note() -> None:
    rule = Rule(DENY, server="prod", note="Use the staging server.")
    assert run(facts(READ_ONLY, server="prod"), rules=[rule]).reason.endswith(" Use the staging server.")


# ------------------------------------------------------------------- trust

CLAIMS_READ_ONLY = resolve(declared=Annotations(read_only=True), trust=Trust.UNTRUSTED)
CLAIMS_READ_ONLY_AGAINST_INFERENCE = resolve(
    declared=Annotations(read_only=True),
    inferred={Hint.READ_ONLY: Inferred(False, "name.verb.delete"), Hint.DESTRUCTIVE: Inferred(True, "name.verb")},
    trust=Trust.UNTRUSTED,
)
CLAIMS_NOT_DESTRUCTIVE = resolve(declared=Annotations(read_only=False, destructive=False), trust=Trust.UNTRUSTED)


@pytest.mark.parametrize("resolution", [CLAIMS_READ_ONLY, CLAIMS_READ_ONLY_AGAINST_INFERENCE])
def test_untrusted_server_cannot_get_auto_approval_by_claiming_read_only(resolution: Resolution) -> None:
    decision = run(facts(resolution))
    assert decision.verdict is ASK
    assert decision.source == "trust:untrusted"
    assert "Its server is untrusted, so its own claim to be read-only was not used." in decision.reason


def test_a_local_servers_contradicted_claims_are_said_in_plain_words() -> None:
    from hintgate.hints.trust import Trust

    read_only = resolve(
        declared=Annotations(read_only=True),
        inferred={Hint.READ_ONLY: Inferred(False, "name.verb.delete"), Hint.DESTRUCTIVE: Inferred(True, "name.verb")},
        trust=Trust.LOCAL,
    )
    decision = run(facts(read_only))
    assert decision.source == "trust:contradicted"
    assert "Its server declares it read-only, but strong evidence (inference rule name.verb.delete)" in decision.reason
    additive = resolve(
        declared=Annotations(read_only=False, destructive=False),
        inferred={Hint.DESTRUCTIVE: Inferred(True, "name.verb.delete")},
        trust=Trust.LOCAL,
    )
    decision = run(facts(additive), Mode.ACCEPT_EDITS)
    assert decision.source == "trust:contradicted"
    assert "Its server declares it not destructive, but strong evidence" in decision.reason


def test_trusted_server_claim_to_be_read_only_is_used() -> None:
    trusted = resolve(declared=Annotations(read_only=True), trust=Trust.TRUSTED)
    assert run(facts(trusted)).verdict is ALLOW


def test_untrusted_claim_not_to_be_destructive_does_not_count_in_accept_edits() -> None:
    decision = run(facts(CLAIMS_NOT_DESTRUCTIVE), Mode.ACCEPT_EDITS)
    assert (decision.verdict, decision.source) == (ASK, "trust:untrusted")
    assert "its own claim not to be destructive was not used" in decision.reason


def test_read_only_mode_denial_says_the_untrusted_claim_was_not_used() -> None:
    decision = run(facts(CLAIMS_READ_ONLY), Mode.READ_ONLY)
    assert (decision.verdict, decision.source) == (DENY, "trust:untrusted")


def test_trust_is_not_mentioned_when_the_claim_would_not_have_changed_the_verdict() -> None:
    decision = run(facts(CLAIMS_NOT_DESTRUCTIVE), Mode.DEFAULT)
    assert (decision.verdict, decision.source) == (ASK, "mode:default")
    assert "untrusted" not in decision.reason


def test_a_rule_on_read_only_hint_does_not_match_a_distrusted_claim() -> None:
    rules = [Rule(ALLOW, hints={Hint.READ_ONLY: True}), Rule(ALLOW, tiers=frozenset({Tier.READ_ONLY}), index=1)]
    assert run(facts(CLAIMS_READ_ONLY), rules=rules).verdict is ASK


def test_call_facts_resolve_again_when_the_resolution_lent_trust_the_server_lacks() -> None:
    lent = resolve(declared=Annotations(read_only=True), trust=Trust.TRUSTED)
    call = facts(lent, trusted=False)
    assert call.read_only is False
    assert call.resolution.hints[Hint.READ_ONLY].distrusted is True
    assert run(call).verdict is ASK


# ---------------------------------------------------------- unknown tools


@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.READ_ONLY])
@pytest.mark.parametrize("confirm_destructive", [True, False])
def test_unknown_tool_is_never_auto_approved_outside_bypass(mode: Mode, confirm_destructive: bool) -> None:
    decision = run(facts(UNKNOWN), mode, always_confirm_destructive=confirm_destructive)
    assert decision.verdict is not ALLOW


def test_unknown_tool_runs_in_bypass() -> None:
    assert run(facts(UNKNOWN), Mode.BYPASS).verdict is ALLOW


def test_an_explicit_allow_rule_allows_an_unknown_tool() -> None:
    decision = run(facts(UNKNOWN), Mode.DEFAULT, [Rule(ALLOW, tool="notes_tool")])
    assert (decision.verdict, decision.source) == (ALLOW, "rule:tool:notes_tool#0")


def test_a_tool_with_only_an_inferred_hint_is_not_unknown() -> None:
    inferred = resolve(
        declared=Annotations(), inferred={Hint.READ_ONLY: Inferred(True, "name.verb.get")}, trust=Trust.TRUSTED
    )
    assert run(facts(inferred)).verdict is ALLOW


# ------------------------------------------- untrusted read-only: on its own word

GET_NOTE = {Hint.READ_ONLY: Inferred(True, "name.verb.get")}
UNTRUSTED_READS = {
    "declared and inferred": resolve(declared=Annotations(read_only=True), inferred=GET_NOTE),
    "inferred": resolve(declared=Annotations(), inferred=GET_NOTE),
}


@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.READ_ONLY])
@pytest.mark.parametrize("basis", list(UNTRUSTED_READS))
def test_an_untrusted_tool_read_only_on_its_servers_word_asks(mode: Mode, basis: str) -> None:
    call = facts(UNTRUSTED_READS[basis], tool="notes_get_note")
    decision = run(call, mode)
    assert call.tier is Tier.READ_ONLY
    assert (decision.verdict, decision.source) == (ASK, "trust:untrusted")
    assert decision.reason.startswith("Its server is untrusted, and that this tool only reads rests on its ")
    assert "To believe the hints its server declares: hintgate trust notes." in decision.reason


def test_an_untrusted_read_only_tool_runs_with_an_allow_rule_an_override_or_a_session_approval() -> None:
    unvouched = facts(UNTRUSTED_READS["declared and inferred"], tool="notes_get_note")
    overridden = resolve(declared=Annotations(), inferred=GET_NOTE, overrides={Hint.READ_ONLY: True})
    session = SessionState()
    session.approve_for_session("notes_get_note")
    assert run(unvouched, rules=[Rule(Verdict.ALLOW, tool="notes_get_*")]).verdict is ALLOW
    assert run(facts(overridden)).verdict is ALLOW
    assert run(unvouched, session=session).source == "session-approval"
    assert run(unvouched, Mode.BYPASS).verdict is ALLOW


# ------------------------------------------------------------------- taint

TAINTED = "web_fetch"


def tainted() -> SessionState:
    session = SessionState()
    session.mark_open_world_result(TAINTED)
    return session


def test_taint_makes_writes_ask_in_accept_edits() -> None:
    decision = run(facts(ADDITIVE), Mode.ACCEPT_EDITS, session=tainted())
    assert decision == Decision(
        ASK, "This session has read content from an open-world tool (web_fetch); writes now ask.", DecisionSource.TAINT
    )


def test_taint_makes_destructive_writes_ask_when_always_confirm_is_off() -> None:
    decision = run(facts(DESTRUCTIVE), Mode.ACCEPT_EDITS, session=tainted(), always_confirm_destructive=False)
    assert (decision.verdict, decision.source) == (ASK, "taint:open-world")


def test_taint_leaves_read_only_tools_alone() -> None:
    assert run(facts(READ_ONLY), Mode.ACCEPT_EDITS, session=tainted()).verdict is ALLOW


def test_taint_overrides_allow_rules_for_writes_but_deny_rules_still_deny() -> None:
    decision = run(facts(ADDITIVE), rules=[Rule(ALLOW, tool="notes_*")], session=tainted())
    assert (decision.verdict, decision.source) == (ASK, "taint:open-world")
    assert "Rule allow tool=notes_* (config rule #0) would have allowed it." in decision.reason
    assert run(facts(ADDITIVE), rules=[Rule(DENY, tool="notes_*")], session=tainted()).verdict is DENY


def test_taint_can_be_turned_off() -> None:
    assert run(facts(ADDITIVE), Mode.ACCEPT_EDITS, session=tainted(), taint=Taint.OFF).verdict is ALLOW


def test_taint_does_not_affect_bypass() -> None:
    assert run(facts(DESTRUCTIVE), Mode.BYPASS, session=tainted()).verdict is ALLOW


def test_taint_is_mentioned_when_a_write_would_ask_anyway() -> None:
    decision = run(facts(ADDITIVE), Mode.DEFAULT, session=tainted())
    assert decision.source == "mode:default"
    assert "This session has also read content from an open-world tool (web_fetch)." in decision.reason
    assert decision.reason.endswith("To run it without asking: the allow rule {allow: {tool: notes_tool}}.")


def test_the_first_open_world_tool_is_the_one_named() -> None:
    session = tainted()
    session.mark_open_world_result("search")
    assert session.tainted_by == TAINTED


OPEN_BY_DEFAULT = resolve(declared=Annotations(read_only=True), trust=Trust.TRUSTED)
FETCHER = resolve_tool(
    {"name": "fetch", "description": "Fetches a URL from the internet and returns its contents."}
).resolution


def test_only_tools_whose_open_world_rests_on_evidence_taint_the_session() -> None:
    evidence = PolicySettings()
    declared_open = resolve(declared=Annotations(read_only=True, open_world=True), trust=Trust.UNTRUSTED)
    set_open = resolve(declared=Annotations(read_only=True), overrides={Hint.OPEN_WORLD: True})
    claims_closed = resolve(declared=Annotations(read_only=True, open_world=False), trust=Trust.UNTRUSTED)
    assert taint_basis(facts(OPEN_BY_DEFAULT), evidence) is None
    assert taint_basis(facts(claims_closed), evidence) == UNTRUSTED_CONTENT  # someone else's words, whatever its claim
    assert taint_basis(facts(READ_ONLY), evidence) is None
    assert taint_basis(facts(declared_open), evidence) == "its server declares it reaches the open world"
    assert taint_basis(facts(set_open), evidence) == "an operator's override says it reaches the open world"
    assert "inference rule desc.web" in str(taint_basis(facts(FETCHER, tool="fetch"), evidence))


def test_strict_taint_counts_the_spec_default_and_off_counts_nothing() -> None:
    assert taint_basis(facts(OPEN_BY_DEFAULT), PolicySettings(taint=Taint.STRICT)) == (
        "it may reach the open world by the spec default, and taint is strict"
    )
    assert taint_basis(facts(FETCHER, tool="fetch"), PolicySettings(taint=Taint.OFF)) is None


def test_a_result_taints_the_session_only_when_its_tool_does_and_the_write_that_follows_says_why() -> None:
    session = SessionState()
    assert session.mark_result(facts(OPEN_BY_DEFAULT, tool="notes_read"), PolicySettings()) is False
    assert run(facts(ADDITIVE), Mode.ACCEPT_EDITS, session=session).verdict is ALLOW
    assert session.mark_result(facts(FETCHER, tool="fetch"), PolicySettings()) is True
    decision = run(facts(ADDITIVE), Mode.ACCEPT_EDITS, session=session)
    assert decision.source == "taint:open-world"
    assert "(fetch); writes now ask. It taints because what it does says" in decision.reason


def test_explain_says_which_tools_would_taint() -> None:
    tools = [
        resolve_tool({"name": "fetch", "description": "Fetches a URL from the internet."}),
        resolve_tool({"name": "get_note"}, trusted=True),
    ]
    entries = build_catalog([("n", "n", tools)]).entries
    rows = {row.tool: row for row in explain(entries.values(), PolicySettings(), (), (Mode.DEFAULT,))}
    assert rows["n_fetch"].to_json()["taints"] == rows["n_fetch"].taints
    assert "inference rule" in str(rows["n_fetch"].taints)
    assert rows["n_get_note"].taints is None
    untrusted = build_catalog([("u", "u", [resolve_tool({"name": "get_note"}, trusted=False)])]).entries
    [row] = explain(untrusted.values(), PolicySettings(), (), (Mode.DEFAULT,))
    assert row.taints == UNTRUSTED_CONTENT


def test_a_distrusted_claim_to_be_closed_world_still_counts_as_open_world() -> None:
    claims_closed = resolve(declared=Annotations(read_only=True, open_world=False), trust=Trust.UNTRUSTED)
    assert facts(claims_closed).open_world is True
    assert facts(READ_ONLY).open_world is False


def test_session_approval_given_before_the_taint_does_not_waive_it_but_one_given_after_does() -> None:
    session = SessionState()
    session.approve_for_session("notes_tool")
    assert run(facts(ADDITIVE), session=session).source == "session-approval"
    session.mark_open_world_result(TAINTED)
    assert run(facts(ADDITIVE), session=session).verdict is ASK
    session.approve_for_session("notes_tool")
    assert run(facts(ADDITIVE), session=session).source == "session-approval"


# ------------------------------------------------ earlier answers, retries


def test_session_approval_runs_the_tool_without_asking() -> None:
    session = SessionState()
    session.approve_for_session("notes_tool")
    decision = run(facts(DESTRUCTIVE), Mode.ACCEPT_EDITS, session=session)
    assert decision == Decision(
        ALLOW, "A person approved notes_tool for this session.", DecisionSource.SESSION_APPROVAL
    )
    assert run(facts(DESTRUCTIVE, tool="notes_other"), session=session).verdict is ASK


def test_session_approval_does_not_lift_a_deny() -> None:
    session = SessionState()
    session.approve_for_session("notes_tool")
    assert run(facts(ADDITIVE), rules=[Rule(DENY, tool="*")], session=session).verdict is DENY
    assert run(facts(ADDITIVE), Mode.READ_ONLY, session=session).verdict is DENY


def approved(tool: str = "notes_tool", arguments: Mapping[str, Any] | None = None, at: float = 100.0) -> SessionState:
    session = SessionState()
    session.record_approval(tool, arguments or {"id": 7, "tags": ["a"]}, at)
    return session


def test_idempotent_retry_runs_without_asking_within_the_window() -> None:
    call = facts(IDEMPOTENT_WRITE, arguments={"id": 7, "tags": ["a"]})
    decision = run(call, session=approved(), now=100.0 + 600)
    assert (decision.verdict, decision.source) == (ALLOW, "retry:idempotent")
    assert "600 s ago" in decision.reason


def test_idempotent_retry_asks_again_after_the_window() -> None:
    call = facts(IDEMPOTENT_WRITE, arguments={"id": 7, "tags": ["a"]})
    assert run(call, session=approved(), now=100.0 + 601).verdict is ASK
    assert run(call, session=approved(), now=100.0 + 60, idempotent_retry_window=30).verdict is ASK


def test_idempotent_retry_needs_identical_arguments_in_any_key_order() -> None:
    session = approved(arguments={"id": 7, "tags": ["a"]})
    assert run(facts(IDEMPOTENT_WRITE, arguments={"tags": ["a"], "id": 7}), session=session, now=101).verdict is ALLOW
    assert run(facts(IDEMPOTENT_WRITE, arguments={"id": 8, "tags": ["a"]}), session=session, now=101).verdict is ASK
    assert run(facts(IDEMPOTENT_WRITE, arguments={"id": 7.0, "tags": ["a"]}), session=session, now=101).verdict is ASK


def test_an_identical_call_of_another_tool_is_not_a_retry() -> None:
    call = facts(IDEMPOTENT_WRITE, tool="notes_other", arguments={"id": 7, "tags": ["a"]})
    assert run(call, session=approved(), now=101).verdict is ASK


def test_non_idempotent_tool_asks_again_for_an_identical_call() -> None:
    call = facts(ADDITIVE, arguments={"id": 7, "tags": ["a"]})
    assert run(call, session=approved(), now=101).verdict is ASK


def test_untrusted_claim_to_be_idempotent_does_not_allow_retries() -> None:
    claims = resolve(declared=Annotations(read_only=False, destructive=False, idempotent=True), trust=Trust.UNTRUSTED)
    call = facts(claims, arguments={"id": 7, "tags": ["a"]})
    assert call.idempotent is False
    assert run(call, session=approved(), now=101).verdict is ASK


def test_a_zero_window_turns_retries_off() -> None:
    call = facts(IDEMPOTENT_WRITE, arguments={"id": 7, "tags": ["a"]})
    assert run(call, session=approved(), now=100.0, idempotent_retry_window=0).verdict is ASK


def test_retry_does_not_lift_a_deny() -> None:
    call = facts(IDEMPOTENT_WRITE, arguments={"id": 7, "tags": ["a"]})
    assert run(call, rules=[Rule(DENY, tool="*")], session=approved(), now=101).verdict is DENY


def test_retry_in_a_tainted_session_needs_an_approval_given_after_the_taint() -> None:
    call = facts(IDEMPOTENT_WRITE, arguments={"id": 7})
    session = approved(arguments={"id": 7})
    session.mark_open_world_result(TAINTED)
    assert run(call, session=session, now=101).verdict is ASK
    session.record_approval("notes_tool", {"id": 7}, 102)
    assert run(call, session=session, now=103).source == "retry:idempotent"


def test_the_identical_idempotent_retry_of_the_call_that_tainted_the_session_does_not_ask_again() -> None:
    fetch = resolve(
        declared=Annotations(read_only=False, destructive=False, idempotent=True, open_world=True), trust=Trust.TRUSTED
    )
    call = facts(fetch, tool="web_put", arguments={"url": "https://example.org"}, trusted=True)
    session = SessionState()
    session.record_approval("web_put", {"url": "https://example.org"}, 100)
    assert session.mark_result(call, PolicySettings()) is True
    assert run(call, session=session, now=101).source == "retry:idempotent"
    other = facts(fetch, tool="web_put", arguments={"url": "https://example.com"}, trusted=True)
    assert run(other, Mode.ACCEPT_EDITS, session=session, now=101).source == "taint:open-world"


def test_read_only_calls_are_retried_when_read_only_tools_ask() -> None:
    call = facts(READ_ONLY, arguments={"id": 7, "tags": ["a"]})
    assert run(call, session=approved(), now=101, auto_approve_read_only=False).source == "retry:idempotent"


def test_arguments_without_a_canonical_form_are_never_retried() -> None:
    session = SessionState()
    odd: dict[Any, Any] = {1: "a", "b": 2}
    session.record_approval("notes_tool", odd, 100)
    assert session.approved_at("notes_tool", odd) is None


def test_a_session_forgets_its_oldest_approved_calls_beyond_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SessionState, "max_remembered_calls", 2)
    session = SessionState()
    for n in range(3):
        session.record_approval("notes_tool", {"n": n}, n)
    assert [session.approved_at("notes_tool", {"n": n}) for n in range(3)] == [None, 1, 2]


@pytest.mark.parametrize(
    ("resolution", "kind", "expected"),
    [
        (READ_ONLY, Failure.TRANSIENT, True),
        (READ_ONLY, Failure.TIMEOUT, True),
        (UNTRUSTED_READS["declared and inferred"], Failure.TIMEOUT, False),
        (UNTRUSTED_READS["inferred"], Failure.TRANSIENT, False),
        (resolve(declared=Annotations(), inferred=GET_NOTE, trust=Trust.TRUSTED), Failure.TIMEOUT, False),
        (resolve(declared=Annotations(), inferred=GET_NOTE, overrides={Hint.READ_ONLY: True}), Failure.TIMEOUT, True),
        (resolve(declared=Annotations(idempotent=True, read_only=False)), Failure.TIMEOUT, False),
        (resolve(declared=Annotations(read_only=False), overrides={Hint.IDEMPOTENT: True}), Failure.TIMEOUT, True),
        (IDEMPOTENT_WRITE, Failure.TRANSIENT, True),
        (IDEMPOTENT_WRITE, Failure.TIMEOUT, True),
        (ADDITIVE, Failure.TRANSIENT, False),
        (UNKNOWN, Failure.TIMEOUT, False),
        (READ_ONLY, Failure.PERMANENT, False),
        (READ_ONLY, "transient", True),
    ],
)
def test_only_tools_vouched_read_only_or_idempotent_are_retried_after_transient_failures(
    resolution: Resolution, kind: Failure | str, expected: bool
) -> None:
    assert should_retry(facts(resolution), kind) is expected


def test_upstream_errors_are_classified_for_retrying() -> None:
    assert failure_kind(UpstreamTimeout("slow")) is Failure.TIMEOUT
    assert failure_kind(UpstreamDown("down")) is Failure.TRANSIENT
    assert failure_kind(UpstreamClosed("gone")) is Failure.TRANSIENT
    assert failure_kind(UpstreamRequestError("bad", code=-32602)) is Failure.PERMANENT


# ---------------------------------------------------------------- warnings


def test_warnings_name_what_the_hints_say() -> None:
    assert warnings(facts(DESTRUCTIVE)) == ["This tool may make destructive changes"]
    fetch = resolve(declared=Annotations(read_only=True, open_world=True), trust=Trust.TRUSTED)
    assert warnings(facts(fetch)) == ["This tool only reads data", "This tool can reach external systems (open world)"]
    assert warnings(facts(READ_ONLY)) == ["This tool only reads data"]
    assert warnings(facts(UNKNOWN)) == ["Nothing is known about this tool: no hints declared, inferred or set"]
    assert warnings(facts(CLAIMS_READ_ONLY))[-1] == (
        "Its untrusted server says it is read-only; that was set aside, not used to approve it"
    )


def test_the_untrusted_hints_warning_appears_only_where_a_declared_claim_was_set_aside() -> None:
    cautious = resolve(declared=Annotations(read_only=False, destructive=True, open_world=True), trust=Trust.UNTRUSTED)
    closed_reader = resolve(declared=Annotations(read_only=True, open_world=False), trust=Trust.UNTRUSTED)
    assert not any("untrusted" in w for w in warnings(facts(cautious)))
    assert not any("untrusted" in w for w in warnings(facts(READ_ONLY)))
    assert warnings(facts(closed_reader))[-1] == (
        "Its untrusted server says it is read-only and closed world; that was set aside, not used to approve it"
    )


def test_warnings_are_empty_when_show_hint_warnings_is_off() -> None:
    assert warnings(facts(DESTRUCTIVE), PolicySettings(show_hint_warnings=False)) == []


# ----------------------------------------------------------------- parsing

EXAMPLE = {
    "mode": "default",
    "preferences": {"autoApproveReadOnly": True, "alwaysConfirmDestructive": True, "showHintWarnings": True},
    "taint": True,
    "idempotentRetryWindow": 600,
    "approvalTimeout": 50,
    "rules": [
        {"deny": {"server": "github", "tier": "destructive"}},
        {"allow": {"tool": "time_*"}},
        {"ask": {"tool": "*_delete_*"}},
        {"deny": {"destructiveHint": True, "server": "prod-*"}},
    ],
}


def test_the_documented_example_parses() -> None:
    settings, rules = parse_policy(EXAMPLE, source="servers.yaml")
    assert settings == PolicySettings()
    assert [r.id for r in rules] == [
        "rule:server:github#0",
        "rule:tool:time_*#1",
        "rule:tool:*_delete_*#2",
        "rule:server:prod-*#3",
    ]
    assert rules[3].hints == {Hint.DESTRUCTIVE: True}
    assert rules[0].where == "policy.rules[0]"


def test_no_policy_section_gives_the_defaults() -> None:
    assert parse_policy(None) == (PolicySettings(), ())
    assert parse_policy({}) == (PolicySettings(), ())


def test_settings_take_camel_case_or_snake_case() -> None:
    camel = {"mode": "acceptEdits", "preferences": {"autoApproveReadOnly": False}, "idempotentRetryWindow": 0}
    snake = {"mode": "accept_edits", "preferences": {"auto_approve_read_only": False}, "idempotent_retry_window": 0}
    expected = PolicySettings(mode=Mode.ACCEPT_EDITS, auto_approve_read_only=False, idempotent_retry_window=0)
    assert parse_policy(camel)[0] == parse_policy(snake)[0] == expected


def test_rules_take_every_hint_spelling_and_tier_lists() -> None:
    _, rules = parse_policy(
        {
            "rules": [
                {"deny": {"read_only_hint": False, "tier": ["destructive", "unknown"]}},
                {"ask": {"open_world": True, "x-why": "ignored"}},
            ]
        }
    )
    assert rules[0].hints == {Hint.READ_ONLY: False}
    assert rules[0].tiers == {Tier.DESTRUCTIVE, Tier.UNKNOWN}
    assert rules[1].hints == {Hint.OPEN_WORLD: True}


@pytest.mark.parametrize(
    ("data", "path", "message"),
    [
        ("deny", "policy", 'expected a mapping, got "deny"'),
        ({"mode": "yolo"}, "policy.mode", "expected a mode: one of default, accept-edits, read-only, bypass"),
        ({"mode": "acept-edits"}, "policy.mode", 'did you mean "accept-edits"?'),
        ({"prefrences": {}}, "policy.prefrences", 'unknown key "prefrences"; did you mean "preferences"?'),
        ({"preferences": {"autoApprove": 1}}, "policy.preferences.autoApprove", 'did you mean "autoApproveReadOnly"'),
        ({"preferences": {"showHintWarnings": "yes"}}, "policy.preferences.showHintWarnings", 'got "yes"'),
        ({"taint": 1}, "policy.taint", "expected a taint setting: one of evidence, strict, off; got 1"),
        ({"approvalTimeout": 0}, "policy.approvalTimeout", "greater than 0"),
        ({"idempotentRetryWindow": -1}, "policy.idempotentRetryWindow", "0 or more"),
        ({"approvalTimeout": 5, "approval_timeout": 5}, "policy.approval_timeout", 'repeats "approvalTimeout"'),
        ({"rules": {"deny": {}}}, "policy.rules", "expected a list of rules, got a mapping"),
        ({"rules": ["deny"]}, "policy.rules[0]", "a mapping with one of allow, ask, deny"),
        ({"rules": [{}]}, "policy.rules[0]", "a rule needs one of allow, ask, deny"),
        ({"rules": [{"deny": {"tool": "a"}, "allow": {"tool": "b"}}]}, "policy.rules[0]", "a rule has one effect"),
        ({"rules": [{"denny": {"tool": "a"}}]}, "policy.rules[0].denny", 'did you mean "deny"?'),
        ({"rules": [{"deny": "a"}]}, "policy.rules[0].deny", "expected a mapping of conditions"),
        ({"rules": [{"deny": {}}]}, "policy.rules[0].deny", "a rule needs a tool, server, tier or hint"),
        ({"rules": [{"deny": {"reason": "no"}}]}, "policy.rules[0].deny", "a rule needs a tool, server, tier or hint"),
        ({"rules": [{"deny": {"tol": "a"}}]}, "policy.rules[0].deny.tol", 'did you mean "tool"?'),
        ({"rules": [{"deny": {"tool": ""}}]}, "policy.rules[0].deny.tool", "non-empty glob"),
        ({"rules": [{"deny": {"server": 3}}]}, "policy.rules[0].deny.server", "got 3"),
        ({"rules": [{"deny": {"tier": "destrutive"}}]}, "policy.rules[0].deny.tier", 'did you mean "destructive"?'),
        ({"rules": [{"deny": {"tier": ["read-only", "bad"]}}]}, "policy.rules[0].deny.tier[1]", "expected a tier"),
        ({"rules": [{"deny": {"tier": []}}]}, "policy.rules[0].deny.tier", "non-empty list of tiers"),
        ({"rules": [{"deny": {"destructiveHint": "yes"}}]}, "policy.rules[0].deny.destructiveHint", "true or false"),
        (
            {"rules": [{"deny": {"readOnlyHint": True, "read_only": True}}]},
            "policy.rules[0].deny.read_only",
            'repeats "readOnlyHint"',
        ),
        ({"rules": [{"deny": {"tool": "a", "reason": 5}}]}, "policy.rules[0].deny.reason", "expected a sentence"),
        ({"rules": [{"ask": {1: "a"}}]}, "policy.rules[0].ask.1", "strings"),
    ],
)
def test_parse_errors_name_the_key_path_and_what_was_expected(data: Any, path: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_policy(data, source="servers.yaml")
    assert caught.value.path == path
    assert caught.value.file == "servers.yaml"
    assert message in str(caught.value)


def test_parsed_rules_decide_like_hand_built_ones() -> None:
    _, rules = parse_policy(EXAMPLE)
    assert run(facts(DESTRUCTIVE, server="github"), Mode.BYPASS, rules).source == "rule:server:github#0"
    assert run(facts(UNKNOWN, tool="time_now", server="time"), rules=rules).source == "rule:tool:time_*#1"
    assert run(facts(READ_ONLY, tool="fs_delete_file"), rules=rules).verdict is ASK
    assert run(facts(UNKNOWN, server="prod-eu"), Mode.BYPASS, rules).source == "rule:server:prod-*#3"


# ----------------------------------------------------------------- explain


def catalog_entries() -> list[Any]:
    tools = [
        resolve_tool({"name": "get_time", "annotations": {"readOnlyHint": True}}, trusted=True),
        resolve_tool({"name": "purge", "annotations": {"readOnlyHint": False, "destructiveHint": True}}, trusted=True),
        resolve_tool({"name": "frobnicate"}),
    ]
    return list(build_catalog([("demo", "demo", tools)]).entries.values())


def test_explain_gives_each_tool_its_verdict_in_each_mode() -> None:
    rows = explain(catalog_entries(), PolicySettings(), [Rule(DENY, tool="demo_purge")])
    assert [(r.tool, r.server, r.tier) for r in rows] == [
        ("demo_get_time", "demo", Tier.READ_ONLY),
        ("demo_purge", "demo", Tier.DESTRUCTIVE),
        ("demo_frobnicate", "demo", Tier.UNKNOWN),
    ]
    verdicts = {r.tool: {m.value: d.verdict.value for m, d in r.decisions.items()} for r in rows}
    assert verdicts == {
        "demo_get_time": {"default": "allow", "accept-edits": "allow", "read-only": "allow", "bypass": "allow"},
        "demo_purge": dict.fromkeys(["default", "accept-edits", "read-only", "bypass"], "deny"),
        "demo_frobnicate": {"default": "ask", "accept-edits": "ask", "read-only": "deny", "bypass": "allow"},
    }
    assert rows[1].to_json()["decisions"]["bypass"]["source"] == "rule:tool:demo_purge#0"
    assert rows[0].warnings == ("This tool only reads data",)


def test_explain_can_show_some_modes_only() -> None:
    rows = explain(catalog_entries(), PolicySettings(), [], modes=[Mode.ACCEPT_EDITS])
    assert all(list(r.decisions) == [Mode.ACCEPT_EDITS] for r in rows)


def test_call_facts_from_a_catalog_entry() -> None:
    entry = catalog_entries()[0]
    call = CallFacts.from_entry(entry, {"tz": "UTC"})
    assert (call.tool, call.server, call.tier) == ("demo_get_time", "demo", Tier.READ_ONLY)
    assert call.arguments == {"tz": "UTC"}
    assert call.trusted is True


# -------------------------------------------------------------------- core


def test_the_policy_imports_nothing_from_the_sdk_database_web_or_network() -> None:
    script = (
        "import sys, hintgate.policy.decide\n"
        "bad = {'mcp', 'sqlalchemy', 'fastapi', 'httpx', 'starlette', 'uvicorn', 'socket'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]"


def test_every_policy_key_and_decision_source_is_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "policy.md").read_text(encoding="utf-8")
    keys = [k for k in (*TOP_KEYS, *(f"preferences.{k}" for k in PREFERENCE_KEYS)) if "_" not in k]
    keys.remove("preferences")  # a section: its keys are the rows
    assert [k for k in keys if f"| `{k}` |" not in text] == []
    sources = {"mode:default", "preference:auto-approve-read-only", "preference:always-confirm-destructive"}
    sources |= {"trust:untrusted", "unknown-tool", "taint:open-world", "session-approval", "retry:idempotent"}
    assert [s for s in sorted(sources) if f"`{s}`" not in text] == []


def _other_value(setting: PolicySetting) -> Any:
    """A value of the setting that is not its default, as the config file writes it."""
    if setting.kind == "bool":
        return not setting.default
    if setting.kind == "seconds":
        return setting.default + 5
    return next(c for c in setting.choices if c != setting.default)


@pytest.mark.parametrize("setting", POLICY_SETTINGS, ids=lambda s: s.path)
def test_every_policy_setting_is_read_in_each_accepted_spelling(setting: PolicySetting) -> None:
    value = _other_value(setting)
    for spelling in setting.spellings:
        data = {setting.group: {spelling: value}} if setting.group else {spelling: value}
        settings, _ = parse_policy(data)
        assert getattr(settings, setting.attr) == value, spelling


def test_seconds_beyond_a_day_are_refused_with_the_bound() -> None:
    with pytest.raises(ConfigError, match="expected a number of seconds up to 86400, got 90000"):
        parse_policy({"approvalTimeout": 90000})


# ------------------------------------------------------------ confirm per tool


def test_confirm_is_read_from_rules_per_tool_or_glob_and_checked_against_the_effect() -> None:
    _, rules = parse_policy(
        {
            "rules": [
                {"ask": {"tool": "notes_delete_*", "confirm": "always"}},
                {"ask": {"server": "notes", "confirm": "first"}},
                {"allow": {"tool": "notes_get_*", "confirm": "never"}},
            ]
        }
    )
    assert [r.confirm for r in rules] == [Confirm.ALWAYS, Confirm.FIRST, Confirm.NEVER]
    assert rules[0].describe() == "ask tool=notes_delete_* confirm=always"
    with pytest.raises(ConfigError, match=r"confirm: never goes in an allow rule, not ask"):
        parse_policy({"rules": [{"ask": {"tool": "x", "confirm": "never"}}]})
    with pytest.raises(ConfigError, match=r"expected a confirm value: one of first, always, never"):
        parse_policy({"rules": [{"ask": {"tool": "x", "confirm": "sometimes"}}]})


def test_confirm_first_asks_until_a_person_approved_one_call_then_runs_for_the_session() -> None:
    rules = [Rule(ASK, tool="notes_*", confirm=Confirm.FIRST)]
    session = SessionState()
    assert run(facts(ADDITIVE), rules=rules, session=session).verdict is ASK
    session.approve_once("notes_tool")
    decision = run(facts(ADDITIVE, arguments={"other": 1}), rules=rules, session=session)
    assert (decision.verdict, decision.source) == (ALLOW, "confirm:first")
    assert run(facts(ADDITIVE), rules=[Rule(ASK, tool="notes_*")], session=session).verdict is ASK


def test_confirm_always_asks_every_call_whatever_was_approved_before() -> None:
    rules = [Rule(ASK, tool="notes_*", confirm=Confirm.ALWAYS)]
    call = facts(IDEMPOTENT_WRITE, arguments={"id": 7})
    session = SessionState()
    session.approve_for_session("notes_tool")
    session.approve_once("notes_tool")
    session.record_approval("notes_tool", {"id": 7}, 100)
    decision = run(call, Mode.ACCEPT_EDITS, rules=rules, session=session, now=101)
    assert (decision.verdict, decision.source) == (ASK, "rule:tool:notes_*#0")
    assert run(call, Mode.ACCEPT_EDITS, session=session, now=101).verdict is ALLOW


def test_confirm_never_runs_without_asking_and_a_tool_rule_beats_a_server_rule() -> None:
    rules = [Rule(ALLOW, tool="notes_tool", confirm=Confirm.NEVER), Rule(ASK, server="notes", confirm=Confirm.ALWAYS)]
    assert run(facts(DESTRUCTIVE), rules=rules).verdict is ALLOW
    assert run(facts(DESTRUCTIVE, tool="notes_other"), rules=rules).verdict is ASK


# ------------------------------------------------------------------ quarantine


@pytest.mark.parametrize("mode", list(Mode))
def test_a_quarantined_tool_asks_in_every_mode_even_with_an_allow_rule(mode: Mode) -> None:
    call = dataclasses.replace(facts(READ_ONLY), quarantine="Tool 'notes_tool' is quarantined: HG612 ...")
    decision = run(call, mode, rules=[Rule(ALLOW, tool="notes_tool", index=0)])
    assert (decision.verdict, decision.source) == (ASK, "quarantine")
    assert "HG612" in decision.reason


def test_a_deny_rule_still_denies_a_quarantined_tool() -> None:
    call = dataclasses.replace(facts(READ_ONLY), quarantine="held")
    assert run(call, rules=[Rule(DENY, tool="notes_*", index=0)]).verdict is DENY


# ------------------------------------------------------------------ taint from results


def test_an_untrusted_servers_content_taints_other_servers_writes_but_not_its_own() -> None:
    settings = PolicySettings(mode=Mode.ACCEPT_EDITS)
    read = facts(resolve(declared=Annotations()), tool="docs_get_doc", server="docs", trusted=False)
    assert read.open_world is True  # by the spec default only: `taint: evidence` alone would not taint
    session = SessionState()
    assert session.mark_result(read, settings) is True
    assert session.taint_reason == UNTRUSTED_CONTENT
    other = run(facts(ADDITIVE, tool="notes_create_note", server="notes"), Mode.ACCEPT_EDITS, session=session)
    own = run(facts(ADDITIVE, tool="docs_save", server="docs"), Mode.ACCEPT_EDITS, session=session)
    assert (other.verdict, other.source) == (ASK, "taint:open-world")
    assert own.verdict is ALLOW


def test_a_second_untrusted_server_widens_the_taint_to_every_servers_writes() -> None:
    settings = PolicySettings(mode=Mode.ACCEPT_EDITS)
    session = SessionState()
    session.mark_result(facts(resolve(declared=Annotations()), tool="a_get", server="a", trusted=False), settings)
    session.mark_result(facts(resolve(declared=Annotations()), tool="b_get", server="b", trusted=False), settings)
    assert run(facts(ADDITIVE, tool="a_save", server="a"), Mode.ACCEPT_EDITS, session=session).verdict is ASK


def test_a_result_that_speaks_to_the_model_taints_even_from_a_trusted_closed_world_tool() -> None:
    settings = PolicySettings(mode=Mode.ACCEPT_EDITS)
    session = SessionState()
    assert session.mark_result(facts(READ_ONLY, tool="notes_get"), settings) is False
    assert session.mark_result(facts(READ_ONLY, tool="notes_get"), settings, finding="HG611: an order") is True
    assert session.taint_reason is not None
    assert "HG611" in session.taint_reason
    assert run(facts(ADDITIVE, tool="notes_create"), Mode.ACCEPT_EDITS, session=session).verdict is ASK
    off = SessionState()
    off_settings = PolicySettings(mode=Mode.ACCEPT_EDITS, taint=Taint.OFF)
    assert off.mark_result(facts(READ_ONLY), off_settings, finding="HG611: an order") is False


# ------------------------------------------------------------------ the gateway itself


@pytest.mark.parametrize("mode", list(Mode))
def test_a_call_naming_the_gateway_itself_asks_in_every_mode_even_with_an_allow_rule_or_an_approval(
    mode: Mode,
) -> None:
    call = dataclasses.replace(facts(READ_ONLY), names_gateway="The arguments name this gateway's own address")
    session = SessionState()
    session.approve_for_session("notes_tool")
    decision = run(call, mode, rules=[Rule(ALLOW, tool="notes_tool", index=0)], session=session)
    assert (decision.verdict, decision.source) == (ASK, "gateway-itself")
    assert "own address" in decision.reason


def test_a_deny_rule_still_denies_a_call_naming_the_gateway() -> None:
    call = dataclasses.replace(facts(READ_ONLY), names_gateway="its address")
    assert run(call, Mode.BYPASS, rules=[Rule(DENY, tool="notes_*", index=0)]).verdict is DENY
