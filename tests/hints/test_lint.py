from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.tools import tool

from hintgate.errors import ExpectFileError
from hintgate.hints.annotations import Hint, Tier
from hintgate.hints.lint import RULES, LintTrust, Severity, lint_tools, load_expect
from hintgate.hints.trust import Trust


def codes(tools: list[dict[str, Any]], **kwargs: Any) -> dict[str, set[str]]:
    report = lint_tools(tools, target="t", **kwargs)
    found: dict[str, set[str]] = {}
    for finding in report.findings:
        found.setdefault(finding.tool or "", set()).add(finding.code)
    return found


FULL = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}


def test_a_fully_annotated_titled_read_tool_has_no_findings() -> None:
    assert codes([tool("get_note", annotations=FULL, title="Get note", description="Get a note by id.")]) == {}


def test_a_tool_without_annotations_is_reported() -> None:
    assert "HG001" in codes([tool("get_note")])["get_note"]


def test_missing_hints_are_listed_but_moot_ones_on_read_only_tools_are_not() -> None:
    report = lint_tools([tool("get_note", annotations={"readOnlyHint": True}, title="T")], target="t")
    [finding] = [f for f in report.findings if f.code == "HG002"]
    assert finding.message == "not set: openWorldHint"


def test_missing_title_is_a_note() -> None:
    report = lint_tools([tool("get_note", annotations=FULL)], target="t")
    assert [(f.code, f.level) for f in report.findings] == [("HG003", Severity.NOTE)]


def test_read_only_and_destructive_together_is_an_error() -> None:
    found = codes([tool("get_x", annotations={"readOnlyHint": True, "destructiveHint": True}, title="X")])
    assert "HG201" in found["get_x"]


def test_read_only_with_explicit_idempotent_false_is_a_warning() -> None:
    found = codes([tool("get_x", annotations={"readOnlyHint": True, "idempotentHint": False}, title="X")])
    assert "HG202" in found["get_x"]


def test_title_differing_from_tool_title_is_reported() -> None:
    found = codes([tool("get_x", annotations={**FULL, "title": "Fetch X"}, title="Get X")])
    assert found["get_x"] == {"HG203"}


def test_wrongly_typed_hint_is_an_error_naming_the_field() -> None:
    report = lint_tools([tool("get_x", annotations={"readOnlyHint": "yes"}, title="X")], target="t")
    [finding] = [f for f in report.findings if f.code == "HG101"]
    assert finding.level is Severity.ERROR
    assert "annotations.readOnlyHint must be true or false, got str 'yes'" in finding.message


def test_annotations_that_are_not_an_object_are_an_error() -> None:
    assert "HG103" in codes([tool("get_x", annotations=["readOnlyHint"], title="X")])["get_x"]


def test_unknown_annotation_keys_are_noted() -> None:
    assert "HG102" in codes([tool("get_x", annotations={**FULL, "costHint": 3}, title="X")])["get_x"]


def test_a_tool_declared_read_only_that_deletes_is_an_error() -> None:
    report = lint_tools(
        [
            tool(
                "delete_all_files",
                annotations={"readOnlyHint": True},
                title="D",
                description="Permanently delete every file.",
            )
        ],
        target="t",
    )
    [finding] = [f for f in report.findings if f.code == "HG301"]
    assert finding.level is Severity.ERROR
    assert "inference rule" in finding.message


def test_a_tool_declared_additive_that_deletes_is_a_warning() -> None:
    found = codes(
        [
            tool(
                "delete_repository",
                annotations={
                    "readOnlyHint": False,
                    "destructiveHint": False,
                    "idempotentHint": True,
                    "openWorldHint": True,
                },
                title="Delete",
                description="Permanently delete a repository. This cannot be undone.",
            )
        ]
    )
    assert "HG302" in found["delete_repository"]


def test_a_tool_declared_additive_that_only_its_name_says_destroys_is_a_note() -> None:
    raw = {"name": "update_note", "description": "A note's new text.", "annotations": {"destructiveHint": False}}
    report = lint_tools([raw], target="t", trust=LintTrust(Trust.LOCAL, "default for a local command"))
    (finding,) = [f for f in report.findings if f.code == "HG302"]
    assert finding.level is Severity.NOTE
    assert "moderate evidence: not enough to set the declaration aside" in finding.message
    assert report.tools[0].tier is Tier.ADDITIVE


@pytest.mark.parametrize(
    ("name", "code"),
    [("get weather", "HG401"), ("get/weather", "HG401"), ("g" * 65, "HG402"), ("g" * 129, "HG401")],
)
def test_names_outside_the_spec_are_reported(name: str, code: str) -> None:
    assert code in codes([tool(name, annotations=FULL, title="X")])[name]


