"""Rules that name people: `user` and `group` in a rule, as an operator writes roles by hint tier."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hintgate.errors import ConfigError
from hintgate.hints.annotations import Annotations, Resolution, resolve
from hintgate.hints.trust import Trust
from hintgate.policy.decide import CallFacts, SessionState, Verdict, decide, denied_by_rule
from hintgate.policy.principal import API_TOKEN, Principal, PrincipalKind
from hintgate.policy.rules import parse_policy

READ_ONLY = resolve(declared=Annotations(read_only=True, open_world=False), trust=Trust.TRUSTED)
ADDITIVE = resolve(declared=Annotations(read_only=False, destructive=False, open_world=False), trust=Trust.TRUSTED)
DESTRUCTIVE = resolve(declared=Annotations(read_only=False, destructive=True, open_world=False), trust=Trust.TRUSTED)

ALICE = Principal("alice@example.com", PrincipalKind.USER, frozenset({"readers"}))
BOB = Principal("bob@example.com", PrincipalKind.USER, frozenset({"devs"}))
CAROL = Principal("carol@example.com", PrincipalKind.USER, frozenset({"dba"}))

# The roles the feature is for: readers read and nothing else; devs write to github unasked; prod-db's
# destructive tools ask everyone.
TEAM = {
    "rules": [
        {"allow": {"group": "readers", "tier": "read-only"}},
        {"deny": {"group": "readers", "tier": ["additive", "destructive", "unknown"],
                  "reason": "Readers only read."}},
        {"allow": {"group": "devs", "server": "github", "tier": "additive"}},
        {"ask": {"server": "prod-db", "tier": "destructive"}},
    ]
}  # fmt: skip


def verdict(resolution: Resolution, server: str, who: Principal | None, policy: dict[str, object] = TEAM) -> Verdict:
    settings, rules = parse_policy(policy)
    call = CallFacts(tool=f"{server}_tool", server=server, resolution=resolution, trusted=True, who=who)
    return decide(call, SessionState(), settings, rules, now=0.0).verdict


def test_readers_run_read_only_tools_of_every_server_and_nothing_else() -> None:
    assert verdict(READ_ONLY, "github", ALICE) is Verdict.ALLOW
    assert verdict(READ_ONLY, "prod-db", ALICE) is Verdict.ALLOW
    assert verdict(ADDITIVE, "github", ALICE) is Verdict.DENY
    assert verdict(DESTRUCTIVE, "prod-db", ALICE) is Verdict.DENY


def test_a_readers_limit_holds_against_a_more_specific_rule_written_for_everyone() -> None:
    policy = {"rules": [*TEAM["rules"], {"allow": {"tool": "github_tool"}}]}  # type: ignore[list-item]
    assert verdict(ADDITIVE, "github", ALICE, policy) is Verdict.DENY
    assert verdict(ADDITIVE, "github", CAROL, policy) is Verdict.ALLOW


def test_devs_run_additive_writes_of_github_unasked_and_only_of_github() -> None:
    assert verdict(ADDITIVE, "github", BOB) is Verdict.ALLOW
    assert verdict(ADDITIVE, "jira", BOB) is Verdict.ASK, "the mode decides elsewhere"


def test_destructive_tools_of_prod_db_ask_everyone() -> None:
    for who in (BOB, CAROL, API_TOKEN, None):
        assert verdict(DESTRUCTIVE, "prod-db", who) is Verdict.ASK


def test_a_rule_naming_people_never_applies_when_the_gateway_knows_no_users() -> None:
    # A single user on a laptop (no identity section): the rules of a team change nothing for them.
    policy = {"rules": [{"deny": {"group": "readers", "tool": "*"}}, {"allow": {"user": "*", "tier": "additive"}}]}
    assert verdict(ADDITIVE, "github", None, policy) is Verdict.ASK
    assert verdict(ADDITIVE, "github", ALICE, policy) is Verdict.DENY
    assert verdict(ADDITIVE, "github", BOB, policy) is Verdict.ALLOW


def test_user_globs_ignore_case_and_groups_match_exactly() -> None:
    policy = {"rules": [{"allow": {"user": ["*@EXAMPLE.com"], "tier": "additive"}},
                        {"deny": {"group": "Readers", "tier": "additive"}}]}  # fmt: skip
    assert verdict(ADDITIVE, "x", ALICE, policy) is Verdict.ALLOW, "group Readers is not group readers"
    outsider = Principal("eve@elsewhere.example", PrincipalKind.USER)
    assert verdict(ADDITIVE, "x", outsider, policy) is Verdict.ASK


def test_the_deny_rule_a_person_cannot_pass_hides_the_tool_from_them_only() -> None:
    settings, rules = parse_policy(TEAM)
    call = CallFacts(tool="github_push", server="github", resolution=ADDITIVE, trusted=True)
    denial = denied_by_rule(dataclasses.replace(call, who=ALICE), rules)
    assert denial is not None
    assert denial.describe() == "deny tier=additive-write|destructive|unknown group=readers"
    assert denied_by_rule(dataclasses.replace(call, who=BOB), rules) is None
    assert denied_by_rule(call, rules) is None
    assert (
        "Readers only read."
        in decide(dataclasses.replace(call, who=ALICE), SessionState(), settings, rules, now=0.0).reason
    )


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ({"allow": {"group": [], "tier": "read-only"}}, "expected a group's name or a non-empty list"),
        ({"allow": {"group": ["ok", 3], "tier": "read-only"}}, "rules[0].allow.group[1]: expected a group's name"),
        ({"allow": {"user": "  ", "tier": "read-only"}}, "rules[0].allow.user: expected a person's name"),
        ({"ask": {"group": "devs", "tool": "x", "confirm": "always"}}, "confirm applies to everyone"),
        ({"allow": {"groups": "devs", "tier": "read-only"}}, 'unknown key "groups"; did you mean "group"?'),
    ],
)
def test_bad_user_and_group_conditions_are_reported_where_they_are(rule: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_policy({"rules": [rule]})
    assert message in f"{caught.value.path}: {caught.value.message}"


def test_approvers_of_an_ask_rule_say_who_answers_and_the_caller_never_by_default() -> None:
    from hintgate.policy.principal import Approvers

    _, rules = parse_policy({"rules": [{"ask": {"server": "prod-db", "approvers": {"group": "dba"}}},
                                       {"ask": {"server": "ci", "selfApproval": True}}]})  # fmt: skip
    dba, own = rules[0].approvers, rules[1].approvers
    assert dba == Approvers(groups=frozenset({"dba"}))
    assert dba.refusal(CAROL, "bob@example.com") is None
    assert "only group dba" in (dba.refusal(ALICE, "bob@example.com") or "")
    assert "may not approve it" in (dba.refusal(CAROL, "carol@example.com") or "")
    assert own is not None
    assert own.refusal(BOB, "bob@example.com") is None
    assert Approvers().refusal(None, "bob@example.com") is None, "no people known: as before"
    assert "may not approve it" in (Approvers().refusal(BOB, "bob@example.com") or "")


def test_approvers_go_in_ask_rules_only() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_policy({"rules": [{"allow": {"tier": "read-only", "approvers": {"group": "dba"}}}]})
    assert "approvers goes in an ask rule" in caught.value.message
    with pytest.raises(ConfigError) as caught:
        parse_policy({"rules": [{"ask": {"tier": "destructive", "approvers": {"team": "dba"}}}]})
    assert 'unknown key "team"' in caught.value.message


def test_global_approvers_answer_every_ask_and_a_rules_own_approvers_override_them() -> None:
    from hintgate.policy.principal import Approvers

    settings, rules = parse_policy({
        "approvers": {"group": "dba"},
        "selfApproval": False,
        "rules": [
            {"ask": {"server": "ci", "approvers": {"user": "ops@example.com"}}},
            {"ask": {"server": "sandbox", "selfApproval": True}},
        ],
    })  # fmt: skip
    everywhere = settings.approvers
    assert everywhere == Approvers(groups=frozenset({"dba"}), self_approval=False)
    ci, sandbox = (rule.approvers for rule in rules)
    assert ci is not None
    assert sandbox is not None
    # The rule's people replace the global people; what it leaves unsaid comes from the global ones.
    assert ci.over(everywhere) == Approvers(users=("ops@example.com",), self_approval=False)
    assert sandbox.over(everywhere) == Approvers(groups=frozenset({"dba"}), self_approval=True)
    assert "only group dba" in (everywhere.refusal(ALICE, "bob@example.com") or "")
    assert everywhere.refusal(CAROL, "bob@example.com") is None
    assert sandbox.over(everywhere).refusal(CAROL, "carol@example.com") is None, "a dba's own sandbox call"
    assert "may not approve it" in (everywhere.refusal(CAROL, "carol@example.com") or "")


def test_a_global_self_approval_lets_people_answer_their_own_calls_unless_a_rule_says_otherwise() -> None:
    from hintgate.policy.principal import Approvers

    policy = {"selfApproval": True, "rules": [{"ask": {"server": "prod", "selfApproval": False}}]}
    settings, rules = parse_policy(policy)
    assert settings.approvers == Approvers(self_approval=True)
    assert settings.approvers.refusal(BOB, "bob@example.com") is None
    [prod] = rules
    assert prod.approvers is not None
    assert "may not approve it" in (prod.approvers.over(settings.approvers).refusal(BOB, "bob@example.com") or "")


def test_bad_global_approvers_are_reported_at_their_line_in_the_file(tmp_path: Path) -> None:
    from hintgate.config.loading import load_config

    path = tmp_path / "hintgate.yaml"
    path.write_text("mcpServers: {}\npolicy:\n  approvers:\n    team: dba\n  selfApproval: sometimes\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    text = str(caught.value)
    assert 'hintgate.yaml:4:11: policy.approvers.team: unknown key "team"; approvers are a user and/or a group' in text
    assert "hintgate.yaml:5:17: policy.selfApproval: expected true or false" in text


def test_policy_explain_as_a_person_says_who_would_answer_each_call_that_asks() -> None:
    from hintgate.hints.catalog import build_catalog, resolve_tool
    from hintgate.policy.explain import explain
    from hintgate.policy.rules import Mode

    tools = [
        resolve_tool({"name": "query", "annotations": {"readOnlyHint": True}}, trusted=True),
        resolve_tool({"name": "drop", "annotations": {"readOnlyHint": False, "destructiveHint": True}}, trusted=True),
        resolve_tool({"name": "frobnicate"}),  # nothing known: the mode asks
    ]
    entries = list(build_catalog([("db", "db", tools)]).entries.values())
    settings, rules = parse_policy({
        "approvers": {"group": "leads"},
        "rules": [{"ask": {"tool": "db_drop", "approvers": {"group": "dba"}, "selfApproval": True}}],
    })  # fmt: skip
    rows = {row.tool: row for row in explain(entries, settings, rules, (Mode.DEFAULT,), BOB)}
    as_json = {tool: row.to_json()["answered_by"] for tool, row in rows.items()}
    assert as_json == {
        "db_query": {},
        "db_drop": {"default": {"users": [], "groups": ["dba"], "self": True}},
        "db_frobnicate": {"default": {"users": [], "groups": ["leads"], "self": False}},
    }
    nobody = explain(entries, settings, rules, (Mode.DEFAULT,))
    assert all(not row.answerers for row in nobody), "no person: no approvers apply"
