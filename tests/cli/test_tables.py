"""The CLI's tables at 80 columns (the width when output is not a terminal): nothing wraps, ids are short."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.cli.common import EXIT_TARGET
from hintgate.testing import RunningGateway, running_gateway

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "cli"
OPENAPI = Path(__file__).parents[1] / "fixtures" / "openapi" / "methods.oas31.yaml"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def run80(*args: str, env: dict[str, str]) -> str:
    result = CliRunner().invoke(app, list(args), env={**env, "COLUMNS": "80"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


def save(name: str, text: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.txt").write_text(text, encoding="utf-8")


def assert_fits(text: str, whole_words: set[str]) -> None:
    """No line over 80 cells or ending in spaces, and every name shown whole on one line (never split over two)."""
    lines = text.splitlines()
    assert lines
    too_long = [line for line in lines if len(line) > 80]
    assert too_long == []
    assert [line for line in lines if line != line.rstrip()] == []
    words = {word for line in lines for word in line.split()}
    missing = sorted(w for w in whole_words if w not in words)
    assert missing == []


async def make_calls(gateway: RunningGateway) -> set[str]:
    """A few calls through a real gateway; the names of the tools it lists."""
    with anyio.fail_after(60):
        async with Client(gateway.mcp_transport(), mode="legacy") as client:
            listed = await client.list_tools()
            for _ in range(3):
                await client.call_tool("notes_search_notes", {"query": "plan"})
                await client.call_tool("notes_list_notes", {})
                await client.call_tool("notes_current_time", {})
    return {tool.name for tool in listed.tools}


def test_every_table_fits_80_columns_with_short_ids_and_whole_tool_names(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)}
    with running_gateway("--demo", "--db", db, env=env) as gateway:
        tool_names = anyio.run(make_calls, gateway)
    set_ = CliRunner().invoke(
        app, ["overrides", "set", "notes_purge_notes", "destructiveHint=true", "--db", db], env=env
    )
    assert set_.exit_code == 0, set_.output

    calls = run80("calls", "--limit", "12", "--db", db, env=env)
    assert_fits(calls, {"notes_search_notes", "notes_list_notes", "notes_current_time"})
    # Server and outcome are there, and the reason is whole: it wraps between words, not cut.
    assert calls.splitlines()[1].split()[:5] == ["started", "server", "tool", "outcome", "why"]
    assert "…" not in calls
    recorded = json.loads(run80("calls", "--limit", "12", "--format", "json", "--db", db, env=env))
    said = {word for line in calls.splitlines() for word in line.split()}
    for row in recorded:
        assert set(row["decision"]["reason"].split()) <= said
    sessions = run80("sessions", "--db", db, env=env)
    [session] = json.loads(run80("sessions", "--format", "json", "--db", db, env=env))
    assert_fits(sessions, {session["id"][:8]})
    assert UUID.search(sessions) is None
    assert UUID.search(calls) is None
    # Times are local to the second or relative, never ISO with microseconds.
    assert not re.search(r"\d{2}:\d{2}:\d{2}\.\d", calls + sessions)
    overrides = run80("overrides", "list", "--db", db, env=env)
    assert_fits(overrides, {"notes_purge_notes", "destructiveHint"})
    tools = run80("tools", "--demo", env=env)
    assert_fits(tools, tool_names)
    explain = run80("policy", "explain", "--demo", env=env)
    assert_fits(explain, tool_names | {"default", "accept-edits*", "read-only", "bypass"})
    detailed = run80("policy", "explain", "--demo", "--mode", "accept-edits", env=env)
    assert_fits(detailed, tool_names)
    openapi = run80("openapi", str(OPENAPI), env=env)
    openapi_tools = {
        t["name"] for t in json.loads(run80("openapi", str(OPENAPI), "--format", "json", env=env))["tools"]
    }
    assert_fits(openapi, openapi_tools)

    wide = run80("calls", "--limit", "12", "--wide", "--db", db, env=env)
    assert UUID.search(wide) is not None  # --wide shows the whole session id
    wide_tools = run80("tools", "--demo", "--wide", env=env)
    assert "openWorld" in wide_tools
    assert "idempotent" in wide_tools
    for name, text in {
        "calls": calls,
        "sessions": sessions,
        "overrides-list": overrides,
        "tools": tools,
        "policy-explain": explain,
        "policy-explain-accept-edits": detailed,
        "openapi": openapi,
    }.items():
        save(name, text)


def test_infer_fits_80_columns_and_keeps_the_evidence_for_wide(demo_cmd: list[str]) -> None:
    env: dict[str, Any] = {}
    narrow = run80("infer", "--", *demo_cmd, env=env)
    names = {t["name"] for t in json.loads(run80("infer", "--format", "json", "--", *demo_cmd, env=env))}
    assert_fits(narrow, names)
    assert "inferred:" not in narrow
    wide = run80("infer", "--wide", "--", *demo_cmd, env=env)
    assert "inferred:name.verb" in wide
    save("infer", narrow)


def test_tools_with_a_server_down_prints_its_reason_whole_and_exits_3(tmp_path: Path, demo_cmd: list[str]) -> None:
    missing = tmp_path / "no-such-server"
    config = tmp_path / "hintgate.json"
    servers = {"notes": {"command": demo_cmd[0], "args": demo_cmd[1:]}, "bad": {"command": str(missing)}}
    config.write_text(json.dumps({"mcpServers": servers}))
    result = CliRunner().invoke(app, ["tools", "--config", str(config)], env={"COLUMNS": "80"})
    assert result.exit_code == EXIT_TARGET
    assert "error: 1 of 2 servers are not up: bad" in result.stderr
    assert "restarting in" not in result.stderr  # a one-shot command does not narrate restarts
    assert "bad is down: could not start" in " ".join(result.stdout.split())
    assert_fits(result.stdout, {"notes_list_notes"})


def test_policy_explain_marks_the_configured_mode_and_gives_its_reasons_when_there_is_room() -> None:
    narrow = run80("policy", "explain", "--demo", env={})
    assert "* the configured mode (accept-edits)" in narrow
    assert "why (accept-edits)" in next(line for line in narrow.splitlines() if line.startswith("(hidden:"))
    result = CliRunner().invoke(app, ["policy", "explain", "--demo"], env={"COLUMNS": "140"})
    assert result.exit_code == 0, result.output
    assert "why (accept-edits)" in result.stdout
    create = next(line for line in result.stdout.splitlines() if line.startswith("notes_create_note "))
    assert "Accept-edits mode runs additive writes" in create


def test_lint_findings_fit_80_columns_and_wrap_only_between_words(time_cmd: list[str]) -> None:
    runner = CliRunner()
    args = ["lint", "--fail-on", "never", "--", *time_cmd]
    result = runner.invoke(app, args, env={"COLUMNS": "80"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    document = runner.invoke(app, [*args[:1], "--format", "json", *args[1:]], catch_exceptions=False)
    findings = json.loads(document.stdout)["findings"]
    assert findings  # the time server leaves titles out, at least
    words = {f["code"] for f in findings} | {f["tool"] for f in findings} | {f["rule"] for f in findings}
    words |= {word for f in findings for word in f["message"].split()}
    assert_fits(result.stdout, words)
    save("lint", result.stdout)


def test_the_set_aside_mark_note_says_when_every_mark_is_in_a_hidden_column(git_cmd: list[str]) -> None:
    # A local server: its declarations are set aside by strong evidence, not for distrust, and said so.
    narrow = run80("infer", "--", *git_cmd, env={})
    table = narrow.split("(hidden:")[0]
    assert "*" not in table  # mcp-server-git's set-aside declarations are in columns dropped at 80
    assert narrow.rstrip().endswith("* in hidden columns: declarations contradicted by strong evidence, set aside")
    assert "untrusted" not in narrow
    wide = run80("infer", "--wide", "--", *git_cmd, env={})
    assert "contradicted by strong evidence]" in wide
    assert "not trusted]" not in wide
