"""Documentation that tests check: every lint rule is documented as it is defined."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hintgate.hints.lint import RULES

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_lint_rule_is_documented_with_its_id_and_severity() -> None:
    text = (DOCS / "lint.md").read_text(encoding="utf-8")
    rows = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^\| (HG\d{3}) \| ([a-z-]+) \| (error|warning|note) \|", text, re.MULTILINE)
    }
    assert rows == {code: (rule.id, rule.severity.value) for code, rule in RULES.items()}


def render_cli_reference() -> str:
    """docs/cli.md as `--help` prints it, command by command."""
    import typer
    from typer.testing import CliRunner

    from hintgate.cli.app import app

    runner = CliRunner()
    root = typer.main.get_command(app)
    sections = [
        "# Command-line reference",
        "",
        "Generated from `--help`; `UPDATE_DOCS=1 pytest tests/test_docs.py` rewrites it.",
        "",
    ]

    def walk(command: Any, path: list[str]) -> None:
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"})
        assert result.exit_code == 0, result.output
        title = " ".join(["hintgate", *path])
        text = "\n".join(line.rstrip() for line in result.output.strip().splitlines())
        sections.extend([f"## `{title}`", "", "```text", text, "```", ""])
        subcommands = getattr(command, "commands", None)  # typer bundles its own click
        if isinstance(subcommands, dict):
            for name in sorted(subcommands):
                walk(subcommands[name], [*path, name])

    walk(root, [])
    return "\n".join(sections)


def test_the_cli_reference_is_generated_from_help() -> None:
    import os

    expected = render_cli_reference()
    path = DOCS / "cli.md"
    if os.environ.get("UPDATE_DOCS"):
        path.write_text(expected, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == expected, "docs/cli.md is stale: UPDATE_DOCS=1 pytest tests/test_docs.py"


def test_every_setting_is_documented_with_its_environment_variable() -> None:
    from hintgate.config.settings import ENVIRONMENT, Settings

    text = (DOCS / "settings.md").read_text(encoding="utf-8")
    names = {f.name for f in __import__("dataclasses").fields(Settings)}
    assert names == set(ENVIRONMENT)
    for name, (variable, _) in ENVIRONMENT.items():
        assert f"| `{name}` | `{variable}` |" in text, name


def test_every_policy_setting_is_documented_with_its_default() -> None:
    from hintgate.policy.rules import POLICY_SETTINGS

    lines = (DOCS / "policy.md").read_text(encoding="utf-8").splitlines()
    for setting in POLICY_SETTINGS:
        row = [line for line in lines if line.startswith(f"| `{setting.path}` |")]
        assert row, f"docs/policy.md has no row for policy.{setting.path}"
        default = setting.default
        shown = (
            str(default).lower()
            if isinstance(default, bool)
            else f"{default:g}"
            if isinstance(default, float)
            else str(default)
        )
        assert row[0].rstrip().endswith(f"| `{shown}` |"), (setting.path, row[0])
