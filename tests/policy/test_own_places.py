"""The gateway's own places in a call's arguments: its address in any loopback spelling, its data directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hintgate.policy.own_places import OwnPlaces

PLACES = OwnPlaces.of_data_dir("/home/ada/.local/share/hintgate", "/home/ada", user="ada").with_listener(
    "127.0.0.1", 8765
)


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
        # The port read as an integer, as URL parsers read it: leading zeros name the same port.
        "http://127.0.0.1:00008765/api/calls",
        "localhost:08765/api/policy",
        "http://[::1]:0000000008765/",
        # What WHATWG URL parsers (browsers, Node's fetch) and curl take as the same URL.
        "http:127.0.0.1:8765/api/calls",
        "http:\\\\127.0.0.1:8765\\api\\calls",
        "http://127.0.0.1:87\n65/api/calls",
        "http://127.0.0.1:87\t65/",
        "http://%31%32%37.0.0.1:8765/",
        "http://user:secret@127.0.0.1:8765/api/calls",
        "http://0:8765/",
        "http://0177.0.0.1:8765/",
        "http://[::ffff:7f00:1]:8765/",
        "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54:8765/",
        "http://\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11:\uff18\uff17\uff16\uff15/",
        "gopher://127.0.0.1:8765/_GET%20/api/calls",
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
        {"url": "http://127.0.0.1:8765000/"},
        {"url": "http://localhost/"},  # port 80, not the gateway's
        {"url": "http://example.com:8765/"},  # another host
        {"url": "http://10.0.0.8:8765/"},
        {"text": "the meeting is at 12:30, room 8765"},
        {"path": "/home/ada/.local/share/hintgate-notes/todo.md"},  # a sibling, not the data directory
        {"path": "/home/ada/.local/share/hintgate/../hintgate-notes/todo.md"},
        {"path": "/home/ada/.local/share/hintgate-notes/../notes/todo.md"},
        {"path": "~bob/.local/share/hintgate"},  # another person's home
        {"count": 8765},
    ],
)
def test_other_addresses_and_paths_are_not_the_gateway(arguments: dict[str, object]) -> None:
    assert PLACES.named_in(arguments) is None


@pytest.mark.parametrize(
    "path",
    [
        "/home/ada/.local/share/hintgate/api-token",
        "~/.local/share/hintgate",
        "cat ~/.local/share/hintgate/hintgate.db",
        # Any lexical spelling a file tool or a shell reads as the same path.
        "/home/ada/.local//share/hintgate/api-token",
        "/home/ada/.local/./share/hintgate/api-token",
        "//home///ada/.local/share/hintgate",
        "/home/ada/.local/share/notes/../hintgate/api-token",
        "/home/ada/Documents/../../ada/.local/share/./hintgate/",
        "cat $HOME/.local/share/hintgate/api-token",
        "cat ${HOME}/.local//share/hintgate/api-token",
        "~ada/.local/share/hintgate/hintgate.db",
        "file:///home/ada/.local/share/hintgate/api-token",
        "file:///home/ada/.local/share/%68intgate/api-token",
    ],
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


def test_a_url_without_a_port_names_the_gateway_listening_on_its_schemes_default_port() -> None:
    places = OwnPlaces().with_listener("127.0.0.1", 80).with_listener("127.0.0.1", 443)
    assert places.named_in({"url": "http://localhost/api/calls"}) is not None
    assert places.named_in({"url": "https://127.0.0.1/api/calls"}) is not None
    assert places.named_in({"url": "http://example.com/"}) is None


def test_bound_to_every_address_the_machines_names_and_addresses_reach_it() -> None:
    places = OwnPlaces().with_listener("0.0.0.0", 9000, ["buildbox", "buildbox.local", "192.0.2.7", "fd00::7"])
    for url in (
        "http://buildbox:9000/",
        "http://BUILDBOX.local.:9000/",
        "http://192.0.2.7:09000/",
        "http://[fd00::7]:9000/",
    ):
        assert places.named_in({"url": url}) is not None, url
    assert places.named_in({"url": "http://192.0.2.8:9000/"}) is None
    assert places.named_in({"url": "http://otherbox:9000/"}) is None


def test_a_data_directory_given_through_a_symlink_is_named_by_its_real_path_too(tmp_path: Path) -> None:
    real_dir = tmp_path / "real" / "hintgate"
    real_dir.mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    given = tmp_path / "link" / "hintgate"
    places = OwnPlaces.of_data_dir(str(given), real=os.path.realpath(given))
    assert places.named_in({"path": str(real_dir / "api-token")}) is not None
    assert places.named_in({"path": str(given / "api-token")}) is not None
    assert places.named_in({"path": str(tmp_path / "real")}) is None  # a parent is not the directory


def test_a_long_argument_is_read_in_linear_time() -> None:
    # Nested `..` and long runs of slashes are collapsed in one pass, not one pass per level.
    deep = "/a" * 50_000 + "/.." * 50_000 + "/home/ada/.local/share/hintgate"
    assert PLACES.named_in({"path": deep}) is not None
    assert PLACES.named_in({"text": ("x:" * 100_000) + "8765"}) is None
