"""The names and addresses that reach a listener of this machine, beside the loopback spellings.

A call naming the gateway asks (`hintgate.policy.own_places`); which hosts
name it depends on where it listens. Bound to every address (`0.0.0.0`,
`::`), the machine's hostname (and `HOSTNAME.local`), its canonical name and
every address of every interface reach it; bound to one address, that address
does. Either way the names `/etc/hosts` gives a loopback address or a
reaching one reach it too (`localhost.localdomain`, `ip6-localhost`, the
hostname on its `127.0.1.1` line). Reading them does I/O (a name lookup, the
interfaces): `reaching` is run once per listener, off the event loop.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from collections.abc import Iterable
from pathlib import Path

__all__ = ["reaching"]

logger = logging.getLogger("hintgate")

_HOSTS_FILE = Path("/etc/hosts")
_MAX_HOSTS_BYTES = 1 << 20  # a hosts file larger than this is read no further (blocklists run to a few MB)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.partition("%")[0])
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped if mapped is not None else address


def _interface_addresses() -> set[str]:
    """Every address of every interface of this machine (psutil), or none when it cannot tell."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil is a dependency
        return set()
    found: set[str] = set()
    try:
        interfaces = psutil.net_if_addrs()
    except OSError as exc:
        logger.warning("could not list this machine's network interfaces (%s): only its hostname counts", exc)
        return found
    for addresses in interfaces.values():
        for entry in addresses:
            if entry.family in (socket.AF_INET, socket.AF_INET6) and entry.address:
                found.add(entry.address.partition("%")[0])
    return found


def _resolved(name: str) -> tuple[set[str], str | None]:
    """The addresses `name` resolves to here, and its canonical name."""
    try:
        infos = socket.getaddrinfo(name, None, type=socket.SOCK_STREAM, flags=socket.AI_CANONNAME)
    except (OSError, UnicodeError):
        return set(), None
    canonical = next((info[3] for info in infos if info[3]), None)
    return {str(info[4][0]).partition("%")[0] for info in infos}, canonical


def _hosts_file_names(reach: Iterable[str], hosts_file: Path) -> set[str]:
    """The names `hosts_file` gives a loopback address or one of `reach`."""
    addresses = {a for a in (_address(text) for text in reach) if a is not None}
    try:
        with hosts_file.open("rb") as handle:
            text = handle.read(_MAX_HOSTS_BYTES).decode("utf-8", "replace")
    except OSError:
        return set()
    names: set[str] = set()
    for line in text.splitlines():
        fields = line.partition("#")[0].split()
        if len(fields) < 2:
            continue
        address = _address(fields[0])
        if address is not None and (address.is_loopback or address in addresses):
            names.update(name.lower() for name in fields[1:])
    return names


def reaching(host: str, *, hosts_file: Path = _HOSTS_FILE) -> tuple[str, ...]:
    """Hostnames and addresses besides the loopback spellings that reach a listener bound to `host`.

    Args:
        host: the address the listener is bound to (brackets allowed); `0.0.0.0`, `::` or empty: every one.
        hosts_file: the hosts file to read (`/etc/hosts`).
    """
    bare = host.strip("[]")
    found: set[str] = set()
    bound = _address(bare) if bare else None
    if not bare or (bound is not None and bound.is_unspecified):
        hostname = socket.gethostname()
        addresses, canonical = _resolved(hostname)
        found.update(addresses | _interface_addresses())
        found.update(name for name in (hostname, f"{hostname}.local", canonical) if name)
    elif bound is not None:
        found.add(str(bound))
    else:  # bound by name: the name and what it resolves to
        addresses, canonical = _resolved(bare)
        found.update(addresses)
        found.update(name for name in (bare.lower(), canonical) if name)
    found.update(_hosts_file_names(found, hosts_file))
    return tuple(sorted(found))
