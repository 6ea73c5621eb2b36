from __future__ import annotations

import io
import json
from typing import Any

from rich.console import Console

from hintgate.cli.reports import infer_json, infer_table
from hintgate.hints.catalog import resolve_tool


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
