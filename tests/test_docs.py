"""Documentation that tests check against the code: lint rules, the CLI reference, settings, REST routes.

Each check reads the thing documented from the code itself (the lint rules, the typer app, the settings
table, the web app's routes) and fails with what a page names that is gone, or what it leaves out.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hintgate.hints.lint import RULES

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = (*sorted(DOCS.glob("*.md")), ROOT / "README.md", ROOT / "bench" / "README.md")
"""Every page a reader is sent to: the docs, the README, the benchmarks' README."""


def test_every_lint_rule_is_documented_with_its_id_and_severity() -> None:
    text = (DOCS / "lint.md").read_text(encoding="utf-8")
    rows = {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r"^\| (HG\d{3}) \| ([a-z-]+) \| (error|warning|note) \|", text, re.MULTILINE)
    }
    assert rows == {code: (rule.id, rule.severity.value) for code, rule in RULES.items()}


def render_cli_reference() -> str:
    """docs/cli.md as `--help` prints it, command by command."""
    import typer
    from typer.testing import CliRunner

    from hintgate.cli.app import app

    runner = CliRunner()
    root = typer.main.get_command(app)
    sections = [
        "# Command-line reference",
        "",
        "Generated from `--help`; `UPDATE_DOCS=1 pytest tests/test_docs.py` rewrites it.",
        "",
    ]

    def walk(command: Any, path: list[str]) -> None:
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"})
        assert result.exit_code == 0, result.output
        title = " ".join(["hintgate", *path])
        text = "\n".join(line.rstrip() for line in result.output.strip().splitlines())
        sections.extend([f"## `{title}`", "", "```text", text, "```", ""])
        subcommands = getattr(command, "commands", None)  # typer bundles its own click
        if isinstance(subcommands, dict):
            for name in sorted(subcommands):
                walk(subcommands[name], [*path, name])

    walk(root, [])
    return "\n".join(sections)


def test_the_cli_reference_is_generated_from_help() -> None:
    import os

    expected = render_cli_reference()
    path = DOCS / "cli.md"
    if os.environ.get("UPDATE_DOCS"):
        path.write_text(expected, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == expected, "docs/cli.md is stale: UPDATE_DOCS=1 pytest tests/test_docs.py"


def test_every_setting_is_documented_with_its_environment_variable() -> None:
    from hintgate.config.settings import ENVIRONMENT, Settings

    text = (DOCS / "settings.md").read_text(encoding="utf-8")
    names = {f.name for f in __import__("dataclasses").fields(Settings)}
    assert names == set(ENVIRONMENT)
    for name, (variable, _) in ENVIRONMENT.items():
        assert f"| `{name}` | `{variable}` |" in text, name


def test_every_policy_setting_is_documented_with_its_default() -> None:
    from hintgate.policy.rules import POLICY_SETTINGS

    lines = (DOCS / "policy.md").read_text(encoding="utf-8").splitlines()
    for setting in POLICY_SETTINGS:
        row = [line for line in lines if line.startswith(f"| `{setting.path}` |")]
        assert row, f"docs/policy.md has no row for policy.{setting.path}"
        default = setting.default
        shown = (
            str(default).lower()
            if isinstance(default, bool)
            else f"{default:g}"
            if isinstance(default, float)
            else str(default)
        )
        assert row[0].rstrip().endswith(f"| `{shown}` |"), (setting.path, row[0])


# -- the REST API: docs/api.md against the routes the app serves

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
_METHOD = "|".join(METHODS)
# `GET /api/x`, and `GET`, `PATCH /api/x` for two methods of one path.
_DOCUMENTED_ROUTE = re.compile(rf"((?:(?:{_METHOD})`?, `?)*)({_METHOD}) (/api/[^\s`]*)")


def template(path: str) -> str:
    """A route's path with its parameters unnamed: `/api/sessions/{session_id}`, `{id}` and `NAME` alike."""
    return re.sub(r"\{[^}]*\}|(?<=/)[A-Z][A-Z_]*(?=/|$)", "{}", path)


def served_api_routes() -> set[tuple[str, str]]:
    """(method, path) of every route the web app answers under /api, read from the app as it is built."""
    from hintgate.config.loading import parse_config
    from hintgate.server.gateway import Gateway
    from hintgate.testing import FakeSource
    from hintgate.web.app import create_app, routers

    app = create_app(Gateway(parse_config({"mcpServers": {}}), sources={"x": FakeSource("x")}), None)
    routes = [*app.routes, *(route for router in routers() for route in router.routes)]
    return {
        (method, template(route.path))
        for route in routes
        if getattr(route, "path", "").startswith("/api/")
        for method in getattr(route, "methods", None) or ()
        if method in METHODS  # HEAD comes with every GET
    }


def documented_api_routes(text: str) -> set[tuple[str, str]]:
    """(method, path) of every route a page names as `METHOD /api/...`."""
    found: set[tuple[str, str]] = set()
    for match in _DOCUMENTED_ROUTE.finditer(text):
        before, method, path = match.groups()
        for each in (*re.findall(_METHOD, before), method):
            found.add((each, template(path.rstrip(".,;:)"))))
    return found


def test_every_route_under_api_is_documented_in_the_api_page_and_every_route_it_names_is_served() -> None:
    served = served_api_routes()
    assert ("GET", "/api/health") in served
    documented = documented_api_routes((DOCS / "api.md").read_text(encoding="utf-8"))
    undocumented, gone = sorted(served - documented), sorted(documented - served)
    assert undocumented == [], f"routes docs/api.md does not document: {undocumented}"
    assert gone == [], f"routes docs/api.md names that the app does not serve: {gone}"


def test_every_route_any_page_names_is_served() -> None:
    served = served_api_routes()
    paths = {path for _, path in served}
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        wrong = sorted(documented_api_routes(text) - served)
        assert wrong == [], f"{page.relative_to(ROOT)} names routes the app does not serve: {wrong}"
        named = {template(m.group(1).rstrip(".,;:)")) for m in re.finditer(r"(?<![\w.])(/api/[\w{}./-]+)", text)}
        unknown = sorted(named - paths)
        assert unknown == [], f"{page.relative_to(ROOT)} names paths the app does not serve: {unknown}"


# -- the tests and files pages name: held by the test tree and the repository

TESTS = ROOT / "tests"
# A path from the top of the repository: `tests/web/test_auth.py`, `src/hintgate/cli/app.py`, `bench/README.md`.
_REPO_PATH = re.compile(r"(?<![\w/.-])((?:tests|src|bench|docs|scripts|examples)/[\w/.*-]*[\w*])")
# `tests/web/test_auth.py::test_x` (or `::TestClass::test_x`), `test_auth.py::test_x`, or `test_x` alone.
_NAMED_TEST = re.compile(r"(?<![\w/.-])(?:([\w/.-]+\.py)::)?((?:[A-Z]\w*::)?test_\w+)\b(?!\.py)")


def defined_tests() -> dict[str, set[str]]:
    """Each test file under tests/ (relative to the repository) with the names it defines, classes' methods
    as `Class::name` and alone."""
    import ast

    found: dict[str, set[str]] = {}
    for path in TESTS.rglob("*.py"):
        if "node_modules" in path.parts or any(part.startswith(".") for part in path.relative_to(TESTS).parts):
            continue
        names: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.ClassDef):
                for member in node.body:
                    if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
                        names.update({member.name, f"{node.name}::{member.name}"})
        found[path.relative_to(ROOT).as_posix()] = names
    return found


