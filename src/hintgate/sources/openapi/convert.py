"""OpenAPI documents become MCP tools: one tool per operation, schemas and all.

Pure: decoded document in, `ToolSet` out; no network. Reads OpenAPI 3.0 and
3.1 and Swagger 2.0. Each operation becomes a tool whose input schema holds
its path, query, header and cookie parameters and its request body (an object
body's properties side by side with the parameters, any other body under
`body`), and whose output schema is its 2xx JSON answer when that is an
object.

`$ref`s to schemas become `#/$defs/<name>` inside each tool's schema, with
only the definitions that tool reaches copied in (shared, not duplicated, in
memory), so a recursive schema stays a finite cycle of references instead of
being expanded forever. OpenAPI 3.0's and Swagger 2.0's schema dialect is
turned into JSON Schema 2020-12 on the way (`nullable`, boolean
`exclusiveMinimum`, `type: file`).

A document that cannot be read at all raises `TargetError` naming the file
and the JSON path of the problem (`petstore.json: $.paths: expected ...`); an
operation that cannot be converted is skipped and reported in
`ToolSet.skipped`, and the others are still converted.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from hintgate.config.model import OPENAPI_METHODS, OpenApiNaming
from hintgate.errors import TargetError
from hintgate.hints.annotations import Hint
from hintgate.hints.catalog import NAME_MAX_STRICT, public_name
from hintgate.sources.openapi.operations import Body, Operation, Parameter, ToolSet
from hintgate.sources.openapi.schema import Problem, SchemaSet, Skip, is_object, json_path

__all__ = [
    "Body",
    "Operation",
    "Parameter",
    "Problem",
    "ToolSet",
    "build_tools",
    "decode_document",
    "json_path",
    "title_from_id",
]

OUTPUT_SCHEMA_BUDGET = 32 * 1024
"""Characters of `$defs` an output schema may carry; definitions past it become `{}` (any value).

