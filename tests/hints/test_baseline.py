from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hintgate.errors import BaselineFileError
from hintgate.hints.baseline import BaselineEntry, apply_baseline, baseline_entries, baseline_text, load_baseline
from hintgate.hints.lint import Severity, lint_tools

READ = {"readOnlyHint": True, "openWorldHint": False}
# Declared read-only, but its description opens with a write: HG301, an error.
WRITES = {
    "name": "export_ledger",
    "title": "Export the ledger",
    "description": "Writes the ledger to the target directory.",
    "annotations": READ,
    "inputSchema": {"type": "object", "properties": {"target_directory": {"type": "string"}}},
}
CLEAN = {"name": "get_ledger", "title": "Get the ledger", "annotations": READ, "inputSchema": {"type": "object"}}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "baseline.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def report(*tools: dict[str, Any]) -> Any:
    return lint_tools(list(tools), target="t")


def test_an_accepted_finding_is_kept_apart_with_its_reason_and_no_longer_fails() -> None:
    linted = report(WRITES, CLEAN)
    assert linted.fails(Severity.ERROR)
    apply_baseline(linted, [BaselineEntry("export_ledger", "HG301", "it writes to a sandbox the user empties")])
    assert not linted.fails(Severity.WARNING)
    assert [(a.finding.code, a.finding.tool, a.reason) for a in linted.accepted] == [
        ("HG301", "export_ledger", "it writes to a sandbox the user empties")
    ]
    document = linted.to_json()
    assert document["summary"]["accepted"] == 1
    assert document["accepted"][0]["reason"] == "it writes to a sandbox the user empties"


def test_an_entry_that_accepts_nothing_is_reported_stale() -> None:
    linted = report(CLEAN)
    apply_baseline(
        linted,
        [BaselineEntry("get_ledger", "HG301", "was wrong once"), BaselineEntry("gone_tool", "HG001", "old")],
    )
    stale = {(f.tool, f.code): f.message for f in linted.findings if f.code == "HG505"}
    assert set(stale) == {("get_ledger", "HG505"), ("gone_tool", "HG505")}
    assert "no longer finds it" in stale[("get_ledger", "HG505")]
    assert "no such tool" in stale[("gone_tool", "HG505")]
    assert linted.fails(Severity.WARNING)
    assert not linted.fails(Severity.ERROR)


def test_an_entry_only_accepts_its_own_code_for_its_own_tool() -> None:
    other = {**WRITES, "name": "export_journal"}
    linted = report(WRITES, other)
    apply_baseline(linted, [BaselineEntry("export_ledger", "HG301", "checked by hand")])
    assert [f.tool for f in linted.findings if f.code == "HG301"] == ["export_journal"]


def test_a_written_baseline_reads_back_and_keeps_the_reasons_of_entries_still_in_use(tmp_path: Path) -> None:
    linted = report(WRITES, {**WRITES, "name": 'export "quoted" ledger'}, CLEAN)
    entries = baseline_entries(linted, threshold=Severity.ERROR)
    assert [(f.tool, f.code, reason) for f, reason in entries] == [
        ('export "quoted" ledger', "HG301", ""),
        ('export "quoted" ledger', "HG401", ""),  # spaces and quotes are not allowed in a name
        ("export_ledger", "HG301", ""),
    ]
    path = write(tmp_path, baseline_text(entries))
    with pytest.raises(BaselineFileError, match=r"baseline.yaml:\d+: accepted\[0\]: .*give the reason"):
        load_baseline(path)
    path.write_text(path.read_text().replace('reason: ""', 'reason: "checked: sandboxed"'))
    loaded = load_baseline(path)
    assert {(e.tool, e.code, e.reason) for e in loaded} == {
        ('export "quoted" ledger', "HG301", "checked: sandboxed"),
        ('export "quoted" ledger', "HG401", "checked: sandboxed"),
        ("export_ledger", "HG301", "checked: sandboxed"),
    }
    again = report(WRITES, CLEAN)
    apply_baseline(again, loaded)
    rewritten = baseline_entries(again, threshold=Severity.ERROR, keep=loaded)
    assert [(f.tool, reason) for f, reason in rewritten] == [("export_ledger", "checked: sandboxed")]
    assert "HG505" in {f.code for f in again.findings}  # the entry of the tool that went is stale, not rewritten


def test_an_empty_baseline_is_written_and_read_as_accepting_nothing(tmp_path: Path) -> None:
    assert load_baseline(write(tmp_path, baseline_text([]))) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("accepted: [\n", "not valid YAML"),
        ("- tool: a\n", "one key, 'accepted'"),
        ("accepted: {tool: a}\n", "expected a list of entries"),
        (
            "accepted:\n  - tool: a\n    code: HG999\n    reason: r\n",
            r":2: accepted\[0\]: code: 'HG999' is not a lint code",
        ),
        ("accepted:\n  - tool: a\n    code: HG301\n", r":2: accepted\[0\]: a HG301: give the reason"),
        ("accepted:\n  - tool: a\n    code: HG301\n    reason: '  '\n", "give the reason"),
        ("accepted:\n  - {tool: a, code: HG301, reason: r, why: x}\n", "unknown key 'why'"),
        ("accepted:\n  - {code: HG301, reason: r}\n", "tool: expected the tool's name"),
        ("accepted:\n  - {tool: a, code: HG501, reason: r}\n", "HG501 cannot be accepted: change the expect file"),
        ("accepted:\n  - {tool: a, code: HG505, reason: r}\n", "HG505 cannot be accepted"),
        (
            "accepted:\n  - {tool: a, code: HG301, reason: r}\n  - {tool: a, code: HG301, reason: s}\n",
            r":3: accepted\[1\]: a HG301 is already listed at accepted\[0\]",
        ),
    ],
)
def test_a_bad_baseline_is_an_error_naming_the_file_line_and_entry(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(BaselineFileError, match=message) as caught:
        load_baseline(write(tmp_path, text))
    assert "baseline.yaml" in str(caught.value)


def test_a_missing_baseline_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BaselineFileError, match="cannot read the baseline file"):
        load_baseline(tmp_path / "nope.yaml")
