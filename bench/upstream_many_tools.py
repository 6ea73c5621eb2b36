"""A tiny synthetic MCP server over stdio that offers N tools.

Raw newline-delimited JSON-RPC on stdin/stdout with the standard library only,
so that it starts in tens of milliseconds and answers in microseconds: a
benchmark that puts twenty of these behind a gateway measures the gateway, not
the upstreams.

It answers ``initialize``, ``ping``, ``tools/list`` (every tool in one page)
and ``tools/call`` (echoes the arguments as text); notifications are ignored
and any other request gets a JSON-RPC "method not found" error.

With ``--distinct`` every tool name carries the server's name, as tools of
different servers do in practice. With ``--changeable`` it also offers
``bench_change_tools``: a call changes every other tool's description, sends
``notifications/tools/list_changed``, then answers.

Usage::

    python bench/upstream_many_tools.py [--tools 50] [--name synth] [--distinct] [--changeable]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
"""Handshake-era revisions this server accepts; it answers with the client's if listed, else the first."""

_VERBS = ("get", "list", "search", "create", "update", "delete", "archive", "export", "sync", "count")
_NOUNS = ("note", "issue", "file", "user", "event", "invoice", "record", "task", "report", "label")


CHANGE_TOOL = "bench_change_tools"
"""The tool that changes the list (with ``--changeable``)."""


def make_tools(count: int, server: str, *, distinct: bool = False) -> list[dict[str, Any]]:
    """The tool definitions: realistic names, descriptions and input schemas, no annotations.

    Args:
        count: how many tools.
        server: the server's name, mentioned in each description.
        distinct: put the server's name in each tool name too.

    Returns:
        A list of MCP ``Tool`` objects as dicts.
    """
    tools: list[dict[str, Any]] = []
    for index in range(count):
        verb = _VERBS[index % len(_VERBS)]
        noun = _NOUNS[(index // len(_VERBS)) % len(_NOUNS)]
        name = f"{verb}_{noun}_{server}_{index}" if distinct else f"{verb}_{noun}_{index}"
        tools.append(
            {
                "name": name,
                "description": f"{verb.capitalize()} a {noun} in the {server} workspace (synthetic tool {index}).",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": f"The {noun}'s identifier."},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                        "query": {"type": "string", "description": "Free-text filter."},
                    },
                    "required": ["id"],
                },
            }
        )
    return tools


def _result(request_id: Any, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def _error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def handle(message: dict[str, Any], tools: list[dict[str, Any]], server: str) -> dict[str, Any] | None:
    """The reply to one JSON-RPC message, or ``None`` for a notification.

    Args:
        message: the decoded message.
        tools: the tools this server offers.
        server: the server's name, for ``serverInfo``.

    Returns:
        The reply to write, or ``None`` when nothing is to be written.
    """
    method = message.get("method")
    request_id = message.get("id")
    if request_id is None or not isinstance(method, str):
        return None  # a notification, or a response to nothing we asked
    params = message.get("params") or {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]
        return _result(
            request_id,
            {
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": server, "version": "0.1.0"},
            },
        )
    if method == "ping":
        return _result(request_id, {})
    if method == "tools/list":
        return _result(request_id, {"tools": tools})
    if method == "tools/call":
        text = json.dumps({"tool": params.get("name"), "arguments": params.get("arguments") or {}})
        return _result(request_id, {"content": [{"type": "text", "text": text}], "isError": False})
    return _error(request_id, -32601, f"Method not found: {method}")


def _calls(message: Any, tool: str) -> bool:
    if not isinstance(message, dict) or message.get("method") != "tools/call":
        return False
    params = message.get("params")
    return isinstance(params, dict) and params.get("name") == tool


def main(argv: list[str] | None = None) -> int:
    """Serve on stdin/stdout until stdin closes.

    Args:
        argv: command-line arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit code.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tools", type=int, default=50, help="how many tools to offer (default 50)")
    parser.add_argument("--name", default="synth", help="the server's name (default synth)")
    parser.add_argument("--distinct", action="store_true", help="put the server's name in every tool name")
    parser.add_argument("--changeable", action="store_true", help=f"offer {CHANGE_TOOL}, which changes the list")
    args = parser.parse_args(argv)
    tools = make_tools(args.tools, args.name, distinct=args.distinct)
    changes = 0
    if args.changeable:
        tools.append(
            {"name": CHANGE_TOOL, "description": "Changes this server's tool list.", "inputSchema": {"type": "object"}}
        )
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            reply: dict[str, Any] | None = _error(None, -32700, "Parse error")
        else:
            if args.changeable and _calls(message, CHANGE_TOOL):
                changes += 1
                for tool in tools[:-1]:
                    tool["description"] = f"{tool['description'].split(' [')[0]} [changed {changes}]"
                changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
                stdout.write(json.dumps(changed).encode() + b"\n")
            reply = handle(message, tools, args.name) if isinstance(message, dict) else None
        if reply is not None:
            stdout.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
            stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