@pytest.mark.parametrize("name", ["d\u0435lete_repo", "\u0440ush_main", "get_\u03bfrders"])
def test_names_with_letters_that_look_latin_but_are_not_are_an_error(name: str) -> None:
    report = lint_tools([tool(name, annotations=FULL, title="X")], target="t")
    [finding] = [f for f in report.findings if f.code == "HG404"]
    assert finding.tool == name
    assert "reads as" in finding.message


def test_plain_latin_names_are_not_confusable() -> None:
    assert "HG404" not in codes([tool("Delete_Repo", annotations=FULL, title="X")]).get("Delete_Repo", [])


def test_duplicate_names_are_an_error() -> None:
    assert "HG403" in codes([tool("a", annotations=FULL, title="A"), tool("a", annotations=FULL, title="A")])["a"]


def test_coverage_counts_tools_that_declare_a_hint() -> None:
    report = lint_tools(
        [tool("get_a", annotations=FULL), tool("get_b"), tool("get_c", annotations={"title": "only a title"})],
        target="t",
    )
    assert report.annotated == 1
    assert report.coverage == pytest.approx(1 / 3)


def test_tier_tables_show_declared_and_inferred_tiers() -> None:
    report = lint_tools(
        [tool("get_a", annotations=FULL), tool("delete_b", description="Permanently delete b.")], target="t"
    )
    assert report.declared_tiers()[Tier.UNKNOWN] == 1
    assert report.resolved_tiers()[Tier.DESTRUCTIVE] == 1


def test_fail_on_thresholds() -> None:
    report = lint_tools([tool("get_a", annotations=FULL)], target="t")  # one note: no title
    assert not report.fails(Severity.ERROR)
    assert not report.fails(Severity.WARNING)
    assert not report.fails(None)
    report = lint_tools([tool("get_a")], target="t")  # a warning: no annotations
    assert report.fails(Severity.WARNING)
    assert not report.fails(Severity.ERROR)


def test_every_rule_has_a_unique_code_and_id() -> None:
    assert len({r.id for r in RULES.values()}) == len(RULES)
    assert all(code == rule.code for code, rule in RULES.items())


SEED_003_TOOLS = [
    tool("get_note", annotations={"readOnlyHint": True}),
    tool("create_note", annotations={"destructiveHint": False, "idempotentHint": False}),
    tool(
        "delete_note", annotations={"destructiveHint": False}, description="Soft delete a note (can be restored later)."
    ),
    tool("purge_note", annotations={"destructiveHint": True}),
]


def write_expect(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "expect.yaml"
    path.write_text(text)
    return path


def test_expect_file_in_seed_003_tiers_passes_when_every_tool_matches(tmp_path: Path) -> None:
    expect = load_expect(
        write_expect(
            tmp_path,
            "read-only: [get_note]\nnon-destructive-write: [create_note]\nsoft-delete: [delete_note]\n"
            "destructive: [purge_note]\n",
        )
    )
    report = lint_tools(SEED_003_TOOLS, target="t", expect=expect)
    assert not [f for f in report.findings if f.code.startswith("HG5")]


def test_expect_file_catches_wrong_tier_double_listing_missing_and_unlisted(tmp_path: Path) -> None:
    expect = load_expect(
        write_expect(
            tmp_path,
            "read-only: [get_note, purge_note, get_ghost]\nadditive-write: [create_note]\ndestructive: [create_note]\n",
        )
    )
    found = codes(SEED_003_TOOLS, expect=expect)
    assert "HG501" in found["purge_note"]
    assert "HG502" in found["create_note"]
    assert "HG503" in found["get_ghost"]
    assert "HG504" in found["delete_note"]


def test_expect_file_with_unknown_tier_names_the_file_and_key(tmp_path: Path) -> None:
    path = write_expect(tmp_path, "readonly: [a]\nharmless: [b]\n")
    with pytest.raises(ExpectFileError, match=r"expect.yaml: harmless: unknown tier"):
        load_expect(path)


def test_expect_file_with_broken_yaml_names_the_line(tmp_path: Path) -> None:
    path = write_expect(tmp_path, "read-only: [a\ndestructive: b]\n")
    with pytest.raises(ExpectFileError, match=r"expect.yaml:\d+:\d+: not valid YAML"):
        load_expect(path)


def test_missing_expect_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ExpectFileError, match="cannot read the expect file"):
        load_expect(tmp_path / "nope.yaml")


def test_a_tool_that_runs_caller_supplied_sql_is_flagged_for_review() -> None:
    raw = {
        "name": "probe_ledger",
        "description": "Probe the ledger.",
        "inputSchema": {"type": "object", "properties": {"sql": {"type": "string", "description": "SQL to run."}}},
    }
    report = lint_tools([raw], target="t")
    [finding] = [f for f in report.findings if f.code in {"HG306", "HG307"}]
    assert finding.code == "HG307"
    assert "'sql'" in finding.message


