"""OpenAPI schemas as JSON Schema 2020-12, `$ref`s resolved into shared `$defs`.

Pure. `SchemaSet` converts each component schema of a document once and lets
every tool copy in (by reference) only the definitions it reaches, so a
recursive schema stays a finite cycle of `#/$defs/...` references instead of
being expanded forever. OpenAPI 3.0's and Swagger 2.0's schema dialect is
rewritten on the way: `nullable: true` adds `"null"` to the type, a boolean
`exclusiveMinimum` / `exclusiveMaximum` becomes the numeric form, `type: file`
becomes a binary string; `x-` extensions, `xml`, `externalDocs` and
`discriminator` are dropped.

Where something cannot be resolved, `Skip` carries the JSON path
(`$.paths./pet.get.parameters[0]`) and the reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Problem", "SchemaSet", "Skip", "is_object", "json_path"]

_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
_SCHEMA_ONE = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "additionalItems",
        "contentSchema",
    }
)
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_LITERAL_KEYS = frozenset({"enum", "const", "default", "example", "examples", "required"})
_DROPPED_KEYS = frozenset({"xml", "externalDocs", "discriminator", "nullable"})


def json_path(path: Iterable[str | int]) -> str:
    """`$.paths./pet/{id}.get.parameters[0]`: how messages name a place in a document."""
    out = "$"
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else f".{step}"
    return out


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in a document that was skipped or deserves a look, with where it is."""

    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.pointer}: {self.message}"


class Skip(Exception):
    """An operation cannot be converted; carries where and why."""

    def __init__(self, path: Iterable[str | int], message: str) -> None:
        super().__init__(message)
        self.problem = Problem(json_path(path), message)

    @classmethod
    def again(cls, problem: Problem) -> Skip:
        """The same problem raised for another operation that needs what it names."""
        skip = cls((), problem.message)
        skip.problem = problem
        return skip


