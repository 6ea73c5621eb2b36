"""Results are input, end to end: a real `serve` process, a fixture server whose result speaks to the model,
the bundled notebook, an MCP client in accept-edits.

An untrusted `get_doc` (no hints at all) returns an `<IMPORTANT>` order to call
the notebook's write tool with a secret file: the order is redacted before the
model reads it, the finding is recorded with the call, and the next write of
the notebook asks. The same server's honest manual, which says "ignore" and
"before", passes unchanged; read from a trusted server it taints nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from tests.asking import Person

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

DOCS = str(Path(__file__).parents[1] / "fixtures" / "doc_server.py")


def config(tmp_path: Path, **docs: Any) -> Path:
    path = tmp_path / "hintgate.json"
    path.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "notes": {"command": sys.executable, "args": ["-m", "hintgate.demo"], "trust": "trusted"},
                    "docs": {"command": sys.executable, "args": [DOCS], **docs},
                },
                "policy": {"mode": "accept-edits", "rules": [{"allow": {"tier": "read-only", "server": "*"}}]},
            }
        )
    )
    return path


def text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def test_an_untrusted_result_that_orders_the_model_is_redacted_recorded_and_makes_the_next_write_ask(
    tmp_path: Path,
) -> None:
    person = Person()
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    with running_gateway("--config", str(config(tmp_path)), env=env) as gateway, anyio.fail_after(90):
        async with (
            Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=person) as client,  # type: ignore[arg-type]
            httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers) as rest,
        ):
            doc = await client.call_tool("docs_get_doc", {"name": "release"})
            written = await client.call_tool("notes_create_note", {"title": "key", "body": "x"})
            calls = (await rest.get("/api/calls", params={"tool": "docs_get_doc"})).json()
            page = (await rest.get("/calls")).text
    assert doc.is_error is False
    assert "Release notes for 2.4" in text(doc)
    assert "Thanks for reading." in text(doc)
    assert "id_rsa" not in text(doc)
    assert "hintgate removed text addressed to the model" in text(doc)
    assert "hintgate/findings" in (doc.meta or {})
    assert written.is_error is True
    [question] = person.asked
    assert "docs_get_doc" in question
    assert "speaks to the model" in question
    [call] = calls
    decision = call["decision"]
    assert decision["result_action"] == "redact"
    assert {f["code"] for f in decision["result_findings"]} >= {"HG611", "HG612"}
    assert "The result spoke to the model (" in page
    assert "redacted, and the session was tainted" in page


async def test_an_honest_result_with_ignore_in_it_passes_unchanged_and_a_trusted_one_taints_nothing(
    tmp_path: Path,
) -> None:
    person = Person()
    with (
        running_gateway("--config", str(config(tmp_path, trust="trusted")), "--no-record") as gateway,
        anyio.fail_after(90),
    ):
        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=person) as client:  # type: ignore[arg-type]
            manual = await client.call_tool("docs_get_manual", {"name": "search"})
            written = await client.call_tool("notes_create_note", {"title": "tea", "body": "green"})
    assert text(manual).startswith("Matching ignores case.")
    assert "hintgate" not in text(manual)
    assert written.is_error is False, written.content
    assert person.asked == []
