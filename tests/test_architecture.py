"""The import graph of src/hintgate: no cycle between modules, layers as drawn.

docs/architecture.md draws the layers; `LAYERS` below is the same table, and
a module may import only from its own layer or the layers below it. The
drawing is read back (its layers in order, each module it names in the layer
it is drawn in) and its "Who imports whom" table is compared with the import
graph between packages, edge by edge.
Module-level and function-level imports both count (a lazy import is still a
dependency), and so do imports under `if TYPE_CHECKING:` in the layers and the
table: a module typed against a class of a higher layer depends on it as much
as one that imports it to run (the type moves down, or a Protocol below says
what is used). Only the cycle check leaves type-only imports out: an import
that never runs cannot make one module wait for another, and breaking such a
cycle is what `if TYPE_CHECKING:` is for. A package's `__init__` re-exporting
a submodule is an edge from the package to that submodule.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "hintgate"

LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "core",
        (
            "hintgate",  # the package itself: its version and curated re-exports, nothing more
            "hintgate.errors",
            "hintgate.results",
            "hintgate.redaction",
            "hintgate.tracecontext",
            "hintgate.hints",
            "hintgate.scan",
            "hintgate.discovery",
            "hintgate.policy",
            "hintgate.tooldef",
            # A read-only attribute worked out from its object (standard library only).
            "hintgate.derived",
            # Many waits that end in order, served by one loop timer (standard library only).
            "hintgate.deadlines",
            # JSON from another party read with no lone surrogate (standard library only).
            "hintgate.jsontext",
            # Dependencies' packages set up without their `__init__` (standard library only).
            "hintgate.lean_packages",
            # Random identifiers without `uuid`'s import of `platform` (standard library only).
            "hintgate.random_ids",
            # Pure YAML position helpers (policy rules cite key paths with them), kept beside the config reader.
            "hintgate.config.yamlpos",
        ),
    ),
    ("config", ("hintgate.config",)),
    ("sources", ("hintgate.sources",)),
    # Servers not added yet: a registry's answers, the entries they become, a package tried in a scratch directory.
    ("registry", ("hintgate.registry",)),
    # The stored state a stdio gateway reads ahead of the store, with the standard library only, the sealing
    # of what the store keeps sealed, which both open, and the task handles the store or memory keeps.
    ("store", ("hintgate.store", "hintgate.stored_state", "hintgate.sealing", "hintgate.handles")),
    # The scan's worker processes: the one part of the scan package that starts processes, above the rest of it.
    # A client's session and the request context as Protocols: what the pipeline and the server both read.
    (
        "pipeline",
        (
            "hintgate.pipeline",
            "hintgate.arguments",
            "hintgate.outcome",
            "hintgate.scan.workers",
            "hintgate.session",
            "hintgate.request_context",
        ),
    ),
    ("observers", ("hintgate.observers",)),
    ("server", ("hintgate.server",)),
    ("web", ("hintgate.web",)),
    ("entry points", ("hintgate.cli", "hintgate.testing", "hintgate.demo", "hintgate.__main__")),
]
"""Layers from the bottom up: a module belongs to the layer with the longest matching prefix
(`hintgate` itself matches only the package's `__init__`)."""

OWNED_ELSEWHERE: dict[tuple[str, str], str] = {}
"""Import edges (source module, target prefix) in code another change owns, each named with its owner.

They are left out of the cycle and layer checks; every other edge must keep to the rules."""


def owned_elsewhere(name: str, target: str) -> bool:
    return any(name == source and target.startswith(prefix) for source, prefix in OWNED_ELSEWHERE)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, *, type_only: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement at module level or in a function; those under `if TYPE_CHECKING:` with `type_only`."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if not type_only and isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def imported(name: str, path: Path, known: set[str], *, type_only: bool = True) -> set[str]:
    """The hintgate modules `name` imports (a `from package import submodule` names the submodule), those it
    imports only under `if TYPE_CHECKING:` included unless `type_only` is false."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8")), type_only=type_only):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in known else stem for alias in node.names]
        for dotted in targets:
            target = dotted
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph(*, type_only: bool = True) -> dict[str, set[str]]:
    """Each module's imports of other hintgate modules (with type-only imports unless `type_only` is false)."""
    found = modules()
    known = set(found)
    return {name: imported(name, path, known, type_only=type_only) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def layer_of(name: str) -> int:
    best, best_length = -1, -1
    for number, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            nested = prefix != "hintgate" and name.startswith(prefix + ".")
            if (name == prefix or nested) and len(prefix) > best_length:
                best, best_length = number, len(prefix)
    return best


def test_no_import_cycle_between_modules_through_imports_that_run() -> None:
    runs = graph(type_only=False)
    edges = {name: {t for t in targets if not owned_elsewhere(name, t)} for name, targets in runs.items()}
    found = cycles(edges)
    assert found == [], "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_every_module_belongs_to_a_layer() -> None:
    assert [name for name in modules() if layer_of(name) < 0] == []


def test_modules_import_only_from_their_layer_or_below_type_only_imports_included() -> None:
    upward = [
        f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for name, targets in graph().items()
        for target in sorted(targets)
        if layer_of(target) > layer_of(name) and not owned_elsewhere(name, target)
    ]
    assert upward == []


def test_the_cycle_finder_finds_a_cycle_through_a_package_reexport() -> None:
    edges = {"p": {"p.a"}, "p.a": {"p.b"}, "p.b": {"p"}, "q": {"p"}}
    assert cycles(edges) == [["p", "p.a", "p.b"]]


def test_type_checking_imports_count_and_function_imports_count_and_only_the_cycle_check_tells_them_apart(
    tmp_path: Path,
) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "import typing\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from hintgate import errors\n"
        "if typing.TYPE_CHECKING:\n    from hintgate.tooldef import ToolDef\n"
        "def f():\n    from hintgate import results\n"
    )
    known = {"hintgate", "hintgate.errors", "hintgate.results", "hintgate.tooldef"}
    assert imported("m", source, known) == {"hintgate.errors", "hintgate.results", "hintgate.tooldef"}
    assert imported("m", source, known, type_only=False) == {"hintgate.results"}


def test_an_upward_import_under_type_checking_is_found(tmp_path: Path) -> None:
    source = tmp_path / "pipeline.py"
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from hintgate.web import app\n")
    [found] = imported("hintgate.pipeline", source, {"hintgate.pipeline", "hintgate.web", "hintgate.web.app"})
    assert layer_of(found) > layer_of("hintgate.pipeline")


DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


SPLIT_OFF = [prefix for _, prefixes in LAYERS for prefix in prefixes if prefix.count(".") > 1]
"""Modules drawn in another layer than their package (`config/yamlpos` in the core, `scan/workers` in the
pipeline layer): each counts on its own in the import table."""


def unit(name: str) -> str:
    """The package (or top-level module) a module counts in for the document's import table, as the document
    writes it: `cli/` for a package, `pipeline` for a module, `config/yamlpos` for a module drawn in another
    layer than its package."""
    for prefix in SPLIT_OFF:
        if name == prefix or name.startswith(prefix + "."):
            return prefix.removeprefix("hintgate.").replace(".", "/")
    parts = name.split(".")
    if len(parts) == 1:
        return "hintgate"
    return parts[1] + "/" if (PACKAGE / parts[1]).is_dir() else parts[1]


def unit_edges(edges: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(unit(name), unit(target)) for name, targets in edges.items() for target in targets} - {
        (u, u) for u in {unit(name) for name in edges}
    }


def documented_edges(text: str) -> set[tuple[str, str]]:
    """The rows of the document's "Who imports whom" table: (package, a package it imports)."""
    section = text.split("\n## Who imports whom\n", 1)[1].split("\n## ", 1)[0]
    found: set[tuple[str, str]] = set()
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) != 4 or not cells[1].strip().startswith("`"):
            continue
        [source] = re.findall(r"`([^`]+)`", cells[1])
        found |= {(source, target) for target in re.findall(r"`([^`]+)`", cells[2])}
    return found


