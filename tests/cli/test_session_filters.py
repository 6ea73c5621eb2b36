"""`hintgate sessions --status/--replica` and `hintgate calls --session PREFIX` against a real SQLite store."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.store import CallRecord, RecordingSettings, SessionRecord, Store

IDS = {
    "a-open": "aaaa1111-0000-4000-8000-000000000001",
    "a-done": "aaaa2222-0000-4000-8000-000000000002",
    "b-open": "bbbb3333-0000-4000-8000-000000000003",
}


def call(session_id: str, n: int) -> CallRecord:
    return CallRecord(
        id=f"call-{n}",
        session_id=session_id,
        server_id="time",
        server_name="mcp-server-time",
        tool_name="time_get_current_time",
        upstream_tool="get_current_time",
        arguments={"timezone": "UTC"},
        response=None,
        error=None,
        started_at=datetime(2026, 1, 1, 0, 0, n, tzinfo=UTC),
        duration_ms=1.0,
        request_id=str(n),
        client_name=None,
        client_version=None,
    )


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A database with three sessions (active and closed on replica a, active on b) and one call in each."""
    url = f"sqlite:///{tmp_path / 'cli.db'}"

    async def fill() -> None:
        async with await Store.open(url, replica="a") as store:
            for n, (name, sid) in enumerate(IDS.items(), 1):
                started = datetime(2026, 1, 1, n, tzinfo=UTC)
                store.session_started(SessionRecord(sid, name, "1", started, transport="http", replica=name[0]))
                store.record_call(call(sid, n))
            store.session_closed(IDS["a-done"], datetime(2026, 1, 2, tzinfo=UTC))
            await store.flush()

    asyncio.run(fill())
    return url


def run(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"HINTGATE_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "80"})
    return result.exit_code, result.stdout, result.stderr


def names(tmp_path: Path, db: str, *args: str) -> list[str]:
    code, out, err = run(tmp_path, "sessions", "--format", "json", "--db", db, *args)
    assert code == 0, err
    return [row["client_name"] for row in json.loads(out)]


def test_sessions_are_filtered_by_status_and_by_replica(tmp_path: Path, db: str) -> None:
    assert names(tmp_path, db) == ["b-open", "a-done", "a-open"]
    assert names(tmp_path, db, "--status", "active") == ["b-open", "a-open"]
    assert names(tmp_path, db, "--status", "closed") == ["a-done"]
    assert names(tmp_path, db, "--replica", "a") == ["a-done", "a-open"]
    assert names(tmp_path, db, "--replica", "b", "--status", "closed") == []


def test_the_sessions_table_names_each_sessions_replica_and_refuses_an_unknown_status(tmp_path: Path, db: str) -> None:
    code, out, _ = run(tmp_path, "sessions", "--db", db, "--wide")
    bad_code, _, bad_err = run(tmp_path, "sessions", "--db", db, "--status", "ended")
    assert code == 0
    assert "replica" in out
    assert sum(line.rstrip().endswith(" a") for line in out.splitlines()) == 2
    assert bad_code == 2
    bad = " ".join(bad_err.replace("│", " ").split())
    assert "Invalid value for '--status'" in bad
    assert "'ended' is not one of 'active', 'closed'" in bad


def test_calls_take_a_unique_start_of_a_session_id(tmp_path: Path, db: str) -> None:
    code, out, err = run(tmp_path, "calls", "--format", "json", "--db", db, "--session", "bbbb")
    assert code == 0, err
    assert [(row["id"], row["session_id"]) for row in json.loads(out)] == [("call-3", IDS["b-open"])]
    whole_code, whole_out, _ = run(tmp_path, "calls", "--format", "json", "--db", db, "--session", IDS["a-done"])
    assert whole_code == 0
    assert [row["id"] for row in json.loads(whole_out)] == ["call-2"]


def test_an_ambiguous_or_unknown_session_prefix_is_refused_saying_which(tmp_path: Path, db: str) -> None:
    code, _, err = run(tmp_path, "calls", "--db", db, "--session", "aaaa")
    unknown_code, _, unknown_err = run(tmp_path, "calls", "--db", db, "--session", "cccc")
    assert code == 2
    assert "more than one session starts with it" in err
    assert IDS["a-open"] in " ".join(err.split())
    assert unknown_code == 2
    assert "no recorded session has an id starting with 'cccc'" in " ".join(unknown_err.split())


def test_a_command_that_reads_the_store_keeps_every_session_the_configured_retention_keeps(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'many.db'}"
    kept = 150  # more than the default retention, fewer than the one configured below

    async def fill() -> None:
        async with await Store.open(url, RecordingSettings(retention=200), replica="a") as store:
            for n in range(kept):
                sid = f"cccc0000-0000-4000-8000-{n:012d}"
                started = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=n)
                store.session_started(SessionRecord(sid, "c", "1", started, "http", "a"))
                store.session_closed(sid, started + timedelta(seconds=30))
            await store.flush()

    asyncio.run(fill())
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data"), "HINTGATE_RETENTION": "200"}
    result = CliRunner().invoke(app, ["sessions", "--format", "json", "--db", url, "--limit", "500"], env=env)
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)) == kept
