"""OpenAPI documents as a source: the document read once, each operation a tool, calls over HTTP.

The document is read from a file or fetched from a URL when the source starts
(`hintgate.sources.openapi.convert` turns it into tools); the source is up once it has
loaded, and down with the reason when it cannot be read, while the gateway
keeps serving its other sources (a failed load is retried with backoff).

Calls go through one pooled `httpx2.AsyncClient` per source (httpx2 is the
HTTP client the MCP SDK itself depends on, so no second HTTP stack is
installed). Arguments are placed per the operation: path parameters
percent-encoded, query and header arrays and objects serialized per the
parameter's `style` and `explode`, bodies sent as JSON, form or multipart.
The answer becomes a `CallToolResult`: a 2xx JSON answer as text and, when it
is an object, as `structuredContent`; any other status as `isError` with the
status and the first `ERROR_BODY_LIMIT` characters of the body.

Credentials (the configured auth and header values) are replaced by `***`
wherever they could surface: error messages, log lines and tool results (an
API that echoes its request back would otherwise hand them to the model).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from hintgate.config.model import OpenApiConfig
from hintgate.errors import (
    HintgateError,
    TargetError,
    UpstreamError,
    UpstreamTimeout,
)
from hintgate.hints.annotations import ParsedAnnotations, parse_annotations
from hintgate.redaction import Redactor
from hintgate.results import tool_error
from hintgate.sources.base import (
    CallContext,
    ChangeListener,
    ConfiguredSource,
    ToolFacts,
)
from hintgate.sources.openapi.convert import ToolSet, build_tools, decode_document
from hintgate.sources.openapi.operations import Operation
from hintgate.sources.openapi.serialization import PreparedRequest, encode, prepare_request
from hintgate.tracecontext import trace_headers

__all__ = [
    "ERROR_BODY_LIMIT",
    "OpenApiSource",
    "fetch_document",
    "load_toolset",
]

logger = logging.getLogger(__name__)

ERROR_BODY_LIMIT = 2000
"""Characters of a non-2xx answer's body kept in the error result."""

_REDACTED = "***"
_DOCUMENT_LIMIT = 64 * 1024 * 1024


# ---------------------------------------------------------------- loading


def _is_url(location: str) -> bool:
    return urlsplit(location).scheme in {"http", "https"}


async def fetch_document(location: str, *, timeout: float = 30.0, headers: Mapping[str, str] | None = None) -> bytes:
    """The bytes of a document: a file read, or an http(s) URL fetched.

    Raises:
        TargetError: it cannot be read or fetched (the message names it).
    """
    if not _is_url(location):
        try:
            return await asyncio.to_thread(Path(location).read_bytes)
        except FileNotFoundError as exc:
            raise TargetError(f"{location}: no such file") from exc
        except IsADirectoryError as exc:
            raise TargetError(f"{location}: is a directory, not an OpenAPI document") from exc
        except OSError as exc:
            raise TargetError(f"{location}: cannot read: {exc.strerror or exc}") from exc
    import httpx2

    try:
        async with httpx2.AsyncClient(timeout=timeout, follow_redirects=True, headers=dict(headers or {})) as client:
            response = await client.get(location)
    except httpx2.HTTPError as exc:
        raise TargetError(f"{_display(location)}: cannot fetch: {type(exc).__name__}") from None
    if response.status_code >= 400:
        raise TargetError(f"{_display(location)}: fetching it answered HTTP {response.status_code}")
    if len(response.content) > _DOCUMENT_LIMIT:
        raise TargetError(f"{_display(location)}: over {_DOCUMENT_LIMIT // (1024 * 1024)} MB")
    return response.content


def _display(location: str) -> str:
    """A location for messages: a URL without its query (API keys travel there) or credentials."""
    if not _is_url(location):
        return location
    parts = urlsplit(location)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


