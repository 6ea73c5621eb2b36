"""HTTP requests from a tool's arguments: OpenAPI parameter styles and request bodies.

Path, query, header and cookie parameters are serialized by their `style` and
`explode` (RFC 6570 forms as OpenAPI defines them); bodies as JSON, form
fields or multipart. Pure: no network; `hintgate.sources.openapi.source`
sends what this builds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from hintgate.sources.openapi.operations import Body, Operation, Parameter

__all__ = ["PreparedRequest", "encode", "prepare_request", "serialize_header", "serialize_path", "serialize_query"]


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


def encode(value: Any, *, reserved: bool = False) -> str:
    """Percent-encode a value for a URL (reserved characters kept when `reserved`)."""
    return quote(_text(value), safe="!$&'()*+,;=:@/?" if reserved else "")


def _pairs(value: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    return ((str(k), v) for k, v in value.items() if v is not None)


def serialize_path(param: Parameter, value: Any) -> str:
    """A path parameter's value per its style (simple, label, matrix) and explode, percent-encoded."""
    name, style, explode = param.name, param.style, param.explode
    if isinstance(value, list):
        items = [encode(v) for v in value]
        if style == "label":
            return "." + ("." if explode else ",").join(items)
        if style == "matrix":
            return "".join(f";{name}={i}" for i in items) if explode else f";{name}=" + ",".join(items)
        return ",".join(items)
    if isinstance(value, Mapping):
        pairs = [(encode(k), encode(v)) for k, v in _pairs(value)]
        if explode:
            joined = [f"{k}={v}" for k, v in pairs]
            if style == "label":
                return "." + ".".join(joined)
            if style == "matrix":
                return "".join(f";{j}" for j in joined)
            return ",".join(joined)
        flat = ",".join(f"{k},{v}" for k, v in pairs)
        return {"label": f".{flat}", "matrix": f";{name}={flat}"}.get(style, flat)
    single = encode(value)
    return {"label": f".{single}", "matrix": f";{name}={single}"}.get(style, single)


_DELIMITERS = {"spaceDelimited": "%20", "pipeDelimited": "%7C", "tabDelimited": "%09"}


def serialize_query(param: Parameter, value: Any) -> list[str]:
    """A query parameter as encoded `name=value` pieces, per its style and explode."""
    reserved = param.allow_reserved
    name = encode(param.name)
    if param.as_json:
        return [f"{name}={encode(json.dumps(value, separators=(',', ':')))}"]
    if isinstance(value, list):
        items = [encode(v, reserved=reserved) for v in value if v is not None]
        if param.style in _DELIMITERS:
            return [f"{name}=" + _DELIMITERS[param.style].join(items)]
        if param.explode:
            return [f"{name}={i}" for i in items]
        return [f"{name}=" + ",".join(items)]
    if isinstance(value, Mapping):
        if param.style == "deepObject":
            return [f"{name}%5B{encode(k)}%5D={encode(v, reserved=reserved)}" for k, v in _pairs(value)]
        if param.explode:
            return [f"{encode(k)}={encode(v, reserved=reserved)}" for k, v in _pairs(value)]
        return [f"{name}=" + ",".join(f"{encode(k)},{encode(v, reserved=reserved)}" for k, v in _pairs(value))]
    return [f"{name}={encode(value, reserved=reserved)}"]


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
            out.append(f"{quote(prefix, safe='')}={encode(value)}")

    for key, value in values.items():
        if value is None:
            continue
        style, explode = body.encoding.get(key, ("form", True))
        if style == "deepObject" or isinstance(value, Mapping):
            deep(key, value)
        elif isinstance(value, list):
            if explode and style == "form":
                out.extend(f"{encode(key)}={encode(v)}" for v in value)
            else:
                out.append(f"{encode(key)}=" + _DELIMITERS.get(style, ",").join(encode(v) for v in value))
        else:
            out.append(f"{encode(key)}={encode(value)}")
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