Input schemas are kept whole (a model needs every argument); an answer's
schema is for checking and orientation, and a densely linked API (Stripe's
objects reach 480 of its definitions each) would otherwise put megabytes in
every `tools/list`.
"""

_HINT_NAMES = frozenset(h.value for h in Hint)
_JSON_TYPES = ("application/json",)
_FORM = "application/x-www-form-urlencoded"
_MULTIPART = "multipart/form-data"
_RAW_TYPES = ("text/plain", "application/octet-stream")
# Headers the transport owns; OpenAPI 3 says such parameters are ignored.
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
_COLLECTION_FORMATS: Mapping[str, tuple[str, bool]] = {
    "csv": ("form", False),
    "ssv": ("spaceDelimited", False),
    "tsv": ("tabDelimited", False),
    "pipes": ("pipeDelimited", False),
    "multi": ("form", True),
}
_SWAGGER_SCHEMA_KEYS = (
    "type",
    "format",
    "items",
    "enum",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "multipleOf",
)


# ---------------------------------------------------------------- operations


def _pick_media(content: Mapping[str, Any]) -> str | None:
    types = [t for t in content if isinstance(t, str)]
    lowered = {t.lower().split(";")[0].strip(): t for t in types}
    for wanted in _JSON_TYPES:
        if wanted in lowered:
            return lowered[wanted]
    for low, original in lowered.items():
        if low.endswith("+json") or low in {"*/*", "application/*"}:
            return original
    for wanted in (_FORM, _MULTIPART, *_RAW_TYPES):
        if wanted in lowered:
            return lowered[wanted]
    return next((o for low, o in lowered.items() if low.startswith("text/")), None)


class _Converter:
    def __init__(self, doc: Mapping[str, Any], *, source: str, naming: OpenApiNaming) -> None:
        self.doc = doc
        self.source = source
        self.naming = naming
        self.swagger = "swagger" in doc
        version = str(doc.get("swagger") or doc.get("openapi") or "")
        self.version = version
        self.schemas = SchemaSet(doc, swagger=self.swagger, v31=version.startswith("3.1"))
        self.names: set[str] = set()
        self.warnings: list[Problem] = []
        self.trimmed = 0

    # -- parameters

    def parameter(
        self, raw: Any, path: tuple[str | int, ...], refs: set[str]
    ) -> tuple[Parameter, dict[str, Any]] | tuple[str, Any] | None:
        """One parameter: (Parameter, schema), or ("body"|"formData", raw) for Swagger 2 bodies."""
        param = self.schemas.follow(raw, path)
        if not isinstance(param, Mapping):
            raise Skip(path, f"expected a parameter object, got {type(param).__name__}")
        name, where = param.get("name"), param.get("in")
        if not isinstance(name, str) or not name:
            raise Skip(path, 'a parameter needs a "name" string')
        if self.swagger and where in {"body", "formData"}:
            return str(where), param
        if where not in {"path", "query", "header", "cookie"}:
            raise Skip(path, f'parameter "in" must be path, query, header or cookie, got {where!r}')
        if where == "header" and name.lower() in _IGNORED_HEADERS:
            return None
        as_json = False
        if self.swagger:
            source_schema: Any = {k: param[k] for k in _SWAGGER_SCHEMA_KEYS if k in param}
            style, explode = _COLLECTION_FORMATS.get(str(param.get("collectionFormat", "csv")), ("form", False))
            if where in {"path", "header"}:
                style = "simple"
        else:
            if "content" in param:
                content = param["content"]
                media = _pick_media(content) if isinstance(content, Mapping) else None
                if media is None:
                    raise Skip((*path, "content"), "parameter content has no JSON or text media type")
                source_schema = content[media].get("schema", {}) if isinstance(content[media], Mapping) else {}
                as_json = "json" in media.lower()
            else:
                source_schema = param.get("schema", {})
            default_style = "form" if where in {"query", "cookie"} else "simple"
            style = param.get("style", default_style)
            if not isinstance(style, str):
                raise Skip((*path, "style"), f"expected a style name (a string), got {type(style).__name__}")
            explode = _flag(param, "explode", style == "form", path)
        required = where == "path" or _flag(param, "required", False, path)
        allow_reserved = _flag(param, "allowReserved", False, path)
        schema = self.schemas.convert(source_schema, (*path, "schema"), refs)
        if isinstance(schema, Mapping):
            schema = dict(schema)
            description = param.get("description")
            if isinstance(description, str) and description and "description" not in schema:
                schema["description"] = description
            if param.get("deprecated") is True:
                schema["deprecated"] = True
        return (
            Parameter(
                name=name,
                location=where,
                arg=name,
                required=required,
                style=style,
                explode=explode,
                allow_reserved=allow_reserved,
                as_json=as_json,
            ),
            schema,
        )

    # -- bodies

    def body_schema(
        self,
        op: Mapping[str, Any],
        swagger_body: list[tuple[str, Any, tuple[str | int, ...]]],
        path: tuple[str | int, ...],
        refs: set[str],
    ) -> tuple[str, Any, bool, str | None, Mapping[str, Any]] | None:
        """(media type, converted schema, required, description, encoding) of the request body."""
        if self.swagger:
            if not swagger_body:
                return None
            consumes = op.get("consumes", self.doc.get("consumes")) or ["application/json"]
            consumes = [c for c in consumes if isinstance(c, str)] or ["application/json"]
            if swagger_body[0][0] == "body":
                _, param, where = swagger_body[0]
                media = _pick_media(dict.fromkeys(consumes)) or consumes[0]
                if "json" not in media.lower() and media.lower() not in _RAW_TYPES:
                    raise Skip((*where, "in"), f"unsupported request body media types: {', '.join(consumes)}")
                schema = self.schemas.convert(param.get("schema", {}), (*where, "schema"), refs)
                return media, schema, param.get("required") is True, param.get("description"), {}
            properties: dict[str, Any] = {}
            required: list[str] = []
            for _, param, where in swagger_body:
                sub = {k: param[k] for k in _SWAGGER_SCHEMA_KEYS if k in param}
                converted = self.schemas.convert(sub, where, refs)
                if isinstance(param.get("description"), str):
                    converted["description"] = param["description"]
                properties[param["name"]] = converted
                if param.get("required") is True:
                    required.append(param["name"])
            multipart = _MULTIPART in consumes or any(p.get("type") == "file" for _, p, _ in swagger_body)
            schema = {"type": "object", "properties": properties, **({"required": required} if required else {})}
            return (_MULTIPART if multipart else _FORM), schema, bool(required), None, {}
        raw = op.get("requestBody")
        if raw is None:
            return None
        where = (*path, "requestBody")
        body = self.schemas.follow(raw, where)
        if not isinstance(body, Mapping):
            raise Skip(where, f"expected a request body object, got {type(body).__name__}")
        content = body.get("content")
        if content is not None and not isinstance(content, Mapping):
            raise Skip((*where, "content"), f"expected an object of media types, got {type(content).__name__}")
        if not content:
            return None
        media = _pick_media(content)
        if media is None:
            raise Skip((*where, "content"), f"unsupported request body media types: {', '.join(map(str, content))}")
        media_object = content[media] if content[media] is not None else {}
        if not isinstance(media_object, Mapping):
            raise Skip((*where, "content", media), f"expected a media type object, got {type(media_object).__name__}")
        schema = self.schemas.convert(media_object.get("schema", {}), (*where, "content", media, "schema"), refs)
        encoding = media_object.get("encoding")
        return (
            media,
            schema,
            body.get("required") is True,
            body.get("description"),
            encoding if isinstance(encoding, Mapping) else {},
        )

    # -- one operation

    def operation(
        self, method: str, template: str, item: Mapping[str, Any], op: Mapping[str, Any], path: tuple[str | int, ...]
    ) -> tuple[Operation, str | None] | None:
        refs: set[str] = set()
        merged: dict[tuple[str, str], tuple[Any, tuple[str | int, ...]]] = {}
        for level, base in (
            (item.get("parameters"), (*path[:-1], "parameters")),
            (op.get("parameters"), (*path, "parameters")),
        ):
            if level is None:
                continue
            if not isinstance(level, list):
                raise Skip(base, f"expected a list of parameters, got {type(level).__name__}")
            for i, raw in enumerate(level):
                resolved = self.schemas.follow(raw, (*base, i))
                key = (
                    (str(resolved.get("name")), str(resolved.get("in")))
                    if isinstance(resolved, Mapping)
                    else (str(i), "?")
                )
                merged[key] = (raw, (*base, i))
        params: list[Parameter] = []
        properties: dict[str, Any] = {}
        required: list[str] = []
        swagger_body: list[tuple[str, Any, tuple[str | int, ...]]] = []
        for raw, where in merged.values():
            found = self.parameter(raw, where, refs)
            if found is None:
                continue
            if isinstance(found[0], str):
                swagger_body.append((found[0], found[1], where))
                continue
            param, schema = found
            arg = param.name
            if arg in properties:
                arg = f"{param.name}_{param.location}"
            param = dataclasses.replace(param, arg=arg)
            params.append(param)
            properties[arg] = schema
            if param.required:
                required.append(arg)
        for missing in re.findall(r"\{([^}/]+)\}", template):
            if not any(p.location == "path" and p.name == missing for p in params):
                self.warnings.append(
                    Problem(json_path(path), f"path parameter {missing!r} is not declared; taken as a required string")
                )
                params.append(Parameter(missing, "path", missing, True, "simple", False))
                properties[missing] = {"type": "string"}
                required.append(missing)
        body: Body | None = None
        found_body = self.body_schema(op, swagger_body, path, refs)
        if found_body is not None:
            media, schema, body_required, body_description, encoding = found_body
            body = self.place_body(media, schema, body_required, body_description, encoding, properties, required, refs)
        input_schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            input_schema["required"] = required
        if refs:
            input_schema["$defs"] = self.schemas.defs(refs)[0]
        tool: dict[str, Any] = {"name": "", "inputSchema": input_schema}
        output = self.output_schema(op, path)
        if output is not None:
            tool["outputSchema"] = output
        operation_id = self.text(op, "operationId", path, "the tool is named from its method and path")
        summary = self.text(op, "summary", path, "ignored")
        description = self.text(op, "description", path, "ignored")
        declared = self.annotations(op.get("x-mcp-annotations"), (*path, "x-mcp-annotations"))
        # The title the document's author wrote for the tool beats one made from the summary or operationId;
        # it is the tool's title, so annotations.title stays unset as for every operation.
        named = declared.get("title") if declared is not None else None
        if declared is not None and "title" in declared:
            declared = {key: value for key, value in declared.items() if key != "title"}
        title = named.strip() if isinstance(named, str) and named.strip() else None
        if title is None and summary and summary.strip():
            title = summary.strip()
        if title is None:
            title = title_from_id(operation_id) if operation_id else f"{method.upper()} {template}"
        text = _description(summary, description)
        tool["title"] = title
        if text:
            tool["description"] = text
        raw_tags = op.get("tags")
        if raw_tags is not None and not isinstance(raw_tags, list):
            self.warn((*path, "tags"), f"expected a list of tag names, got {type(raw_tags).__name__}; ignored")
        tags = tuple(t for t in raw_tags if isinstance(t, str)) if isinstance(raw_tags, list) else ()
        tool["_meta"] = {
            "hintgate/openapi": {
                "method": method.upper(),
                "path": template,
                **({"operationId": operation_id} if operation_id else {}),
                **({"tags": list(tags)} if tags else {}),
            }
        }
        return (
            Operation(
                name="",
                method=method.upper(),
                path=template,
                operation_id=operation_id,
                tags=tags,
                parameters=tuple(params),
                body=body,
                declared=declared,
                tool=tool,
                pointer=json_path(path),
            ),
            operation_id,
        )

    def warn(self, path: tuple[str | int, ...], message: str) -> None:
        self.warnings.append(Problem(json_path(path), message))

    def text(self, op: Mapping[str, Any], key: str, path: tuple[str | int, ...], instead: str) -> str | None:
        """An operation's string field; one of another type is reported with what is done `instead`."""
        value = op.get(key)
        if value is None or isinstance(value, str):
            return value
        self.warn((*path, key), f"expected a string, got {_shown(value)}; {instead}")
        return None

    def annotations(self, declared: Any, path: tuple[str | int, ...]) -> Mapping[str, Any] | None:
        """`x-mcp-annotations` with each hint that is not true or false reported and left out."""
        if declared is None:
            return None
        if not isinstance(declared, Mapping):
            self.warn(path, f"expected an object of hints, got {_shown(declared)}; ignored")
            return None
        kept = {}
        for key, value in declared.items():
            if key in _HINT_NAMES and value is not None and not isinstance(value, bool):
                self.warn((*path, key), f"expected true or false, got {_shown(value)}; ignored")
            else:
                kept[key] = value
        return kept

    def place_body(
        self,
        media: str,
        schema: Any,
        required_body: bool,
        description: Any,
        encoding: Mapping[str, Any],
        properties: dict[str, Any],
        required: list[str],
        refs: set[str],
    ) -> Body:
        low = media.lower()
        structured = "json" in low or low in {_FORM, _MULTIPART}
        root, _ = self.schemas.root(schema, refs)
        props = root.get("properties") if isinstance(root, Mapping) else None
        flat = (
            structured
            and is_object(root)
            and isinstance(props, Mapping)
            and not any(k in root for k in ("allOf", "anyOf", "oneOf"))
            and not set(props) & set(properties)
        )
        modes = {}
        for name, spec in encoding.items():
            if isinstance(spec, Mapping) and isinstance(spec.get("style"), str):
                modes[str(name)] = (str(spec["style"]), bool(spec.get("explode", spec["style"] == "form")))
        if flat:
            assert isinstance(root, Mapping)
            assert isinstance(props, Mapping)
            properties.update(props)
            root_required = root.get("required")
            if isinstance(root_required, list):
                required.extend(r for r in root_required if isinstance(r, str) and r in props)
            binary = frozenset(n for n, p in props.items() if isinstance(p, Mapping) and p.get("format") == "binary")
            return Body(media, None, tuple(props), required_body, modes, binary)
        arg = "body" if "body" not in properties else "requestBody"
        if isinstance(schema, Mapping) and isinstance(description, str) and description and "description" not in schema:
            schema = {**schema, "description": description}
        properties[arg] = schema
        if required_body:
            required.append(arg)
        return Body(media, arg, (), required_body, modes)

    def output_schema(self, op: Mapping[str, Any], path: tuple[str | int, ...]) -> dict[str, Any] | None:
        responses = op.get("responses")
        if not isinstance(responses, Mapping):
            if responses is not None:
                self.warn(
                    (*path, "responses"), f"expected an object of responses, got {_shown(responses)}; no output schema"
                )
            return None
        codes = sorted(str(c) for c in responses if str(c).startswith("2"))
        if not codes:
            return None
        code = next((c for c in codes if c.isdigit()), codes[0])
        raw = next(v for c, v in responses.items() if str(c) == code)
        where = (*path, "responses", code)
        try:
            response = self.schemas.follow(raw, where)
            if not isinstance(response, Mapping):
                self.warn(where, f"expected a response object, got {_shown(response)}; no output schema")
                return None
            if self.swagger:
                source_schema = response.get("schema")
            else:
                content = response.get("content")
                media = _pick_media(content) if isinstance(content, Mapping) else None
                if media is None or ("json" not in media.lower() and "*" not in media):
                    return None
                media_object = content[media] if isinstance(content, Mapping) else None
                source_schema = media_object.get("schema") if isinstance(media_object, Mapping) else None
            if source_schema is None:
                return None
            refs: set[str] = set()
            converted = self.schemas.convert(source_schema, (*where, "schema"), refs)
            root, root_refs = self.schemas.root(converted, refs)
            if not is_object(root) or root.get("type", "object") != "object":
                return None
            out = {**root, "type": "object"}
            if root_refs:
                out["$defs"], cut = self.schemas.defs(root_refs, budget=OUTPUT_SCHEMA_BUDGET)
                if cut:
                    self.trimmed += 1
        except Skip as skip:
            self.warnings.append(Problem(skip.problem.pointer, f"{skip.problem.message}; no output schema"))
            return None
        return out

    # -- naming

    def name(self, op: Operation, operation_id: str | None) -> str:
        base = operation_id if operation_id and self.naming == "operationId" else method_path_name(op.method, op.path)
        name = public_name("", base, limit=NAME_MAX_STRICT)
        n = 2
        while name in self.names:
            name = public_name("", f"{base}_{n}", limit=NAME_MAX_STRICT)
            n += 1
        self.names.add(name)
        return name


