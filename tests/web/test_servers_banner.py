"""A server that is not up is said on every page, and the catalog lists every server's state."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest

from hintgate.testing import FakeSource

if TYPE_CHECKING:
    from conftest import OpenDashboard

pytestmark = pytest.mark.anyio

PAGES = ["/", "/tools/notes_get_note", "/sessions", "/calls", "/approvals", "/settings", "/tools/no_such_tool"]


def words(element: Any) -> str:
    assert element is not None
    return " ".join(element.get_text(" ", strip=True).split())


async def test_with_every_server_up_no_page_has_a_banner(open_dashboard: OpenDashboard) -> None:
    async with open_dashboard() as dash:
        for path in PAGES:
            soup = await dash.page(path, status=404 if "no_such" in path else 200)
            assert soup.select(".servers-banner") == [], path


async def test_a_down_server_is_named_with_its_reason_on_every_page(open_dashboard: OpenDashboard) -> None:
    async with open_dashboard() as dash:
        clock = dash.gateway.sources["clock"]
        assert isinstance(clock, FakeSource)
        clock.go_down("connection refused (errno 111)")
        for path in PAGES:
            soup = await dash.page(path, status=404 if "no_such" in path else 200)
            [banner] = soup.select(".servers-banner")
            assert banner.get("role") == "status"
            text = words(banner)
            assert text.startswith("1 of 2 servers is not up"), (path, text)
            assert "clock (down: connection refused (errno 111))" in text
            assert "notes" not in text
            link = banner.select_one('a[href="/#servers"]')
            assert link is not None


async def test_the_catalog_lists_each_servers_state_reason_and_next_retry(open_dashboard: OpenDashboard) -> None:
    async with open_dashboard() as dash:
        clock = dash.gateway.sources["clock"]
        assert isinstance(clock, FakeSource)
        retry = time.time() + 30
        clock.go_down("exited with code 1", retry_at=retry)
        soup = await dash.page("/")
    rows = {row["data-server"]: row for row in soup.select("#servers tbody tr")}
    assert set(rows) == {"notes", "clock"}
    assert rows["notes"]["data-state"] == "up"
    assert rows["clock"]["data-state"] == "restarting"
    assert words(rows["clock"].select_one('[data-label="Reason"]')) == "exited with code 1"
    when = rows["clock"].select_one('[data-label="Next retry"] time')
    assert when is not None
    assert str(when["datetime"]).startswith(time.strftime("%Y-%m-%dT", time.gmtime(retry)))
    assert words(rows["notes"].select_one('[data-label="Reason"]')) == ""