def test_the_documented_import_edges_are_the_import_graphs_edge_for_edge_type_only_imports_included() -> None:
    documented = documented_edges(DOC.read_text(encoding="utf-8"))
    real = unit_edges(graph())
    assert sorted(real - documented) == [], "imports the document's table does not show"
    assert sorted(documented - real) == [], "edges the document's table shows that no import makes"


def test_every_documented_import_edge_goes_down_the_layers_or_stays_in_one() -> None:
    layer = {unit(name): layer_of(name) for name in modules()}
    upward = [(a, b) for a, b in documented_edges(DOC.read_text(encoding="utf-8")) if layer[b] > layer[a]]
    assert upward == []


def drawn_layers(text: str) -> list[tuple[str, list[str]]]:
    """The drawing's layers from the top down: each title and the module names drawn in it (prose in
    parentheses and the connecting lines left out)."""
    drawing = text.split("```\n", 2)[1]
    layers: list[tuple[str, list[str]]] = []
    block: list[str] = []
    for line in drawing.splitlines():
        titled = re.match(r" (\S.*?)\s{2,}(.*)", line)
        if titled:
            block = []
            layers.append((titled.group(1), block))
        block.append(titled.group(2) if titled else line)
    words = re.compile(r"\w+(?:/\w+)*/?")
    return [(title, words.findall(re.sub(r"\([^()]*\)", " ", " ".join(lines)))) for title, lines in layers]