def missing_tests(text: str, tests: dict[str, set[str]]) -> list[str]:
    """The tests a page names that the test tree does not hold, as the page writes them."""
    missing: list[str] = []
    for match in _NAMED_TEST.finditer(text):
        file, name = match.groups()
        if file is None:
            holders = list(tests)
        elif "/" in file:
            holders = [file] if file in tests else []
        else:  # a file named without its directory: any test file of that name
            holders = [path for path in tests if path.rsplit("/", 1)[-1] == file]
        if not any(name in tests[path] for path in holders):
            missing.append(match.group(0))
    return missing


def missing_files(page: Path, text: str) -> list[str]:
    """The repository's files a page names (`tests/...`, `src/...`, a `.md` page) that do not exist."""
    missing = [
        path
        for path in _REPO_PATH.findall(text)
        if "node_modules" not in path  # installed, not kept: git ignores it
        and not any(ROOT.glob(path.rstrip(".")))
        and not (ROOT / path.rstrip(".")).exists()
    ]
    for name in re.findall(r"(?<![\w/.-])([\w-]+\.md)\b", text):
        if not any((where / name).exists() for where in (page.parent, ROOT, DOCS)):
            missing.append(name)
    return missing


def test_every_test_a_page_names_is_in_the_test_tree() -> None:
    tests = defined_tests()
    assert "test_every_test_a_page_names_is_in_the_test_tree" in tests["tests/test_docs.py"]
    assert missing_tests("`tests/test_docs.py::test_no_such_thing`, `test_docs.py::test_none`", tests) == [
        "tests/test_docs.py::test_no_such_thing",
        "test_docs.py::test_none",
    ]
    for page in PAGES:
        missing = missing_tests(page.read_text(encoding="utf-8"), tests)
        assert missing == [], f"{page.relative_to(ROOT)} names tests the test tree does not hold: {missing}"


def test_every_file_a_page_names_exists() -> None:
    made_up = "`tests/web/test_nothing.py`, `src/hintgate/cli/app.py`, [x](policy.md), DESIGN.md"
    assert missing_files(DOCS / "api.md", made_up) == ["tests/web/test_nothing.py", "DESIGN.md"]
    for page in PAGES:
        missing = missing_files(page, page.read_text(encoding="utf-8"))
        assert missing == [], f"{page.relative_to(ROOT)} names files the repository does not hold: {missing}"
