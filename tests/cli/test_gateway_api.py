"""The REST client `hintgate servers` and `hintgate quarantine` share: token, headers, errors, exit codes."""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.web.auth import TOKEN_FILE, load_or_create_token


class Canned:
    """A plain HTTP server answering every request with one status and JSON body; it keeps what it was sent."""

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.body = body
        self.seen: list[tuple[str, str, dict[str, str]]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Canned:
        canned = self

        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                self.rfile.read(length)
                canned.seen.append((self.command, self.path, dict(self.headers)))
                data = json.dumps(canned.body).encode()
                self.send_response(canned.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = answer

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), env={"HINTGATE_API_TOKEN": None})


def test_the_token_the_gateway_keeps_in_its_data_directory_is_sent_by_both_commands() -> None:
    token, _ = load_or_create_token(Path(os.environ["HINTGATE_DATA_DIR"]))
    assert (Path(os.environ["HINTGATE_DATA_DIR"]) / TOKEN_FILE).exists()
    with Canned(200, []) as gateway:
        assert run("quarantine", "list", "--url", gateway.url).exit_code == 0
        assert run("servers", "list", "--url", gateway.url).exit_code == 0
    for _, _, headers in gateway.seen:
        assert headers["Authorization"] == f"Bearer {token}"
        assert headers["X-Hintgate-Request"] == "1"


def test_a_token_given_wins_over_the_kept_one_and_none_at_all_sends_only_the_write_header() -> None:
    load_or_create_token(Path(os.environ["HINTGATE_DATA_DIR"]))
    with Canned(200, {"name": "calc_add", "fingerprint": "ab"}) as gateway:
        run("quarantine", "accept", "calc_add", "--url", gateway.url, "--token", "given-" + "t" * 30)
    [(method, path, headers)] = gateway.seen
    assert (method, path) == ("POST", "/api/quarantine/calc_add/accept")
    assert headers["Authorization"] == "Bearer given-" + "t" * 30
    (Path(os.environ["HINTGATE_DATA_DIR"]) / TOKEN_FILE).unlink()
    with Canned(200, []) as gateway:
        run("quarantine", "list", "--url", gateway.url)
    [(_, _, headers)] = gateway.seen
    assert "Authorization" not in headers
    assert headers["X-Hintgate-Request"] == "1"


@pytest.mark.parametrize(("status", "code"), [(401, 2), (403, 2), (404, 2), (409, 2), (500, 3), (503, 3)], ids=str)
@pytest.mark.parametrize("command", [["quarantine", "list"], ["servers", "list"]], ids=" ".join)
def test_an_error_answer_is_one_line_naming_the_request_with_usage_or_target_exit_code(
    command: list[str], status: int, code: int
) -> None:
    with Canned(status, {"detail": "what went wrong"}) as gateway:
        result = run(*command, "--url", gateway.url)
    path = "/api/quarantine" if command[0] == "quarantine" else "/api/servers"
    assert result.exit_code == code
    assert f"error: GET {path}: {status}: what went wrong" in result.output


def test_a_refused_server_lists_each_field_error_where_it_is() -> None:
    errors = {"detail": "invalid", "errors": [{"loc": ["body", "command"], "msg": "field required"}]}
    with Canned(422, errors) as gateway:
        result = run("servers", "add", "x", "--url", gateway.url, "--", "node")
    assert result.exit_code == 2
    assert "the gateway refused the server:" in result.output
    assert "body.command: field required" in result.output


def test_a_quarantine_command_whose_gateway_does_not_answer_is_exit_3_naming_its_url() -> None:
    with Canned(200, []) as gateway:
        url = gateway.url
    result = run("quarantine", "list", "--url", url)
    assert result.exit_code == 3
    assert f"cannot reach the gateway at {url}" in result.output


@pytest.mark.parametrize(
    ("trust", "said"),
    [
        (
            {"trust": "untrusted", "trust_from": "origin"},
            "notes: untrusted (the default for where it runs): a declared hint counts only when it makes the tool "
            "look riskier",
        ),
        ({"trust": "trusted", "trust_from": "config"}, "notes: trusted (set in the config file): its declared hints"),
        (
            {"trust": "local", "trust_from": "origin"},
            "notes: local (the default for where it runs): a declared hint counts unless strong evidence",
        ),
    ],
)
def test_servers_add_says_the_trust_the_new_server_got_and_what_it_means(trust: dict[str, str], said: str) -> None:
    server = {
        "name": "notes",
        "kind": "mcp",
        **trust,
        "prefix": "notes",
        "status": {"state": "up"},
        "tools": 3,
        "tiers": {},
    }
    answer = {"server": server, "diff": {"unchanged": []}, "warnings": [], "persisted": True}
    with Canned(201, answer) as gateway:
        result = run("servers", "add", "notes", "--url", gateway.url, "--", "python", "-m", "hintgate.demo")
    assert result.exit_code == 0, result.output
    assert "added server 'notes': up, 3 tools" in result.stdout
    assert said in " ".join(result.stdout.split())


def test_servers_list_fits_80_columns_and_shows_every_cell_whole_with_wide() -> None:
    reason = "command 'definitely-not-installed' was not found on PATH: install it, or give its full path"
    row = {
        "name": "a-server-with-a-long-name",
        "status": {"state": "down", "reason": reason},
        "tools": 0,
        "origin": "runtime",
        "change": {"action": "add", "changed_at": "2026-01-01T00:00:00Z", "changed_by": "someone@example.com"},
    }
    with Canned(200, [row]) as gateway:
        fitted = CliRunner().invoke(app, ["servers", "list", "--url", gateway.url], env={"COLUMNS": "80"})
        wide = CliRunner().invoke(app, ["servers", "list", "--wide", "--url", gateway.url], env={"COLUMNS": "80"})
    assert fitted.exit_code == 0, fitted.output
    assert max(len(line) for line in fitted.output.splitlines()) <= 80
    assert "a-server-with-a-long-name" in fitted.output
    assert wide.exit_code == 0, wide.output
    assert reason in wide.output
    assert "add by someone@example.com" in wide.output


def test_servers_list_says_who_made_each_runtime_change() -> None:
    row = {
        "name": "docs",
        "status": {"state": "up", "reason": None},
        "tools": 3,
        "origin": "runtime",
        "change": {"action": "add", "changed_at": "2026-01-01T00:00:00Z", "changed_by": "carol@example.com"},
    }
    with Canned(200, [row]) as gateway:
        listed = CliRunner().invoke(app, ["servers", "list", "--url", gateway.url], env={"COLUMNS": "80"})
    assert listed.exit_code == 0, listed.output
    assert "add by" in listed.output
    assert "carol@example.com" in listed.output.replace("\n", "").replace(" ", "")
