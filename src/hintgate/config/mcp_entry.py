"""Reading the `mcpServers` section: one upstream MCP server per entry, stdio or remote.

Every spelling a server entry may use (Claude Desktop, Cursor, VS Code, Cline,
Windsurf) maps to one setting; keys other clients write that hintgate does not
use are accepted, and noted when they mean something.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from hintgate.config.model import (
    HttpTransport,
    ServerConfig,
    StdioTransport,
    TrustFrom,
    closest,
    freeze,
    redact_url,
)
from hintgate.config.oauth_entry import read_oauth
from hintgate.config.reader import Given, Reader, spellings
from hintgate.config.yamlpos import Key
from hintgate.hints.trust import trust_by_origin

__all__ = ["read_server"]

SERVER_KEYS: Mapping[str, str] = {
    **spellings(
        "command",
        "args",
        "env",
        "cwd",
        "url",
        "headers",
        "oauth",
        "type",
        "trust",
        "enabled",
        "prefix",
        "include",
        "exclude",
        "overrides",
        "timeout",
        "startup_timeout",
        "pin",
    ),
    "serverUrl": "url",  # Windsurf
    "transportType": "type",  # Cline
    "disabled": "disabled",  # Cursor, Cline, Roo, Windsurf
    "disabledTools": "disabledTools",  # Windsurf, Roo: hidden like exclude
}
# Keys real clients write that hintgate does not use. Ones that change what a
# server does get a warning, so nobody believes they are in force.
FOREIGN_SERVER_KEYS: Mapping[str, str | None] = {
    "autoApprove": "client-side auto-approval is ignored; hintgate decides approvals by policy",
    "alwaysAllow": "client-side auto-approval is ignored; hintgate decides approvals by policy",
    "envFile": "ignored: hintgate does not read env files; list the variables under env as ${NAME}",
    "headersHelper": "ignored: hintgate does not run header helpers; put the headers under headers",
    "description": None,
    "name": None,
    "dev": None,  # VS Code: watch and debug while developing a server
    "sandboxEnabled": None,  # VS Code
    "sandbox": None,
    "gallery": None,
    "version": None,
    "watchPaths": None,  # Roo
}
_UNSUPPORTED_SERVER_KEYS: Mapping[str, str] = {
    # Ignoring it would only make the server fail later with a 401.
    "auth": (
        'hintgate logs in to a server behind OAuth with an "oauth" block (oauth: {} to discover '
        'everything); give a static token as headers: {Authorization: "Bearer ${TOKEN}"}'
    ),
}
_TRANSPORT_TYPES: Mapping[str, str] = {
    "stdio": "stdio",
    "http": "streamable-http",
    "streamable-http": "streamable-http",
    "streamableHttp": "streamable-http",
    "sse": "sse",
}
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def read_server(reader: Reader, name: str, value: Any, path: tuple[Key, ...]) -> None:
    m = reader.mapping(value, path, "a server (a mapping with command or url)")
    if m is None:
        return
    if not name:
        reader.error(path, "a server's name must not be empty", key=True)
    given = Given(m)  # setting -> path of the spelling used
    for k in m:
        setting = SERVER_KEYS.get(k)
        if setting is None:
            if k in _UNSUPPORTED_SERVER_KEYS:
                reader.error((*path, k), f'"{k}": {_UNSUPPORTED_SERVER_KEYS[k]}', key=True)
            elif k in FOREIGN_SERVER_KEYS:
                note = FOREIGN_SERVER_KEYS[k]
                if note and m[k]:
                    reader.warn((*path, k), note, key=True)
            elif not k.startswith("x-"):
                accepted = [*SERVER_KEYS, *FOREIGN_SERVER_KEYS]
                reader.error((*path, k), f'unknown key "{k}"{closest(k, accepted)}', key=True)
        elif setting in given:
            reader.error((*path, k), f'"{k}" repeats "{given[setting][-1]}"; give one', key=True)
        else:
            given[setting] = (*path, k)

    expanded = len(reader.from_environment)
    start = len(reader.problems)
    transport = read_transport(reader, path, given)
    trust = reader.trust(given.value("trust"), given["trust"]) if "trust" in given else None
    flags = {s: reader.boolean(given.value(s), given[s]) for s in ("enabled", "disabled") if s in given}
    enabled = flags.get("enabled", not flags.get("disabled", False))
    if None not in (flags.get("enabled"), flags.get("disabled")) and flags["enabled"] is flags["disabled"]:
        reader.error(given["disabled"], "contradicts enabled; give one of them")
    prefix = reader.prefix(name, given.value("prefix") if "prefix" in given else None, given.get("prefix"))
    lists = {s: reader.strings(given.value(s), given[s]) for s in ("include", "exclude", "disabledTools") if s in given}
    overrides = reader.read_overrides(given.value("overrides"), given["overrides"]) if "overrides" in given else {}
    times = {s: reader.seconds(given.value(s), given[s]) for s in ("timeout", "startup_timeout") if s in given}
    pin = "auto"
    if "pin" in given and (how := reader.string(given.value("pin"), given["pin"])) is not None:
        if how not in ("auto", "manual"):
            reader.error(given["pin"], f'expected "auto" or "manual", got {json.dumps(how)}')
        else:
            pin = how
    if transport is None or len(reader.problems) > start:
        return
    server = ServerConfig(
        name=name,
        transport=transport,
        trust=trust or trust_by_origin("mcp", remote=isinstance(transport, HttpTransport)),
        trust_from=TrustFrom.ORIGIN if trust is None else TrustFrom.CONFIG,
        enabled=bool(enabled),
        prefix=prefix,
        include=lists.get("include") or (),
        exclude=(*(lists.get("exclude") or ()), *(lists.get("disabledTools") or ())),
        overrides=freeze(overrides),
        call_timeout=times.get("timeout") or reader.timeouts.call,
        startup_timeout=times.get("startup_timeout") or reader.timeouts.startup,
        from_environment=tuple(reader.from_environment[expanded:]),
        pin=pin,
    )
    reader.add_source(server, path, given.get("prefix", path))


def read_transport(reader: Reader, path: tuple[Key, ...], given: Given) -> StdioTransport | HttpTransport | None:
    kind: str | None = None
    if "type" in given:
        written = reader.string(given.value("type"), given["type"])
        if written is None:
            return None
        if written not in _TRANSPORT_TYPES:
            choices = ", ".join(json.dumps(t) for t in _TRANSPORT_TYPES)
            reader.error(given["type"], f"expected one of {choices}, got {json.dumps(written)}")
            return None
        kind = _TRANSPORT_TYPES[written]
    has_command, has_url = "command" in given, "url" in given
    if kind is None:
        if has_command and has_url:
            reader.error(path, 'has both "command" (a local server) and "url" (a remote one); keep one')
            return None
        if not has_command and not has_url:
            reader.error(path, 'needs "command" (a local stdio server) or "url" (a remote server)', key=True)
            return None
        kind = "stdio" if has_command else "streamable-http"
    if kind == "stdio":
        if has_url:
            reader.error(given["url"], 'a stdio server takes "command", not "url"', key=True)
        if not has_command:
            reader.error(path, 'a stdio server needs "command"', key=True)
            return None
        if "headers" in given and given.value("headers"):
            reader.warn(given["headers"], "ignored: headers apply to remote servers only", key=True)
        if "oauth" in given:
            reader.error(given["oauth"], "OAuth applies to remote servers only (a url)", key=True)
        command = reader.string(given.value("command"), given["command"], empty=False)
        args = reader.strings(given.value("args"), given["args"]) if "args" in given else ()
        env = reader.string_map(given.value("env"), given["env"]) if "env" in given else {}
        cwd = reader.string(given.value("cwd"), given["cwd"], empty=False) if "cwd" in given else None
        if command is None or args is None or env is None or ("cwd" in given and cwd is None):
            return None
        if cwd is not None and reader.base is not None:
            cwd = str(reader.base / cwd)  # a relative cwd means relative to the config file
        return StdioTransport(command=command, args=args, env=freeze(env), cwd=cwd)
    if has_command:
        reader.error(given["command"], f'a {kind} server takes "url", not "command"', key=True)
    if not has_url:
        reader.error(path, f'a {kind} server needs "url"', key=True)
        return None
    for stdio_only in ("args", "env", "cwd"):
        if stdio_only in given and given.value(stdio_only):
            reader.warn(given[stdio_only], f"ignored: {stdio_only} applies to stdio servers only", key=True)
    url = reader.string(given.value("url"), given["url"], empty=False)
    headers = reader.string_map(given.value("headers"), given["headers"]) if "headers" in given else {}
    oauth = read_oauth(reader, given.value("oauth"), given["oauth"]) if "oauth" in given else None
    if url is None or headers is None or ("oauth" in given and oauth is None):
        return None
    if oauth is not None and any(k.lower() == "authorization" for k in headers):
        reader.error(given["oauth"], "the OAuth login sends its own Authorization header; remove it from headers")
        return None
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        reader.error(given["url"], f"expected an http:// or https:// URL, got {json.dumps(redact_url(url))}")
        return None
    if "type" not in given and parts.path.rstrip("/").endswith("/sse"):
        reader.warn(given["url"], 'looks like an SSE endpoint; add type: "sse" if it is one')
    if parts.scheme == "http" and headers and parts.hostname not in _LOCAL_HOSTS:
        reader.warn(given["url"], "sends headers (often credentials) unencrypted over http://")
    if oauth is not None and kind == "sse":
        reader.error(given["oauth"], "OAuth login is supported for streamable HTTP servers only", key=True)
        return None
    return HttpTransport(
        url=url, headers=freeze(headers), kind="sse" if kind == "sse" else "streamable-http", oauth=oauth
    )
