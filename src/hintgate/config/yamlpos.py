"""Reading a config file's text into data, remembering where every key and value sits.

YAML goes through PyYAML's composer, which keeps a start mark on every node;
one walk over the composed nodes maps each key path to a line and column. JSON
is parsed by `json` for its data, so JSON's types and syntax errors are exactly
JSON's, and located by a walk of its own text that marks it as PyYAML's composer
would (JSON is nearly a subset of YAML), without importing PyYAML.

Two deliberate departures from stock PyYAML:

- Booleans follow YAML 1.2: only `true` and `false` (any case form PyYAML
  knows). YAML 1.1's `yes`, `no`, `on`, `off` stay strings, so `trust: yes` or
  `readOnlyHint: no` is reported instead of silently read as a boolean.
- A key given twice in one mapping is reported (PyYAML and `json` both keep
  the last one without a word, which hides a duplicated server).

JSON files may carry `//` and `/* */` comments and trailing commas (VS Code
writes `mcp.json` as JSONC); they are blanked out, keeping every other
character where it was so reported columns still match the file.

A JSON file whose keys are each given once is located only when a position is
first asked for (a problem or a warning to report): the config a client
launches the gateway with is read before its upstreams are spawned, and locating
it cost that start CPU for nothing when the file is fine. A duplicated key
(`json`'s pairs say so) is located at once.
"""

from __future__ import annotations

import bisect
import functools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import yaml

__all__ = ["Format", "Key", "Mark", "Positions", "SyntaxProblem", "format_path", "read_text"]

Key = str | int
"""One step of a key path: a mapping key, or an index into a list."""

Mark = tuple[int, int]
"""A 1-based (line, column)."""

Format = Literal["json", "yaml", "auto"]


@dataclass
class Positions:
    """Where each key path sits in the source text.

    Attributes:
        values: the position of the value at each path.
        keys: the position of the mapping key that leads to each path.
        duplicates: paths whose key appeared more than once in its mapping,
            with the position of the first occurrence.
    """

    values: dict[tuple[Key, ...], Mark] = field(default_factory=dict)
    keys: dict[tuple[Key, ...], Mark] = field(default_factory=dict)
    duplicates: list[tuple[tuple[Key, ...], Mark, Mark]] = field(default_factory=list)

    def find(self, path: tuple[Key, ...], *, key: bool = False) -> Mark | None:
        """The position of `path`, or of its nearest ancestor that has one.

        Args:
            path: the key path.
            key: prefer the position of the key over that of the value (for
                "unknown key" problems the key is what the reader must fix).
        """
        table = self.keys if key else self.values
        for end in range(len(path), -1, -1):
            prefix = path[:end]
            found = table.get(prefix) or self.values.get(prefix)
            if found is not None:
                return found
        return None


class LocatedLater(Positions):
    """Positions of a text without duplicated keys, located when first asked for (`locate` then runs once).

    Args:
        locate: the text's positions; its duplicates are none.
    """

    def __init__(self, locate: Callable[[], Positions]) -> None:  # no fields set: `values` and `keys` wait
        self._locate = locate
        self._found: Positions | None = None
        self.duplicates = []

    def _located(self) -> Positions:
        if self._found is None:
            self._found = self._locate()
        return self._found

    @property
    def values(self) -> dict[tuple[Key, ...], Mark]:  # type: ignore[override]
        return self._located().values

    @property
    def keys(self) -> dict[tuple[Key, ...], Mark]:  # type: ignore[override]
        return self._located().keys


class SyntaxProblem(Exception):
    """The text is not valid JSON or YAML; `mark` is where the parser stopped."""

    def __init__(self, message: str, mark: Mark | None) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark


def format_path(path: tuple[Key, ...]) -> str:
    """`("mcpServers", "github", "args", 2)` → `mcpServers.github.args[2]`.

    Keys that would read ambiguously (containing a dot, a space or a bracket,
    or empty) are written quoted in brackets: `mcpServers["my.server"]`.
    """
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        elif step == "" or re.search(r"[.\s\[\]\"']", step):
            out += f"[{json.dumps(step)}]"
        else:
            out += f".{step}" if out else step
    return out


def read_text(text: str, fmt: Format) -> tuple[Any, Positions]:
    """Parse `text` as JSON or YAML and locate every key path in it.

    Args:
        text: the file's contents.
        fmt: "json", "yaml", or "auto" (JSON first, then YAML).

    Raises:
        SyntaxProblem: the text does not parse.
    """
    if fmt == "yaml":
        return _read_yaml(text)
    if fmt == "json":
        return _read_json(text)
    try:
        return _read_json(text)
    except SyntaxProblem as json_problem:
        try:
            return _read_yaml(text)
        except SyntaxProblem as yaml_problem:
            # Report in the language the author most likely meant.
            raise (json_problem if text.lstrip().startswith(("{", "[")) else yaml_problem) from None


