"""What a REST client needs to write: the header is in the OpenAPI document, the mode takes the config's spellings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest

from hintgate.config.loading import parse_config
from hintgate.policy.rules import Mode, parse_policy
from hintgate.server.gateway import Gateway
from hintgate.testing import FakeSource
from hintgate.web.app import create_app

pytestmark = pytest.mark.anyio

WRITE = {"X-Hintgate-Request": "1"}


@asynccontextmanager
async def api(token: str | None = None) -> AsyncIterator[httpx.AsyncClient]:
    source = FakeSource("notes", tools=[{"name": "get_note", "inputSchema": {"type": "object"}}])
    gateway = Gateway(parse_config({"mcpServers": {}}), sources={"notes": source})
    async with gateway:
        app = create_app(gateway, None, token=token)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8765") as c:
            yield c


async def test_the_openapi_document_says_writes_need_the_request_header_or_a_bearer_token() -> None:
    async with api() as client:
        document = (await client.get("/api/openapi.json")).json()
    schemes = document["components"]["securitySchemes"]
    assert schemes["hintgateRequest"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-Hintgate-Request",
        "description": schemes["hintgateRequest"]["description"],
    }
    assert schemes["bearerToken"]["scheme"] == "bearer"
    writes = {
        (method, path): op
        for path, item in document["paths"].items()
        for method, op in item.items()
        if path.startswith("/api/") and method in {"post", "put", "patch", "delete"}
    }
    assert ("patch", "/api/policy") in writes
    assert ("post", "/api/approvals/{approval_id}") in writes
    for operation in writes.values():
        assert operation["security"] == [{"hintgateRequest": []}, {"bearerToken": []}]
    # On loopback without a token, reads need nothing.
    assert "security" not in document["paths"]["/api/tools"]["get"]


async def test_with_a_token_every_operation_lists_the_bearer_token() -> None:
    async with api(token="t" * 40) as client:
        document = (await client.get("/api/openapi.json", headers={"Authorization": "Bearer " + "t" * 40})).json()
    assert document["paths"]["/api/tools"]["get"]["security"] == [{"bearerToken": []}]


@pytest.mark.parametrize(
    ("spelling", "mode"),
    [
        ("acceptEdits", Mode.ACCEPT_EDITS),
        ("accept_edits", Mode.ACCEPT_EDITS),
        ("accept-edits", Mode.ACCEPT_EDITS),
        ("readOnly", Mode.READ_ONLY),
        ("read_only", Mode.READ_ONLY),
        ("bypass", Mode.BYPASS),
    ],
)
async def test_patch_policy_takes_the_mode_as_the_config_file_spells_it(spelling: str, mode: Mode) -> None:
    settings, _ = parse_policy({"mode": spelling})
    assert settings.mode is mode  # the config file takes this spelling ...
    async with api() as client:
        answer = await client.patch("/api/policy", json={"mode": spelling}, headers=WRITE)
    assert answer.status_code == 200, answer.text  # ... and so does the API,
    assert answer.json()["mode"] == mode.value  # answering in the canonical spelling


async def test_patch_policy_still_refuses_a_mode_that_does_not_exist() -> None:
    async with api() as client:
        answer = await client.patch("/api/policy", json={"mode": "yolo"}, headers=WRITE)
    assert answer.status_code == 422
    assert "acceptEdits" in answer.text