def _shown(value: Any) -> str:
    """A wrong value in a message: a short scalar as JSON, anything else by its type."""
    if isinstance(value, bool | int | float | str) and len(text := json.dumps(value)) <= 40:
        return f"{type(value).__name__} {text}"
    return type(value).__name__


def _flag(param: Mapping[str, Any], key: str, default: bool, path: tuple[str | int, ...]) -> bool:
    """A parameter's boolean field; any other value makes the operation's wire format a guess, so it is skipped."""
    value = param.get(key, default)
    if not isinstance(value, bool):
        raise Skip((*path, key), f"expected true or false, got {_shown(value)}")
    return value


def _description(summary: str | None, description: str | None) -> str:
    """The summary, then the description when it says more."""
    summary = (summary or "").strip()
    description = (description or "").strip()
    if summary and description and not description.startswith(summary):
        return f"{summary}\n\n{description}"
    return description or summary


def build_tools(
    doc: Any,
    *,
    source: str,
    naming: OpenApiNaming = "operationId",
    select: Callable[[str, str, Mapping[str, Any]], bool] | None = None,
) -> ToolSet:
    """Convert a decoded OpenAPI document into tools.

    Args:
        doc: the decoded document (JSON or YAML data).
        source: its name in messages (a file name or URL).
        naming: `operationId` (the default: the operationId, else method and
            path) or `method-path` (always method and path: `get_pet_petId`).
        select: which operations to convert, given (method upper case, path, operation).

    Raises:
        TargetError: the document is not an OpenAPI 3.0/3.1 or Swagger 2.0
            document, or its `paths` cannot be read; the message names the
            file and the JSON path.
    """
    if not isinstance(doc, Mapping):
        raise TargetError(f"{source}: $: expected an OpenAPI document (an object), got {type(doc).__name__}")
    version = doc.get("openapi", doc.get("swagger"))
    if version is None:
        raise TargetError(f'{source}: $: not an OpenAPI document: no "openapi" or "swagger" key')
    text = str(version)
    if not ((text == "2.0" and "swagger" in doc) or (re.match(r"3\.[01](\.|$)", text) and "openapi" in doc)):
        key = "swagger" if "swagger" in doc else "openapi"
        raise TargetError(f"{source}: $.{key}: unsupported version {text!r}; hintgate reads 2.0, 3.0.x and 3.1.x")
    paths = doc.get("paths", {})
    if paths is None:
        paths = {}
    if not isinstance(paths, Mapping):
        raise TargetError(f"{source}: $.paths: expected an object of paths, got {type(paths).__name__}")
    converter = _Converter(doc, source=source, naming=naming)
    operations: list[Operation] = []
    skipped: list[Problem] = []
    for key, raw_item in paths.items():
        template = str(key)
        item_path: tuple[str | int, ...] = ("paths", template)
        try:
            item = converter.schemas.follow(raw_item, item_path)
        except Skip as skip:
            skipped.append(skip.problem)
            continue
        if not isinstance(item, Mapping):
            skipped.append(
                Problem(json_path(item_path), f"expected a path item (an object), got {type(item).__name__}")
            )
            continue
        for method, op in item.items():
            if method not in OPENAPI_METHODS or op is None:
                continue
            op_path = (*item_path, method)
            if not isinstance(op, Mapping):
                skipped.append(
                    Problem(json_path(op_path), f"expected an operation (an object), got {type(op).__name__}")
                )
                continue
            if select is not None and not select(method.upper(), template, op):
                continue
            try:
                converted = converter.operation(method, template, item, op, op_path)
            except Skip as skip:
                skipped.append(_for_operation(skip.problem, op_path))
                continue
            if converted is None:
                continue
            operation, operation_id = converted
            name = converter.name(operation, operation_id)
            tool = operation.tool
            assert isinstance(tool, dict)
            tool["name"] = name
            operations.append(_renamed(operation, name))
    info = doc.get("info")
    title = str(info.get("title", "")) if isinstance(info, Mapping) else ""
    return ToolSet(
        source=source,
        version=text,
        title=title,
        servers=_servers(doc),
        operations=tuple(operations),
        skipped=tuple(skipped),
        warnings=tuple(converter.warnings) + tuple(converter.schemas.problems) + _trim_note(converter.trimmed),
    )