def _read_json(text: str) -> tuple[Any, Positions]:
    cleaned = _blank_jsonc(text)
    duplicated = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicated
        mapping = dict(items)  # the last of a duplicated key's values, as `json` keeps it
        duplicated = duplicated or len(mapping) != len(items)
        return mapping

    try:
        data = json.loads(cleaned, object_pairs_hook=pairs)
    except json.JSONDecodeError as exc:
        if exc.msg.startswith("Expecting ',' delimiter"):
            # `json` stops at the next value; the comma is missing after the one before it.
            end = len(cleaned[: exc.pos].rstrip())
            line = cleaned.count("\n", 0, end) + 1
            column = end - (cleaned.rfind("\n", 0, end) + 1) + 1
            raise SyntaxProblem(f"invalid JSON: a ',' is missing after this ({exc.msg})", (line, column)) from exc
        raise SyntaxProblem(f"invalid JSON: {exc.msg}", (exc.lineno, exc.colno)) from exc
    if duplicated:
        return data, _json_positions(cleaned)
    return data, LocatedLater(functools.partial(_json_positions, cleaned))


_SCAN_STRING: Callable[[str, int], tuple[str, int]] = json.JSONDecoder().parse_string  # type: ignore[attr-defined]
"""`json`'s own reading of a string from after its opening quote: its value and where it ends."""
_JSON_SPACE = re.compile(r"[ \t\n\r]*")
# A number, `true`, `false`, `null` (and `json`'s NaN and Infinity): up to what ends a value.
_JSON_SCALAR = re.compile(r"[^\s,\]}]+")
# Where PyYAML's reader starts a line: after a line break, `\r\n` counting as one.
_LINE_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")


def _json_positions(cleaned: str) -> Positions:
    """Where each key and value of a text `json` parsed starts, as PyYAML's composer marks the same text.

    Read here rather than composed by PyYAML: a gateway that reports a warning of its JSON config (the `identity`
    issuer's plain `http`) does not hold PyYAML for it while it serves. The walk is `_walk`'s: a value's mark
    where it starts (a string's opening quote, a `{` or `[`), a key's at its opening quote, a key given again in one
    mapping a duplicate (its value not walked), a `<<` key skipped as YAML's merge key.
    """
    starts = [0, *(match.end() for match in _LINE_BREAK.finditer(cleaned))]

    def mark(index: int) -> Mark:
        line = bisect.bisect_right(starts, index)
        return (line, index - starts[line - 1] + 1)

    positions = Positions()
    try:
        _json_walk(cleaned, _JSON_SPACE.match(cleaned, 0).end(), (), positions, mark)  # type: ignore[union-attr]
    except (ValueError, IndexError, RecursionError):
        return Positions()  # data is fine; only line numbers are lost
    return positions


def _json_walk(text: str, index: int, path: tuple[Key, ...], positions: Positions, mark: Callable[[int], Mark]) -> int:
    """Mark the JSON value starting at `index` and what it holds; where it ends."""
    positions.values.setdefault(path, mark(index))
    opening = text[index]
    if opening == '"':
        return _SCAN_STRING(text, index + 1)[1]
    if opening not in "{[":
        return _JSON_SCALAR.match(text, index).end()  # type: ignore[union-attr]
    closing = "}" if opening == "{" else "]"
    seen: dict[str, Mark] = {}
    index = _JSON_SPACE.match(text, index + 1).end()  # type: ignore[union-attr]
    count = 0
    while text[index] != closing:
        if opening == "{":
            key_mark = mark(index)
            key, index = _SCAN_STRING(text, index + 1)
            index = _JSON_SPACE.match(text, index).end()  # type: ignore[union-attr]
            if text[index] != ":":
                raise ValueError("not JSON")
            index = _JSON_SPACE.match(text, index + 1).end()  # type: ignore[union-attr]
            child: tuple[Key, ...] = (*path, key)
            if key == "<<":
                index = _json_walk(text, index, child, Positions(), mark)
            elif key in seen:
                positions.duplicates.append((child, key_mark, seen[key]))
                index = _json_walk(text, index, child, Positions(), mark)
            else:
                seen[key] = key_mark
                positions.keys[child] = key_mark
                index = _json_walk(text, index, child, positions, mark)
        else:
            index = _json_walk(text, index, (*path, count), positions, mark)
            count += 1
        index = _JSON_SPACE.match(text, index).end()  # type: ignore[union-attr]
        if text[index] == ",":
            index = _JSON_SPACE.match(text, index + 1).end()  # type: ignore[union-attr]
    return index + 1


def _read_yaml(text: str) -> tuple[Any, Positions]:
    data, positions = _compose(text, construct=True)
    return data, positions


_BOOL_TAG = "tag:yaml.org,2002:bool"