async def load_toolset(config: OpenApiConfig) -> ToolSet:
    """Read a source's document and convert the operations its include / exclude select.

    Raises:
        TargetError: the document cannot be read or is not an OpenAPI document.
    """
    data = await fetch_document(config.document, timeout=config.startup_timeout)
    label = _display(config.document)
    decoded = await asyncio.to_thread(decode_document, data, source=label)

    def select(method: str, path: str, op: Mapping[str, Any]) -> bool:
        tags = op.get("tags")
        return config.selects(method, path, [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else [])

    return await asyncio.to_thread(build_tools, decoded, source=label, naming=config.naming, select=select)


def base_url_of(config: OpenApiConfig, toolset: ToolSet) -> str | None:
    """Where calls go: the configured base URL, else the document's first server (made absolute)."""
    if config.base_url:
        return config.base_url
    for server in toolset.servers:
        if _is_url(server):
            return server
        if _is_url(config.document):
            return urljoin(config.document, server)
    return None


def _is_text(content_type: str) -> bool:
    low = content_type.lower()
    return low.startswith("text/") or any(t in low for t in ("json", "xml", "javascript", "yaml", "x-www-form"))


def answer_to_result(
    status: int,
    reason: str,
    content_type: str,
    body: bytes,
    *,
    method: str,
    headers: Mapping[str, str] | None = None,
    expects_object: bool = False,
) -> dict[str, Any]:
    """The `CallToolResult` JSON for an HTTP answer (before secrets are scrubbed).

    Args:
        status: the HTTP status code.
        reason: its reason phrase.
        content_type: the answer's Content-Type.
        body: the answer's body.
        method: the request's method (a HEAD answer is summarized by its headers).
        headers: the answer's headers.
        expects_object: the tool has an output schema, so a 2xx answer must be a
            JSON object; one that is not is reported as an error (clients
            reject a result that lacks the structured content its schema promises).
    """
    ok = 200 <= status < 300
    text = body.decode("utf-8", "replace") if body and (_is_text(content_type) or not content_type) else None
    if ok and expects_object:
        parsed: Any = None
        with contextlib.suppress(ValueError):
            parsed = json.loads(text) if text is not None else None
        if not isinstance(parsed, dict):
            shown = (text or "")[:ERROR_BODY_LIMIT] or f"({len(body)} bytes of {content_type or 'no type'})"
            message = f"HTTP {status} {reason}: the answer is not the JSON object the document describes: {shown}"
            return tool_error(message)
    if not ok:
        shown = (text or "")[:ERROR_BODY_LIMIT]
        cut = "…" if text is not None and len(text) > ERROR_BODY_LIMIT else ""
        message = f"HTTP {status} {reason}".rstrip() + (f": {shown}{cut}" if shown else "")
        return tool_error(message)
    if method == "HEAD" or not body:
        summary = {"status": status, "headers": dict(headers or {})} if method == "HEAD" else {"status": status}
        return {
            "content": [{"type": "text", "text": json.dumps(summary)}],
            "structuredContent": summary,
            "isError": False,
        }
    if text is not None:
        result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
        if "json" in content_type.lower() or text.lstrip()[:1] in {"{", "["}:
            with contextlib.suppress(ValueError):
                parsed = json.loads(text)
                if isinstance(parsed, dict):
                    result["structuredContent"] = parsed
        return result
    encoded = base64.b64encode(body).decode()
    kind = content_type.split("/", 1)[0].lower()
    if kind in {"image", "audio"}:
        return {"content": [{"type": kind, "data": encoded, "mimeType": content_type}], "isError": False}
    blob = {"uri": "http-response:body", "mimeType": content_type or "application/octet-stream", "blob": encoded}
    return {"content": [{"type": "resource", "resource": blob}], "isError": False}


class _SecretFilter(logging.Filter):
    """Scrubs credentials from the HTTP client's own log lines (it logs every URL, API-key queries included)."""

    def __init__(self) -> None:
        super().__init__()
        self.secrets: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secrets:
            message = record.getMessage()
            scrubbed = Redactor(self.secrets).text(message)
            if scrubbed != message:
                record.msg, record.args = scrubbed, ()
        return True


_LOG_FILTER = _SecretFilter()


# ---------------------------------------------------------------- the source


class OpenApiSource(ConfiguredSource):
    """An OpenAPI document served as tools: loaded at start, each call one HTTP request."""

    def __init__(self, config: OpenApiConfig, *, listener: ChangeListener | None = None) -> None:
        super().__init__(config, listener=listener)
        self.config: OpenApiConfig = config
        self._secrets = config.secrets()
        self._redact = Redactor(self._secrets)
        _LOG_FILTER.secrets.update(self._secrets)
        for logger_name in ("httpx2", "httpcore2"):
            logging.getLogger(logger_name).addFilter(_LOG_FILTER)  # a no-op when added already
        self.toolset: ToolSet | None = None
        self._operations: dict[str, Operation] = {}
        self._declared: dict[str, ParsedAnnotations | None] = {}
        self._base_url: str | None = None
        self._client: Any = None

    def wants(self, tool_name: str) -> bool:
        """Whether include / exclude tool globs let a tool through (tags, paths, methods were applied at load)."""
        op = self._operations.get(tool_name)
        return self.config.wants(tool_name, op.operation_id if op else None)

    def tool_facts(self, raw: Mapping[str, Any]) -> ToolFacts:
        """The operation's `x-mcp-annotations`, its HTTP method, and the config's overrides by name or operationId."""
        name = str(raw.get("name", ""))
        op = self._operations.get(name)
        override = self.config.override_for(name, op.operation_id if op else None)
        return ToolFacts(
            declared=self._declared.get(name),
            http_method=op.method if op else None,
            overrides=override.hints if override else {},
            title=override.title if override else None,
        )

    def _install(self, toolset: ToolSet) -> None:
        self.toolset = toolset
        self._operations = {op.name: op for op in toolset.operations}
        self._declared = {}
        for op in toolset.operations:
            try:
                parsed = parse_annotations(op.declared, tool=op.name) if op.declared is not None else None
            except HintgateError:
                parsed = None
            self._declared[op.name] = parsed
        self.tools = [dict(op.tool) for op in toolset.operations]
        self._base_url = base_url_of(self.config, toolset)
        for problem in toolset.skipped:
            logger.warning("%s: %s: %s: operation skipped", self.name, toolset.source, problem)
        for problem in toolset.warnings:  # what a person should look at, as a skip is: the same level
            logger.warning("%s: %s: %s", self.name, toolset.source, problem)

    async def run(self) -> None:
        """Load the document (retrying with backoff while it fails), then hold the HTTP client until cancelled."""
        await self.supervise(self._load_and_serve, verb="retrying")

    async def _load_and_serve(self) -> str:
        """Load the document and serve its operations until cancelled; returns why the load failed."""
        import httpx2

        try:
            async with asyncio.timeout(self.config.startup_timeout):
                toolset = await load_toolset(self.config)
        except (TargetError, TimeoutError) as exc:
            reason = str(exc) if isinstance(exc, TargetError) else "reading the document timed out"
            return self._redact.text(reason)
        self._install(toolset)
        limits = httpx2.Limits(max_connections=100, max_keepalive_connections=20)
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(self.config.call_timeout), limits=limits) as client:
            self._client = client
            await self.started()
            try:
                await asyncio.Event().wait()
            finally:
                self._client = None
        raise AssertionError("an OpenAPI source serves until it is cancelled")

    def _authorize(self, request: PreparedRequest) -> None:
        for key, value in self.config.headers.items():
            request.headers.setdefault(key, value)
        auth = self.config.auth
        if auth is None:
            return
        if auth.kind == "bearer":
            request.headers["Authorization"] = f"Bearer {auth.value}"
        elif auth.kind == "basic":
            pair = base64.b64encode(f"{auth.username}:{auth.password}".encode()).decode()
            request.headers["Authorization"] = f"Basic {pair}"
        elif auth.location == "header":
            request.headers[auth.name] = auth.value
        elif auth.location == "query":
            request.url += ("&" if "?" in request.url else "?") + f"{encode(auth.name)}={encode(auth.value)}"
        else:
            cookie = f"{auth.name}={quote(auth.value, safe='')}"
            existing = request.headers.get("Cookie")
            request.headers["Cookie"] = f"{existing}; {cookie}" if existing else cookie

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None, *, meta: Mapping[str, Any] | None, context: CallContext
    ) -> dict[str, Any]:
        """Call an operation: one HTTP request, its answer as a `CallToolResult`.

        Raises:
            UpstreamDown: the document has not loaded.
            UpstreamTimeout: no answer within the call timeout.
            UpstreamError: the request could not be sent (connection refused, DNS...).
        """
        client = self.serving(self._client)
        operation = self._operations.get(name)
        if operation is None:
            raise UpstreamError(f"has no tool {name!r}", server=self.name)
        if self._base_url is None:
            return tool_error(
                f"{self.name}: the document names no server URL; set baseUrl for this source in the config"
            )
        request = prepare_request(operation, arguments, self._base_url)
        if request.problems:
            return tool_error("; ".join(request.problems))
        self._authorize(request)
        import httpx2

        where = f"{operation.method} {operation.path}"
        try:
            response = await client.request(
                request.method,
                request.url,
                headers={**request.headers, **trace_headers()},
                content=request.content,
                files=request.files,
            )
        except httpx2.TimeoutException:
            raise UpstreamTimeout(
                f"{where} got no answer within {self.config.call_timeout:g} s", server=self.name
            ) from None
        except (httpx2.HTTPError, httpx2.InvalidURL) as exc:
            detail = self._redact.text(f"{where} failed: {type(exc).__name__}: {exc}")
            raise UpstreamError(detail, server=self.name) from None
        result = answer_to_result(
            response.status_code,
            response.reason_phrase,
            response.headers.get("content-type", ""),
            response.content,
            method=operation.method,
            headers={k: v for k, v in response.headers.items() if k.lower() not in {"set-cookie"}},
            expects_object="outputSchema" in operation.tool,
        )
        scrubbed: dict[str, Any] = self._redact.value(result)
        return scrubbed
