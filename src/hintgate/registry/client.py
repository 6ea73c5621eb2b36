"""An MCP registry's REST API (`/v0.1/servers`), with the time, size and pages of its answers bounded.

The official registry (`https://registry.modelcontextprotocol.io`) and any other
that speaks its API (an organisation's own) answer the same requests:

- `GET /v0.1/servers?search=Q&version=latest&limit=N&cursor=C`: the latest version of
  each server whose name holds `Q`, a page at a time (`metadata.nextCursor`);
- `GET /v0.1/servers/{name}/versions/latest`: one server's latest server.json.

Its answers are hostile input: each request has `timeout` seconds (connecting,
sending, reading, all told), an answer over `max_bytes` is cut off and refused,
redirects are not followed, a search reads at most `MAX_PAGES` pages and stops
at a cursor it has seen, and every server.json is read by
`hintgate.registry.serverjson` (a bad one in a search is skipped and reported,
one asked for by name is an error naming its JSON path).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from hintgate.config.settings import registry_url_problem
from hintgate.errors import NotInRegistry, RegistryError, ServerJsonError
from hintgate.registry.serverjson import NAME_RE, RegistryServer, read_server, shown_text

__all__ = [
    "MAX_BYTES",
    "MAX_PAGES",
    "MAX_RESULTS",
    "RegistryClient",
    "SearchResult",
]

MAX_BYTES = 4 * 1024 * 1024
"""The largest answer read (a page of 100 server.json is well under 1 MB)."""
MAX_PAGES = 10
"""The most pages one search reads."""
MAX_RESULTS = 100
"""The most servers one search returns."""
_PAGE = 50  # servers asked for per page


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found.

    Attributes:
        servers: the servers, in the registry's order.
        skipped: the server.json the registry answered that hintgate refused, each with its JSON path and why.
        more: whether the registry had more than was read (`limit` reached, or `MAX_PAGES`).
        next_cursor: the cursor that would read on, when `more`.
    """

    servers: list[RegistryServer]
    skipped: list[str] = field(default_factory=list)
    more: bool = False
    next_cursor: str | None = None


class RegistryClient:
    """Requests to one MCP registry.

    Args:
        url: its base URL (`https://registry.modelcontextprotocol.io`).
        timeout: seconds each request may take in all.
        max_bytes: the largest answer read.
        transport: an httpx transport (tests).
    """

    def __init__(self, url: str, *, timeout: float = 15.0, max_bytes: int = MAX_BYTES, transport: Any = None) -> None:
        if (problem := registry_url_problem(url)) is not None:
            raise RegistryError(f"registry URL: {problem}")
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.max_bytes = max_bytes
        self._transport = transport

    async def _get(self, path: str, params: Mapping[str, str] | None = None) -> Any:
        """GET `path` and decode its JSON, bounded; a 404 returns None."""
        import httpx2

        where = f"{self.url}{path}"
        try:
            async with (
                asyncio.timeout(self.timeout),
                httpx2.AsyncClient(
                    timeout=self.timeout,
                    follow_redirects=False,
                    transport=self._transport,
                    headers={"Accept": "application/json"},
                ) as client,
                client.stream("GET", where, params=params) as response,
            ):
                if response.status_code == 404:
                    return None
                if response.status_code != 200:
                    raise RegistryError(f"the registry at {self.url} answered {path} with HTTP {response.status_code}")
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > self.max_bytes:
                        raise RegistryError(
                            f"the registry at {self.url} answered {path} with more than {self.max_bytes} bytes; refused"
                        )
        except TimeoutError:
            raise RegistryError(f"the registry at {self.url} did not answer {path} within {self.timeout:g} s") from None
        except httpx2.HTTPError as exc:
            raise RegistryError(f"cannot reach the registry at {self.url}: {shown_text(str(exc), 200)}") from exc
        try:
            return json.loads(bytes(body))
        except (ValueError, UnicodeDecodeError) as exc:
            raise RegistryError(f"the registry at {self.url} answered {path} with invalid JSON: {exc}") from None

    async def search(self, query: str, *, limit: int = 20, cursor: str | None = None) -> SearchResult:
        """The latest version of each server whose name holds `query`, at most `limit` (up to `MAX_RESULTS`).

        Raises:
            RegistryError: the registry is unreachable, slow, or answered something that is not a server list.
        """
        limit = max(1, min(limit, MAX_RESULTS))
        found: list[RegistryServer] = []
        skipped: list[str] = []
        seen: set[str] = set()
        for _ in range(MAX_PAGES):
            params = {"search": query[:200], "version": "latest", "limit": str(min(_PAGE, limit - len(found)))}
            if cursor:
                params["cursor"] = cursor
            page = await self._get("/v0.1/servers", params)
            if page is None:
                raise RegistryError(
                    f"the registry at {self.url} has no /v0.1/servers (HTTP 404): is it an MCP registry?"
                )
            servers, cursor = _page(page)
            for index, item in enumerate(servers):
                if len(found) >= limit:
                    return SearchResult(found, skipped, more=True, next_cursor=None)
                try:
                    found.append(read_server(item, f"$.servers[{index}]"))
                except ServerJsonError as exc:
                    skipped.append(str(exc))
            if not cursor or len(found) >= limit:
                return SearchResult(found, skipped, more=bool(cursor), next_cursor=cursor or None)
            if cursor in seen:
                raise RegistryError(f"the registry at {self.url} answered a cursor it had answered before")
            seen.add(cursor)
        return SearchResult(found, skipped, more=True, next_cursor=cursor)

    async def server(self, name: str) -> RegistryServer:
        """The latest server.json of the server called `name`.

        Raises:
            RegistryError: `name` is no registry name, the registry does not have it, or cannot be reached.
            ServerJsonError: its server.json lacks a field or holds what hintgate refuses (the JSON path says where).
        """
        if not (3 <= len(name) <= 200) or not NAME_RE.fullmatch(name):
            raise NotInRegistry(f"{name!r} is not a registry server name (namespace/name, as `registry search` lists)")
        found = await self._get(f"/v0.1/servers/{quote(name, safe='')}/versions/latest")
        if found is None:
            raise NotInRegistry(f"{name} not found in the registry at {self.url} (try `hintgate registry search`)")
        server = read_server(found)
        if server.name != name:
            raise ServerJsonError(
                "$.server.name", f"the registry answered {shown_text(server.name, 80)!r}, not {name!r}"
            )
        return server


def _page(page: Any) -> tuple[list[Any], str | None]:
    """A page's servers and its next cursor."""
    if not isinstance(page, Mapping) or not isinstance(page.get("servers"), list):
        raise ServerJsonError("$.servers", "missing (required): the registry did not answer a server list")
    metadata = page.get("metadata")
    cursor = metadata.get("nextCursor") if isinstance(metadata, Mapping) else None
    if cursor is not None and (not isinstance(cursor, str) or len(cursor) > 1024):
        raise ServerJsonError("$.metadata.nextCursor", "expected a cursor string of at most 1024 characters")
    return page["servers"], cursor