def _for_operation(problem: Problem, path: tuple[str | int, ...]) -> Problem:
    """A problem found in a shared part of the document (`$.components...`), told as the operation's."""
    pointer = json_path(path)
    if problem.pointer == pointer or problem.pointer.startswith((f"{pointer}.", f"{pointer}[")):
        return problem
    return Problem(pointer, f"uses {problem}")


def _trim_note(trimmed: int) -> tuple[Problem, ...]:
    if not trimmed:
        return ()
    message = (
        f"{trimmed} output schemas reach more than {OUTPUT_SCHEMA_BUDGET // 1024} KiB of definitions; "
        "the definitions past that are served as {} (any value)"
    )
    return (Problem("$.paths", message),)


def _renamed(op: Operation, name: str) -> Operation:
    return Operation(
        name, op.method, op.path, op.operation_id, op.tags, op.parameters, op.body, op.declared, op.tool, op.pointer
    )


def _servers(doc: Mapping[str, Any]) -> tuple[str, ...]:
    if "swagger" in doc:
        host = doc.get("host")
        if not isinstance(host, str) or not host:
            base = doc.get("basePath")
            return (str(base),) if isinstance(base, str) else ()
        schemes = doc.get("schemes")
        if not isinstance(schemes, list) or not schemes:
            schemes = ["https"]
        prefix = doc.get("basePath")
        prefix = prefix if isinstance(prefix, str) else ""
        return tuple(f"{s}://{host}{prefix}" for s in schemes if isinstance(s, str))
    out: list[str] = []
    for server in doc.get("servers") or ():
        if not isinstance(server, Mapping) or not isinstance(server.get("url"), str):
            continue
        url = server["url"]
        variables = server.get("variables")
        for var, spec in variables.items() if isinstance(variables, Mapping) else ():
            if isinstance(spec, Mapping) and "default" in spec:
                url = url.replace("{" + str(var) + "}", str(spec["default"]))
        out.append(url)
    return tuple(out)


def decode_document(data: bytes | str, *, source: str) -> Any:
    """Decode a document's bytes: JSON when it looks like JSON, else YAML.

    Raises:
        TargetError: the text is neither, naming the file, line and column.
    """
    text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    if text.lstrip()[:1] in {"{", "["} or source.lower().endswith(".json"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise TargetError(f"{source}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from exc
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        raise TargetError(f"{where}: not valid YAML: {exc.problem or exc}") from exc
    except yaml.YAMLError as exc:
        raise TargetError(f"{source}: not valid YAML: {exc}") from exc


_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|[A-Z]+|\d+")


def title_from_id(operation_id: str) -> str:
    """A title for people from an operationId: `getPetById` → "Get pet by id"."""
    words = _WORDS.findall(operation_id)
    if not words:
        return operation_id
    out = [w if w.isupper() and len(w) > 1 else w.lower() for w in words]
    out[0] = out[0][:1].upper() + out[0][1:]
    return " ".join(out)


def method_path_name(method: str, path: str) -> str:
    """A tool name for an operation without an operationId: `get_pet_petId` for GET /pet/{petId}."""
    slug = re.sub(r"[{}]", "", path)
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", slug).strip("_")
    return f"{method.lower()}_{slug}" if slug else method.lower()
