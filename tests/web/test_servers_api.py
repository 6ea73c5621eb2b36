"""The REST API's server changes against a gateway with real upstreams: validated, applied, secrets hidden."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from tests.configs import entry

from hintgate.config.loading import load_config, parse_config
from hintgate.server.gateway import Gateway
from hintgate.store import Store
from hintgate.web.app import create_app

pytestmark = pytest.mark.anyio

WRITE = {"X-Hintgate-Request": "1"}
SECRET = "sk-live-abcdef0123456789"


@asynccontextmanager
async def api(
    servers: dict[str, Any], store: Store | None = None, file: Path | None = None
) -> AsyncIterator[httpx.AsyncClient]:
    if file is not None:
        file.write_text(json.dumps({"mcpServers": servers}))
        config = load_config(file)
    else:
        config = parse_config({"mcpServers": servers})
    gateway = Gateway(config, store=store, environ={"PATH": "/usr/bin:/bin"})
    async with gateway:
        app = create_app(gateway, store)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765", timeout=60) as client:
            yield client


async def test_a_server_added_through_the_api_runs_and_its_secrets_never_come_back(
    time_cmd: list[str], memory_cmd: list[str], tmp_path: Path
) -> None:
    memory = entry(memory_cmd, env={"MEMORY_FILE_PATH": str(tmp_path / "m.jsonl"), "API_KEY": SECRET})
    with anyio.fail_after(120):
        async with (
            await Store.open(f"sqlite:///{tmp_path / 's.db'}") as store,
            api({"time": entry(time_cmd)}, store, tmp_path / "hintgate.json") as client,
        ):
            added = await client.post("/api/servers", json={"name": "memory", **memory}, headers=WRITE)
            assert added.status_code == 201, added.text
            body = added.json()
            assert body["diff"] == {"added": ["memory"], "restarted": [], "removed": [], "unchanged": ["time"]}
            assert body["persisted"] is True
            server = body["server"]
            assert server["status"]["state"] == "up"
            assert server["origin"] == "runtime"
            assert server["change"]["action"] == "add"
            assert server["config"]["transport"]["env"] == {"MEMORY_FILE_PATH": "***", "API_KEY": "***"}
            assert server["tools"] > 0

            listed = (await client.get("/api/servers")).json()
            assert [(s["name"], s["origin"], s["enabled"]) for s in listed] == [
                ("time", "config", True),
                ("memory", "runtime", True),
            ]
            tools = {t["name"] for t in (await client.get("/api/tools")).json()}
            assert "memory_read_graph" in tools

            disabled = await client.post("/api/servers/memory/disable", headers=WRITE)
            assert disabled.status_code == 200
            assert disabled.json()["server"]["enabled"] is False
            assert disabled.json()["diff"]["removed"] == ["memory"]
            tools = {t["name"] for t in (await client.get("/api/tools")).json()}
            assert not any(t.startswith("memory_") for t in tools)

            edited = await client.put("/api/servers/time", json={**entry(time_cmd), "prefix": "clock"}, headers=WRITE)
            assert edited.status_code == 200, edited.text
            assert edited.json()["diff"]["restarted"] == ["time"]
            assert edited.json()["server"]["change"]["action"] == "edit"

            removed = await client.delete("/api/servers/memory", headers=WRITE)
            assert removed.status_code == 200
            assert removed.json()["server"] is None

            everything = json.dumps(
                [
                    added.json(),
                    listed,
                    disabled.json(),
                    (await client.get("/api/servers/time")).json(),
                ]
            )
            assert SECRET not in everything
            stored = await store.server_changes.all()
            assert [(r["name"], r["action"]) for r in stored] == [("time", "edit")]


async def test_a_bad_entry_gets_a_422_naming_each_json_path_and_changes_nothing(time_cmd: list[str]) -> None:
    with anyio.fail_after(60):
        async with api({"time": entry(time_cmd)}) as client:
            bad = await client.post(
                "/api/servers",
                json={"name": "x", "command": "node", "args": ["a", 2], "env": {"K": 5}, "oauth": {"clientId": "c"}},
                headers=WRITE,
            )
            assert bad.status_code == 422
            locs = [e["loc"] for e in bad.json()["errors"]]
            assert ["body", "args", 1] in locs
            assert ["body", "env", "K"] in locs
            assert ["body", "oauth"] in locs
            assert "body.args[1]: expected a string" in bad.json()["detail"]

            nameless = await client.post("/api/servers", json={"command": "node"}, headers=WRITE)
            assert nameless.status_code == 422
            assert nameless.json()["errors"][0]["loc"] == ["body", "name"]

            taken = await client.post("/api/servers", json={"name": "time", **entry(time_cmd)}, headers=WRITE)
            assert taken.status_code == 409
            assert "PUT" in taken.json()["detail"]

            for method, path in (
                ("PUT", "/api/servers/nope"),
                ("DELETE", "/api/servers/nope"),
                ("POST", "/api/servers/nope/enable"),
                ("POST", "/api/servers/time/reset"),
                ("GET", "/api/servers/nope"),
            ):
                response = await client.request(
                    method, path, json={"command": "x"} if method == "PUT" else None, headers=WRITE
                )
                assert response.status_code == 404, (method, path, response.text)

            unsigned = await client.post("/api/servers", json={"name": "y", "command": "node"})
            assert unsigned.status_code == 403  # a cross-site page cannot add a server

            assert [s["name"] for s in (await client.get("/api/servers")).json()] == ["time"]


async def test_trusting_a_server_resolves_its_tools_again_is_stored_and_survives_a_restart(
    demo_cmd: list[str], tmp_path: Path
) -> None:
    file = tmp_path / "hintgate.json"
    # The demo notebook's purge_notes claims to be read-only and deletes everything.
    servers = {"notes": entry(demo_cmd, trust="untrusted")}
    with anyio.fail_after(120):
        async with await Store.open(f"sqlite:///{tmp_path / 's.db'}") as store:
            async with api(servers, store, file) as client:
                [before] = (await client.get("/api/servers")).json()
                assert (before["trust"], before["trust_from"]) == ("untrusted", "config")
                tool = (await client.get("/api/tools/notes_purge_notes")).json()
                assert tool["distrusted"] == {"readOnlyHint": True}

                trusted = await client.post("/api/servers/notes/trust", headers=WRITE)
                assert trusted.status_code == 200, trusted.text
                server = trusted.json()["server"]
                assert (server["trust"], server["trust_from"]) == ("trusted", "runtime")
                assert server["origin"] == "config"  # its definition is still the file's
                tool = (await client.get("/api/tools/notes_purge_notes")).json()
                assert tool["distrusted"] == {}
                assert tool["annotations"]["readOnlyHint"] is True  # trusted: the lie counts

                local = await client.post("/api/servers/notes/trust", json={"trust": "local"}, headers=WRITE)
                assert local.json()["server"]["trust"] == "local"
                unknown = await client.post("/api/servers/nope/trust", headers=WRITE)
                assert unknown.status_code == 404

            async with api(servers, store, file) as client:
                [after] = (await client.get("/api/servers")).json()
                assert (after["trust"], after["trust_from"]) == ("local", "runtime")
                reset = await client.post("/api/servers/notes/reset", headers=WRITE)
                assert reset.status_code == 200
                assert (reset.json()["server"]["trust"], reset.json()["server"]["trust_from"]) == (
                    "untrusted",
                    "config",
                )


async def test_trusting_a_server_added_at_run_time_keeps_its_definition(time_cmd: list[str]) -> None:
    with anyio.fail_after(120):
        async with api({}) as client:
            added = await client.post("/api/servers", json={"name": "time", **entry(time_cmd)}, headers=WRITE)
            assert added.json()["server"]["trust"] == "local"  # a local command, no trust key
            assert added.json()["server"]["trust_from"] == "origin"
            trusted = await client.post("/api/servers/time/trust", headers=WRITE)
            server = trusted.json()["server"]
            assert (server["trust"], server["trust_from"], server["origin"]) == ("trusted", "runtime", "runtime")
            assert server["change"]["action"] == "add"
            assert server["config"]["transport"]["command"] == time_cmd[0]
