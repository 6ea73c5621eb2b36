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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from hintgate.config.model import OpenApiConfig
from hintgate.errors import (
    HintgateError,
    TargetError,
    UpstreamError,
    UpstreamRequestError,
    UpstreamTimeout,
)
from hintgate.hints.annotations import ParsedAnnotations, parse_annotations
from hintgate.redaction import Redactor
from hintgate.results import tool_error
from hintgate.sources.base import (
    Backoff,
    CallContext,
    ChangeListener,
    ConfiguredSource,
    SourceState,
    SourceStatus,
    ToolFacts,
)
from hintgate.sources.openapi.convert import Body, Operation, Parameter, ToolSet, build_tools, decode_document
from hintgate.tracecontext import trace_headers

__all__ = [
    "ERROR_BODY_LIMIT",
    "OpenApiSource",
    "PreparedRequest",
    "fetch_document",
    "load_toolset",
    "prepare_request",
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


# ---------------------------------------------------------------- requests


@dataclass
class PreparedRequest:
    """An HTTP request built from a tool's arguments, before auth is added.

    Attributes:
        method: the HTTP method.
        url: the absolute URL, query string included and encoded.
        headers: header values.
        content: the encoded body, if any.
        files: multipart parts (name, (filename, value, content type)), if any.
        problems: arguments that are missing or unusable; the request is not sent when there are any.
    """

    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    content: bytes | None = None
    files: list[tuple[str, tuple[str | None, bytes | str, str | None]]] | None = None
    problems: list[str] = field(default_factory=list)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def _enc(value: Any, *, reserved: bool = False) -> str:
    return quote(_text(value), safe="!$&'()*+,;=:@/?" if reserved else "")


def _pairs(value: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    return ((str(k), v) for k, v in value.items() if v is not None)


def serialize_path(param: Parameter, value: Any) -> str:
    """A path parameter's value per its style (simple, label, matrix) and explode, percent-encoded."""
    name, style, explode = param.name, param.style, param.explode
    if isinstance(value, list):
        items = [_enc(v) for v in value]
        if style == "label":
            return "." + ("." if explode else ",").join(items)
        if style == "matrix":
            return "".join(f";{name}={i}" for i in items) if explode else f";{name}=" + ",".join(items)
        return ",".join(items)
    if isinstance(value, Mapping):
        pairs = [(_enc(k), _enc(v)) for k, v in _pairs(value)]
        if explode:
            joined = [f"{k}={v}" for k, v in pairs]
            if style == "label":
                return "." + ".".join(joined)
            if style == "matrix":
                return "".join(f";{j}" for j in joined)
            return ",".join(joined)
        flat = ",".join(f"{k},{v}" for k, v in pairs)
        return {"label": f".{flat}", "matrix": f";{name}={flat}"}.get(style, flat)
    single = _enc(value)
    return {"label": f".{single}", "matrix": f";{name}={single}"}.get(style, single)


_DELIMITERS = {"spaceDelimited": "%20", "pipeDelimited": "%7C", "tabDelimited": "%09"}


def serialize_query(param: Parameter, value: Any) -> list[str]:
    """A query parameter as encoded `name=value` pieces, per its style and explode."""
    reserved = param.allow_reserved
    name = _enc(param.name)
    if param.as_json:
        return [f"{name}={_enc(json.dumps(value, separators=(',', ':')))}"]
    if isinstance(value, list):
        items = [_enc(v, reserved=reserved) for v in value if v is not None]
        if param.style in _DELIMITERS:
            return [f"{name}=" + _DELIMITERS[param.style].join(items)]
        if param.explode:
            return [f"{name}={i}" for i in items]
        return [f"{name}=" + ",".join(items)]
    if isinstance(value, Mapping):
        if param.style == "deepObject":
            return [f"{name}%5B{_enc(k)}%5D={_enc(v, reserved=reserved)}" for k, v in _pairs(value)]
        if param.explode:
            return [f"{_enc(k)}={_enc(v, reserved=reserved)}" for k, v in _pairs(value)]
        return [f"{name}=" + ",".join(f"{_enc(k)},{_enc(v, reserved=reserved)}" for k, v in _pairs(value))]
    return [f"{name}={_enc(value, reserved=reserved)}"]


def serialize_header(param: Parameter, value: Any) -> str:
    """A header (or cookie) value: arrays comma-joined, objects as `k,v` or `k=v` pairs."""
    if param.as_json:
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, list):
        return ",".join(_text(v) for v in value)
    if isinstance(value, Mapping):
        sep = "=" if param.explode else ","
        return ",".join(f"{k}{sep}{_text(v)}" for k, v in _pairs(value))
    return _text(value)


def _form_pairs(body: Body, values: Mapping[str, Any]) -> list[str]:
    """`application/x-www-form-urlencoded` pieces: arrays repeat their key, objects go deep (`k[sub]=v`)."""
    out: list[str] = []

    def deep(prefix: str, value: Any) -> None:
        if isinstance(value, Mapping):
            for k, v in _pairs(value):
                deep(f"{prefix}[{k}]", v)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                deep(f"{prefix}[{i}]", v)
        else:
            out.append(f"{quote(prefix, safe='')}={_enc(value)}")

    for key, value in values.items():
        if value is None:
            continue
        style, explode = body.encoding.get(key, ("form", True))
        if style == "deepObject" or isinstance(value, Mapping):
            deep(key, value)
        elif isinstance(value, list):
            if explode and style == "form":
                out.extend(f"{_enc(key)}={_enc(v)}" for v in value)
            else:
                out.append(f"{_enc(key)}=" + _DELIMITERS.get(style, ",").join(_enc(v) for v in value))
        else:
            out.append(f"{_enc(key)}={_enc(value)}")
    return out


def prepare_request(operation: Operation, arguments: Mapping[str, Any] | None, base_url: str) -> PreparedRequest:
    """Build the HTTP request for a call of `operation` with `arguments` (no auth yet)."""
    args = dict(arguments or {})
    request = PreparedRequest(operation.method, "")
    path = operation.path
    query: list[str] = []
    cookies: list[str] = []
    for param in operation.parameters:
        value = args.get(param.arg)
        if value is None:
            if param.required:
                request.problems.append(f"missing required argument {param.arg!r} ({param.location} parameter)")
            continue
        if param.location == "path":
            path = path.replace("{" + param.name + "}", serialize_path(param, value))
        elif param.location == "query":
            query.extend(serialize_query(param, value))
        elif param.location == "header":
            request.headers[param.name] = serialize_header(param, value)
        else:
            cookies.append(f"{param.name}={quote(serialize_header(param, value), safe='')}")
    if cookies:
        request.headers["Cookie"] = "; ".join(cookies)
    body = operation.body
    if body is not None:
        _place_body(request, body, args)
    request.url = base_url.rstrip("/") + "/" + path.lstrip("/")
    if query:
        request.url += ("&" if "?" in request.url else "?") + "&".join(query)
    return request


def _place_body(request: PreparedRequest, body: Body, args: Mapping[str, Any]) -> None:
    if body.arg is not None:
        value = args.get(body.arg)
        if value is None:
            if body.required:
                request.problems.append(f"missing required argument {body.arg!r} (the request body)")
            return
    else:
        # An explicit null is kept: in a JSON PATCH it clears the field.
        value = {k: args[k] for k in body.fields if k in args}
        if not value and not body.required:
            return
    media = body.media_type
    low = media.lower()
    if "json" in low or low in {"*/*", "application/*"}:
        request.headers["Content-Type"] = "application/json" if "*" in low else media
        request.content = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    elif low == "application/x-www-form-urlencoded":
        if not isinstance(value, Mapping):
            request.problems.append("the form body must be an object")
            return
        request.headers["Content-Type"] = media
        request.content = "&".join(_form_pairs(body, value)).encode()
    elif low == "multipart/form-data":
        if not isinstance(value, Mapping):
            request.problems.append("the multipart body must be an object")
            return
        parts: list[tuple[str, tuple[str | None, bytes | str, str | None]]] = []
        for key, item in value.items():
            if key in body.binary:
                data = item.encode() if isinstance(item, str) else _text(item).encode()
                parts.append((key, (key, data, "application/octet-stream")))
            else:
                for each in item if isinstance(item, list) else [item]:
                    parts.append((key, (None, _text(each), None)))
        request.files = parts
    else:
        request.headers["Content-Type"] = media
        request.content = value.encode() if isinstance(value, str) else _text(value).encode()


# ---------------------------------------------------------------- answers


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
        for problem in toolset.warnings:
            logger.info("%s: %s: %s", self.name, toolset.source, problem)

    async def run(self) -> None:
        """Load the document (retrying with backoff while it fails), then hold the HTTP client until cancelled."""
        if not self.config.enabled:
            self._first_attempt.set()
            return
        import httpx2

        backoff = Backoff()
        while True:
            try:
                toolset = await asyncio.wait_for(load_toolset(self.config), self.config.startup_timeout)
                break
            except (TargetError, TimeoutError) as exc:
                reason = str(exc) if isinstance(exc, TargetError) else "reading the document timed out"
                reason = self._redact.text(reason)
            delay = backoff.next_delay()
            await self.wait_to_retry(reason, delay, restarts=backoff.failures - 1, verb="retrying")
        self._install(toolset)
        limits = httpx2.Limits(max_connections=100, max_keepalive_connections=20)
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(self.config.call_timeout), limits=limits) as client:
            self._client = client
            self._first_attempt.set()
            await self._set_status(SourceStatus(SourceState.UP, restarts=backoff.failures))
            try:
                await asyncio.Event().wait()
            finally:
                self._client = None

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
            request.url += ("&" if "?" in request.url else "?") + f"{_enc(auth.name)}={_enc(auth.value)}"
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
        client = self._client
        if client is None or self._status.state is not SourceState.UP:
            raise self.unavailable()
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

    async def request(self, method: str, params: dict[str, Any] | None, *, context: CallContext) -> dict[str, Any]:
        """An OpenAPI source has tools only."""
        raise UpstreamRequestError(f"{method} is not supported by an OpenAPI source", code=-32601, server=self.name)
