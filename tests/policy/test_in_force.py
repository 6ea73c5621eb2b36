"""The policy in force is one value: nothing changes it after it is made."""

from __future__ import annotations

import dataclasses

import pytest

from hintgate.policy.in_force import PolicyInForce
from hintgate.policy.rules import Mode, PolicySettings, Rule, Verdict
from hintgate.scan.guard import OnResultFinding


def test_the_policy_in_force_cannot_be_patched_field_by_field() -> None:
    policy = PolicyInForce.of(PolicySettings(mode=Mode.DEFAULT))
    with pytest.raises(dataclasses.FrozenInstanceError):
        policy.settings = PolicySettings(mode=Mode.BYPASS)  # type: ignore[misc]


def test_preferences_changed_after_the_value_was_made_do_not_reach_it() -> None:
    people = {"ann@example.com": {"preferences.autoApproveReadOnly": False}}
    policy = PolicyInForce.of(PolicySettings(), preferences=people)
    people["ann@example.com"]["preferences.autoApproveReadOnly"] = True
    people["bob@example.com"] = {"preferences.autoApproveReadOnly": False}
    assert dict(policy.preferences) == {"ann@example.com": {"preferences.autoApproveReadOnly": False}}
    with pytest.raises(TypeError):
        policy.preferences["bob@example.com"] = {}  # type: ignore[index]


def test_rules_given_as_a_list_are_kept_as_given_in_order() -> None:
    rules = [Rule(Verdict.DENY, tool="a_*"), Rule(Verdict.ALLOW, tool="b")]
    policy = PolicyInForce.of(PolicySettings(), rules, on_result_finding=OnResultFinding.BLOCK)
    rules.clear()
    assert [r.tool for r in policy.rules] == ["a_*", "b"]
    assert policy.on_result_finding is OnResultFinding.BLOCK
