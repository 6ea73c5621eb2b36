"""An HTTP request whose headers are read without an exception for each one it does not carry.

Starlette's `Headers.get` is `Mapping.get`: it looks the name up through
`__getitem__`, which raises `KeyError` for a header the request lacks, and
catches it. The middlewares in front of `/mcp` ask for a dozen headers per
request, several of them absent (`Origin`, `HX-Request`, a cookie), so every
call paid for those exceptions. Here the same lookup (the name lowercased,
the raw header list searched in order, the first match) returns the default
instead.
"""

from __future__ import annotations

from typing import Any, overload

from starlette.datastructures import Headers
from starlette.requests import Request

__all__ = ["HttpRequest"]


_RAW_NAMES: dict[str, bytes] = {}
"""Each name asked for, as the raw header list spells it (lowercased, latin-1): the same dozen names are asked for
by every request, and lowercasing and encoding each cost as much as the search."""
_RAW_NAMES_KEPT = 256


class _Headers(Headers):
    @overload
    def get(self, key: str) -> str | None: ...
    @overload
    def get(self, key: str, default: Any) -> Any: ...
    def get(self, key: str, default: Any = None) -> Any:
        wanted = _RAW_NAMES.get(key)
        if wanted is None:
            wanted = key.lower().encode("latin-1")
            if len(_RAW_NAMES) < _RAW_NAMES_KEPT:
                _RAW_NAMES[key] = wanted
        for name, value in self._list:
            if name == wanted:
                return value.decode("latin-1")
        return default


class HttpRequest(Request):
    """A Starlette `Request` whose `headers.get` answers a missing header with its default, not by an exception."""

    @property
    def headers(self) -> Headers:
        headers = self.__dict__.get("_headers")
        if headers is None:
            headers = self._headers = _Headers(scope=self.scope)
        return headers
