"""Rules that match a call's arguments: globs on JSON paths, first match wins as for any rule."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.errors import ConfigError
from hintgate.hints.catalog import CatalogEntry, resolve_tool
from hintgate.hints.trust import Trust
from hintgate.policy.argmatch import ArgPattern
from hintgate.policy.decide import CallFacts, SessionState, Verdict, decide, denied_by_rule, parse_policy

FILES: dict[str, Any] = {
    "name": "read_file",
    "description": "Read a file.",
    "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
    "annotations": {"readOnlyHint": True},
}
KUBECTL: dict[str, Any] = {
    "name": "kubectl",
    "description": "Run a kubectl command.",
    "inputSchema": {
        "type": "object",
        "properties": {"args": {"type": "array", "items": {"type": "string"}}, "namespace": {"type": "string"}},
    },
}


def decided(tool: dict[str, Any], arguments: dict[str, Any] | None, rules: list[dict[str, Any]]) -> Verdict:
    entry = CatalogEntry(f"s_{tool['name']}", "s", tool["name"], resolve_tool(tool, trust=Trust.TRUSTED), {}, {})
    settings, parsed = parse_policy({"rules": rules}, source="test")
    return decide(CallFacts.from_entry(entry, arguments), SessionState(), settings, parsed, now=0.0).verdict


@pytest.mark.parametrize(
    "path", ["/etc/passwd", "/etc/ssh/sshd_config", "/etc/../etc/shadow", "//etc/passwd", "/./etc/hosts"]
)
def test_a_path_glob_catches_every_spelling_of_a_path_under_it(path: str) -> None:
    rules = [{"ask": {"tool": "s_read_file", "args": {"path": "/etc/**"}}}]
    assert decided(FILES, {"path": path}, rules) is Verdict.ASK


def test_a_path_outside_the_glob_is_left_to_the_mode() -> None:
    rules = [{"ask": {"tool": "s_read_file", "when": {"args": {"path": "/etc/**"}}}}]
    assert decided(FILES, {"path": "/home/ada/notes.txt"}, rules) is Verdict.ALLOW


def test_ask_for_any_kubectl_call_in_namespace_prod() -> None:
    rules = [{"ask": {"tool": "s_kubectl", "args": {"namespace": "prod"}}}, {"allow": {"tool": "s_kubectl"}}]
    assert decided(KUBECTL, {"args": ["get", "pods"], "namespace": "prod"}, rules) is Verdict.ASK
    assert decided(KUBECTL, {"args": ["get", "pods"], "namespace": "dev"}, rules) is Verdict.ALLOW
    # An argv list: any of its words.
    argv_rules = [{"ask": {"tool": "s_kubectl", "args": {"args": "prod"}}}, {"allow": {"tool": "s_kubectl"}}]
    assert decided(KUBECTL, {"args": ["get", "pods", "-n", "prod"]}, argv_rules) is Verdict.ASK


def test_a_rule_on_arguments_never_hides_the_tool_from_a_persons_list() -> None:
    entry = CatalogEntry("s_read_file", "s", "read_file", resolve_tool(FILES, trust=Trust.TRUSTED), {}, {})
    _, rules = parse_policy({"rules": [{"deny": {"tool": "*", "args": {"path": "/etc/**"}}}]}, source="test")
    assert denied_by_rule(CallFacts.from_entry(entry, None), rules) is None


def test_paths_reach_nested_keys_list_elements_and_any_key() -> None:
    arguments = {"spec": {"items": [{"name": "a"}, {"name": "prod-db"}]}, "env": {"X": "1"}}
    assert ArgPattern("spec.items[*].name", ("prod-*",)).matches(arguments)
    assert ArgPattern("spec.items[1].name", ("prod-*",)).matches(arguments)
    assert not ArgPattern("spec.items[0].name", ("prod-*",)).matches(arguments)
    assert ArgPattern("env.*", ("1",)).matches(arguments)
    assert not ArgPattern("missing.key", ("*",)).matches(arguments)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ({"path": 3.5j}, "expected a glob"),
        ({"a..b": "x"}, "cannot read the path"),
        ({}, "at least one path"),
        ("path", "a mapping of paths"),
    ],
)
def test_a_bad_args_condition_is_an_error_naming_where(args: Any, says: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse_policy({"rules": [{"ask": {"tool": "x", "args": args}}]}, source="servers.yaml")
    assert "policy.rules[0].ask.args" in str(error.value)
    assert says in str(error.value)
