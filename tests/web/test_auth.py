"""Who may use the gateway over HTTP: the API token and its file, and the Host check on every loopback address."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client

from hintgate.config.loading import parse_config
from hintgate.server.gateway import Gateway
from hintgate.testing import FakeSource, running_gateway
from hintgate.web.app import create_app
from hintgate.web.auth import load_or_create_token, local_page

pytestmark = pytest.mark.anyio


def notes_source() -> FakeSource:
    tool = {"name": "get_note", "description": "Get a note.", "inputSchema": {"type": "object"}}
    return FakeSource("notes", tools=[tool], handlers={"get_note": lambda a: "a note"})


@asynccontextmanager
async def serving(token: str | None) -> AsyncIterator[str]:
    """The web app over a notes gateway, served by uvicorn on a real 127.0.0.1 port; yields its base URL.

    A gateway bound to loopback never asks for a token, so the token's path is
    tested with the app the serve command builds, on a real socket.
    """
    import uvicorn

    gateway = Gateway(parse_config({"mcpServers": {}}), sources={"notes": notes_source()})
    async with gateway:
        app = create_app(gateway, None, token=token)
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=0, lifespan="off", log_level="warning", access_log=False)
        )
        serve = asyncio.ensure_future(server.serve())
        try:
            with anyio.fail_after(10):
                while not server.started:
                    if serve.done():
                        await serve  # raises why it could not start
                    await anyio.sleep(0.01)
            yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
        finally:
            server.should_exit = True
            with anyio.fail_after(10):
                await serve


@pytest.mark.parametrize("content", ["", "\n", "s3cret\n", "\x00\x00\x00\x00", "not a token at all, spaces!" * 3])
async def test_a_corrupt_token_file_is_replaced_and_an_empty_token_opens_nothing(
    tmp_path: Path, content: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A first start that died writing the file (disk full) left it empty or cut short.
    (tmp_path / "api-token").write_text(content, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="hintgate"):
        token, created = load_or_create_token(tmp_path)
    assert created, "a replaced token is new and must be shown"
    assert len(token) >= 32
    assert (tmp_path / "api-token").read_text(encoding="utf-8").strip() == token
    [warning] = [r for r in caplog.records if "api-token" in r.getMessage()]
    assert "corrupt" in warning.getMessage()
    async with serving(token) as url, httpx.AsyncClient(base_url=url, timeout=10) as client:
        empty_cookie = await client.get("/api/tools", headers={"Cookie": "hintgate_token="})
        empty_bearer = await client.get("/api/tools", headers={"Authorization": "Bearer"})
        old = content.strip() if content.strip().isprintable() else "x"
        stale = await client.get("/api/tools", headers={"Authorization": f"Bearer {old or 'x'}"})
        right = await client.get("/api/tools", headers={"Authorization": f"Bearer {token}"})
    assert empty_cookie.status_code == empty_bearer.status_code == stale.status_code == 401
    assert right.status_code == 200


async def test_an_empty_presented_token_is_refused_by_cookie_header_and_login(tmp_path: Path) -> None:
    token, _ = load_or_create_token(tmp_path)
    async with serving(token) as url, httpx.AsyncClient(base_url=url, timeout=10) as client:
        responses = [
            await client.get("/api/tools", headers={"Cookie": "hintgate_token="}),
            await client.get("/api/tools", headers={"Cookie": 'hintgate_token=""'}),
            await client.get("/api/tools", headers={"Authorization": "Bearer"}),
            await client.get("/api/tools", headers={"Authorization": "Bearer", "Cookie": "hintgate_token="}),
            await client.post("/login", data={"token": ""}),
            await client.get("/", headers={"Cookie": "hintgate_token="}),
        ]
        form = await client.get("/login?token=")  # no token given: the sign-in form, and no cookie
    assert [r.status_code for r in responses] == [401] * 6
    assert all("set-cookie" not in r.headers for r in responses)
    assert form.status_code == 200
    assert "set-cookie" not in form.headers


def test_the_token_file_is_written_whole_with_mode_0600_and_kept_across_starts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    token, created = load_or_create_token(data)
    again, created_again = load_or_create_token(data)
    path = data / "api-token"
    assert created
    assert not created_again
    assert again == token
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text(encoding="utf-8") == token + "\n"
    assert os.listdir(data) == ["api-token"], "no temporary file is left behind"


def test_an_app_cannot_be_built_with_an_empty_or_short_token(tmp_path: Path) -> None:
    gateway = Gateway(parse_config({"mcpServers": {}}), sources={"notes": notes_source()})
    for weak in ("", "short"):
        with pytest.raises(ValueError, match="at least 16 characters"):
            create_app(gateway, None, token=weak)


async def test_on_another_loopback_address_mcp_and_the_api_refuse_a_foreign_host(tmp_path: Path) -> None:
    # 127.0.0.2 is loopback: no token. A rebinding page reaches it with Host: evil.example.
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    accept = {"Accept": "application/json, text/event-stream"}
    with running_gateway("--demo", "--no-record", bind="127.0.0.2:0") as gateway:
        port = int(gateway.base_url.rsplit(":", 1)[1])
        async with httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers, timeout=30) as client:
            evil_mcp = await client.post("/mcp", json=initialize, headers={**accept, "Host": "evil.example"})
            evil_api = await client.get("/api/tools", headers={"Host": f"evil.example:{port}"})
            bad_port = await client.get("/api/tools", headers={"Host": "localhost:80x"})
            own_mcp = await client.post("/mcp", json=initialize, headers=accept)
            own_api = await client.get("/api/tools")
            localhost = await client.get("/api/health", headers={"Host": f"localhost:{port}"})
    assert evil_mcp.status_code == evil_api.status_code == bad_port.status_code == 421
    assert "evil.example" in evil_mcp.json()["detail"]
    assert "loopback" in evil_mcp.json()["detail"]
    assert own_mcp.status_code == 200
    assert own_api.status_code == localhost.status_code == 200


async def test_a_loopback_name_on_another_port_is_answered_as_an_ssh_forward_sends_it(tmp_path: Path) -> None:
    # `ssh -L 9000:127.0.0.1:PORT` delivers the browser's `Host: localhost:9000` to the gateway's own port.
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    accept = {"Accept": "application/json, text/event-stream"}
    with running_gateway("--demo", "--no-record") as gateway:
        port = int(gateway.base_url.rsplit(":", 1)[1])
        async with httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers, timeout=30) as client:
            forwarded = {"Host": f"localhost:{port + 1}"}
            page = await client.get("/", headers=forwarded)
            api = await client.get("/api/tools", headers={"Host": f"127.0.0.1:{port + 2}"})
            mcp = await client.post("/mcp", json=initialize, headers={**accept, **forwarded})
            foreign = await client.get("/api/tools", headers={"Host": f"evil.example:{port + 1}"})
    assert page.status_code == api.status_code == mcp.status_code == 200
    assert foreign.status_code == 421


async def test_a_cross_site_page_cannot_post_to_mcp_on_loopback(tmp_path: Path) -> None:
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    headers = {"Accept": "application/json, text/event-stream", "Origin": "https://evil.example"}
    with running_gateway("--demo", "--no-record", bind="127.0.0.2:0") as gateway:
        async with httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers, timeout=30) as client:
            response = await client.post("/mcp", json=initialize, headers=headers)
    assert response.status_code == 403
    assert "evil.example" in response.json()["detail"]


async def test_a_request_in_an_open_mcp_session_is_refused_without_the_token_from_a_foreign_host_or_site(
    tmp_path: Path,
) -> None:
    # A POST naming its session (a tool call's) meets every check a new session's POST meets.
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    accept = {"Accept": "application/json, text/event-stream"}
    with running_gateway("--demo", "--no-record", "--require-token", bind="127.0.0.2:0") as gateway:
        async with httpx.AsyncClient(base_url=gateway.base_url, timeout=30) as client:
            opened = await client.post("/mcp", json=initialize, headers={**gateway.headers, **accept})
            named = {
                **accept,
                "mcp-session-id": opened.headers["mcp-session-id"],
                "mcp-protocol-version": "2025-11-25",
            }
            done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            assert (await client.post("/mcp", json=done, headers={**gateway.headers, **named})).status_code == 202
            no_token = await client.post("/mcp", json=listing, headers=named)
            wrong_token = await client.post(
                "/mcp", json=listing, headers={**named, "Authorization": "Bearer " + "x" * 40}
            )
            foreign = await client.post(
                "/mcp", json=listing, headers={**gateway.headers, **named, "Host": "evil.example"}
            )
            cross_site = await client.post(
                "/mcp", json=listing, headers={**gateway.headers, **named, "Origin": "https://evil.example"}
            )
            own = await client.post("/mcp", json=listing, headers={**gateway.headers, **named})
    assert (no_token.status_code, wrong_token.status_code) == (401, 401)
    assert foreign.status_code == 421
    assert "evil.example" in foreign.json()["detail"]
    assert cross_site.status_code == 403
    assert "evil.example" in cross_site.json()["detail"]
    assert own.status_code == 200, own.text
    assert own.json()["result"]["tools"]


async def test_health_tells_a_caller_without_the_token_only_whether_it_is_up(tmp_path: Path) -> None:
    token, _ = load_or_create_token(tmp_path)
    async with serving(token) as url, httpx.AsyncClient(base_url=url, timeout=10) as client:
        anonymous = await client.get("/api/health")
        signed_in = await client.get("/api/health", headers={"Authorization": f"Bearer {token}"})
    assert anonymous.status_code == signed_in.status_code == 200
    assert anonymous.json() == {"status": "ok"}
    assert signed_in.json()["pending_approvals"] == 0
    assert signed_in.json()["servers_up"] == 1


@pytest.mark.parametrize("opened", ["--no-require-token", "HINTGATE_REQUIRE_TOKEN=0"])
@pytest.mark.parametrize("asked", ["", "--require-token", "HINTGATE_REQUIRE_TOKEN=1"])
async def test_on_loopback_the_token_is_required_unless_turned_off_explicitly_with_a_warning(
    tmp_path: Path, asked: str, opened: str
) -> None:
    browser = {"Accept": "text/html,application/xhtml+xml"}
    data = tmp_path / "data"

    def how(setting: str) -> tuple[tuple[str, ...], dict[str, str]]:
        flag, env = (
            ((setting,), {}) if setting.startswith("--") else ((), dict([setting.split("=")] if setting else []))
        )
        return flag, {**env, "HINTGATE_DATA_DIR": str(data)}

    flag, env = how(opened)
    with running_gateway("--demo", "--no-record", *flag, env=env) as gateway:
        assert gateway.token is None
        async with httpx.AsyncClient(base_url=gateway.base_url, timeout=30) as client:
            open_api = await client.get("/api/tools")
            open_page = await client.get("/", headers=browser)
    assert any("without an API token (--no-require-token)" in line for line in gateway.log)
    flag, env = how(asked)
    with running_gateway("--demo", "--no-record", *flag, env=env) as gateway:
        token = (data / "api-token").read_text().strip()
        assert gateway.token == token
        port = int(gateway.base_url.rsplit(":", 1)[1])
        async with httpx.AsyncClient(base_url=gateway.base_url, timeout=30) as client:
            api = await client.get("/api/tools")
            mcp = await client.post("/mcp", json={}, headers={"Accept": "application/json, text/event-stream"})
            page = await client.get("/approvals", headers=browser)
            sign_in = await client.get(page.headers["location"], headers=browser)
            with_token = await client.get("/api/tools", headers={"Authorization": f"Bearer {token}"})
            signed_in = await client.post("/login", data={"token": token, "next": "/approvals"})
            with_cookie = await client.get("/approvals", headers=browser)
            rebinding = await client.get(
                "/api/tools", headers={"Authorization": f"Bearer {token}", "Host": f"evil.example:{port}"}
            )
    assert open_api.status_code == open_page.status_code == 200
    assert api.status_code == mcp.status_code == 401
    assert "API token is required" in api.json()["detail"]
    assert page.status_code == 303
    assert page.headers["location"].startswith("/login?next=")
    assert sign_in.status_code == 200
    assert 'name="token"' in sign_in.text
    assert with_token.status_code == 200
    assert with_token.json() == open_api.json()
    assert signed_in.status_code == 303, signed_in.text
    assert with_cookie.status_code == 200
    assert rebinding.status_code == 421
    assert any("made an API token" in line for line in gateway.log)  # the open start before made none


async def test_serve_shows_the_token_once_then_where_it_is_kept_with_each_clients_lines_and_a_link_that_works_once(
    tmp_path: Path,
) -> None:
    browser = {"Accept": "text/html,application/xhtml+xml"}
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    kept = tmp_path / "data" / "api-token"
    with running_gateway("--demo", "--no-record", env=env) as first:
        assert first.token is not None
        made = "".join(first.log)
    # The start that made the token shows it in full, once, in each client's lines.
    header = f"Authorization: Bearer {first.token}"
    assert f"made an API token, kept in {kept} (readable by this user only)" in made
    assert f"claude mcp add --transport http hintgate {first.mcp_url} --header '{header}'" in made
    entry = {"url": first.mcp_url, "headers": {"Authorization": f"Bearer {first.token}"}}
    assert json.dumps({"mcpServers": {"hintgate": entry}}) in made
    assert json.dumps({"servers": {"hintgate": {"type": "http", **entry}}}) in made
    assert f"Bearer Token: {first.token} (the token alone" in made
    with running_gateway("--demo", "--no-record", env=env) as gateway:
        assert gateway.token == first.token  # read where the start said it is kept
        log = "".join(gateway.log)
        # Later starts say where the token is kept and refer to it: never the token itself.
        assert gateway.token not in log
        assert f"the API token is kept in {kept} (readable by this user only)" in log
        (claude,) = re.findall(r"Claude Code: (.+)", log)
        assert claude.startswith(f"claude mcp add --transport http hintgate {gateway.mcp_url} --header ")
        # The Claude Code line, run by a shell, gives the header with the token.
        said = await anyio.run_process(["sh", "-c", claude.replace("claude mcp add", "printf '%s\\n'", 1)])
        assert said.stdout.decode().splitlines()[-1] == header
        assert '"Authorization": "Bearer TOKEN"' in log
        assert '"Authorization": "Bearer ${input:hintgate-token}"' in log  # VS Code prompts for it
        (link,) = re.findall(r"this link works once\): (\S+)", log)
        assert link.startswith(f"{gateway.base_url}/login?once=")
        async with httpx.AsyncClient(timeout=30) as first_browser, httpx.AsyncClient(timeout=30) as second:
            signed = await first_browser.get(link, headers=browser)
            assert signed.status_code == 303
            page = await first_browser.get(f"{gateway.base_url}/approvals", headers=browser)
            again = await second.get(link, headers=browser)
            refused = await second.get(f"{gateway.base_url}/approvals", headers=browser)
        # What the lines say an MCP client sends is what it needs: the SDK's client connects with it.
        async with Client(gateway.mcp_transport(), mode="legacy") as client:
            listed = await client.list_tools()
    assert page.status_code == 200
    assert again.status_code == 401
    assert "used already" in again.text
    assert refused.status_code == 303  # the second browser is sent to sign in
    assert listed.tools


def test_serve_with_the_token_in_the_environment_says_so_and_never_prints_it(tmp_path: Path) -> None:
    token = "t" * 40
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data"), "HINTGATE_API_TOKEN": token}
    with running_gateway("--demo", "--no-record", env=env) as gateway:
        log = "".join(gateway.log)
    assert gateway.token == token
    assert token not in log
    assert "the API token is the value of HINTGATE_API_TOKEN" in log
    assert '--header "Authorization: Bearer $HINTGATE_API_TOKEN"' in log


@pytest.mark.parametrize(
    ("given", "page"),
    [
        ("/tools/notes_read", "/tools/notes_read"),
        ("/sessions?status=active", "/sessions?status=active"),
        ("//attacker.example/", "/"),
        ("https://attacker.example/", "/"),
        ("/\\attacker.example", "/"),
        ("tools", "/"),
        ("", "/"),
        (None, "/"),
    ],
)
def test_a_sign_in_sends_the_browser_back_only_to_a_page_of_this_gateway(given: str | None, page: str) -> None:
    assert local_page(given) == page
