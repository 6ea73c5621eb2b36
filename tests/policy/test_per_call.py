"""The policy decides each call of a generic tool by what its arguments do (`CallFacts.from_entry` judges them)."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.hints.catalog import CatalogEntry, resolve_tool
from hintgate.hints.trust import Trust
from hintgate.policy.decide import CallFacts, SessionState, Verdict, decide, parse_policy

EXECUTE_SQL: dict[str, Any] = {
    "name": "execute_sql",
    "description": "Execute a SQL statement on the application database.",
    "inputSchema": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]},
    "annotations": {"readOnlyHint": False, "destructiveHint": True},
}


def verdict(mode: str, sql: str, trust: Trust = Trust.LOCAL) -> tuple[Verdict, str]:
    tool = resolve_tool(EXECUTE_SQL, trust=trust)
    entry = CatalogEntry("db_execute_sql", "db", "execute_sql", tool, {}, {})
    settings, rules = parse_policy({"mode": mode}, source="test")
    decision = decide(CallFacts.from_entry(entry, {"sql": sql}), SessionState(), settings, rules, now=0.0)
    return decision.verdict, decision.reason


@pytest.mark.parametrize("trust", [Trust.LOCAL, Trust.TRUSTED])
def test_a_select_through_execute_sql_runs_unasked_in_default_and_accept_edits(trust: Trust) -> None:
    assert verdict("default", "SELECT * FROM orders", trust)[0] is Verdict.ALLOW
    assert verdict("accept-edits", "SELECT * FROM orders", trust)[0] is Verdict.ALLOW


def test_an_insert_follows_the_additive_write_rules() -> None:
    assert verdict("default", "INSERT INTO notes VALUES (1)")[0] is Verdict.ASK
    assert verdict("accept-edits", "INSERT INTO notes VALUES (1)")[0] is Verdict.ALLOW


def test_a_drop_asks_even_in_accept_edits_and_the_reason_says_what_the_call_does() -> None:
    said, reason = verdict("accept-edits", "SELECT 1; DROP TABLE users")
    assert said is Verdict.ASK
    assert "This call: 2 statements: DROP TABLE users; destructive (judged from its arguments)." in reason


def test_read_only_mode_runs_the_reads_of_a_generic_tool_and_denies_the_rest() -> None:
    assert verdict("read-only", "SELECT count(*) FROM users")[0] is Verdict.ALLOW
    assert verdict("read-only", "DELETE FROM users")[0] is Verdict.DENY


def test_without_arguments_to_judge_the_tool_keeps_its_static_hints() -> None:
    tool = resolve_tool(EXECUTE_SQL, trust=Trust.LOCAL)
    entry = CatalogEntry("db_execute_sql", "db", "execute_sql", tool, {}, {})
    facts = CallFacts.from_entry(entry, {})
    assert facts.judgement is None
    assert facts.tier is tool.tier


def test_the_question_and_the_queue_say_what_the_call_does() -> None:
    from hintgate.outcome import call_snapshot
    from hintgate.policy.approvals import call_does
    from hintgate.policy.asking import question

    tool = resolve_tool(EXECUTE_SQL, trust=Trust.LOCAL)
    entry = CatalogEntry("db_execute_sql", "db", "execute_sql", tool, {}, {"tier": "destructive"})
    facts = CallFacts.from_entry(entry, {"sql": "DELETE FROM users WHERE id = 7"})
    text = question(
        tool=entry.name,
        server="db",
        title="Execute SQL",
        title_origin="declared",
        arguments=facts.arguments,
        reason="r",
        warnings=[],
        does=facts.does,
    )
    assert "What this call does (judged from its arguments): DELETE FROM users WHERE id = 7; destructive" in text
    snapshot = call_snapshot(facts, entry)
    assert snapshot is not None
    assert call_does(snapshot) == "DELETE FROM users WHERE id = 7; destructive"
    assert snapshot["provenance"]["readOnlyHint"] == "argument:sql"
    assert snapshot["static"] == {"tier": "destructive"}


@pytest.mark.anyio
async def test_a_long_statement_is_judged_off_the_event_loop_and_still_judged() -> None:
    import threading
    from unittest import mock

    from hintgate.hints.calls import HEAVY
    from hintgate.pipeline import ToolCalls
    from hintgate.policy.in_force import PolicyInForce

    tool = resolve_tool(EXECUTE_SQL, trust=Trust.LOCAL)
    entry = CatalogEntry("db_execute_sql", "db", "execute_sql", tool, {}, {})
    settings, rules = parse_policy({"mode": "default"}, source="test")
    policy = PolicyInForce(settings, rules)
    calls = ToolCalls({}, mock.Mock(), policy=lambda: policy)
    long_select = "SELECT id FROM orders WHERE id IN (" + ", ".join(str(n) for n in range(HEAVY)) + ")"
    assert tool.judge is not None
    assert tool.judge.heavy({"sql": long_select})
    from hintgate.hints.calls import ArgumentJudge

    judged_on: list[str] = []
    judge = ArgumentJudge.judge

    def spy(self: ArgumentJudge, arguments: Any) -> Any:
        judged_on.append(threading.current_thread().name)
        return judge(self, arguments)

    with mock.patch.object(ArgumentJudge, "judge", spy):
        facts = await calls.facts(None, entry, {"sql": long_select}, None)
    assert facts.tier.value == "read-only"
    assert judged_on
    assert judged_on[0] != threading.main_thread().name
