"""The Tasks extension (`io.modelcontextprotocol/tasks`) as an upstream speaks it: what is offered, asked and answered.

A server that offers the extension may answer a `tools/call` with a task
handle (a result whose `resultType` is `"task"`, carrying a `taskId` and a
status) instead of the tool's result, but only to a request whose
per-request client capabilities (`_meta["io.modelcontextprotocol/clientCapabilities"]`)
name the extension. The client then polls `tasks/get` until the status is
terminal (`completed` with the tool's `result`, `failed` with a JSON-RPC
`error`, or `cancelled`), answers its `inputRequests` with `tasks/update`
and may stop it with `tasks/cancel`.

hintgate reaches upstreams with the initialize handshake, whose capabilities
carry an `extensions` map: an upstream offers tasks there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "CLIENT_CAPABILITIES",
    "TASKS",
    "TASK_METHODS",
    "TERMINAL",
    "is_task",
    "offers_tasks",
    "tasks_declared",
]

TASKS = "io.modelcontextprotocol/tasks"
"""The extension's identifier, as advertised in capabilities."""

CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
"""The `_meta` key of a request's own client capabilities (the 2026-07-28 envelope)."""

TASK_METHODS = ("tasks/get", "tasks/update", "tasks/cancel")
"""The requests the extension adds, each naming one task by `taskId`."""

TERMINAL = frozenset({"completed", "failed", "cancelled"})
"""Task statuses that never change again."""


def _extensions(capabilities: Any) -> Mapping[str, Any]:
    extensions = capabilities.get("extensions") if isinstance(capabilities, Mapping) else None
    return extensions if isinstance(extensions, Mapping) else {}


def offers_tasks(capabilities: Mapping[str, Any] | None) -> bool:
    """Whether a server's capabilities (its `initialize` answer's) offer the extension."""
    return isinstance(_extensions(capabilities).get(TASKS), Mapping)


def tasks_declared() -> dict[str, Any]:
    """The `_meta` entry that declares the extension on one request (and nothing else of the client's)."""
    return {CLIENT_CAPABILITIES: {"extensions": {TASKS: {}}}}


def is_task(result: Mapping[str, Any]) -> bool:
    """Whether a `tools/call` answer is a task handle rather than the tool's result."""
    return result.get("resultType") == "task" and isinstance(result.get("taskId"), str)
