"""The tools of every server but one: the names a server's text or a new tool could point at or imitate.

Pure. `tool_owners` maps each tool name (as its server lists it) to the
first server that lists it, built once for all servers; `OtherTools` is that
map seen from one server, without copying it: every name another server
lists, except the names the server lists itself (its own tool, whoever else
has one of that name). A name several servers list is there once, under the
first of them, for every server that does not list it: none is lost, and
what a view holds does not depend on the order the servers were listed in.
The poisoning scan looks a server's prose up in it (does it name another
server's tool?), and a new tool's name is compared with it (is it close to
another server's tool?).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import Any

__all__ = ["OtherTools", "tool_owners"]


def tool_owners(by_server: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """Tool name → the first server (in `by_server`'s order) that lists it."""
    owners: dict[str, str] = {}
    for server, names in by_server.items():
        for name in names:
            owners.setdefault(name, server)
    return owners


class OtherTools(Mapping[str, str]):
    """Tool name → server, for the tools of the servers other than one.

    Args:
        owners: every server's tool names, as `tool_owners` maps them.
        own: the names the one server lists (each of them a key of `owners`).
    """

    __slots__ = ("_own", "_owners")

    def __init__(self, owners: Mapping[str, str], own: Collection[str]) -> None:
        self._owners = owners
        self._own = own

    @classmethod
    def of(cls, by_server: Mapping[str, Collection[str]], server: str) -> OtherTools:
        """The tools of every server in `by_server` but `server` (builds the owners: one view only)."""
        return cls(tool_owners(by_server), by_server.get(server, ()))

    def __getitem__(self, name: str) -> str:
        if name in self._own:
            raise KeyError(name)
        return self._owners[name]

    def __contains__(self, name: object) -> bool:
        return name in self._owners and name not in self._own

    def get(self, name: str, default: Any = None) -> Any:
        """The server of another server's tool `name`, else `default` (without raising on a miss)."""
        if name in self._own:
            return default
        return self._owners.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return (name for name in self._owners if name not in self._own)

    def __len__(self) -> int:
        return len(self._owners) - len(self._own)
