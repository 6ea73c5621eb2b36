"""Python functions as MCP tools: `ToolDefinition`, the `@tool` decorator, and `ToolRegistry`.

```python
from hintgate.tooldef import ToolRegistry

registry = ToolRegistry()

@registry.tool(read_only_hint=True, category="notes", tags=["search"])
def search_notes(query: str, limit: int = 10) -> list[str]:
    \"\"\"Search the notes for a phrase.\"\"\"
    ...
```

A definition keeps the hints its author gave apart from the ones it did not:
`read_only_hint` and its siblings read as the MCP spec's defaults (false, true,
false, true) when not given, while `declared` holds only what was given, so
the gateway can say "declared" or "default" for each hint. With
`infer_hints=True` the hints not given are inferred from the name and
description (`hintgate.hints.inference`) instead of taking the defaults.

`to_mcp_schema()` is the MCP tool JSON with all four hints explicit;
`to_mcp_tool()` is what the gateway lists: only the declared
hints, so its resolution can tell them from inferred and default ones.
"""

from __future__ import annotations

import base64
import inspect
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypedDict, Unpack, overload

from hintgate.derived import Derived
from hintgate.hints.annotations import SPEC_DEFAULTS, Hint
from hintgate.results import tool_error

__all__ = ["MAX_LABEL", "MAX_TAGS", "PYTHON_META", "ToolDefinition", "ToolOptions", "ToolRegistry", "labels_of", "tool"]

PYTHON_META = "hintgate/python"
"""The `_meta` key under which `to_mcp_tool` lists a tool's category and tags (the gateway serves them as
`hintgate/category` and `hintgate/tags`)."""

_HINT_ARGS: Mapping[str, Hint] = {
    "read_only_hint": Hint.READ_ONLY,
    "destructive_hint": Hint.DESTRUCTIVE,
    "idempotent_hint": Hint.IDEMPOTENT,
    "open_world_hint": Hint.OPEN_WORLD,
}


def _hint_value(hint: Hint, doc: str) -> Derived[ToolDefinition, bool]:
    """One of the four hints as a read-only attribute of a definition: what `ToolDefinition.hint` says of it."""
    return Derived(lambda definition: definition.hint(hint), doc)


