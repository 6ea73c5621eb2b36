"""The gateway's own places, as a call's arguments may name them: its listening address and its data directory.

A tool that can send HTTP requests or read files (a fetcher, a browser, a
shell) can be pointed by the model at the gateway itself: its REST API
changes the mode and adds servers, its data directory holds the API token and
the database. `OwnPlaces.named_in` finds such a reference in a call's
arguments, and the policy asks about the call whatever the mode
(`CallFacts.names_gateway`).

An address counts in any spelling that reaches this machine: `localhost`,
any of 127.0.0.0/8 (also in the short and numeric forms `127.1`,
`2130706433`, `0x7f.0.0.1` that resolvers accept), `0.0.0.0`, `[::1]`,
`[::]`, `[::ffff:127.0.0.1]`, and the address the gateway is bound to, each
with one of its listening ports; percent-encoded text is read decoded too.
The data directory counts as its path (resolved, and under `~` when it is
below the home directory). Pure: strings in, a reason out.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

__all__ = ["OwnPlaces"]

# host:port, the host bracketed (IPv6) or a name or IPv4-ish word.
_HOST_PORT = re.compile(r"(?:\[([0-9A-Za-z:.%]+)\]|([0-9A-Za-z_.-]+)):(\d{1,5})(?!\d)")
_MAX_DEPTH = 64  # arguments nested deeper than this are not walked further (a JSON document rarely is)


def _loopback_or_wildcard(host: str) -> bool:
    """Whether `host` (a name or an address, brackets removed) reaches this machine from itself."""
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name.partition("%")[0])
    except ValueError:
        try:
            # The legacy IPv4 forms resolvers take: 127.1, 2130706433, 0x7f.0.0.1.
            address = ipaddress.IPv4Address(socket.inet_aton(name))
        except (OSError, ValueError):
            return False
    mapped = getattr(address, "ipv4_mapped", None)
    if mapped is not None:
        address = mapped
    return address.is_loopback or address.is_unspecified


@dataclass(frozen=True, slots=True)
class OwnPlaces:
    """Where the gateway is: the ports it listens on, the address it is bound to, its data directory.

    Attributes:
        ports: the TCP ports it listens on (the MCP endpoint, REST API and dashboard, /metrics).
        hosts: the addresses it is bound to (lower case, without brackets), besides the loopback spellings.
        paths: its data directory, as the spellings a path argument may use (absolute, `~/...`).
    """

    ports: frozenset[int] = frozenset()
    hosts: frozenset[str] = frozenset()
    paths: tuple[str, ...] = ()

    @classmethod
    def of_data_dir(cls, data_dir: str, home: str | None = None) -> OwnPlaces:
        """The places of a gateway whose data directory is `data_dir` (absolute), spelled also under `~`."""
        path = data_dir.rstrip("/") or "/"
        paths = [path]
        if home and home.rstrip("/") and path.startswith(home.rstrip("/") + "/"):
            paths.append("~" + path[len(home.rstrip("/")) :])
        return cls(paths=tuple(paths))

    def with_listener(self, host: str, port: int) -> OwnPlaces:
        """These places and a listener on HOST:PORT."""
        bare = host.strip("[]").lower()
        hosts = self.hosts if not bare or bare in ("0.0.0.0", "::") else self.hosts | {bare}
        return OwnPlaces(self.ports | {port}, hosts, self.paths)

    def named_in(self, arguments: Mapping[str, Any] | None) -> str | None:
        """Why a call with these arguments reaches the gateway itself, or None when nothing names it."""
        if not arguments or not (self.ports or self.paths):
            return None
        for text in _strings(arguments, 0):
            reason = self._named(text) or (self._named(unquote(text)) if "%" in text else None)
            if reason is not None:
                return reason
        return None

    def _named(self, text: str) -> str | None:
        if self.ports and ":" in text:
            for match in _HOST_PORT.finditer(text):
                host = match.group(1) or match.group(2)
                port = int(match.group(3))
                if port in self.ports and (_loopback_or_wildcard(host) or host.lower() in self.hosts):
                    return (
                        f"The arguments name this gateway's own address ({match.group(0)}): a tool pointed at "
                        "the gateway could read other clients' calls or change its settings, so this call asks, "
                        "in every mode."
                    )
        for path in self.paths:
            if path in text and re.search(re.escape(path) + r"(?![^/\s\"'`),;])", text):
                return (
                    f"The arguments name this gateway's data directory ({path}), which holds its API token and "
                    "database, so this call asks, in every mode."
                )
        return None


def _strings(value: Any, depth: int) -> Iterator[str]:
    """Every string in a JSON value: object keys and values, array items."""
    if isinstance(value, str):
        yield value
    elif depth < _MAX_DEPTH and isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str):
                yield key
            yield from _strings(item, depth + 1)
    elif depth < _MAX_DEPTH and isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item, depth + 1)
