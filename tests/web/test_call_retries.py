"""The calls page says how a call ran: retries and the call each repeats, and questions the client withdrew."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from hintgate.store import CallRecord

if TYPE_CHECKING:
    from conftest import OpenDashboard

pytestmark = pytest.mark.anyio


def _call(call_id: str, moment: datetime, **fields: Any) -> CallRecord:
    values: dict[str, Any] = {
        "id": call_id,
        "session_id": None,
        "server_id": "clock",
        "server_name": None,
        "tool_name": "clock_now",
        "upstream_tool": "now",
        "arguments": {},
        "response": {"content": [{"type": "text", "text": "12:00"}], "isError": False},
        "error": None,
        "started_at": moment,
        "duration_ms": 1.0,
        "request_id": None,
        "client_name": None,
        "client_version": None,
        "verdict": "allow",
    }
    return CallRecord(**{**values, **fields})


async def test_the_calls_page_marks_retries_and_links_each_to_the_call_it_repeats(
    open_dashboard: OpenDashboard,
) -> None:
    first, retry, again = "a1b2c3d4-0000-4000-8000-000000000001", "b-retry", "c-again"
    start = datetime(2026, 1, 1, tzinfo=UTC)
    async with open_dashboard() as dash:
        assert dash.store is not None
        dash.store.record_call(_call(first, start, response=None, error="connection closed (retried)"))
        dash.store.record_call(_call(retry, start + timedelta(seconds=1), parent_call_id=first, execution_type="retry"))
        dash.store.record_call(
            _call(again, start + timedelta(seconds=2), parent_call_id=retry, execution_type="client_retry")
        )
        await dash.store.flush()
        soup = await dash.page("/calls")
    rows = {str(r["id"]).removeprefix("call-"): r for r in soup.select("tr.call")}
    assert rows[first].select(".execution") == []
    marked = rows[retry].select_one(".execution")
    assert marked is not None
    assert marked.get_text(" ", strip=True) == "Retry by the gateway of a1b2c3d4"
    link = marked.select_one("a")
    assert link is not None
    assert (link["href"], link["title"]) == (f"/api/calls/{first}", first)
    client = rows[again].select_one(".execution")
    assert client is not None
    assert client.get_text(" ", strip=True).startswith("Retry by the client of")


async def test_a_call_withdrawn_while_it_waited_says_so_instead_of_who_answered(open_dashboard: OpenDashboard) -> None:
    decision = {
        "verdict": "ask",
        "reason": "r",
        "source": "mode:default",
        "approver": "client",
        "approval": "withdrawn",
    }
    async with open_dashboard() as dash:
        assert dash.store is not None
        dash.store.record_call(
            _call("w", datetime(2026, 1, 1, tzinfo=UTC), response=None, decision=decision, verdict="withdrawn")
        )
        await dash.store.flush()
        soup = await dash.page("/calls")
    [row] = soup.select("tr.call")
    approver = row.select_one(".approver")
    assert approver is not None
    assert approver.get_text(strip=True).startswith("withdrawn while it waited")
    assert "answered by" not in row.get_text()
