"""The trust-annotations extension through a real gateway: results say what they are, for the clients that ask.

`hintgate serve --http` with tests/fixtures/trust_server.py (results that
claim `sensitive` or `untrusted` themselves, or nothing) and
tests/fixtures/doc_server.py (a result the poisoning scan flags) behind it,
the MCP SDK's own client in both protocol eras.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.extension import ClientExtension
from tests.asking import Person

from hintgate.scan.guard import FINDINGS_META
from hintgate.sources.trust_annotations import EVIDENCE_TYPE, TRUST, jcs_digest
from hintgate.testing import RunningGateway, running_gateway

pytestmark = pytest.mark.anyio

FIXTURES = Path(__file__).parents[1] / "fixtures"
ERAS = ["legacy", "2026-07-28"]


class TrustAnnotations(ClientExtension):
    """The client side of the extension: it only declares it."""

    identifier = TRUST


@contextmanager
def gateway(tmp_path: Path, **docs: Any) -> Iterator[RunningGateway]:
    config = tmp_path / "hintgate.json"
    servers = {
        "trusty": {"command": sys.executable, "args": [str(FIXTURES / "trust_server.py")], "trust": "trusted"},
        "docs": {"command": sys.executable, "args": [str(FIXTURES / "doc_server.py")], **docs},
    }
    policy = {"mode": "accept-edits", "rules": [{"allow": {"tier": "read-only", "server": "*"}}]}
    config.write_text(json.dumps({"mcpServers": servers, "policy": policy}))
    with running_gateway("--config", str(config), "--no-record") as running:
        yield running


@asynccontextmanager
async def client(running: RunningGateway, mode: str, *, declares: bool = True, **kw: Any) -> AsyncIterator[Client]:
    extensions = [TrustAnnotations()] if declares else None
    info = types.Implementation(name="agent", version="1.0")
    async with Client(running.mcp_transport(), mode=mode, client_info=info, extensions=extensions, **kw) as c:  # type: ignore[arg-type]
        yield c


def claim(result: Any) -> Any:
    return (result.meta or {}).get(TRUST)


@pytest.mark.parametrize("mode", ERAS)
async def test_a_declaring_client_gets_the_upstreams_claims_united_and_no_claim_on_a_trusted_closed_world_result(
    tmp_path: Path, mode: str
) -> None:
    with gateway(tmp_path) as running, anyio.fail_after(60):
        async with client(running, mode) as c:
            report = await c.call_tool("trusty_get_report", {})
            page = await c.call_tool("trusty_get_page", {})
            note = await c.call_tool("trusty_get_note", {})
    # The server's `sensitive` is kept; its "no" for untrusted claims nothing.
    assert claim(report) == {"sensitive": True}
    # A block's claim makes the result's stronger: the page is untrusted though the result said nothing.
    assert claim(page) == {"untrusted": True}
    assert claim(note) is None


@pytest.mark.parametrize("mode", ERAS)
async def test_content_from_an_untrusted_server_is_marked_untrusted_and_a_flagged_result_carries_its_findings(
    tmp_path: Path, mode: str
) -> None:
    with gateway(tmp_path, trust="untrusted") as running, anyio.fail_after(60):
        async with client(running, mode) as c:
            manual = await c.call_tool("docs_get_manual", {"name": "search"})
            doc = await c.call_tool("docs_get_doc", {"name": "release"})
    assert claim(manual) == {"untrusted": True}
    annotation = claim(doc)
    assert annotation["untrusted"] is True
    evidence = annotation["evidenceRef"]
    assert evidence["type"] == EVIDENCE_TYPE
    assert evidence["canonicalization"] == "jcs/rfc8785"
    # The digest is re-derived from the findings the result carries.
    assert evidence["digest"] == jcs_digest(doc.meta[FINDINGS_META])


@pytest.mark.parametrize("mode", ERAS)
async def test_a_client_that_does_not_declare_the_extension_gets_no_claim_of_the_gateways(
    tmp_path: Path, mode: str
) -> None:
    with gateway(tmp_path, trust="untrusted") as running, anyio.fail_after(60):
        async with client(running, mode, declares=False) as c:
            manual = await c.call_tool("docs_get_manual", {"name": "search"})
    assert claim(manual) is None


async def test_an_upstreams_own_sensitive_claim_taints_the_session_so_the_next_write_asks(tmp_path: Path) -> None:
    person = Person()
    with gateway(tmp_path) as running, anyio.fail_after(60):
        async with client(running, "legacy", declares=False, elicitation_callback=person) as c:
            before = await c.call_tool("trusty_save_note", {})
            await c.call_tool("trusty_get_report", {})
            after = await c.call_tool("trusty_save_note", {})
    assert before.is_error is False
    assert after.is_error is True
    [question] = person.asked
    assert "marks its result sensitive" in question
