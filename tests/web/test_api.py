"""The REST API: every endpoint, bad inputs, auth, live effects; and its OpenAPI document fuzzed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import httpx
import pytest

from hintgate.config.loading import parse_config
from hintgate.server.gateway import Gateway
from hintgate.store import RecordingSettings, Store
from hintgate.testing import FakeSource
from hintgate.web.app import create_app

if TYPE_CHECKING:
    from conftest import SeedSessions

pytestmark = pytest.mark.anyio

WRITE = {"X-Hintgate-Request": "1"}
TOOLS = [
    {"name": "get_note", "description": "Get a note by id.", "inputSchema": {"type": "object"}},
    {
        "name": "delete_note",
        "description": "Permanently delete a note.",
        "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}},
    },
    {
        "name": "wipe",
        "description": "Permanently delete every note.",
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True},
    },
]


def notes(titles: dict[str, str] | None = None) -> FakeSource:
    return FakeSource(
        "notes",
        titles=titles,
        tools=TOOLS,
        handlers={"get_note": lambda a: "a note", "delete_note": lambda a: "deleted", "wipe": lambda a: "wiped"},
    )


@asynccontextmanager
async def api(
    tmp_path: Path,
    *,
    token: str | None = None,
    policy: dict[str, Any] | None = None,
    titles: dict[str, str] | None = None,
) -> AsyncIterator[tuple[httpx.AsyncClient, Gateway, Store]]:
    store = await Store.open(f"sqlite:///{tmp_path / 'api.db'}", RecordingSettings(commit_interval=0.01))
    config = parse_config({"mcpServers": {}, "policy": policy or {"approvalTimeout": 10}})
    gateway = Gateway(config, sources={"notes": notes(titles)}, store=store)
    try:
        async with gateway:
            app = create_app(gateway, store, token=token)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as client:
                yield client, gateway, store
    finally:
        await store.close()


async def test_health_reports_servers_and_store(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, _, _):
        body = (await client.get("/api/health")).json()
    assert body["status"] == "ok"
    assert body["servers_up"] == body["servers_total"] == 1
    assert body["store"] == "sqlite"
    assert body["recording"] == {
        "status": "ok",
        "reason": None,
        "commit": "durable",
        "backlog": 0,
        "dropped": 0,
        "failures": 0,
        "unconfirmed": 0,
    }


async def test_health_is_degraded_with_the_reason_when_the_database_file_is_deleted(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, _, _):
        (tmp_path / "api.db").unlink()
        body = (await client.get("/api/health")).json()
    assert body["status"] == "degraded"
    assert body["recording"]["status"] == "degraded"
    assert "api.db was deleted" in body["recording"]["reason"]


async def test_servers_list_status_trust_and_tier_counts(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, _, _):
        [server] = (await client.get("/api/servers")).json()
    assert server["name"] == "notes"
    assert server["status"]["state"] == "up"
    assert server["trust"] == "untrusted"
    assert server["tools"] == 3
    assert server["tiers"]["destructive"] == 2


async def test_servers_name_the_type_of_each_source(tmp_path: Path) -> None:
    fixtures = Path(__file__).parent.parent / "fixtures"
    config = parse_config(
        {
            "openapi": {"things": {"document": str(fixtures / "openapi" / "methods.oas31.yaml")}},
            "python": {"pytools": {"registry": "python_tools:registry", "path": [str(fixtures)]}},
        }
    )
    async with Gateway(config) as gateway:
        app = create_app(gateway, None)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as client:
            listed = (await client.get("/api/servers")).json()
    assert {s["name"]: (s["kind"], s["status"]["state"]) for s in listed} == {
        "things": ("openapi", "up"),
        "pytools": ("python", "up"),
    }


async def test_tools_carry_four_explicit_hints_provenance_and_declared_beside_inferred(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, _, _):
        tools = {t["name"]: t for t in (await client.get("/api/tools")).json()}
        destructive = (await client.get("/api/tools", params={"tier": "destructive"})).json()
        found = (await client.get("/api/tools", params={"q": "every"})).json()
        missing = await client.get("/api/tools/nope")
        bad_tier = await client.get("/api/tools", params={"tier": "harmless"})
    wipe = tools["notes_wipe"]
    assert set(wipe["annotations"]) >= {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
    assert wipe["declared"] == {"readOnlyHint": True}
    assert wipe["distrusted"] == {"readOnlyHint": True}
    assert wipe["annotations"]["readOnlyHint"] is False
    assert wipe["provenance"]["readOnlyHint"].startswith("inferred:")
    assert wipe["inferred"]["readOnlyHint"]["value"] is False
    assert {t["name"] for t in destructive} == {"notes_delete_note", "notes_wipe"}
    assert [t["name"] for t in found] == ["notes_wipe"]
    assert missing.status_code == 404
    assert "no tool named 'nope'" in missing.json()["detail"]
    assert bad_tier.status_code == 422


async def test_tools_filter_by_category_tag_each_hint_trust_and_provenance() -> None:
    from hintgate.sources.python import PythonSource

    fixtures = Path(__file__).parent.parent / "fixtures"
    entry = {"registry": "python_tools:registry", "path": [str(fixtures)], "trust": "trusted"}
    config = parse_config({"mcpServers": {}, "python": {"pytools": entry}})
    python = PythonSource(config.python["pytools"])
    async with Gateway(config, sources={"notes": notes(), "pytools": python}) as gateway:
        transport = httpx.ASGITransport(app=create_app(gateway, None))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as client:

            async def names(**params: Any) -> list[str]:
                answer = await client.get("/api/tools", params=params)
                assert answer.status_code == 200, answer.text
                return sorted(t["name"] for t in answer.json())

            every = {t["name"]: t for t in (await client.get("/api/tools")).json()}
            by_category = await names(category="notes")
            by_tag = await names(tag="search")
            by_text = await names(q="search")
            reads = await names(readOnly="true")
            additive = await names(readOnly="false", destructive="false")
            trusted = await names(trust="trusted")
            declared = await names(provenance="declared")
            bad_trust = await client.get("/api/tools", params={"trust": "somewhat"})
    assert every["pytools_search_notes"]["category"] == "notes"
    assert every["pytools_search_notes"]["tags"] == ["search"]
    assert every["notes_get_note"]["category"] is None
    assert every["notes_get_note"]["trust"] == "untrusted"
    assert by_category == ["pytools_add_note", "pytools_search_notes"]
    assert by_tag == ["pytools_search_notes"]
    assert by_text == ["pytools_search_notes"]
    assert "pytools_search_notes" in reads
    assert all(every[n]["annotations"]["readOnlyHint"] is True for n in reads)
    assert additive
    assert all(every[n]["annotations"]["destructiveHint"] is False for n in additive)
    assert trusted == ["pytools_add_note", "pytools_explode", "pytools_search_notes"]
    assert "pytools_search_notes" in declared
    assert all("declared" in every[n]["provenance"].values() for n in declared)
    assert bad_trust.status_code == 422


async def test_overrides_apply_live_and_are_stored_with_their_origin(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, gateway, store):
        response = await client.patch(
            "/api/tools/notes_delete_note/overrides", json={"destructiveHint": False}, headers=WRITE
        )
        assert response.status_code == 200, response.text
        tool = response.json()
        assert tool["annotations"]["destructiveHint"] is False
        assert tool["provenance"]["destructiveHint"] == "override"
        assert tool["overrides"]["stored"] == {"destructiveHint": False}
        assert gateway.catalog.get("notes_delete_note").tier.value == "additive-write"  # type: ignore[union-attr]
        assert [(r["tool"], r["hint"], r["value"]) for r in await store.overrides.hints()] == [
            ("notes_delete_note", "destructiveHint", False)
        ]
        cleared = await client.patch(
            "/api/tools/notes_delete_note/overrides", json={"destructiveHint": None}, headers=WRITE
        )
        assert cleared.json()["provenance"]["destructiveHint"] != "override"
        assert await store.overrides.hints() == []


async def test_overrides_survive_a_restart(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, _, _):
        await client.patch("/api/tools/notes_get_note/overrides", json={"openWorldHint": False}, headers=WRITE)
    async with api(tmp_path) as (client, _, _):
        tool = (await client.get("/api/tools/notes_get_note")).json()
    assert tool["annotations"]["openWorldHint"] is False
    assert tool["provenance"]["openWorldHint"] == "override"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"readOnlyHint": "yes"}, "readOnlyHint: Input should be a valid boolean"),
        ({"readOnlyHint": 1}, "readOnlyHint: Input should be a valid boolean"),
        ({"readOnlyHnt": True}, "readOnlyHnt: Extra inputs are not permitted"),
        ({}, "give a hint"),
        ({"title": ""}, "title: Value error, a title must not be empty"),
        ({"title": "   "}, "title: Value error, a title must not be empty"),
        ({"title": "x" * 201}, "title: Value error, a title is at most 200 characters, got 201"),
        ({"title": "Two\nlines"}, "title: Value error, a title must not contain control characters"),
        ({"title": "Bell\x07"}, "title: Value error, a title must not contain control characters"),
        ({"title": 5}, "title: Input should be a valid string"),
    ],
)
async def test_bad_overrides_are_refused_and_nothing_is_written(
    tmp_path: Path, body: dict[str, Any], message: str
) -> None:
    async with api(tmp_path) as (client, gateway, store):
        response = await client.patch("/api/tools/notes_get_note/overrides", json=body, headers=WRITE)
        assert response.status_code == 422
        assert message in response.json()["detail"]
        assert await store.overrides.hints() == []
        assert await store.overrides.titles() == []
        assert gateway.overrides.by_tool == {}


async def test_a_title_is_overridden_live_with_provenance_stored_and_cleared_with_null(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, gateway, store):
        before = (await client.get("/api/tools/notes_get_note")).json()
        assert (before["title"], before["title_provenance"]) == ("Get note", "derived")
        response = await client.patch(
            "/api/tools/notes_get_note/overrides", json={"title": "Read one note"}, headers=WRITE
        )
        assert response.status_code == 200, response.text
        tool = response.json()
        assert (tool["title"], tool["title_provenance"]) == ("Read one note", "override")
        assert tool["overrides"]["stored_title"] == "Read one note"
        assert tool["overrides"]["stored"] == {}
        listed = {t["name"]: t for t in (await client.get("/api/tools")).json()}
        assert listed["notes_get_note"]["title"] == "Read one note"
        assert listed["notes_get_note"]["title_provenance"] == "override"
        assert gateway.catalog.get("notes_get_note").tool.title == "Read one note"  # type: ignore[union-attr]
        assert [(r["tool"], r["title"], r["updated_by"]) for r in await store.overrides.titles()] == [
            ("notes_get_note", "Read one note", "local")
        ]
        cleared = (
            await client.patch("/api/tools/notes_get_note/overrides", json={"title": None}, headers=WRITE)
        ).json()
        assert (cleared["title"], cleared["title_provenance"]) == ("Get note", "derived")
        assert cleared["overrides"]["stored_title"] is None
        assert await store.overrides.titles() == []


async def test_a_stored_title_wins_over_the_config_files_and_survives_a_restart(tmp_path: Path) -> None:
    config = {"wipe": "Wipe (config)"}
    async with api(tmp_path, titles=config) as (client, _, _):
        tool = (await client.get("/api/tools/notes_wipe")).json()
        assert (tool["title"], tool["overrides"]["config_title"]) == ("Wipe (config)", "Wipe (config)")
        await client.patch("/api/tools/notes_wipe/overrides", json={"title": "Wipe all notes"}, headers=WRITE)
    async with api(tmp_path, titles=config) as (client, _, _):
        tool = (await client.get("/api/tools/notes_wipe")).json()
        assert (tool["title"], tool["title_provenance"]) == ("Wipe all notes", "override")
        assert tool["overrides"]["config_title"] == "Wipe (config)"
        await client.delete("/api/tools/notes_wipe/overrides", headers=WRITE)
        assert (await client.get("/api/tools/notes_wipe")).json()["title"] == "Wipe (config)"


async def test_clearing_all_overrides_of_a_tool(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, _, store):
        await client.patch(
            "/api/tools/notes_get_note/overrides", json={"openWorldHint": False, "idempotentHint": True}, headers=WRITE
        )
        response = await client.delete("/api/tools/notes_get_note/overrides", headers=WRITE)
        assert response.json()["overrides"]["stored"] == {}
        assert await store.overrides.hints() == []


async def test_a_waiting_call_is_approved_through_the_api(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, gateway, _):
        call = asyncio.ensure_future(gateway.call_tool(None, {"name": "notes_delete_note", "arguments": {"id": 3}}))
        with anyio.fail_after(10):
            while not (pending := (await client.get("/api/approvals")).json()):
                await asyncio.sleep(0.01)
        [approval] = pending
        assert approval["tool"] == "notes_delete_note"
        assert "This tool may make destructive changes" in approval["warnings"]
        answer = await client.post(f"/api/approvals/{approval['id']}", json={"answer": "approve-once"}, headers=WRITE)
        assert answer.status_code == 200
        with anyio.fail_after(10):
            result = await call
        again = await client.post(f"/api/approvals/{approval['id']}", json={"answer": "deny"}, headers=WRITE)
        bad = await client.post(f"/api/approvals/{approval['id']}", json={"answer": "maybe"}, headers=WRITE)
    assert result.get("isError") is not True
    assert again.status_code == 409
    assert "approved" in again.json()["detail"]
    assert bad.status_code == 422


async def test_a_waiting_call_says_what_its_arguments_make_it_do(tmp_path: Path) -> None:
    sql = FakeSource(
        "db",
        tools=[
            {
                "name": "execute_sql",
                "description": "Run a SQL statement against the database.",
                "inputSchema": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]},
            }
        ],
        handlers={"execute_sql": lambda a: "done"},
    )
    config = parse_config({"mcpServers": {}, "policy": {"approvalTimeout": 10}})
    async with Gateway(config, sources={"db": sql}) as gateway:
        transport = httpx.ASGITransport(app=create_app(gateway, None))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765") as client:
            call = asyncio.ensure_future(
                gateway.call_tool(None, {"name": "db_execute_sql", "arguments": {"sql": "DROP TABLE users"}})
            )
            with anyio.fail_after(10):
                while not (pending := (await client.get("/api/approvals")).json()):
                    await asyncio.sleep(0.01)
            await client.post(f"/api/approvals/{pending[0]['id']}", json={"answer": "deny"}, headers=WRITE)
            with anyio.fail_after(10):
                await call
    assert pending[0]["does"] == "DROP TABLE users; destructive"


async def test_a_waiting_call_is_denied_through_the_api(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, gateway, _):
        call = asyncio.ensure_future(gateway.call_tool(None, {"name": "notes_delete_note", "arguments": {}}))
        with anyio.fail_after(10):
            while not (pending := (await client.get("/api/approvals")).json()):
                await asyncio.sleep(0.01)
        await client.post(f"/api/approvals/{pending[0]['id']}", json={"answer": "deny"}, headers=WRITE)
        with anyio.fail_after(10):
            result = await call
    assert result["isError"] is True
    assert "denied (api)" in result["content"][0]["text"]


async def test_policy_settings_are_read_and_written_with_their_effect_explained(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, gateway, _):
        before = (await client.get("/api/policy")).json()
        changed = await client.patch(
            "/api/policy",
            json={"mode": "accept-edits", "preferences": {"alwaysConfirmDestructive": False}},
            headers=WRITE,
        )
        bad = await client.patch("/api/policy", json={"mode": "yolo"}, headers=WRITE)
        null = await client.patch("/api/policy", json={"taint": None}, headers=WRITE)
        strict = (await client.patch("/api/policy", json={"taint": "strict"}, headers=WRITE)).json()
        off = (await client.patch("/api/policy", json={"taint": False}, headers=WRITE)).json()
        evidence = (await client.patch("/api/policy", json={"taint": True}, headers=WRITE)).json()
    assert before["mode"] == "default"
    assert before["effects"]["autoApproveReadOnly"] == "Read-only tools run without asking."
    assert changed.json()["mode"] == "accept-edits"
    assert changed.json()["preferences"]["alwaysConfirmDestructive"] is False
    assert gateway.calls.settings.always_confirm_destructive is False
    assert bad.status_code == 422
    assert null.status_code == 422
    assert gateway.calls.settings.taint_enabled is True
    assert (strict["taint"], off["taint"], evidence["taint"]) == ("strict", "off", "evidence")
    assert "the spec default included" in strict["effects"]["taint"]


async def test_the_policy_names_the_config_files_global_approvers_and_null_when_it_names_none(
    tmp_path: Path,
) -> None:
    everywhere = {"approvers": {"group": ["leads", "dba"], "user": "ops@example.com"}, "selfApproval": True}
    async with api(tmp_path, policy=everywhere) as (client, _, _):
        named = (await client.get("/api/policy")).json()
    async with api(tmp_path) as (client, _, _):
        unset = (await client.get("/api/policy")).json()
    async with api(tmp_path, policy={"selfApproval": False}) as (client, _, _):
        only_self = (await client.get("/api/policy")).json()
    assert named["approvers"] == {"users": ["ops@example.com"], "groups": ["dba", "leads"]}
    assert named["selfApproval"] is True
    assert (unset["approvers"], unset["selfApproval"]) == (None, None)
    assert (only_self["approvers"], only_self["selfApproval"]) == (None, False)


async def test_sessions_and_calls_are_served_from_the_store(tmp_path: Path) -> None:
    async with api(tmp_path, policy={"mode": "bypass"}) as (client, gateway, store):
        await gateway.call_tool(None, {"name": "notes_get_note", "arguments": {"id": 1}})
        await gateway.call_tool(None, {"name": "notes_wipe", "arguments": {}})
        await store.flush()
        calls = (await client.get("/api/calls")).json()
        filtered = (await client.get("/api/calls", params={"tier": "destructive"})).json()
        one = (await client.get(f"/api/calls/{calls[0]['id']}")).json()
        missing = await client.get("/api/calls/nope")
        sessions = (await client.get("/api/sessions")).json()
        no_session = await client.get("/api/sessions/nope")
    assert [c["tool_name"] for c in calls] == ["notes_wipe", "notes_get_note"]
    assert [c["tool_name"] for c in filtered] == ["notes_wipe"]
    assert one["hints"]["tier"] == "destructive"
    assert one["decision"]["source"] == "mode:bypass"
    assert missing.status_code == 404
    assert sessions == []  # calls made without a client session
    assert no_session.status_code == 404


async def test_sessions_are_filtered_by_status_and_replica(tmp_path: Path, seed_sessions: SeedSessions) -> None:
    async with api(tmp_path) as (client, _, store):
        ids = await seed_sessions(store)

        async def names(**params: str) -> set[str]:
            response = await client.get("/api/sessions", params=params)
            assert response.status_code == 200, response.text
            return {row["client_name"] for row in response.json()}

        active = await names(status="active")
        closed = await names(status="closed")
        on_a = await names(replica="a")
        active_on_a = await names(status="active", replica="a")
        nowhere = await names(replica="c")
        every = (await client.get("/api/sessions")).json()
        bad = await client.get("/api/sessions", params={"status": "ended"})
    assert active == {"a-open", "b-open"}
    assert closed == {"a-done"}
    assert on_a == {"a-open", "a-done"}
    assert active_on_a == {"a-open"}
    assert nowhere == set()
    assert {row["id"]: row["replica"] for row in every} == {sid: name[0] for name, sid in ids.items()}
    assert bad.status_code == 422
    assert "status" in bad.json()["detail"]


async def test_state_changes_need_the_request_header_and_same_origin(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, _, _):
        bare = await client.patch("/api/policy", json={"mode": "bypass"})
        cross = await client.patch(
            "/api/policy", json={"mode": "bypass"}, headers={**WRITE, "Origin": "https://evil.example"}
        )
        policy = (await client.get("/api/policy")).json()
    assert bare.status_code == 403
    assert cross.status_code == 403
    assert "cross-site" in cross.json()["detail"]
    assert policy["mode"] == "default"


async def test_a_token_is_required_when_one_is_set(tmp_path: Path) -> None:
    async with api(tmp_path, token="s3cret-token-for-tests") as (client, _, _):
        missing = await client.get("/api/tools")
        wrong = await client.get("/api/tools", headers={"Authorization": "Bearer nope"})
        right = await client.get("/api/tools", headers={"Authorization": "Bearer s3cret-token-for-tests"})
        health = await client.get("/api/health")
        write = await client.patch(
            "/api/policy", json={"mode": "bypass"}, headers={"Authorization": "Bearer s3cret-token-for-tests"}
        )
    assert missing.status_code == wrong.status_code == 401
    assert right.status_code == 200
    assert health.status_code == 200
    assert write.status_code == 200


async def test_recording_off_makes_sessions_and_calls_say_so(tmp_path: Path) -> None:
    gateway = Gateway(parse_config({"mcpServers": {}}), sources={"notes": notes()})
    async with gateway:
        app = create_app(gateway, None)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as client:
            response = await client.get("/api/sessions")
    assert response.status_code == 503
    assert "recording is off" in response.json()["detail"]


async def test_on_loopback_a_foreign_host_name_is_refused(tmp_path: Path) -> None:
    async with api(tmp_path) as (client, _, _):
        rebinding = await client.get("/api/tools", headers={"Host": "attacker.example:8765"})
        local = await client.get("/api/tools", headers={"Host": "localhost:8765"})
        v6 = await client.get("/api/tools", headers={"Host": "[::1]:8765"})
    assert rebinding.status_code == 421
    assert "only on loopback names" in rebinding.json()["detail"]
    assert local.status_code == v6.status_code == 200


async def test_the_tools_listing_says_how_each_tool_was_used(tmp_path: Path) -> None:
    async with api(tmp_path, policy={"mode": "bypass"}) as (client, gateway, store):
        await gateway.call_tool(None, {"name": "notes_get_note", "arguments": {"id": 1}})
        await gateway.call_tool(None, {"name": "notes_get_note", "arguments": {"id": 2}})
        await store.flush()
        listed = {t["name"]: t for t in (await client.get("/api/tools")).json()}
    used = listed["notes_get_note"]["usage"]
    assert (used["calls"], used["errors"]) == (2, 0)
    assert used["last_used"] is not None
    assert used["p50_ms"] >= 0
    assert listed["notes_wipe"]["usage"] is None