class ToolDefinition:
    """One tool: its name, description, handler, input schema, hints, title, category and tags.

    Args:
        name: the tool's name (letters, digits, `_`, `-`, `.`).
        description: what it does, for the model.
        handler: the function that runs it, sync or async; called with the
            arguments as keyword arguments.
        input_schema: its JSON Schema; built from the handler's type hints
            (via pydantic) when not given.
        read_only_hint: it changes nothing; None (not given) reads as false.
        destructive_hint: it may destroy data; None reads as true.
        idempotent_hint: repeating it changes nothing more; None reads as false.
        open_world_hint: it reaches outside systems; None reads as true.
        title: a human-friendly name (`annotations.title`).
        category: a free-form group name, for search.
        tags: free-form labels, for search.
        infer_hints: infer the hints not given from the name and description
            instead of taking the spec's defaults.
    """

    def __init__(
        self,
        name: str,
        description: str,
        handler: Callable[..., Any],
        input_schema: Mapping[str, Any] | None = None,
        *,
        read_only_hint: bool | None = None,
        destructive_hint: bool | None = None,
        idempotent_hint: bool | None = None,
        open_world_hint: bool | None = None,
        title: str | None = None,
        category: str | None = None,
        tags: Iterable[str] = (),
        infer_hints: bool = False,
    ) -> None:
        given = {
            "read_only_hint": read_only_hint,
            "destructive_hint": destructive_hint,
            "idempotent_hint": idempotent_hint,
            "open_world_hint": open_world_hint,
        }
        for arg, value in given.items():
            if value is not None and not isinstance(value, bool):
                raise TypeError(f"tool {name!r}: {arg} must be True, False or None, got {value!r}")
        self.name = name
        self.description = description
        self.handler = handler
        self.title = title
        self.category = category
        self.tags: list[str] = list(tags)
        self.infer_hints = infer_hints
        self.declared: dict[Hint, bool] = {_HINT_ARGS[a]: v for a, v in given.items() if v is not None}
        self._validator: Any = None
        if input_schema is None:
            self._validator, self.input_schema = _schema_from_hints(name, handler)
        else:
            self.input_schema = dict(input_schema)
        self._inferred: dict[Hint, bool] | None = None

    def __repr__(self) -> str:
        return f"ToolDefinition({self.name!r})"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the handler directly, as if undecorated."""
        return self.handler(*args, **kwargs)

    # -- hints

    def hint(self, hint: Hint) -> bool:
        """A hint's value: declared, else inferred (with `infer_hints`), else the spec's default.

        As the gateway resolves it: when the tool is read-only, destructive is
        false and idempotent true whatever was declared for them (a tool that
        changes nothing destroys nothing and can be repeated), so the schema
        it emits never pairs read-only with destructive (lint HG201).
        """
        if hint in (Hint.DESTRUCTIVE, Hint.IDEMPOTENT) and self._own(Hint.READ_ONLY):
            return hint is Hint.IDEMPOTENT
        return self._own(hint)

    def _own(self, hint: Hint) -> bool:
        """A hint's value on its own: declared, else inferred (with `infer_hints`), else the spec's default."""
        if hint in self.declared:
            return self.declared[hint]
        if self.infer_hints:
            inferred = self.inferred()
            if hint in inferred:
                return inferred[hint]
        return SPEC_DEFAULTS[hint]

    def inferred(self) -> dict[Hint, bool]:
        """What hintgate's inference makes of the name, description and schema."""
        if self._inferred is None:
            from hintgate.hints.inference import infer

            found = infer(self.name, self.description, self.input_schema)
            self._inferred = {hint: found_hint.value for hint, found_hint in found.items()}
        return self._inferred

    read_only_hint = _hint_value(Hint.READ_ONLY, "Whether it changes nothing (false unless declared or inferred).")
    destructive_hint = _hint_value(Hint.DESTRUCTIVE, "Whether it may destroy data (true unless declared or inferred).")
    idempotent_hint = _hint_value(
        Hint.IDEMPOTENT, "Whether repeating it changes nothing more (false unless declared or inferred)."
    )
    open_world_hint = _hint_value(
        Hint.OPEN_WORLD, "Whether it reaches outside systems (true unless declared or inferred)."
    )

    # -- MCP JSON

    def to_mcp_schema(self) -> dict[str, Any]:
        """The MCP tool JSON with every hint explicit: name, description, inputSchema, annotations."""
        annotations = self._annotations((hint, self.hint(hint)) for hint in Hint)
        return {
            "name": self.name,
            "description": self.description,
            "inputSchema": self.input_schema,
            "annotations": annotations,
        }

    def to_mcp_tool(self) -> dict[str, Any]:
        """The tool as a gateway source lists it: only the declared hints (the gateway infers the rest itself)."""
        annotations = self._annotations((hint, self.declared[hint]) for hint in Hint if hint in self.declared)
        out: dict[str, Any] = {"name": self.name, "description": self.description, "inputSchema": self.input_schema}
        if annotations:
            out["annotations"] = annotations
        meta: dict[str, Any] = {}
        if self.category is not None:
            meta["category"] = self.category
        if self.tags:
            meta["tags"] = list(self.tags)
        if meta:
            out["_meta"] = {PYTHON_META: meta}
        return out

    def _annotations(self, hints: Iterable[tuple[Hint, bool]]) -> dict[str, Any]:
        """An MCP tool's annotations: the title, when there is one, and `hints` by their wire names."""
        annotations: dict[str, Any] = {} if self.title is None else {"title": self.title}
        annotations.update((hint.value, value) for hint, value in hints)
        return annotations

    # -- calling

    async def call(self, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """Run the handler and return a `CallToolResult`; an exception becomes `isError` with its message.

        Sync handlers run in a worker thread so they never block the event loop.
        """
        import anyio

        kwargs = dict(arguments or {})
        try:
            if self._validator is not None:
                kwargs = self._validator(kwargs)
            if inspect.iscoroutinefunction(self.handler):
                value = await self.handler(**kwargs)
            else:
                value = await anyio.to_thread.run_sync(lambda: self.handler(**kwargs))
                if inspect.isawaitable(value):
                    value = await value
        except Exception as exc:
            message = str(exc) or type(exc).__name__
            return tool_error(f"{type(exc).__name__}: {message}")
        return result_of(value)


def result_of(value: Any) -> dict[str, Any]:
    """A handler's return value as a `CallToolResult`.

    A string is text; bytes are an embedded blob; a dict (or a pydantic model)
    is JSON text plus `structuredContent`; None is no content; a dict that
    already is a result (has `content` as a list) is passed through.
    """
    if isinstance(value, Mapping) and isinstance(value.get("content"), list):
        return dict(value)
    if hasattr(value, "model_dump") and callable(value.model_dump):
        value = value.model_dump(mode="json")
    if value is None:
        return {"content": [], "isError": False}
    if isinstance(value, str):
        return {"content": [{"type": "text", "text": value}], "isError": False}
    if isinstance(value, bytes):
        encoded = base64.b64encode(value).decode()
        blob = {"uri": "python-result:bytes", "mimeType": "application/octet-stream", "blob": encoded}
        return {"content": [{"type": "resource", "resource": blob}], "isError": False}
    text = json.dumps(value, default=str, ensure_ascii=False)
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
    if isinstance(value, Mapping):
        result["structuredContent"] = json.loads(text)
    return result


def _schema_from_hints(
    name: str, handler: Callable[..., Any]
) -> tuple[Callable[[dict[str, Any]], dict[str, Any]], dict[str, Any]]:
    """A validator and the JSON Schema of a handler's keyword arguments, from its type hints (pydantic)."""
    import typing

    from pydantic import ConfigDict, create_model

    signature = inspect.signature(handler)
    try:
        hints = typing.get_type_hints(handler, include_extras=True)
    except Exception:
        hints = {}
    fields: dict[str, Any] = {}
    for param in signature.parameters.values():
        if param.kind in {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD}:
            continue
        annotation = hints.get(param.name, Any)
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (annotation, default)
    model_name = "".join(part.capitalize() for part in name.replace("-", "_").replace(".", "_").split("_")) or "Tool"
    model = create_model(f"{model_name}Arguments", __config__=ConfigDict(arbitrary_types_allowed=True), **fields)
    schema = model.model_json_schema()
    schema.pop("title", None)
    schema.setdefault("properties", {})

    def validate(arguments: dict[str, Any]) -> dict[str, Any]:
        parsed = model.model_validate(arguments)
        return {key: getattr(parsed, key) for key in fields}

    return validate, schema


class ToolOptions(TypedDict, total=False):
    """What `tool` passes on to `ToolDefinition` as it is: its keyword arguments, each as `ToolDefinition` reads it."""

    input_schema: Mapping[str, Any] | None
    read_only_hint: bool | None
    destructive_hint: bool | None
    idempotent_hint: bool | None
    open_world_hint: bool | None
    title: str | None
    category: str | None
    tags: Iterable[str]
    infer_hints: bool


@overload
def tool(func: Callable[..., Any], /) -> ToolDefinition: ...


@overload
def tool(
    func: None = None, /, *, name: str | None = None, description: str | None = None, **options: Unpack[ToolOptions]
) -> Callable[[Callable[..., Any]], ToolDefinition]: ...


def tool(
    func: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    **options: Unpack[ToolOptions],
) -> ToolDefinition | Callable[[Callable[..., Any]], ToolDefinition]:
    """Make a function a `ToolDefinition`: `@tool` or `@tool(read_only_hint=True, ...)`.

    The name defaults to the function's name, the description to its
    docstring; the other arguments are `ToolDefinition`'s.
    """
    # Said at once, as a signature that spelt the options out would: not when the decorator is applied.
    if unknown := sorted(options.keys() - ToolOptions.__optional_keys__):
        raise TypeError(f"tool() got an unexpected keyword argument {unknown[0]!r}")

    def wrap(f: Callable[..., Any]) -> ToolDefinition:
        return ToolDefinition(
            name or f.__name__,
            description if description is not None else inspect.cleandoc(f.__doc__ or ""),
            f,
            **options,
        )

    return wrap(func) if func is not None else wrap


class ToolRegistry:
    """Tools by name, in registration order, searchable by hints, category, tags and text."""

    def __init__(self, tools: Iterable[ToolDefinition] = ()) -> None:
        self._tools: dict[str, ToolDefinition] = {}
        for definition in tools:
            self.register(definition)

    def register(self, definition: ToolDefinition) -> ToolDefinition:
        """Add a tool.

        Raises:
            ValueError: a tool of that name is registered already.
        """
        if definition.name in self._tools:
            raise ValueError(f"a tool named {definition.name!r} is registered already")
        self._tools[definition.name] = definition
        return definition

    def tool(self, func: Callable[..., Any] | None = None, /, **options: Any) -> Any:
        """`@registry.tool` / `@registry.tool(...)`: like `tool`, and registers the result."""
        if func is not None:
            return self.register(tool(func, **options) if options else tool(func))

        def wrap(f: Callable[..., Any]) -> ToolDefinition:
            return self.register(tool(**options)(f))

        return wrap

    def get(self, name: str) -> ToolDefinition | None:
        """The tool of that name, if registered."""
        return self._tools.get(name)

    def __iter__(self) -> Iterator[ToolDefinition]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def search(
        self,
        *,
        read_only: bool | None = None,
        destructive: bool | None = None,
        idempotent: bool | None = None,
        open_world: bool | None = None,
        category: str | None = None,
        tags: Sequence[str] | None = None,
        query: str | None = None,
        cursor: str | None = None,
        limit: int = 50,
    ) -> tuple[list[ToolDefinition], str | None, int]:
        """Find tools; every filter given must hold.

        Args:
            read_only: the tool's readOnly hint (as `read_only_hint` reads) equals this.
            destructive: likewise for destructiveHint.
            idempotent: likewise for idempotentHint.
            open_world: likewise for openWorldHint.
            category: the tool's category equals this.
            tags: the tool has every one of these tags.
            query: case-insensitive text found in the name, title, description or tags.
            cursor: where to continue, as returned by the previous page.
            limit: at most this many results (at least 1).

        Returns:
            (this page's tools, the cursor of the next page or None, how many match in all).

        Raises:
            ValueError: the cursor is not one this registry returned, or limit < 1.
        """
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        wanted = {
            Hint.READ_ONLY: read_only,
            Hint.DESTRUCTIVE: destructive,
            Hint.IDEMPOTENT: idempotent,
            Hint.OPEN_WORLD: open_world,
        }
        needle = query.lower() if query else None
        matches = []
        for definition in self._tools.values():
            if any(v is not None and definition.hint(h) != v for h, v in wanted.items()):
                continue
            if category is not None and definition.category != category:
                continue
            if tags and not set(tags) <= set(definition.tags):
                continue
            if needle is not None:
                text = " ".join([definition.name, definition.title or "", definition.description, *definition.tags])
                if needle not in text.lower():
                    continue
            matches.append(definition)
        start = _decode_cursor(cursor) if cursor else 0
        end = start + limit
        following = _encode_cursor(end) if end < len(matches) else None
        return matches[start:end], following, len(matches)


def _encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"hg:{offset}".encode()).decode()


