"""Reading the `openapi` section: one OpenAPI document served as tools per entry."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from hintgate.config.model import (
    OPENAPI_METHODS,
    ApiAuth,
    OpenApiConfig,
    OpenApiNaming,
    OperationFilter,
    freeze,
    redact_url,
)
from hintgate.config.reader import COMMON_KEYS, Reader, spellings
from hintgate.config.yamlpos import Key
from hintgate.hints.trust import TrustFrom, trust_by_origin

__all__ = ["AUTH_KEYS", "FILTER_KEYS", "OPENAPI_KEYS", "read_openapi"]

OPENAPI_KEYS: Mapping[str, str] = {
    **spellings("document", "base_url", "auth", "headers", "include", "exclude", "naming"),
    **COMMON_KEYS,
    **spellings("startup_timeout"),
}
"""Spelling → setting of an OpenAPI source's keys."""
AUTH_KEYS: Mapping[str, tuple[str, ...]] = {
    "bearer": (),
    "apiKey": ("name", "in", "value"),
    "basic": ("username", "password"),
}
"""The kinds of `auth`, each with the keys of its mapping (a bearer token is a string)."""
FILTER_KEYS = ("tags", "paths", "methods", "tools")
"""The keys of `include` and `exclude` given as a mapping."""


def read_openapi(reader: Reader, name: str, value: Any, path: tuple[Key, ...]) -> None:
    m = reader.mapping(value, path, "an OpenAPI source (a mapping with document)")
    if m is None:
        return
    expanded = len(reader.from_environment)
    start = len(reader.problems)
    given = reader.source_keys(m, path, OPENAPI_KEYS)

    if "document" not in given:
        reader.error(path, 'needs "document": the OpenAPI file or its http(s):// URL', key=True)
    document = reader.string(given.value("document"), given["document"], empty=False) if "document" in given else None
    if document is not None and urlsplit(document).scheme not in {"http", "https"}:
        document = str(reader.base / document) if reader.base is not None else document
    base_url = None
    if "base_url" in given and (url := reader.string(given.value("base_url"), given["base_url"], empty=False)):
        parts = urlsplit(url)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            reader.error(given["base_url"], f"expected an http:// or https:// URL, got {json.dumps(redact_url(url))}")
        base_url = url
    auth = read_auth(reader, given.value("auth"), given["auth"]) if "auth" in given else None
    headers = reader.string_map(given.value("headers"), given["headers"]) if "headers" in given else {}
    include = read_filter(reader, given.value("include"), given["include"]) if "include" in given else OperationFilter()
    exclude = read_filter(reader, given.value("exclude"), given["exclude"]) if "exclude" in given else OperationFilter()
    naming: OpenApiNaming = "operationId"
    if "naming" in given and (n := reader.string(given.value("naming"), given["naming"])) is not None:
        if n == "method-path":
            naming = "method-path"
        elif n != "operationId":
            reader.error(given["naming"], f'expected "operationId" or "method-path", got {json.dumps(n)}')
    trust, enabled, prefix, overrides, timeout = reader.common(name, given)
    startup = (
        reader.seconds(given.value("startup_timeout"), given["startup_timeout"]) if "startup_timeout" in given else None
    )
    if len(reader.problems) > start or document is None or headers is None:
        return
    document_config = OpenApiConfig(
        name=name,
        document=document,
        base_url=base_url,
        auth=auth,
        headers=freeze(headers),
        include=include or OperationFilter(),
        exclude=exclude or OperationFilter(),
        naming=naming,
        trust=trust or trust_by_origin("openapi", remote=False),
        trust_from=TrustFrom.ORIGIN if trust is None else TrustFrom.CONFIG,
        enabled=enabled,
        prefix=prefix,
        overrides=freeze(overrides),
        call_timeout=timeout or reader.timeouts.call,
        startup_timeout=startup or reader.timeouts.startup,
        from_environment=tuple(reader.from_environment[expanded:]),
    )
    reader.add_source(document_config, path, given.get("prefix", path))


def read_auth(reader: Reader, value: Any, path: tuple[Key, ...]) -> ApiAuth | None:
    m = reader.mapping(value, path, "a mapping with one of bearer, apiKey, basic")
    if m is None:
        return None
    reader.keys(m, path, list(AUTH_KEYS))
    kinds = [k for k in AUTH_KEYS if k in m]
    if len(kinds) != 1:
        reader.error(path, "give exactly one of bearer, apiKey, basic")
        return None
    kind = kinds[0]
    here = (*path, kind)
    if kind == "bearer":
        token = reader.string(m[kind], here, secret=True, empty=False)
        return ApiAuth("bearer", value=token) if token is not None else None
    entry = reader.mapping(m[kind], here)
    if entry is None:
        return None
    if kind == "basic":
        reader.keys(entry, here, AUTH_KEYS["basic"])
        user = reader.string(entry.get("username"), (*here, "username"))
        password = reader.string(entry.get("password"), (*here, "password"), secret=True)
        if user is None or password is None:
            return None
        return ApiAuth("basic", username=user, password=password)
    reader.keys(entry, here, AUTH_KEYS["apiKey"])
    key_name = reader.string(entry.get("name"), (*here, "name"), empty=False)
    where = reader.string(entry.get("in", "header"), (*here, "in"))
    secret = reader.string(entry.get("value"), (*here, "value"), secret=True, empty=False)
    if where not in {None, "header", "query", "cookie"}:
        reader.error((*here, "in"), f'expected "header", "query" or "cookie", got {json.dumps(where)}')
        return None
    if key_name is None or secret is None or where is None:
        return None
    return ApiAuth("apiKey", value=secret, name=key_name, location=where)  # type: ignore[arg-type]


def read_filter(reader: Reader, value: Any, path: tuple[Key, ...]) -> OperationFilter | None:
    if isinstance(value, list):
        tools = reader.strings(value, path)
        return OperationFilter(tools=tools) if tools is not None else None
    m = reader.mapping(value, path, "a list of tool-name globs, or a mapping of tags, paths, methods, tools")
    if m is None:
        return None
    reader.keys(m, path, FILTER_KEYS)
    got = {k: reader.strings(m[k], (*path, k)) for k in FILTER_KEYS if k in m}
    if any(v is None for v in got.values()):
        return None
    methods = tuple(x.upper() for x in got.get("methods") or ())
    for i, method in enumerate(methods):
        if method.lower() not in OPENAPI_METHODS:
            known = ", ".join(OPENAPI_METHODS)
            reader.error((*path, "methods", i), f"expected an HTTP method ({known}), got {method!r}")
    return OperationFilter(
        tags=got.get("tags") or (), paths=got.get("paths") or (), methods=methods, tools=got.get("tools") or ()
    )