def drawn_module(token: str, package: str) -> str | None:
    """The module a token of the drawing names: one of the package last drawn (`gateway` after `server/`),
    of a package around it (`python` after `sources/` and `openapi/`), or of hintgate itself (`tooldef`,
    `config/yamlpos`); `hintgate` is the package."""
    path = token.rstrip("/").replace("/", ".")
    known = set(modules())
    while package:
        if f"{package}.{path}" in known:
            return f"{package}.{path}"
        package = package.rpartition(".")[0]
    return path if path in known else None


def test_the_drawing_has_the_layers_in_order_and_every_module_it_names_in_its_layer() -> None:
    layers = drawn_layers(DOC.read_text(encoding="utf-8"))
    assert [title for title, _ in layers] == [title for title, _ in reversed(LAYERS)]
    misplaced = []
    for number, (title, tokens) in enumerate(reversed(layers)):
        package = "hintgate"
        named = set()
        for token in tokens:
            module = drawn_module(token, package)
            if module is None or layer_of(module) != number:
                misplaced.append(f"{title}: {token} ({module or 'no such module'})")
                continue
            named.add(module)
            if token.endswith("/"):
                package = module
        missing = [prefix for prefix in LAYERS[number][1] if prefix not in named]
        assert missing == [], f"{title}: the drawing does not show {missing}"
    assert misplaced == []


def test_the_architecture_document_draws_the_same_layers() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    for title, prefixes in LAYERS:
        assert title in text, title
        for prefix in prefixes:
            shown = prefix.removeprefix("hintgate.").replace(".", "/") if prefix != "hintgate" else "hintgate"
            assert shown in text, prefix


# -- the MCP SDK behind one door ---------------------------------------------------

SDK_DOOR = "hintgate.server.sdk"
"""The one module that reads the MCP SDK's private attributes (tests/server/test_sdk.py checks each)."""


def sdk_private_names() -> set[str]:
    """Every private name the installed SDK (`mcp`, `mcp_types`) defines: attributes, methods, parameters."""
    import mcp
    import mcp_types

    names: set[str] = set()
    for package in (mcp, mcp_types):
        for path in Path(package.__file__ or "").parent.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
                elif isinstance(node, ast.ClassDef):
                    for member in node.body:
                        if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
                            names.add(member.name)
                        elif isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name):
                            names.add(member.target.id)
                        elif isinstance(member, ast.Assign):
                            names.update(t.id for t in member.targets if isinstance(t, ast.Name))
                elif isinstance(node, ast.arg):
                    names.add(node.arg)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def _super_call_of(node: ast.Attribute) -> bool:
    value = node.value
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"


def sdk_private_reads(path: Path, private: set[str]) -> list[str]:
    """`line: expression` for each read of an SDK-private name in a module.

    Not counted: a module's own attributes (through `self` or `cls`), and an
    override calling the SDK's method it overrides (`super()._hook()` inside
    `_hook`: tests/server/test_sdk.py checks those hooks' names and parameters).
    """
    found: list[str] = []

    def visit(node: ast.AST, function: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        if isinstance(node, ast.Attribute) and node.attr in private:
            own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            hook = _super_call_of(node) and node.attr == function
            if not own and not hook:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.keyword) and node.arg in private:
            found.append(f"{node.value.lineno}: keyword {node.arg}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr"):
            named = node.args[1] if len(node.args) > 1 else None
            if isinstance(named, ast.Constant) and named.value in private:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
    return found


def test_only_the_sdk_door_reads_the_sdks_private_attributes() -> None:
    private = sdk_private_names()
    assert {"_request_outbound", "_connection", "_server_instances"} <= private  # the SDK is read, not guessed
    outside = {
        name: reads
        for name, path in modules().items()
        if name != SDK_DOOR and (reads := sdk_private_reads(path, private))
    }
    assert outside == {}, f"read the SDK's private parts through {SDK_DOOR}, not directly"


def test_the_sdk_check_finds_private_reads_and_leaves_own_attributes_and_override_hooks_alone(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "class Provider(Base):\n"
        "    async def _initialize(self):\n"
        "        await super()._initialize()\n"
        "        self._connection = None\n"
        "def channel(session):\n"
        "    getattr(session, '_connection', None)\n"
        "    send(x, _related_request_id=1)\n"
        "    return session._request_outbound\n"
    )
    private = {"_initialize", "_connection", "_related_request_id", "_request_outbound"}
    assert sdk_private_reads(source, private) == [
        "6: getattr(session, '_connection', None)",
        "7: keyword _related_request_id",
        "8: session._request_outbound",
    ]


ROOT = SRC.parent


