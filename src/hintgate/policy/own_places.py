"""The gateway's own places, as a call's arguments may name them: its listening address and its data directory.

A tool that can send HTTP requests or read files (a fetcher, a browser, a
shell) can be pointed by the model at the gateway itself: its REST API
changes the mode and adds servers, its data directory holds the API token and
the database. `OwnPlaces.named_in` finds such a reference in a call's
arguments (every string in them, object keys included), and the policy asks
about the call whatever the mode (`CallFacts.names_gateway`).

An address counts in any spelling a client library takes to this machine. A
URL is read with a URL parser (`urllib.parse`), and any `HOST:PORT` in a text
too, and both are compared as a normalised host and an integer port, so
`:08765` is port 8765. The host counts when it is `localhost` (or a name
under it), any of 127.0.0.0/8 (also in the short and numeric forms `127.1`,
`2130706433`, `0x7f.0.0.1` that resolvers accept), `0.0.0.0`, `[::1]`, `[::]`,
`[::ffff:127.0.0.1]`, an address the gateway is bound to, or a name the
composition root gave as the machine's own (its hostname and addresses when
the gateway is bound to all of them, names `/etc/hosts` gives a loopback or
bound address). A URL without a port counts with its scheme's default port.
Each text is also read percent-decoded, with tabs and line breaks removed
(WHATWG URL parsers drop them), backslashes read as slashes and compatibility
characters folded (full-width digits and letters, as IDNA maps them).

The data directory counts as its path, given and real (symlinks resolved, as
the composition root found it), named in a text in any lexical spelling:
`//`, `/./` and `dir/..` are collapsed, and `~/`, `~USER/`, `$HOME/` and
`${HOME}/` read as the home directory. No path of an argument is looked up on
disk (a lookup on a hung mount would stop the event loop), so a symlink
elsewhere that leads into the data directory is not recognised. Pure: strings
in, a reason out.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

__all__ = ["OwnPlaces", "canonical_host"]

# host:port anywhere in a text: the host bracketed (IPv6) or a run of characters a host may hold; the port any
# run of digits (leading zeros included), read as an integer.
_HOST_PORT = re.compile(r"(?:\[([^\]\s/\\]*)\]|([^\s:/\\@\[\]\"'<>`(){},;|=?#]+)):(\d+)(?!\d)")
# A URL with a scheme: WHATWG parsers take any number of slashes or backslashes (none too) after a special scheme.
_URL = re.compile(r"(?i)(?<![a-z0-9+.-])(https?|wss?|ftp):[/\\]*([^\s/\\?#\"'<>`]*)")
_DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443, "ftp": 21}
# What a second reading of a text undoes: percent-encoding, tabs and line breaks, backslashes (and, in a text
# beyond ASCII, compatibility forms).
_DISGUISES = "%\t\r\n\\"
_DISGUISED = re.compile(f"[{re.escape(_DISGUISES)}]").search
"""Whether a text holds one of `_DISGUISES` (one search, not a scan per character)."""
_LINE_BREAKS = str.maketrans("", "", "\t\r\n")
_FULL_STOPS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
_MAX_DEPTH = 64  # arguments nested deeper than this are not walked further (a JSON document rarely is)
_HOME_SPELLING = re.compile(r"(?<![\w~$])(~[\w.-]*|\$HOME|\$\{HOME\})(?=/)")


def canonical_host(host: str) -> str:
    """A host as a comparison key: an address in its standard form (IPv4-mapped IPv6 as IPv4), else the name.

    Names are folded as IDNA maps them (compatibility forms, case, ideographic full stops) and lose their
    trailing dot; an IPv6 zone (`%eth0`) is dropped.
    """
    name = unicodedata.normalize("NFKC", host.strip("[]")).translate(_FULL_STOPS).lower().rstrip(".")
    name = name.partition("%")[0] if ":" in name else name
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(name)
    except ValueError:
        if not name or not name[0].isdigit():
            return name
        try:
            # The legacy IPv4 forms resolvers take: 127.1, 2130706433, 0x7f.0.0.1, 0177.0.0.1.
            address = ipaddress.IPv4Address(socket.inet_aton(name))
        except (OSError, ValueError):
            return name
    mapped = getattr(address, "ipv4_mapped", None)
    return str(mapped if mapped is not None else address)


def _loopback_or_wildcard(host: str) -> bool:
    """Whether `host` (canonical) reaches this machine from itself."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def _port(digits: str) -> int | None:
    """A port from a run of digits (any number of leading zeros), or None when it is no port."""
    significant = digits.lstrip("0") or "0"
    return int(significant) if len(significant) <= 5 else None


