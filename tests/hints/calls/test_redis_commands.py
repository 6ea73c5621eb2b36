"""Redis command lines judged by each command's documented effect."""

from __future__ import annotations

import pytest

from hintgate.hints.calls import ArgumentJudge
from hintgate.hints.calls.judgement import Act
from hintgate.hints.calls.redis_commands import judge_redis


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("GET session:1", Act.READ),
        ("HGETALL user:7", Act.READ),
        ("TTL session:1", Act.READ),
        ("CONFIG GET maxmemory", Act.READ),
        ("CLIENT LIST", Act.READ),
        ("LPUSH jobs x", Act.ADDITIVE),
        ("SET feature on", Act.DESTRUCTIVE),
        ("INCR hits", Act.DESTRUCTIVE),
        ("DEL a b", Act.DESTRUCTIVE),
        ("FLUSHALL", Act.DESTRUCTIVE),
        ("CONFIG SET maxmemory 1gb", Act.DESTRUCTIVE),
        ("CLIENT KILL ID 7", Act.DESTRUCTIVE),
        ("EVAL \"return redis.call('del', KEYS[1])\" 1 k", Act.DESTRUCTIVE),
        ("FROBNICATE x", Act.DESTRUCTIVE),
        ("GET 'unterminated", Act.DESTRUCTIVE),
    ],
)
def test_each_redis_command_by_its_documented_effect(text: str, act: Act) -> None:
    assert judge_redis(text).act is act


def test_a_command_parameter_of_a_redis_tool_is_a_redis_command_not_a_shell_line() -> None:
    listed = {
        "name": "cache",
        "description": "Run a Redis command against the cache.",
        "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}},
    }
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    assert judge.judge({"command": "GET session:1"}).act is Act.READ  # type: ignore[union-attr]
    assert judge.judge({"command": "FLUSHDB"}).act is Act.DESTRUCTIVE  # type: ignore[union-attr]


def test_a_redis_tool_given_a_commands_words_as_a_list_judges_them_as_redis_not_as_a_program() -> None:
    listed = {
        "name": "kv",
        "description": "Pass one Valkey command, split into its words.",
        "inputSchema": {"type": "object", "properties": {"argv": {"type": "array", "items": {"type": "string"}}}},
    }
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    assert judge.judge({"argv": ["set", "flag", "on"]}).act is Act.DESTRUCTIVE  # type: ignore[union-attr]
    assert judge.judge({"argv": ["HGETALL", "user:7"]}).act is Act.READ  # type: ignore[union-attr]
    assert judge.judge({"argv": ["LPUSH", "queue", "x y"]}).act is Act.ADDITIVE  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("SET job:5:owner w2 NX PX 5000", Act.ADDITIVE),
        ("SET job:5:owner nx", Act.DESTRUCTIVE),
        ("SET job:5:owner w2 XX", Act.DESTRUCTIVE),
    ],
)
def test_a_set_told_nx_only_sets_a_key_that_is_not_there(text: str, act: Act) -> None:
    assert judge_redis(text).act is act
