"""The web app's `/mcp` shortcut: FastAPI's own telemetry asked about at most once a second while it is off."""

from __future__ import annotations

import pytest

from hintgate.web import app as web_app


class _Telemetry:
    def __init__(self) -> None:
        self.on = False
        self.asked = 0

    def enabled(self) -> bool:
        self.asked += 1
        return self.on


def _app(monkeypatch: pytest.MonkeyPatch) -> tuple[web_app._WebApp, _Telemetry, list[float]]:
    clock = [100.0]
    monkeypatch.setattr(web_app.time, "monotonic", lambda: clock[0])
    app = web_app._WebApp()
    telemetry = _Telemetry()
    app._native_telemetry = telemetry  # type: ignore[attr-defined]
    return app, telemetry, clock


def test_telemetry_that_is_off_is_asked_about_again_only_after_the_recheck_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app, telemetry, clock = _app(monkeypatch)
    assert [app._telemetry_enabled() for _ in range(5)] == [False] * 5
    assert telemetry.asked == 1
    clock[0] += web_app.TELEMETRY_RECHECK
    assert not app._telemetry_enabled()
    assert telemetry.asked == 2


def test_telemetry_turned_on_after_start_is_taken_at_the_next_recheck_and_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app, telemetry, clock = _app(monkeypatch)
    assert not app._telemetry_enabled()
    telemetry.on = True
    clock[0] += web_app.TELEMETRY_RECHECK
    assert app._telemetry_enabled()
    telemetry.on = False  # once on, it stays on: a provider is set once
    clock[0] += web_app.TELEMETRY_RECHECK
    assert app._telemetry_enabled()
    assert telemetry.asked == 2