def _normalised_path(text: str, homes: Mapping[str, str]) -> str:
    """`text` with `~`, `$HOME` expanded, and every `//`, `/./` and `dir/..` collapsed, as a path would be.

    Linear: one pass over the text's segments between slashes, with a stack for `..`.
    """
    if homes and ("~" in text or "$" in text):
        text = _HOME_SPELLING.sub(lambda found: homes.get(found.group(1), found.group(0)), text)
    if "/" not in text or ("//" not in text and "/." not in text and not text.endswith("/")):
        return text  # no empty, `.` or `..` segment after the first: nothing to collapse
    kept: list[str] = []
    for index, segment in enumerate(text.split("/")):
        if index and segment in ("", "."):
            continue
        if index and segment == "..":
            if kept and kept[-1] not in ("", ".."):
                kept.pop()
            elif kept != [""]:  # above a relative start it stays; above the root there is nothing
                kept.append(segment)
            continue
        kept.append(segment)
    joined = "/".join(kept)
    return joined if joined else ("/" if text.startswith("/") else "")


@dataclass(frozen=True, slots=True)
class OwnPlaces:
    """Where the gateway is: the ports it listens on, the hosts that reach it, its data directory.

    Attributes:
        ports: the TCP ports it listens on (the MCP endpoint, REST API and dashboard, /metrics).
        hosts: hosts that reach it beside the loopback spellings, canonical (`canonical_host`): the
            addresses it is bound to, and the machine's names and addresses the composition root gave.
        paths: its data directory, normalised: as given and its real path.
        homes: how a path argument may spell the home directory (`~`, `~USER`, `$HOME`, `${HOME}`) → the home.
    """

    ports: frozenset[int] = frozenset()
    hosts: frozenset[str] = frozenset()
    paths: tuple[str, ...] = ()
    homes: Mapping[str, str] = field(default_factory=dict)
    _digits: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _by_default: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A text that holds none of the ports' digits names none of them but by a scheme's default port: most
        # arguments are ruled out without parsing (leading zeros keep the digits; the second reading folds
        # full-width ones and drops a tab inside).
        object.__setattr__(self, "_digits", tuple(str(port) for port in sorted(self.ports)))
        object.__setattr__(self, "_by_default", not self.ports.isdisjoint(_DEFAULT_PORTS.values()))

    @classmethod
    def of_data_dir(
        cls,
        data_dir: str,
        home: str | None = None,
        *,
        user: str | None = None,
        real: str | None = None,
    ) -> OwnPlaces:
        """The places of a gateway whose data directory is `data_dir` (absolute).

        Args:
            data_dir: the data directory as configured (absolute).
            home: the home directory, which arguments may spell `~`, `~USER`, `$HOME` or `${HOME}`.
            user: the login name (`~USER`).
            real: the data directory's real path (symlinks resolved), which counts too.
        """
        homes: dict[str, str] = {}
        if home and home.rstrip("/"):
            bare = _normalised_path(home, {}).rstrip("/") or "/"
            homes = {"~": bare, "$HOME": bare, "${HOME}": bare}
            if user:
                homes[f"~{user}"] = bare
        paths = [_normalised_path(data_dir, homes).rstrip("/") or "/"]
        if real is not None:
            resolved = _normalised_path(real, {}).rstrip("/") or "/"
            if resolved not in paths:
                paths.append(resolved)
        return cls(paths=tuple(paths), homes=homes)

    def with_listener(self, host: str, port: int, machine: Iterable[str] = ()) -> OwnPlaces:
        """These places and a listener on HOST:PORT; `machine` names other hosts that reach it.

        Args:
            host: the address it is bound to (a wildcard `0.0.0.0` or `::` adds nothing by itself).
            port: the port it listens on.
            machine: hostnames and addresses that reach the listener (the composition root's
                `hintgate.cli.machine.reaching`: with a wildcard, the machine's own).
        """
        bare = canonical_host(host)
        hosts = {canonical_host(name) for name in machine if name}
        if bare and not _loopback_or_wildcard(bare):
            hosts.add(bare)
        return OwnPlaces(self.ports | {port}, self.hosts | hosts, self.paths, self.homes)

    def named_in(self, arguments: Mapping[str, Any] | None) -> str | None:
        """Why a call with these arguments reaches the gateway itself, or None when nothing names it."""
        if not arguments or not (self.ports or self.paths):
            return None
        for text in _strings(arguments, 0):
            reason = self._named(text)
            if reason is None and (not text.isascii() or _DISGUISED(text) is not None):
                reason = self._named(_undisguised(text))
            if reason is not None:
                return reason
        return None

    def _named(self, text: str) -> str | None:
        if self.ports and ":" in text and (self._by_default or any(digits in text for digits in self._digits)):
            found = self._address_in(text)
            if found is not None:
                return (
                    f"The arguments name this gateway's own address ({found}): a tool pointed at the gateway "
                    "could read other clients' calls or change its settings, so this call asks, in every mode."
                )
        if self.paths and "/" in text:
            found = self._path_in(text)
            if found is not None:
                return (
                    f"The arguments name this gateway's data directory ({found}), which holds its API token and "
                    "database, so this call asks, in every mode."
                )
        return None

    def _reaches(self, host: str, port: int | None) -> bool:
        if port is None or port not in self.ports:
            return False
        canonical = canonical_host(host)
        return _loopback_or_wildcard(canonical) or canonical in self.hosts

    def _address_in(self, text: str) -> str | None:
        """The first spelling of a listening address in `text`: a URL's host and port, or a `HOST:PORT`."""
        for match in _URL.finditer(text):
            scheme, authority = match.group(1).lower(), match.group(2)
            try:
                parts = urlsplit(f"{scheme}://{authority}")
                port = parts.port
            except ValueError:  # a port out of range or not a number: the HOST:PORT reading below has its say
                continue
            host = parts.hostname
            if host is not None and self._reaches(host, port if port is not None else _DEFAULT_PORTS[scheme]):
                return match.group(0)
        for match in _HOST_PORT.finditer(text):
            host = match.group(1) if match.group(1) is not None else match.group(2)
            if self._reaches(host, _port(match.group(3))):
                return match.group(0)
        return None

    def _path_in(self, text: str) -> str | None:
        """The data directory's path, when `text` names it or a path inside it."""
        normalised = _normalised_path(text, self.homes)
        for path in self.paths:
            if path in normalised and re.search(re.escape(path) + r"(?![^/\s\"'`),;])", normalised):
                return path
        return None


def _undisguised(text: str) -> str:
    """`text` as a URL parser or a shell would read it: percent-decoded, tabs and line breaks dropped,
    backslashes as slashes, compatibility characters folded (NFKC)."""
    if "%" in text:
        text = unquote(text)
    return unicodedata.normalize("NFKC", text.translate(_LINE_BREAKS).replace("\\", "/")).translate(_FULL_STOPS)


def _strings(value: Any, depth: int) -> Iterator[str]:
    """Every string in a JSON value: object keys and values, array items."""
    if isinstance(value, str):
        yield value
    elif depth < _MAX_DEPTH and (value.__class__ is dict or isinstance(value, Mapping)):
        for key, item in value.items():
            if isinstance(key, str):
                yield key
            yield from _strings(item, depth + 1)
    elif depth < _MAX_DEPTH and isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item, depth + 1)
