"""A small MCP registry on 127.0.0.1 for tests: the `/v0.1/servers` API over server.json documents.

It serves the server.json of packages installable here (`mcp-server-time` from
PyPI, `@modelcontextprotocol/server-memory` from npm, as `tests/peers` pins
it) and of a remote, pages its search with an opaque cursor, records the
requests it got, and can be told to misbehave (`mode`): answer too much, too
slowly, garbage, or the same cursor again.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

PEERS = Path(__file__).parent / "peers"
NODE_MODULES = PEERS / "node_modules"
"""The npm MCP servers scripts/test installs (tests/peers): a trial runs server-memory from here, no download."""
MEMORY_VERSION = json.loads((PEERS / "package.json").read_text())["dependencies"]["@modelcontextprotocol/server-memory"]


def time_version() -> str:
    from importlib.metadata import version

    return version("mcp-server-time")


TIME = "io.github.modelcontextprotocol/server-time"
MEMORY = "io.github.modelcontextprotocol/server-memory"
WEATHER = "com.example/weather"


def server_json() -> dict[str, dict[str, Any]]:
    """Name → server.json of the servers the test registry holds."""
    return {
        TIME: {
            "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
            "name": TIME,
            "title": "Time",
            "description": "Time and time zone conversion for LLMs",
            "version": time_version(),
            "repository": {"url": "https://github.com/modelcontextprotocol/servers", "source": "github"},
            "packages": [
                {
                    "registryType": "pypi",
                    "registryBaseUrl": "https://pypi.org",
                    "identifier": "mcp-server-time",
                    "version": time_version(),
                    "runtimeHint": "uvx",
                    "transport": {"type": "stdio"},
                    "packageArguments": [
                        {
                            "type": "named",
                            "name": "--local-timezone",
                            "description": "The IANA time zone to use when none is named",
                            "default": "UTC",
                        }
                    ],
                }
            ],
        },
        MEMORY: {
            "name": MEMORY,
            "description": "Knowledge graph-based persistent memory",
            "version": MEMORY_VERSION,
            "packages": [
                {
                    "registryType": "npm",
                    "registryBaseUrl": "https://registry.npmjs.org",
                    "identifier": "@modelcontextprotocol/server-memory",
                    "version": MEMORY_VERSION,
                    "transport": {"type": "stdio"},
                    "environmentVariables": [
                        {"name": "MEMORY_FILE_PATH", "description": "Where the knowledge graph is kept (a file)"}
                    ],
                }
            ],
        },
        WEATHER: {
            "name": WEATHER,
            "description": "Weather forecasts",
            "version": "2.1.0",
            "remotes": [
                {
                    "type": "streamable-http",
                    "url": "https://weather.example/{region}/mcp",
                    "headers": [
                        {"name": "X-API-Key", "description": "Your API key", "isRequired": True, "isSecret": True},
                        {"name": "X-Units", "default": "metric"},
                    ],
                    "variables": {"region": {"description": "Where", "default": "eu"}},
                }
            ],
        },
    }


def response(document: Mapping[str, Any], status: str = "active") -> dict[str, Any]:
    """A `ServerResponse`: the server.json and the registry's own `_meta`."""
    official = {"status": status, "publishedAt": "2026-01-02T03:04:05Z", "isLatest": True}
    return {"server": dict(document), "_meta": {"io.modelcontextprotocol.registry/official": official}}


@dataclass
class RegistryPeer:
    """The registry's URL, what it holds, how it misbehaves, and the requests it got."""

    url: str = ""
    servers: dict[str, dict[str, Any]] = field(default_factory=server_json)
    statuses: dict[str, str] = field(default_factory=dict)
    mode: str = "normal"
    """normal, huge (an answer over any cap), slow (answers after 30 s), garbage (not JSON), loop (same cursor)."""
    page_size: int = 2
    requests: list[tuple[str, dict[str, list[str]]]] = field(default_factory=list)

    def answer(self, path: str, query: dict[str, list[str]]) -> tuple[int, bytes]:
        self.requests.append((path, query))
        if self.mode == "slow":
            time.sleep(30)
        if self.mode == "huge":
            return 200, b'{"servers": [' + b'{"x": "' + b"y" * (6 * 1024 * 1024) + b'"}]}'
        if self.mode == "garbage":
            return 200, b"<html>not json</html>"
        if path == "/v0.1/servers":
            wanted = query.get("search", [""])[0]
            names = sorted(n for n in self.servers if wanted in n)
            start = int(query.get("cursor", ["0"])[0] or 0)
            size = min(self.page_size, int(query.get("limit", ["50"])[0]))
            page = names[start : start + size]
            more = start + size < len(names)
            cursor = ("0" if self.mode == "loop" else str(start + size)) if more else None
            body = {
                "servers": [response(self.servers[n], self.statuses.get(n, "active")) for n in page],
                "metadata": {"count": len(page), **({"nextCursor": cursor} if cursor else {})},
            }
            return 200, json.dumps(body).encode()
        prefix, suffix = "/v0.1/servers/", "/versions/latest"
        if path.startswith(prefix) and path.endswith(suffix):
            name = unquote(path[len(prefix) : -len(suffix)])
            if name in self.servers:
                return 200, json.dumps(response(self.servers[name], self.statuses.get(name, "active"))).encode()
            return 404, b'{"error": "Server not found"}'
        return 404, b'{"error": "not found"}'


@contextmanager
def running_registry() -> Iterator[RegistryPeer]:
    """A registry on a free port of 127.0.0.1, until the block ends."""
    peer = RegistryPeer()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            try:
                status, body = peer.answer(parts.path, parse_qs(parts.query, keep_blank_values=True))
            except (BrokenPipeError, ConnectionResetError):
                return
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            # The client gives up on a huge or slow answer, as it should.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    peer.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield peer
    finally:
        server.shutdown()
        server.server_close()
