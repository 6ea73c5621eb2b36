"""The person behind a test's MCP client: answers every elicitation the same way and remembers the questions."""

from __future__ import annotations

from typing import Any

import mcp_types as types


class Person:
    """Answers every question with `decision` (deny unless told), and remembers each question's text."""

    def __init__(self, decision: str = "deny") -> None:
        self.decision = decision
        self.asked: list[str] = []

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked.append(params.message)
        return types.ElicitResult(action="accept", content={"decision": self.decision})
