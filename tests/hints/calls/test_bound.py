"""A call's hints stay within the bound a trusted word sets; elsewhere the arguments decide both ways."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.hints.annotations import Hint, Origin, Tier
from hintgate.hints.calls.bound import per_call, within_draft_bound
from hintgate.hints.catalog import resolve_tool
from hintgate.hints.trust import Trust

SQL_TOOL: dict[str, Any] = {
    "name": "execute_sql",
    "description": "Execute a SQL statement on the database.",
    "inputSchema": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]},
}


def call_tier(annotations: dict[str, bool], trust: Trust, sql: str, overrides: Any = None) -> Tier:
    tool = resolve_tool({**SQL_TOOL, "annotations": annotations}, trust=trust, overrides=overrides)
    assert tool.judge is not None
    judgement = tool.judge.judge({"sql": sql})
    assert judgement is not None
    return per_call(tool.resolution, judgement).tier


WORST = {"readOnlyHint": False, "destructiveHint": True}
READS = {"readOnlyHint": True}


@pytest.mark.parametrize("trust", list(Trust))
def test_a_select_through_a_tool_declared_destructive_resolves_read_only_whatever_the_trust(trust: Trust) -> None:
    assert call_tier(WORST, trust, "SELECT * FROM users") is Tier.READ_ONLY
    assert call_tier(WORST, trust, "INSERT INTO users VALUES (1)") is Tier.ADDITIVE
    assert call_tier(WORST, trust, "DROP TABLE users") is Tier.DESTRUCTIVE


def test_a_trusted_servers_read_only_declaration_bounds_its_calls() -> None:
    # The draft's bound: static readOnly true means every resolution reads (say, a read-only transaction).
    assert call_tier(READS, Trust.TRUSTED, "DROP TABLE users") is Tier.READ_ONLY


@pytest.mark.parametrize("trust", [Trust.LOCAL, Trust.UNTRUSTED])
def test_for_a_server_not_fully_trusted_a_drop_through_a_tool_declared_read_only_is_destructive(trust: Trust) -> None:
    assert call_tier(READS, trust, "DROP TABLE users") is Tier.DESTRUCTIVE


def test_an_operators_read_only_override_bounds_the_calls_and_a_trusted_additive_declaration_too() -> None:
    assert call_tier(WORST, Trust.LOCAL, "DROP TABLE users", {Hint.READ_ONLY: True}) is Tier.READ_ONLY
    additive = {"readOnlyHint": False, "destructiveHint": False}
    assert call_tier(additive, Trust.TRUSTED, "DROP TABLE users") is Tier.ADDITIVE
    assert call_tier(additive, Trust.LOCAL, "DROP TABLE users") is Tier.DESTRUCTIVE


def test_judged_hints_carry_provenance_argument_with_the_judges_rule() -> None:
    tool = resolve_tool({**SQL_TOOL, "annotations": WORST}, trust=Trust.LOCAL)
    assert tool.judge is not None
    judgement = tool.judge.judge({"sql": "SELECT 1"})
    assert judgement is not None
    resolution = per_call(tool.resolution, judgement)
    assert resolution.hints[Hint.READ_ONLY].provenance.origin is Origin.ARGUMENT
    assert str(resolution.hints[Hint.READ_ONLY].provenance) == "argument:sql"


def test_a_trusted_resolution_stays_within_the_drafts_bound() -> None:
    tool = resolve_tool({**SQL_TOOL, "annotations": READS}, trust=Trust.TRUSTED)
    assert tool.judge is not None
    judgement = tool.judge.judge({"sql": "DROP TABLE users"})
    assert judgement is not None
    resolution = per_call(tool.resolution, judgement)
    assert within_draft_bound(tool.resolution, {h: resolution.value(h) for h in Hint})
    assert not within_draft_bound(tool.resolution, {**{h: resolution.value(h) for h in Hint}, Hint.READ_ONLY: False})


def test_a_call_whose_arguments_cannot_be_judged_gets_no_judgement() -> None:
    tool = resolve_tool(SQL_TOOL, trust=Trust.LOCAL)
    assert tool.judge is not None
    assert tool.judge.judge({}) is None
    assert tool.judge.judge({"sql": 42}) is None


def upstream(act_read: bool) -> Any:
    from hintgate.hints.calls.bound import judgement_of

    values = {
        Hint.READ_ONLY: act_read,
        Hint.DESTRUCTIVE: not act_read,
        Hint.IDEMPOTENT: act_read,
        Hint.OPEN_WORLD: False,
    }
    return judgement_of(values, "its server resolved this call", "upstream")


@pytest.mark.parametrize("trust", [Trust.LOCAL, Trust.UNTRUSTED])
def test_a_server_not_fully_trusted_cannot_resolve_a_call_safer_than_hintgates_own_judgement(trust: Trust) -> None:
    from hintgate.hints.calls.bound import weigh_upstream

    tool = resolve_tool({**SQL_TOOL, "annotations": WORST}, trust=trust)
    assert tool.judge is not None
    own = tool.judge.judge({"sql": "DROP TABLE users"})
    weighed = weigh_upstream(tool.resolution, own, upstream(act_read=True))
    assert weighed is own


def test_an_untrusted_servers_answer_alone_may_only_make_a_call_riskier_than_its_listing() -> None:
    from hintgate.hints.calls.bound import weigh_upstream

    tool = resolve_tool({**SQL_TOOL, "annotations": WORST}, trust=Trust.UNTRUSTED)
    assert weigh_upstream(tool.resolution, None, upstream(act_read=True)) is None
    trusted = resolve_tool({**SQL_TOOL, "annotations": WORST}, trust=Trust.TRUSTED)
    said = upstream(act_read=True)
    assert weigh_upstream(trusted.resolution, None, said) is said


def test_a_resolve_answer_keeps_the_listing_where_the_gateway_finds_the_call_riskier() -> None:
    from hintgate.hints.calls.bound import draft_bounded

    # Named for no action, so nothing contradicts the local server's read-only declaration.
    listed = {**SQL_TOOL, "name": "reporting_db", "description": "The reporting database.", "annotations": READS}
    tool = resolve_tool(listed, trust=Trust.LOCAL)
    assert tool.tier is Tier.READ_ONLY
    assert tool.judge is not None
    judgement = tool.judge.judge({"sql": "DROP TABLE users"})
    assert judgement is not None
    call = per_call(tool.resolution, judgement)
    assert call.tier is Tier.DESTRUCTIVE
    answered = draft_bounded(tool.resolution, call)
    assert answered[Hint.READ_ONLY] is True
    assert within_draft_bound(tool.resolution, answered)