class SchemaSet:
    """Resolves `$ref`s and converts schemas, each component once, for every tool to share."""

    def __init__(self, doc: Mapping[str, Any], *, swagger: bool, v31: bool) -> None:
        self.doc = doc
        self.swagger = swagger
        self.v31 = v31
        self.container = "#/definitions/" if swagger else "#/components/schemas/"
        self.keys: dict[str, str] = {}  # ref -> $defs key
        self.used_keys: set[str] = set()
        self.by_key: dict[str, str] = {}
        self.sizes: dict[str, int] = {}
        self.converted: dict[str, Any] = {}  # ref -> converted schema
        self.edges: dict[str, frozenset[str]] = {}  # ref -> refs its schema names directly
        self.pending: list[tuple[str, tuple[str | int, ...]]] = []
        self.broken: dict[str, Problem] = {}  # ref -> why its schema cannot be converted
        self.problems: list[Problem] = []  # compromises made while converting (a keyword dropped)

    def lookup(self, ref: Any, path: tuple[str | int, ...]) -> Any:
        """The node a local `$ref` points at."""
        if not isinstance(ref, str):
            raise Skip(path, f"$ref must be a string, got {type(ref).__name__}")
        if not ref.startswith("#"):
            raise Skip(path, f"external $ref {ref!r} is not supported (only references within the document)")
        node: Any = self.doc
        for raw in ref[1:].split("/")[1:] if ref != "#" else []:
            step = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and step in node:
                node = node[step]
            elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
                node = node[int(step)]
            else:
                raise Skip(path, f"$ref {ref!r} points at nothing")
        return node

    def follow(self, node: Any, path: tuple[str | int, ...]) -> Any:
        """A non-schema object (parameter, request body, response) with `$ref` chains followed."""
        chain: list[str] = []
        while isinstance(node, Mapping) and "$ref" in node:
            ref = node["$ref"]
            if ref in chain:
                raise Skip(path, _circular(chain, ref))
            node = self.lookup(ref, path)
            chain.append(ref)
        return node

    def _check_chain(self, ref: str, path: tuple[str | int, ...]) -> None:
        """Raise when a schema `$ref` leads only to further `$ref`s and back: a cycle with no schema in it."""
        chain = [ref]
        node = self.lookup(ref, path)
        while isinstance(node, Mapping) and isinstance(node.get("$ref"), str):
            following = node["$ref"]
            if following in chain:
                raise Skip(path, _circular(chain, following) + " and never reaches a schema")
            node = self.lookup(following, path)
            chain.append(following)

    def key_for(self, ref: str) -> str:
        key = self.keys.get(ref)
        if key is None:
            base = ref[len(self.container) :] if ref.startswith(self.container) else ref.lstrip("#/")
            base = re.sub(r"[^A-Za-z0-9_.-]", "_", base.replace("~1", "/").replace("/", ".")) or "_"
            key, n = base, 2
            while key in self.used_keys:
                key, n = f"{base}_{n}", n + 1
            self.used_keys.add(key)
            self.keys[ref] = key
            self.by_key[key] = ref
        return key

    def convert(self, node: Any, path: tuple[str | int, ...], refs: set[str]) -> Any:
        """A schema in JSON Schema 2020-12, its refs rewritten to `#/$defs/...` and collected in `refs`."""
        if not isinstance(node, Mapping):
            if isinstance(node, bool):
                return node
            raise Skip(path, f"expected a schema (an object), got {type(node).__name__}")
        if "$ref" in node:
            ref = node["$ref"]
            if isinstance(ref, str) and ref in self.broken:
                raise Skip.again(self.broken[ref])
            self._check_chain(ref, path)  # raises when it points nowhere or only in a circle
            refs.add(ref)
            if ref not in self.converted and ref not in self.edges:
                self.edges[ref] = frozenset()  # placeholder: being converted
                self.pending.append((ref, path))
            out: dict[str, Any] = {"$ref": f"#/$defs/{self.key_for(ref)}"}
            if self.v31:  # 3.1 allows keywords beside $ref; earlier versions ignore them
                for k, v in node.items():
                    if k != "$ref" and not k.startswith("x-"):
                        out[k] = v
            return out
        out = {}
        for k, v in node.items():
            if k == "required" and not (isinstance(v, list) and all(isinstance(r, str) for r in v)):
                # Swagger-era documents often write `required: true` inside a property; JSON Schema wants a list.
                shown = json.dumps(v) if isinstance(v, bool | int | float | str | None) else type(v).__name__
                self.problems.append(
                    Problem(json_path((*path, k)), f"expected a list of property names, got {shown}; ignored")
                )
            elif k in _LITERAL_KEYS:
                out[k] = v
            elif k in _SCHEMA_MAPS:
                if not isinstance(v, Mapping):
                    raise Skip((*path, k), f"expected an object of schemas, got {type(v).__name__}")
                out[k] = {name: self.convert(sub, (*path, k, name), refs) for name, sub in v.items()}
            elif k == "items" and isinstance(v, list):  # draft 4's tuple form
                out[k] = [self.convert(sub, (*path, k, i), refs) for i, sub in enumerate(v)]
            elif k in _SCHEMA_ONE:
                out[k] = self.convert(v, (*path, k), refs)
            elif k in _SCHEMA_LISTS:
                if not isinstance(v, list):
                    raise Skip((*path, k), f"expected a list of schemas, got {type(v).__name__}")
                out[k] = [self.convert(sub, (*path, k, i), refs) for i, sub in enumerate(v)]
            elif k in _DROPPED_KEYS or k.startswith("x-"):
                continue
            else:
                out[k] = v
        if not self.v31:
            self._dialect(node, out)
        return out

    def _dialect(self, node: Mapping[str, Any], out: dict[str, Any]) -> None:
        """OpenAPI 3.0 / Swagger 2.0 schema keywords in their JSON Schema 2020-12 form."""
        if node.get("nullable") is True:
            kind = out.get("type")
            if isinstance(kind, str):
                out["type"] = [kind, "null"]
            if isinstance(out.get("enum"), list) and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            flag = out.get(bound)
            if isinstance(flag, bool):
                if flag and limit in out:
                    out[bound] = out.pop(limit)
                else:
                    del out[bound]
        if out.get("type") == "file":
            out["type"] = "string"
            out["format"] = "binary"

    def drain(self) -> None:
        """Convert the components referenced so far (and those they reference)."""
        while self.pending:
            ref, path = self.pending.pop()
            refs: set[str] = set()
            try:
                self.converted[ref] = self.convert(self.lookup(ref, path), _ref_path(ref), refs)
            except Skip as skip:
                # Not raised here: the operation that reaches it (in `defs` or `root`) is skipped, no other.
                self.broken[ref] = skip.problem
                continue
            self.edges[ref] = frozenset(refs)

    def defs(self, roots: Iterable[str], *, budget: int | None = None) -> tuple[dict[str, Any], int]:
        """`$defs` for a schema whose direct refs are `roots`, and how many were cut to stay in `budget`.

        Raises:
            Skip: a definition reachable cannot be converted.

        Every definition reachable is copied in (shared objects, not copies),
        breadth first. With a `budget` (characters of JSON), a definition that
        would take the total past it becomes `{}` (any value: permissive, so
        still a valid schema for what the API answers) and is not followed.
        """
        self.drain()
        out: dict[str, Any] = {}
        cut = 0
        used = 0
        queue = sorted(set(roots))
        while queue:
            following: list[str] = []
            for ref in queue:
                key = self.keys[ref]
                if key in out:
                    continue
                if ref in self.broken:
                    raise Skip.again(self.broken[ref])
                if budget is not None:
                    size = self.size(ref)
                    if used + size > budget:
                        out[key] = {}
                        cut += 1
                        continue
                    used += size
                out[key] = self.converted[ref]
                following.extend(sorted(self.edges[ref]))
            queue = following
        return dict(sorted(out.items())), cut

    def size(self, ref: str) -> int:
        """The length of a converted definition's JSON, computed once."""
        found = self.sizes.get(ref)
        if found is None:
            found = self.sizes[ref] = len(json.dumps(self.converted[ref], separators=(",", ":")))
        return found

    def root(self, schema: Any, refs: set[str]) -> tuple[Any, set[str]]:
        """A converted schema whose top is a `$ref`, replaced by the definition it names."""
        seen: set[str] = set()
        while isinstance(schema, Mapping) and set(schema) == {"$ref"} and schema["$ref"].startswith("#/$defs/"):
            ref = self.by_key[schema["$ref"][len("#/$defs/") :]]
            if ref in seen:
                break
            seen.add(ref)
            self.drain()
            if ref in self.broken:
                raise Skip.again(self.broken[ref])
            schema = self.converted[ref]
            refs = set(self.edges[ref])
        return schema, refs


def _circular(chain: list[str], ref: str) -> str:
    """How a `$ref` loop reads in a message: `$ref '#/a' is circular (#/a -> #/b -> #/a)`."""
    loop = [*chain[chain.index(ref) :], ref]
    return f"$ref {chain[0]!r} is circular ({' -> '.join(loop)})"


def _ref_path(ref: str) -> tuple[str | int, ...]:
    return tuple(step.replace("~1", "/").replace("~0", "~") for step in ref[2:].split("/") if step)


def is_object(schema: Any) -> bool:
    if not isinstance(schema, Mapping):
        return False
    kind = schema.get("type")
    return kind == "object" or (kind is None and isinstance(schema.get("properties"), Mapping))
