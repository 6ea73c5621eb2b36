"""The import graph of src/hintgate: no cycle between modules, layers as drawn.

docs/architecture.md draws the layers; `LAYERS` below is the same table, and
a module may import only from its own layer or the layers below it.
Module-level and function-level imports both count (a lazy import is still a
dependency); imports under `if TYPE_CHECKING:` do not (they never run). A
package's `__init__` re-exporting a submodule is an edge from the package to
that submodule.
"""

from __future__ import annotations

import ast
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
            "hintgate.policy",
            "hintgate.tooldef",
            # Pure YAML position helpers (policy rules cite key paths with them), kept beside the config reader.
            "hintgate.config.yamlpos",
        ),
    ),
    ("config", ("hintgate.config",)),
    ("sources", ("hintgate.sources",)),
    ("store", ("hintgate.store",)),
    ("pipeline", ("hintgate.pipeline", "hintgate.arguments", "hintgate.outcome")),
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


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that runs: at module level or in a function, not under `if TYPE_CHECKING:`."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The hintgate modules `name` imports (a `from package import submodule` names the submodule)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
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


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imported(name, path, known) for name, path in found.items()}


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


def test_no_import_cycle_between_modules() -> None:
    edges = {name: {t for t in targets if not owned_elsewhere(name, t)} for name, targets in graph().items()}
    found = cycles(edges)
    assert found == [], "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_every_module_belongs_to_a_layer() -> None:
    assert [name for name in modules() if layer_of(name) < 0] == []


def test_modules_import_only_from_their_layer_or_below() -> None:
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


def test_type_checking_imports_and_function_imports_are_told_apart(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from hintgate import errors\n"
        "def f():\n    from hintgate import results\n"
    )
    assert imported("m", source, {"hintgate", "hintgate.errors", "hintgate.results"}) == {"hintgate.results"}


def test_the_architecture_document_draws_the_same_layers() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    for title, prefixes in LAYERS:
        assert title in text, title
        for prefix in prefixes:
            shown = prefix.removeprefix("hintgate.").replace(".", "/") if prefix != "hintgate" else "hintgate"
            assert shown in text, prefix