@functools.cache
def _loader() -> type[yaml.SafeLoader]:
    """SafeLoader with YAML 1.2 booleans (PyYAML imported where a text is first composed)."""
    import yaml

    class Loader(yaml.SafeLoader):
        """SafeLoader with YAML 1.2 booleans."""

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != _BOOL_TAG]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    Loader.add_implicit_resolver(_BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    return Loader


def _compose(text: str, *, construct: bool = False) -> tuple[Any, Positions]:
    import yaml

    loader = _loader()(text)
    try:
        node = loader.get_single_node()
        positions = Positions()
        if node is not None:
            _walk(node, (), positions)
        # Construct after the walk: constructing flattens merge keys in place.
        data = loader.construct_document(node) if construct and node is not None else None
    except yaml.MarkedYAMLError as exc:
        message, where = _explain(exc, text)
        raise SyntaxProblem(f"invalid YAML: {message}", where) from exc
    except yaml.YAMLError as exc:
        raise SyntaxProblem(f"invalid YAML: {exc}", None) from exc
    finally:
        loader.dispose()
    return data, positions


# Constructs whose error shows only where the text ran out: the mistake is where they opened.
_UNCLOSED = {
    "while scanning a quoted scalar": "this quoted text is never closed (its closing quote is missing)",
    "while parsing a flow sequence": "this '[' list is not closed by ']' (or a ',' is missing between its items)",
    "while parsing a flow mapping": "this '{' mapping is not closed by '}' (or a ',' is missing between its entries)",
}


def _explain(exc: yaml.MarkedYAMLError, text: str) -> tuple[str, Mark | None]:
    """What went wrong in terms of the text, and the line of the mistake (not where the parser gave up).

    PyYAML stops where it can no longer go on, which is often past the mistake: at the end of the file
    for an unclosed quote, on the next line for a key without its colon.
    """
    said = " ".join(part for part in (exc.context, exc.problem) if part) or str(exc)
    problem, context = exc.problem_mark, exc.context_mark
    if exc.context in _UNCLOSED and context is not None:
        return f"{_UNCLOSED[exc.context]} ({said})", (context.line + 1, context.column + 1)
    if problem is None:
        return said, (context.line + 1, context.column + 1) if context is not None else None
    where = (problem.line + 1, problem.column + 1)
    lines = text.splitlines()
    if exc.problem and "'\\t'" in exc.problem:
        return f"a tab cannot indent YAML: indent with spaces ({said})", where
    if exc.problem == "mapping values are not allowed here":
        return _no_colon(lines, problem.line, said, where)
    if exc.context == "while parsing a block mapping":
        return f"this line is not indented like the keys above it ({said})", where
    return said, where


def _no_colon(lines: list[str], index: int, said: str, where: Mark) -> tuple[str, Mark]:
    """A ':' YAML could not take: the line before lacks its own colon, or this one is indented too far.

    Either way YAML read the two lines as one text (a plain scalar goes on over a more indented line).
    """
    before = index - 1
    while before >= 0 and (not lines[before].strip() or lines[before].lstrip().startswith("#")):
        before -= 1
    if before < 0 or index >= len(lines):
        return said, where
    previous = lines[before]
    content = previous.strip().removeprefix("- ")
    column = len(previous) - len(previous.lstrip()) + 1
    if not re.search(r":(\s|$)", content):
        return (
            f"{content!r} has no colon after its key: write it as 'KEY: VALUE' (YAML read it and line "
            f"{index + 1} as one text, then found a ':' it could not take)",
            (before + 1, column),
        )
    return (
        f"this line is indented more than {content!r} on line {before + 1}, so YAML read it as the rest of "
        f"that line's value: indent it like the key it belongs beside ({said})",
        where,
    )


def _mark(node: yaml.Node) -> Mark:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def _walk(node: yaml.Node, path: tuple[Key, ...], positions: Positions) -> None:
    import yaml

    positions.values.setdefault(path, _mark(node))
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, Mark] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.value == "<<":
                continue  # complex keys are rejected later; merge keys are YAML plumbing
            key = str(key_node.value)
            child = (*path, key)
            if key in seen:
                positions.duplicates.append((child, _mark(key_node), seen[key]))
                continue
            seen[key] = _mark(key_node)
            positions.keys[child] = _mark(key_node)
            _walk(value_node, child, positions)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, index), positions)


def _blank_jsonc(text: str) -> str:
    """Blank out JSONC comments and trailing commas, keeping every offset."""
    chars = list(text)
    for start, end in _jsonc_junk(text):
        for i in range(start, end):
            if chars[i] not in "\r\n":
                chars[i] = " "
    return "".join(chars)


def _jsonc_junk(text: str) -> Iterator[tuple[int, int]]:
    """Spans of `text` that are comments or trailing commas, outside strings."""
    i, n = 0, len(text)
    pending_comma: int | None = None
    while i < n:
        c = text[i]
        if c == '"':
            pending_comma = None
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            yield i, end
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            yield i, end
            i = end
        elif c == ",":
            pending_comma = i
            i += 1
        elif c in "}]":
            if pending_comma is not None:
                yield pending_comma, pending_comma + 1
            pending_comma = None
            i += 1
        else:
            if not c.isspace():
                pending_comma = None
            i += 1
