"""Runtime server changes in the store: one per server, replaced, cleared, validated."""

from __future__ import annotations

from pathlib import Path

import pytest

from hintgate.errors import StoreError
from hintgate.store import Store

pytestmark = pytest.mark.anyio


async def test_a_server_change_is_kept_replaced_and_cleared(store: Store) -> None:
    entry = {"command": "uvx", "args": ["mcp-server-time"], "env": {"TOKEN": "${TOKEN}"}}
    await store.server_changes.set("time", "add", entry, actor="api")
    await store.server_changes.set("fs", "disable", None, actor="cli")
    await store.server_changes.set("time", "disable", entry, actor="dashboard")
    rows = await store.server_changes.all()
    assert [(r["name"], r["action"], r["config"], r["changed_by"]) for r in rows] == [
        ("fs", "disable", None, "cli"),
        ("time", "disable", entry, "dashboard"),
    ]
    assert rows[0]["changed_at"] <= rows[1]["changed_at"]
    assert await store.server_changes.clear("time") == 1
    assert await store.server_changes.clear("time") == 0
    assert [r["name"] for r in await store.server_changes.all()] == ["fs"]


async def test_an_unknown_action_or_an_empty_name_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="unknown server change 'rename'"):
        await store.server_changes.set("time", "rename", None)
    with pytest.raises(StoreError, match="needs a server name"):
        await store.server_changes.set("", "remove", None)
    assert await store.server_changes.all() == []


SECRET_ENV = "env-secret-" + "5f3a9c" * 4
SECRET_HEADER = "header-secret-" + "b7d2e1" * 4
SECRET_URL = "url-secret-" + "c4a8f0" * 4


def _secret_entries() -> dict[str, dict[str, object]]:
    return {
        "local": {"command": "uvx", "args": ["mcp-server-time"], "env": {"API_KEY": SECRET_ENV}},
        "remote": {
            "url": f"https://user:{SECRET_URL}@mcp.example/mcp?key={SECRET_URL}",
            "headers": {"Authorization": f"Bearer {SECRET_HEADER}"},
        },
    }


async def _raw(store: Store) -> bytes:
    """What the database itself holds of the server changes: the SQLite file and its WAL, or PostgreSQL's rows."""
    from sqlalchemy import text

    if store._path is not None:
        return b"".join(
            Path(f"{store._path}{suffix}").read_bytes()
            for suffix in ("", "-wal")
            if Path(f"{store._path}{suffix}").exists()
        )
    async with store._engine.connect() as conn:
        rows = await conn.execute(text("SELECT name, config::text FROM server_changes"))
        return repr(list(rows)).encode()


async def test_a_server_changes_literal_secrets_are_sealed_at_rest_and_read_back_as_given(store: Store) -> None:
    await store.server_changes.seal("k" * 40)
    for name, entry in _secret_entries().items():
        await store.server_changes.set(name, "add", entry, actor="api")
    raw = await _raw(store)
    assert b"mcp-server-time" not in raw  # the whole entry is sealed, not only the values hintgate knows for secrets
    for secret in (SECRET_ENV, SECRET_HEADER, SECRET_URL):
        assert secret.encode() not in raw
    assert {row["name"]: row["config"] for row in await store.server_changes.all()} == _secret_entries()


async def test_entries_kept_in_clear_are_sealed_when_the_store_gets_its_key(store: Store) -> None:
    from sqlalchemy import select

    from hintgate.store.tables import server_changes

    await store.server_changes.set("local", "add", _secret_entries()["local"], actor="api")
    await store.server_changes.set("gone", "remove", None, actor="api")
    assert await store.server_changes.seal("k" * 40) == 1
    assert await store.server_changes.seal("k" * 40) == 0
    async with store._engine.connect() as conn:
        kept = {row.name: row.config for row in await conn.execute(select(server_changes))}
    assert SECRET_ENV not in repr(kept)
    assert list(kept["local"]) == ["hintgate/sealed"]
    assert [row["config"] for row in await store.server_changes.all()] == [_secret_entries()["local"], None]


async def test_an_entry_sealed_under_another_key_is_left_out_with_the_server_named(
    store: Store, store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    await store.server_changes.seal("k" * 40)
    await store.server_changes.set("local", "add", _secret_entries()["local"], actor="api")
    async with await Store.open(store_url, replica="other", recover=False) as other:
        with pytest.raises(StoreError, match="sealed, and this process was given no key"):
            other.server_changes._read_entry("local", (await _sealed_row(other))["config"])
        await other.server_changes.seal("x" * 40)
        assert await other.server_changes.all() == []
    assert "server change of 'local' left out" in caplog.text
    assert "HINTGATE_STATE_KEY changed?" in caplog.text


async def _sealed_row(store: Store) -> dict[str, object]:
    from sqlalchemy import select

    from hintgate.store.tables import server_changes

    async with store._engine.connect() as conn:
        [row] = [dict(row._mapping) for row in await conn.execute(select(server_changes))]
    return row


async def test_a_server_added_through_the_api_keeps_its_secret_sealed_on_disk_and_runs_with_it_after_a_restart(
    tmp_path: Path,
) -> None:
    import hashlib
    import json
    import stat
    import sys

    import anyio
    import httpx

    from hintgate.testing import running_gateway

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "environ_server.py"
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o755)  # as an older hintgate, or a umask of 022, left it: tightened at start
    db = data / "hintgate.db"
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({"mcpServers": {}, "policy": {"mode": "bypass"}}))
    token = "api-token-" + "9e8d7c6b" * 4
    env = {"HINTGATE_DATA_DIR": str(data), "HINTGATE_API_TOKEN": token}
    headers = {"Authorization": f"Bearer {token}", "X-Hintgate-Request": "1"}
    entry = {"command": sys.executable, "args": [str(fixture)], "env": {"API_KEY": SECRET_ENV}, "trust": "trusted"}
    call = {"name": "env_own_variable", "arguments": {"name": "API_KEY"}}

    with running_gateway("--config", str(config), "--db", f"sqlite:///{db}", env=env) as gateway:
        with anyio.fail_after(60):
            async with httpx.AsyncClient(base_url=gateway.base_url, headers=headers, timeout=30) as client:
                added = await client.post("/api/servers", json={"name": "env", **entry})
                assert added.status_code in (200, 201), added.text
    with running_gateway("--config", str(config), "--db", f"sqlite:///{db}", env=env) as gateway:
        with anyio.fail_after(60):
            seen = await _call_over_mcp(gateway.mcp_url, token, call["name"], call["arguments"])
    assert seen == hashlib.sha256(SECRET_ENV.encode()).hexdigest()  # opened again, transparently, by the next gateway
    on_disk = b"".join(p.read_bytes() for p in data.iterdir() if p.name.startswith("hintgate.db"))
    assert SECRET_ENV.encode() not in on_disk
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in data.iterdir() if p.name.startswith("hintgate.db")}
    assert modes["hintgate.db"] == 0o600
    assert set(modes.values()) == {0o600}, modes
    assert stat.S_IMODE(data.stat().st_mode) == 0o700


async def _call_over_mcp(url: str, token: str, tool: str, arguments: dict[str, object]) -> str:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http,
        Client(streamable_http_client(url, http_client=http), mode="legacy") as client,  # type: ignore[arg-type]
    ):
        result = await client.call_tool(tool, arguments)
    assert not result.is_error, result
    return str(result.content[0].text)  # type: ignore[union-attr]
