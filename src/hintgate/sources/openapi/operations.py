"""What an OpenAPI document becomes: its operations as values.

`hintgate.sources.openapi.convert` makes these from a document; the HTTP layer
(`hintgate.sources.openapi.source`) reads them to build each request.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from hintgate.sources.openapi.schema import Problem

__all__ = [
    "Body",
    "Location",
    "Operation",
    "Parameter",
    "ToolSet",
]

Location = Literal["path", "query", "header", "cookie"]
"""Where a parameter travels."""


@dataclass(frozen=True, slots=True)
class Parameter:
    """How one tool argument travels: where, under which name, serialized how.

    Attributes:
        name: the parameter's name on the wire.
        location: path, query, header or cookie.
        arg: its argument name in the tool's input schema.
        required: whether the call must give it.
        style: the OpenAPI serialization style (form, simple, label, matrix,
            spaceDelimited, pipeDelimited, tabDelimited, deepObject).
        explode: whether arrays and objects become separate parameters.
        allow_reserved: whether reserved characters are left unencoded (query only).
        as_json: the parameter has `content` with a JSON media type: send the value as JSON text.
    """

    name: str
    location: Location
    arg: str
    required: bool = False
    style: str = "form"
    explode: bool = True
    allow_reserved: bool = False
    as_json: bool = False


@dataclass(frozen=True, slots=True)
class Body:
    """How a request body is built from the arguments.

    Attributes:
        media_type: the content type sent.
        arg: the argument holding the whole body, or None when the body
            object's properties are arguments of their own (`fields`).
        fields: the argument names that make up the body when `arg` is None.
        required: whether the call must send a body.
        encoding: per form field, its (style, explode) from the document's `encoding`.
        binary: form fields whose format is binary (sent as files in multipart).
    """

    media_type: str
    arg: str | None
    fields: tuple[str, ...] = ()
    required: bool = False
    encoding: Mapping[str, tuple[str, bool]] = field(default_factory=dict)
    binary: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Operation:
    """One OpenAPI operation and the tool it became.

    Attributes:
        name: the tool's name (valid per the MCP spec, unique in the document).
        method: the HTTP method, upper case.
        path: the path template (`/pet/{petId}`).
        operation_id: the document's operationId, if any.
        tags: its tags.
        parameters: its parameters, path-level ones merged in.
        body: its request body, if any.
        declared: its `x-mcp-annotations` extension as written, if any.
        tool: the MCP tool JSON object (name, title, description, schemas, `_meta`).
        pointer: where it is in the document (`$.paths./pet.get`).
    """

    name: str
    method: str
    path: str
    operation_id: str | None
    tags: tuple[str, ...]
    parameters: tuple[Parameter, ...]
    body: Body | None
    declared: Mapping[str, Any] | None
    tool: Mapping[str, Any]
    pointer: str


@dataclass(frozen=True, slots=True)
class ToolSet:
    """What a document became.

    Attributes:
        source: the document's name in messages (its file or URL).
        version: the specification version it declares (`3.0.0`, `3.1.0`, `2.0`).
        title: its `info.title`.
        servers: the base URLs it names (OpenAPI 3 `servers`, Swagger 2 scheme/host/basePath).
        operations: the converted operations in document order.
        skipped: operations that could not be converted, with why.
        warnings: things converted with a compromise.
    """

    source: str
    version: str
    title: str
    servers: tuple[str, ...]
    operations: tuple[Operation, ...]
    skipped: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()

    def by_name(self) -> dict[str, Operation]:
        """The operations keyed by tool name."""
        return {op.name: op for op in self.operations}
