"""Recorded sessions and calls under another system's field names (`--names`), for people moving from it.

`hintgate calls --format json --names mcpproxy` writes each call as MCPProxy's
tool-call record (`ToolCallRecord`: `timestamp`, `duration`, `config_path`,
`mcp_session_id`, `annotations`...), and `hintgate sessions --format json
--names mcpproxy` each session as its session record (`start_time`,
`end_time`, `tool_call_count`...), so scripts written against MCPProxy's
history read hintgate's. Its conventions are kept: a string field that is
always present is `""` when empty, one marked optional is left out, a call's
`duration` is in nanoseconds (Go's `time.Duration`), times are RFC 3339 in
UTC. What MCPProxy has no field for (the policy's decision, the tier, the
person) is not written: `--names hintgate` (the default) writes everything.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from hintgate.hints.annotations import Hint

__all__ = ["RecordNames", "mcpproxy_call", "mcpproxy_session", "renamed"]


class RecordNames(enum.StrEnum):
    """Whose field names a JSON listing of records uses."""

    HINTGATE = "hintgate"
    MCPPROXY = "mcpproxy"


_ANNOTATION_KEYS = ("title", *(hint.value for hint in Hint))


def _time(value: Any) -> str | None:
    """An ISO 8601 time in UTC as Go writes it (`Z`, not `+00:00`)."""
    if not isinstance(value, str):
        return None
    return value.removesuffix("+00:00") + "Z" if value.endswith("+00:00") else value


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def mcpproxy_call(row: Mapping[str, Any]) -> dict[str, Any]:
    """One recorded call (a `hintgate calls` row) as MCPProxy's tool-call record.

    `server_name` is the server's name in the config (MCPProxy's), `tool_name`
    the server's own name for the tool (MCPProxy records it beside the
    server, not under a gateway prefix); `annotations` are the hints in
    force, and the title, at the call.
    """
    input_tokens = int(row.get("input_tokens") or 0)
    output_tokens = int(row.get("output_tokens") or 0)
    out: dict[str, Any] = {
        "id": row["id"],
        "server_id": row["server_id"],
        "server_name": row["server_id"],
        "tool_name": row.get("upstream_tool") or row["tool_name"],
        "arguments": row.get("arguments"),
        "response": row.get("response"),
        "error": _text(row.get("error")),
        "duration": round(float(row.get("duration_ms") or 0.0) * 1_000_000),
        "timestamp": _time(row.get("started_at")),
        "config_path": _text(row.get("config_path")),
        "request_id": _text(row.get("request_id")),
        "metrics": {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
        },
    }
    optional = {
        "parent_call_id": row.get("parent_call_id"),
        "execution_type": row.get("execution_type"),
        "mcp_session_id": row.get("session_id"),
        "mcp_client_name": row.get("client_name"),
        "mcp_client_version": row.get("client_version"),
    }
    out.update({key: value for key, value in optional.items() if value})
    hints = row.get("hints")
    given = hints.get("annotations") if isinstance(hints, Mapping) else None
    if isinstance(given, Mapping):
        annotations = {key: given[key] for key in _ANNOTATION_KEYS if given.get(key) is not None}
        if annotations:
            out["annotations"] = annotations
    return out


def mcpproxy_session(row: Mapping[str, Any]) -> dict[str, Any]:
    """One recorded session (a `hintgate sessions` row) as MCPProxy's session record."""
    out: dict[str, Any] = {
        "id": row["id"],
        "status": row["status"],
        "start_time": _time(row.get("started_at")),
        "tool_call_count": int(row.get("tool_call_count") or 0),
        "total_tokens": int(row.get("total_tokens") or 0),
    }
    optional = {
        "client_name": row.get("client_name"),
        "client_version": row.get("client_version"),
        "end_time": _time(row.get("ended_at")),
    }
    out.update({key: value for key, value in optional.items() if value})
    return out


def renamed(rows: list[dict[str, Any]], names: RecordNames, kind: str) -> list[dict[str, Any]]:
    """`rows` (of `kind`: `calls` or `sessions`) under `names`' field names."""
    if names is RecordNames.HINTGATE:
        return rows
    convert = mcpproxy_call if kind == "calls" else mcpproxy_session
    return [convert(row) for row in rows]
