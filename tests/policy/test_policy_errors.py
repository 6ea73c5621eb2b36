"""Policy errors come all at once, like the rest of a config file's, and suggest real spellings."""

from __future__ import annotations

import pytest

from hintgate.config.loading import parse_config
from hintgate.errors import ConfigError
from hintgate.policy.rules import parse_policy


def test_every_policy_problem_is_reported_at_once() -> None:
    policy = {
        "mode": "yolo",
        "approvalTimout": 10,
        "preferences": {"taint": "yes"},
        "rules": [{"allow": {"tier": "readonly"}}, {"deny": {"tool": "x"}}, {"block": {"tool": "y"}}],
    }
    with pytest.raises(ConfigError) as caught:
        parse_config({"mcpServers": {}, "policy": policy}, source="hintgate.yaml")
    lines = str(caught.value).splitlines()
    assert len(lines) == 5, lines
    text = "\n".join(lines)
    assert "policy.mode: expected a mode" in text
    assert 'unknown key "approvalTimout"; did you mean "approvalTimeout"?' in text
    assert "policy.preferences.taint: unknown key" in text
    assert "policy.rules[0].allow.tier" in text
    assert 'unknown key "block"' in text


def test_a_near_miss_tier_suggests_its_real_spelling_not_an_alias() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_policy({"rules": [{"allow": {"tier": "readonly"}}]})
    assert caught.value.message.endswith('got "readonly"; did you mean "read-only"?')
    assert caught.value.path == "policy.rules[0].allow.tier"


def test_a_near_miss_mode_suggests_its_real_spelling() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_policy({"mode": "acceptedits"})
    assert caught.value.message.endswith('did you mean "accept-edits"?')


def test_a_valid_policy_still_parses() -> None:
    settings, rules = parse_policy({"mode": "acceptEdits", "rules": [{"allow": {"tier": "read_only"}}]})
    assert settings.mode.value == "accept-edits"
    assert len(rules) == 1
