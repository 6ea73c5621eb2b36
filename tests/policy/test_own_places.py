"""The gateway's own places in a call's arguments: its address in any loopback spelling, its data directory."""

from __future__ import annotations

import pytest

from hintgate.policy.own_places import OwnPlaces

PLACES = OwnPlaces.of_data_dir("/home/ada/.local/share/hintgate", "/home/ada").with_listener("127.0.0.1", 8765)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8765/api/calls",
        "http://localhost:8765/api/policy",
        "HTTP://LOCALHOST:8765/",
        "http://localhost.:8765/",
        "http://[::1]:8765/mcp",
        "http://[0:0:0:0:0:0:0:1]:8765/",
        "http://[::ffff:127.0.0.1]:8765/",
        "http://0.0.0.0:8765/api/servers",
        "http://127.8.9.10:8765/",
        "http://127.1:8765/",
        "http://2130706433:8765/",
        "http://0x7f.0.0.1:8765/",
        "http://app.localhost:8765/",
        "127.0.0.1:8765",
        "http%3A%2F%2F127.0.0.1%3A8765%2Fapi%2Fcalls",
        'curl -X PATCH localhost:8765/api/policy -d \'{"mode": "bypass"}\'',
    ],
)
def test_the_gateways_address_is_found_in_any_loopback_spelling(url: str) -> None:
    reason = PLACES.named_in({"request": {"url": url}})
    assert reason is not None
    assert "own address" in reason
    assert "asks, in every mode" in reason


@pytest.mark.parametrize(
    "arguments",
    [
        {"url": "http://127.0.0.1:8766/"},  # another port
        {"url": "http://127.0.0.1:87650/"},
        {"url": "http://example.com:8765/"},  # another host
        {"url": "http://10.0.0.8:8765/"},
        {"text": "the meeting is at 12:30, room 8765"},
        {"path": "/home/ada/.local/share/hintgate-notes/todo.md"},  # a sibling, not the data directory
        {"count": 8765},
    ],
)
def test_other_addresses_and_paths_are_not_the_gateway(arguments: dict[str, object]) -> None:
    assert PLACES.named_in(arguments) is None


@pytest.mark.parametrize(
    "path",
    ["/home/ada/.local/share/hintgate/api-token", "~/.local/share/hintgate", "cat ~/.local/share/hintgate/hintgate.db"],
)
def test_the_data_directory_is_found_absolute_or_under_home(path: str) -> None:
    reason = PLACES.named_in({"commands": [path]})
    assert reason is not None
    assert "data directory" in reason


def test_an_address_the_gateway_is_bound_to_beyond_loopback_counts_too() -> None:
    places = OwnPlaces().with_listener("192.168.1.20", 9000)
    assert places.named_in({"url": "http://192.168.1.20:9000/api/calls"}) is not None
    assert places.named_in({"url": "http://localhost:9000/"}) is not None
    assert places.named_in({"url": "http://192.168.1.21:9000/"}) is None


def test_a_gateway_without_places_finds_nothing() -> None:
    assert OwnPlaces().named_in({"url": "http://127.0.0.1:8765/"}) is None


@pytest.mark.parametrize(
    "arguments",
    [
        {"requests": {"http://127.0.0.1:8765/api/policy": {"method": "PATCH"}}},
        {"headers": [{"localhost:8765": "Host"}]},
        {"files": {"~/.local/share/hintgate/api-token": "read"}},
    ],
)
def test_an_argument_key_naming_the_gateway_counts_as_a_value_does(arguments: dict[str, object]) -> None:
    # A tool taking a map of URLs or paths to options reads its keys as places as surely as its values.
    assert PLACES.named_in(arguments) is not None
