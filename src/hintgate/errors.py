"""hintgate's one exception tree.

Errors from dependencies (pydantic, yaml, the MCP SDK, httpx, sqlalchemy) are
translated into these at the boundary where they enter, and into MCP errors in
exactly one place (the gateway). Every error says what was wrong and where.

```
HintgateError
├── AnnotationError
│   └── HintTypeError
├── ConfigError
├── TargetError
│   ├── UpstreamError
│   │   ├── UpstreamStartError
│   │   ├── UpstreamDown
│   │   ├── UpstreamTimeout
│   │   ├── UpstreamClosed
│   │   ├── UpstreamProtocolError
│   │   ├── UpstreamRequestError
│   │   └── UpstreamNeedsLogin
│   ├── ToolsFileError
│   └── PackageInstallError
├── RegistryError
│   ├── NotInRegistry
│   └── ServerJsonError
├── OAuthLoginError
├── ExpectFileError
├── BaselineFileError
├── ListenError
├── StoreError
├── IdentityError
└── NotAnApprover
```
"""

from __future__ import annotations

from typing import Any


class HintgateError(Exception):
    """The root of every error hintgate raises on purpose."""


class AnnotationError(HintgateError):
    """A tool's annotations cannot be read."""


class HintTypeError(AnnotationError):
    """A hint holds a value of the wrong type (hints are booleans, title a string)."""

    def __init__(self, tool: str, field: str, value: Any) -> None:
        self.tool = tool
        self.field = field
        self.value = value
        expected = "a string" if field == "title" else "true or false"
        super().__init__(f"tool {tool!r}: annotations.{field} must be {expected}, got {type(value).__name__} {value!r}")


class ConfigError(HintgateError):
    """A configuration file is missing, unreadable or invalid."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        path: str | None = None,
        others: tuple[tuple[str | None, str], ...] = (),
    ) -> None:
        self.file = file
        self.path = path
        self.message = message
        self.others = others  # further problems of the same file, as (path, message)
        where = ", ".join(part for part in (file, f"at {path}" if path else None) if part)
        super().__init__(f"{where}: {message}" if where else message)


class TargetError(HintgateError):
    """The tools of a lint or infer target cannot be obtained."""


class ToolsFileError(TargetError):
    """A JSON file meant to hold a tools/list result does not."""


class PackageInstallError(TargetError):
    """A registry server's package could not be installed here to be tried (npm, pip, a missing runtime)."""


class UpstreamError(TargetError):
    """An MCP server hintgate talks to failed."""

    def __init__(self, message: str, *, server: str | None = None) -> None:
        self.server = server
        self.detail = message
        super().__init__(f"server {server!r}: {message}" if server else message)


class UpstreamStartError(UpstreamError):
    """An MCP server could not be started or connected to."""


class UpstreamDown(UpstreamError):
    """A call was made to a server that is not up (it failed and waits to restart)."""


class UpstreamTimeout(UpstreamError):
    """An MCP server did not answer in time."""


class UpstreamClosed(UpstreamError):
    """An MCP server's connection ended (the process exited or the stream closed)."""


class UpstreamProtocolError(UpstreamError):
    """An MCP server sent something that is not valid JSON-RPC or not valid MCP."""


class UpstreamRequestError(UpstreamError):
    """An MCP server answered a request with a JSON-RPC error.

    Attributes:
        code: the JSON-RPC error code, as the server sent it.
        message: the server's own message, as it sent it (the exception's text adds the code).
        data: the error's `data`, as sent (None when absent).
    """

    def __init__(self, message: str, *, code: int, data: Any = None, server: str | None = None) -> None:
        self.code = code
        self.message = message
        self.data = data
        super().__init__(f"{message} (JSON-RPC error {code})", server=server)


class UpstreamNeedsLogin(UpstreamError):
    """A server behind OAuth has no usable token: someone must log in (`hintgate auth login`)."""


class InputRequired(HintgateError):
    """A call needs the client's answer first; a 2026-07-28 client is asked in the call's result.

    The pipeline answers the call with an `InputRequiredResult` carrying `requests`
    (key → `{"method": ..., "params": ...}`) and records nothing: the client calls again
    with its `inputResponses`, and that call is the one on record. An approval the call
    got in this request travels in the result's `requestState` for `open_for` seconds.
    """

    def __init__(self, message: str, requests: dict[str, Any], *, open_for: float | None = None) -> None:
        self.requests = requests
        self.open_for = open_for
        """Seconds the question stays answerable (None: the policy's `approvalTimeout`)."""
        super().__init__(message)


class RegistryError(HintgateError):
    """An MCP registry could not be reached, did not have the server asked for, or answered something unusable."""


class NotInRegistry(RegistryError):
    """The registry has no server by the name asked for (or the name is not a registry name)."""


class ServerJsonError(RegistryError):
    """A server.json lacks a field, or holds a value hintgate refuses; `path` is its JSON path.

    Attributes:
        path: where in the registry's answer (`$.servers[2].server.packages[0].identifier`).
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"{path}: {message}")


class OAuthLoginError(HintgateError):
    """Logging in to a server behind OAuth failed (discovery, registration, consent or token exchange)."""


class ExpectFileError(HintgateError):
    """A lint --expect file is missing or malformed."""


class BaselineFileError(HintgateError):
    """A lint --baseline file is missing or malformed, or an entry gives no reason."""


class ListenError(HintgateError):
    """The address to serve on cannot be bound: in use, not allowed, or not this machine's."""


class StoreError(HintgateError):
    """The database cannot be opened, read or written."""


class IdentityError(HintgateError):
    """A bearer token is not one the identity provider issued for this gateway, or its keys cannot be had."""


class NotAnApprover(HintgateError):
    """The person answering an approval may not answer it: not among its approvers, or it is their own call."""