def test_a_write_kept_from_read_only_by_conflicting_evidence_is_flagged_for_review() -> None:
    raw = {"name": "deploy_gizmo", "description": "Read-only preview of a deploy."}
    report = lint_tools([raw], target="t")
    [finding] = [f for f in report.findings if f.code == "HG306"]
    assert finding.hint is Hint.READ_ONLY
    assert "deploy" in finding.message


def test_read_only_resting_only_on_the_description_is_flagged_for_review() -> None:
    report = lint_tools([{"name": "gizmo_tally", "description": "Counts gizmos."}], target="t")
    assert [f.code for f in report.findings if f.code.startswith("HG30")] == ["HG306"]


def test_untrusted_server_lint_reports_the_gateways_tiers_and_what_it_did_not_believe() -> None:
    raw = {"name": "frobnicate", "annotations": {"readOnlyHint": True, "openWorldHint": False}}
    trusted = lint_tools([raw], target="t")
    untrusted = lint_tools([raw], target="t", trusted=False)
    assert trusted.tools[0].tier is Tier.READ_ONLY
    assert untrusted.tools[0].tier is Tier.UNKNOWN
    distrusted = sorted(f.hint.value for f in untrusted.findings if f.code == "HG308" and f.hint)
    assert distrusted == ["openWorldHint", "readOnlyHint"]
    assert not [f for f in trusted.findings if f.code == "HG308"]


def test_lint_applies_the_configs_overrides_like_the_gateway() -> None:
    raw = {"name": "frobnicate"}
    report = lint_tools([raw], target="t", trusted=False, overrides=lambda name: ({Hint.READ_ONLY: True}, "Frob"))
    assert report.tools[0].tier is Tier.READ_ONLY
    assert report.tools[0].title == "Frob"


def test_an_expect_mismatch_fails_even_when_fail_on_is_never(tmp_path: Path) -> None:
    expect = load_expect(write_expect(tmp_path, "destructive: [get_note, create_note, delete_note, purge_note]\n"))
    report = lint_tools(SEED_003_TOOLS, target="t", expect=expect)
    assert {f.code for f in report.findings} >= {"HG501"}
    assert report.fails(None)
    matching = load_expect(
        write_expect(
            tmp_path, "read-only: [get_note]\nadditive-write: [create_note, delete_note]\ndestructive: [purge_note]\n"
        )
    )
    assert not lint_tools(SEED_003_TOOLS, target="t", expect=matching).fails(None)


def test_the_report_says_which_trust_it_resolved_with() -> None:
    raw = {"name": "frobnicate", "annotations": {"readOnlyHint": True}}
    local = lint_tools([raw], target="t", trust=LintTrust(Trust.LOCAL, "default for a local command"))
    remote = lint_tools([raw], target="t", trust=LintTrust(Trust.UNTRUSTED, "default for a URL"))
    assert local.tools[0].tier is Tier.READ_ONLY
    assert remote.tools[0].tier is Tier.UNKNOWN
    assert remote.to_json()["trust"] == {
        "level": "untrusted",
        "source": "default for a URL",
        "meaning": Trust.UNTRUSTED.meaning,
    }
    assert str(local.trust) == "local (default for a local command)"
    assert "HG308" in {f.code for f in remote.findings}
    assert "HG308" not in {f.code for f in local.findings}


def test_a_declared_read_only_that_only_moderate_evidence_contradicts_is_a_note_and_stands() -> None:
    raw = {
        "name": "trigger_long_operation",
        "description": "Demonstrates a long running operation with progress updates.",
        "annotations": {"readOnlyHint": True},
    }
    report = lint_tools([raw], target="t", trust=LintTrust(Trust.LOCAL, "default for a local command"))
    (finding,) = [f for f in report.findings if f.code == "HG301"]
    assert finding.level is Severity.NOTE
    assert "moderate evidence: not enough to set the declaration aside" in finding.message
    assert report.tools[0].tier is Tier.READ_ONLY


def test_a_local_servers_declaration_that_strong_evidence_contradicts_is_an_error_and_the_riskier_value_wins() -> None:
    raw = {"name": "purge_notes", "annotations": {"readOnlyHint": True}}
    report = lint_tools([raw], target="t", trust=LintTrust(Trust.LOCAL, "default for a local command"))
    assert ("HG301", "purge_notes") in {(f.code, f.tool) for f in report.findings}
    assert report.tools[0].tier is Tier.DESTRUCTIVE


def test_a_description_ordering_a_tool_of_the_same_listing_is_its_servers_workflow() -> None:
    flow = "Archives a board. The `boards.legacy_archive` tool is deprecated; always use this one instead."
    alone = codes([tool("archive_board", flow)])
    listed = codes([tool("archive_board", flow), tool("boards.legacy_archive", "Archives a board (old).")])
    assert "HG619" in alone.get("archive_board", set())
    assert "HG619" not in listed.get("archive_board", set())
