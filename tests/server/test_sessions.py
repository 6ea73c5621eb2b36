"""Client sessions: one per connection, or per client identity on the connectionless 2026-07-28 era."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hintgate.server.sessions import SessionTracker
from hintgate.session import ClientSession


class FakeConnection:
    def __init__(self) -> None:
        self.callbacks: list[Any] = []
        self.exit_stack = SimpleNamespace(callback=lambda fn, *args: self.callbacks.append((fn, args)))
        self.initialize_accepted = True

    def close(self) -> None:
        for fn, args in self.callbacks:
            fn(*args)


def ctx(connection: Any, version: str = "2025-11-25", name: str = "client", transport: Any = None) -> Any:
    info = SimpleNamespace(name=name, version="1.0")
    session = SimpleNamespace(_connection=connection, client_params=SimpleNamespace(client_info=info))
    return SimpleNamespace(session=session, protocol_version=version, request=transport)


def test_one_connection_is_one_session_closed_when_the_connection_ends() -> None:
    started: list[ClientSession] = []
    ended: list[ClientSession] = []
    tracker = SessionTracker(on_start=started.append, on_end=ended.append)
    connection = FakeConnection()
    first = tracker.for_request(ctx(connection))
    again = tracker.for_request(ctx(connection))
    assert first is again
    assert first.transport == "stdio"
    assert first.client_name == "client"
    assert tracker.connections() == [connection]
    connection.close()
    assert ended == [first]
    assert first.ended_at is not None
    assert not first.active
    assert list(tracker) == []


def test_modern_requests_of_one_client_share_a_session_until_it_goes_quiet() -> None:
    ended: list[ClientSession] = []
    tracker = SessionTracker(on_end=ended.append, idle_timeout=0.0, modern_versions=frozenset({"2026-07-28"}))
    first = tracker.for_request(ctx(None, "2026-07-28", transport=object()))
    assert first.transport == "http"
    tracker.expire()
    assert ended == [first]
    later = tracker.for_request(ctx(None, "2026-07-28", transport=object()))
    assert later is not first


def test_close_all_ends_every_session() -> None:
    ended: list[ClientSession] = []
    tracker = SessionTracker(on_end=ended.append, modern_versions=frozenset({"2026-07-28"}))
    tracker.for_request(ctx(FakeConnection()))
    tracker.for_request(ctx(None, "2026-07-28", name="other"))
    tracker.close_all()
    assert len(ended) == 2
    assert not any(s.active for s in ended)


def test_a_modern_session_serving_a_request_is_not_idle_however_long_the_request_takes() -> None:
    ended: list[ClientSession] = []
    tracker = SessionTracker(on_end=ended.append, idle_timeout=0.0, modern_versions=frozenset({"2026-07-28"}))
    request = ctx(None, "2026-07-28", transport=object())
    with tracker.serving(request) as session:
        tracker.expire()
        assert ended == []
        assert session.in_flight == 1
    tracker.expire()
    assert ended == [session]


def test_a_modern_session_holding_an_open_question_is_not_idle_until_the_question_expires() -> None:
    ended: list[ClientSession] = []
    tracker = SessionTracker(on_end=ended.append, idle_timeout=0.0, modern_versions=frozenset({"2026-07-28"}))
    session = tracker.for_request(ctx(None, "2026-07-28", transport=object()))
    session.hold(3600)
    tracker.expire()
    assert ended == []
    session.held_until = 0.0  # the question expired
    tracker.expire()
    assert ended == [session]


def test_an_http_request_finds_its_session_once_and_not_again_once_it_ended() -> None:
    tracker = SessionTracker()
    connection = FakeConnection()
    request = SimpleNamespace(scope={}, headers={})
    first = tracker.for_request(ctx(connection, transport=request))
    assert tracker.for_request(ctx(connection, transport=request)) is first
    assert request.scope["hintgate.session"] is first
    connection.close()
    assert first.ended_at is not None
    later = tracker.for_request(ctx(FakeConnection(), transport=request))
    assert later is not first
    assert later.ended_at is None