def _decode_cursor(cursor: str) -> int:
    try:
        text = base64.urlsafe_b64decode(cursor.encode()).decode()
        tag, _, number = text.partition(":")
        if tag != "hg" or not number.isdigit():
            raise ValueError(cursor)
        return int(number)
    except (ValueError, UnicodeDecodeError):
        raise ValueError(f"invalid cursor {cursor!r}") from None


MAX_LABEL = 64
"""Characters of a category or tag served; a longer one is cut."""
MAX_TAGS = 32
"""Tags of one tool served; the rest are left out."""


def labels_of(tool: Mapping[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    """The category and tags a listed tool carries under `_meta["hintgate/python"]` (what `to_mcp_tool` wrote).

    Only strings count, each stripped and cut to `MAX_LABEL` characters, empty ones and repeats left out,
    at most `MAX_TAGS` tags: what is served is bounded whatever the registry holds.
    """
    meta = tool.get("_meta")
    labels = meta.get(PYTHON_META) if isinstance(meta, Mapping) else None
    if not isinstance(labels, Mapping):
        return None, ()
    given = labels.get("category")
    category = (given.strip()[:MAX_LABEL] or None) if isinstance(given, str) else None
    raw_tags = labels.get("tags")
    tags: dict[str, None] = {}
    if isinstance(raw_tags, list):
        for tag in raw_tags:
            if isinstance(tag, str) and (tag := tag.strip()[:MAX_LABEL]):
                tags[tag] = None
    return category, tuple(tags)[:MAX_TAGS]