def private_borrowings(path: Path, *, attributes: bool = True) -> list[str]:
    """`line: what` for each private name a module takes from another hintgate module.

    `from hintgate.x import _name` always counts; with `attributes`, so does `module._name` where `module`
    is a hintgate module the file imported. Dunder names are public by convention and do not count.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: set[str] = set()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("hintgate"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                else:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names if a.name.startswith("hintgate"))
    if attributes:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
    return sorted(set(found), key=lambda line: int(line.split(":")[0]))


def test_no_module_takes_a_private_name_from_another() -> None:
    """What one module uses of another is that module's public surface; its private names stay its own.

    Tests may reach into a module's private state through the module (to empty a cache, to pretend a
    library failed to load), but they import only public names too.
    """
    borrowed = {
        str(path.relative_to(ROOT)): lines
        for root, attributes in ((PACKAGE, True), (ROOT / "bench", True), (ROOT / "tests", False))
        for path in sorted(root.rglob("*.py"))
        if "node_modules" not in path.parts and (lines := private_borrowings(path, attributes=attributes))
    }
    assert borrowed == {}


def test_the_private_name_check_finds_imports_and_module_attributes(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from hintgate.config.reader import Reader, _got\n"
        "from hintgate.store import engine\n"
        "import hintgate.web.api as api\n"
        "from other import _theirs\n"
        "def f(self):\n"
        "    self._own = engine.translated\n"
        "    return engine._translated, api.__name__, _theirs._x\n"
    )
    assert private_borrowings(source) == [
        "1: from hintgate.config.reader import _got",
        "7: engine._translated",
    ]
    assert private_borrowings(source, attributes=False) == ["1: from hintgate.config.reader import _got"]


def wait_for_calls(path: Path) -> list[str]:
    """The lines of a module that call `asyncio.wait_for` (as `asyncio.wait_for` or imported by its name)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            called = node.func
            if (
                isinstance(called, ast.Attribute)
                and called.attr == "wait_for"
                and isinstance(called.value, ast.Name)
                and called.value.id == "asyncio"
            ) or (isinstance(called, ast.Name) and called.id == "wait_for"):
                found.append(f"{node.lineno}: {ast.unparse(node)[:60]}")
    return found


def test_no_module_waits_with_asyncio_wait_for_which_drops_a_cancel_arriving_as_its_wait_ends() -> None:
    # On Python 3.11 `asyncio.wait_for` returns the awaited result, instead of raising, when its task is
    # cancelled in the loop step where the awaited thing ends: a waiter in a loop then never stops (a
    # gateway's stop hung that way). `async with asyncio.timeout(...)` lets the cancel through.
    waiting = {name: calls for name, path in modules().items() if (calls := wait_for_calls(path))}
    assert waiting == {}, "wait with `async with asyncio.timeout(...)` instead"


def test_the_wait_for_check_finds_both_spellings(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "import asyncio\n"
        "from asyncio import wait_for\n"
        "async def f(event):\n"
        "    await asyncio.wait_for(event.wait(), 1)\n"
        "    await wait_for(event.wait(), 2)\n"
        "    async with asyncio.timeout(3):\n"
        "        await event.wait()\n"
    )
    assert wait_for_calls(source) == ["4: asyncio.wait_for(event.wait(), 1)", "5: wait_for(event.wait(), 2)"]


METHODS_BEFORE_A_REASON = 25


def crowded_classes(path: Path) -> list[str]:
    """The classes of a module with more than 25 methods whose docstring does not say why they are one concept.

    A method is any function defined in the class body (properties included); a class says why in a paragraph
    of its docstring that opens "One concept".
    """
    crowded = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            methods = sum(isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef) for member in node.body)
            reason = re.search(r"(?m)^One concept", ast.get_docstring(node) or "")
            if methods > METHODS_BEFORE_A_REASON and reason is None:
                crowded.append(f"{node.lineno}: {node.name} ({methods} methods)")
    return crowded


def test_no_class_has_more_than_25_methods_unless_its_docstring_says_why_it_is_one_concept() -> None:
    crowded = {name: classes for name, path in modules().items() if (classes := crowded_classes(path))}
    assert crowded == {}


def test_the_method_count_check_finds_a_crowded_class_and_accepts_one_that_gives_its_reason(tmp_path: Path) -> None:
    methods = "".join(f"    def m{index}(self): ...\n" for index in range(26))
    source = tmp_path / "m.py"
    source.write_text(
        f'class Crowded:\n    """Many things."""\n{methods}'
        f'class Reasoned:\n    """Many things.\n\n    One concept: each method is a step of one life.\n'
        f'    """\n{methods}'
        f"class Small:\n{methods.replace('    def m25(self): ...' + chr(10), '')}"
    )
    assert crowded_classes(source) == ["1: Crowded (26 methods)"]
