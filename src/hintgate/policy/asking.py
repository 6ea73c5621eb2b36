"""How hintgate asks a person about a call: the question, the form, and reading the answer.

Pure. The same question goes to a client through MCP elicitation (form mode,
`elicitation/create` on 2025-11-25 connections, an `InputRequiredResult` on
2026-07-28 ones) and to the dashboard's approval queue.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hintgate.policy.approvals import Answer

__all__ = ["APPROVAL_KEY", "answer_from_elicitation", "approval_form", "question"]

APPROVAL_KEY = "hintgate-approval"
"""The key of hintgate's question in an `InputRequiredResult`'s `inputRequests`."""

_ARGUMENTS_SHOWN = 1500  # characters of the arguments' JSON shown in the question

_CHOICES = (
    (Answer.APPROVE_ONCE, "Approve once"),
    (Answer.APPROVE_SESSION, "Approve for this session"),
    (Answer.DENY, "Deny"),
)


def question(
    *, title: str, tool: str, server: str, arguments: Mapping[str, Any] | None, reason: str, warnings: list[str]
) -> str:
    """The text a person reads before answering."""
    shown = json.dumps(arguments or {}, indent=2, ensure_ascii=False, default=str)
    if len(shown) > _ARGUMENTS_SHOWN:
        shown = shown[:_ARGUMENTS_SHOWN] + "\n… (truncated)"
    lines = [f"Allow {title}?", "", f"Tool: {tool}", f"Server: {server}", f"Arguments:\n{shown}"]
    if warnings:
        lines += ["", *(f"⚠ {w}" for w in warnings)]
    lines += ["", f"Why hintgate asks: {reason}"]
    return "\n".join(lines)


def approval_form(message: str) -> dict[str, Any]:
    """`elicitation/create` params in form mode: one required choice, deny by default."""
    return {
        "mode": "form",
        "message": message,
        "requestedSchema": {
            "type": "object",
            "properties": {
                "decision": {
                    "type": "string",
                    "title": "Decision",
                    "description": "Approve this call once, approve this tool for the rest of the session, or deny.",
                    "oneOf": [{"const": value.value, "title": label} for value, label in _CHOICES],
                    "default": Answer.DENY.value,
                }
            },
            "required": ["decision"],
        },
    }


def answer_from_elicitation(result: Mapping[str, Any] | None) -> Answer:
    """Read an `ElicitResult`: only an accepted form with a known choice approves; anything else denies."""
    if not isinstance(result, Mapping) or result.get("action") != "accept":
        return Answer.DENY
    content = result.get("content")
    choice = content.get("decision") if isinstance(content, Mapping) else None
    try:
        return Answer(str(choice))
    except ValueError:
        return Answer.DENY
