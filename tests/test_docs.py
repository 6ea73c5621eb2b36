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


# -- command lines: every `hintgate ...` a page shows parses against the real command line

_SHELL_BLOCKS = ("", "sh", "console", "bash", "shell")


def shown_command_lines(text: str, commands: dict[str, set[str]]) -> list[str]:
    """The hintgate command lines a page shows: in shell code blocks, and in code spans of its prose
    (`hintgate serve --http HOST:PORT`, or `serve --http HOST:PORT`: a command of hintgate's, from
    `commands`, with its subcommands, followed by an option or one of them)."""
    lines: list[str] = []
    for block in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        if block.group(1) in _SHELL_BLOCKS:
            lines.extend(re.sub(r"^\$\s*", "", line.strip()) for line in block.group(2).splitlines())
    prose = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    for span in re.findall(r"`([^`\n]+)`", prose):
        first, _, rest = span.partition(" ")
        named = first in commands and (rest.startswith("--") or rest.split(" ")[0] in commands[first])
        lines.append(f"hintgate {span}" if named else span)
    return [line for line in lines if line.startswith("hintgate ")]


def command_line_problem(root: Any, line: str) -> str | None:
    """What is wrong with one shown command line against the typer app, or None.

    Commands and subcommands must exist (`search|show` names two), every option must be one the command
    takes (and `--help` lists: not hidden), an enum option's value one of its choices unless it is a
    placeholder (`--format json|text`, `--level LEVEL`), and no more arguments than the command takes.
    What follows `--` (an upstream's command), a comment, a redirection or a pipe is not hintgate's.
    """
    import enum
    import shlex

    line = re.split(r"\s#\s|\s(?:--|>|\||&&|;)(?:\s|$)", f"{line} ")[0]
    words = shlex.split(line.replace("[", " ").replace("]", " "))[1:]
    command, path = root, ["hintgate"]
    while words and isinstance(getattr(command, "commands", None), dict) and not words[0].startswith(("-", "...")):
        names = words.pop(0).split("|")
        if not all(name in command.commands for name in names):
            return f"{' '.join(path)} has no command {'|'.join(names)}"
        command, path = command.commands[names[0]], [*path, names[0]]
    where = " ".join(path)
    options = {o: p for p in command.params if not p.hidden for o in (*p.opts, *p.secondary_opts)}
    arguments: list[str] = []
    while words:
        word = words.pop(0)
        if word == "...":
            continue
        if not word.startswith("-") or word == "-":
            arguments.append(word)
            continue
        for spelling in word.split("|"):
            name, given, value = spelling.partition("=")
            if name == "--help":
                continue
            if name not in options:
                return f"{where} has no option {name}"
            option = options[name]
            takes_value = not option.is_flag and not option.count
            if takes_value and not given:
                value = words[0] if words else ""
            kind = getattr(getattr(option, "type_descriptor", None), "annotation", None)
            if takes_value and isinstance(kind, type) and issubclass(kind, enum.Enum):
                choices = {member.value for member in kind}
                wrong = [v for v in value.split("|") if v and not v.isupper() and v not in choices]
                if wrong:
                    return f"{where} {name}: {wrong[0]} is not one of {sorted(choices)}"
        if takes_value and not given and words:
            words.pop(0)
    takes = [p.nargs for p in command.params if p.param_type_name == "argument"]
    if -1 not in takes and len(arguments) > sum(takes):
        return f"{where} takes {sum(takes)} arguments, the line gives {len(arguments)}: {arguments}"
    return None


def test_every_command_line_a_page_shows_parses_against_the_command_line() -> None:
    import typer

    from hintgate.cli.app import app

    root = typer.main.get_command(app)
    commands = {name: set(getattr(command, "commands", {})) for name, command in root.commands.items()}
    for wrong, said in (
        ("hintgate lint --format xml x", "lint --format: xml is not one of"),
        ("hintgate serve --no-such-flag", "serve has no option --no-such-flag"),
        ("hintgate registry search|fetch x", "registry has no command search|fetch"),
        ("hintgate config check a b", "config check takes 1 arguments"),
    ):
        assert said in (command_line_problem(root, wrong) or ""), wrong
    shown = 0
    for page in PAGES:
        if page.name == "cli.md":
            continue  # generated from --help (above)
        lines = shown_command_lines(page.read_text(encoding="utf-8"), commands)
        shown += len(lines)
        problems = [(line, why) for line in lines if (why := command_line_problem(root, line)) is not None]
        assert problems == [], f"{page.relative_to(ROOT)} shows command lines hintgate does not take: {problems}"
    assert shown > 100


# -- config keys: every key a page's config examples and key tables name is one the config file takes

# Where a fragment of a config file sits, for a block or a key table that shows one part of it: each
# wraps what it is given (a mapping) into a whole file.
_PLACES: dict[str, Any] = {
    "the file": lambda m: m,
    "a server": lambda m: {"mcpServers": {"s": {"command": "x", **m}}},
    "an OAuth block": lambda m: {"mcpServers": {"s": {"url": "https://x.example/mcp", "oauth": m}}},
    "an OpenAPI source": lambda m: {"openapi": {"s": {"document": "x.json", **m}}},
    "a Python registry": lambda m: {"python": {"s": {"registry": "m:r", **m}}},
    "a view": lambda m: {"views": {"v": m}},
    "the policy": lambda m: {"policy": m},
    "a rule": lambda m: {"policy": {"rules": [{"ask": m}]}},
    "an override": lambda m: {"mcpServers": {"s": {"command": "x", "overrides": {"t": m}}}},
}
_BLOCK_PLACES = ("the file", "a server", "the policy")
"""Where a YAML block may sit: the first of these that takes the most of its top keys."""
# The key tables: a table whose header starts with `key` (or `condition`, the policy's rules).
_KEY_TABLE = re.compile(r"^\| (?:key|condition) \|[^\n]*\n\|[- |]+\|\n((?:\|[^\n]*\n)+)", re.MULTILINE)


class _AnyVariable(dict[str, str]):
    """An environment in which every `${VAR}` is set, so examples are read for their keys alone."""

    def get(self, key: str, default: Any = None) -> str:  # type: ignore[override]
        return "x"

    def __bool__(self) -> bool:  # never taken for "no environment given"
        return True


def unknown_keys(data: Any) -> list[str]:
    """The keys of a whole config file the reader does not take, as its errors name them."""
    from hintgate.config.loading import parse_config
    from hintgate.errors import ConfigError

    try:
        parse_config(data, environ=_AnyVariable())
    except ConfigError as exc:
        return re.findall(r'unknown (?:key|hint) "([^"]*)"', str(exc))
    return []


def nested(dotted: str) -> dict[str, Any]:
    """`identity.issuer` as the mapping `{identity: {issuer: ...}}`."""
    value: Any = "x"
    for part in reversed(dotted.split(".")):
        value = {part: value}
    return dict(value)


def fitting(keys: list[str], wrap: Any) -> list[str]:
    """The keys (dotted paths) that do not fit where `wrap` puts them."""
    return [key for key in keys if unknown_keys(wrap(nested(key)))]


def config_examples(text: str) -> list[tuple[int, dict[str, Any]]]:
    """The YAML blocks of a page that show a config file or part of one, with their line: those in which
    a key at the top is one the file, a server or the policy takes (an expect file or an API answer is not)."""
    import yaml

    found: list[tuple[int, dict[str, Any]]] = []
    for block in re.finditer(r"^```(ya?ml)\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        data = yaml.safe_load(block.group(2))
        if not isinstance(data, dict):
            continue
        top = [key for key in data if isinstance(key, str)]
        if any(not fitting([key], _PLACES[place]) for key in top for place in _BLOCK_PLACES):
            found.append((text[: block.start()].count("\n") + 1, data))
    return found


def named_keys(cell: str) -> list[str]:
    """The keys a key table's first cell names: `a` / `b`, `a`, `b`: `VALUE`, or `a: VALUE` (what
    follows a colon is a value)."""
    keys: list[str] = []
    for i, part in enumerate(cell.split("`")):
        if i % 2 == 0:  # outside a code span
            if ":" in part:
                break
            continue
        key, colon, _ = part.partition(":")
        if re.fullmatch(r"[A-Za-z_][\w.-]*", key.strip()):
            keys.append(key.strip())
        if colon:
            break
    return keys


def unknown_config_keys(text: str) -> list[str]:
    """The config keys a page names that no place in a config file takes: in its YAML config examples
    (each read where its top keys fit: the file, a server or the policy) and in its key tables (each read
    where most of its keys fit)."""
    wrong: list[str] = []
    for line, data in config_examples(text):
        top = [key for key in data if isinstance(key, str)]
        place = max(_BLOCK_PLACES, key=lambda place: len(top) - len(fitting(top, _PLACES[place])))
        wrong.extend(f"line {line}: {key}" for key in unknown_keys(_PLACES[place](data)))
    for table in _KEY_TABLE.finditer(text):
        keys = [key for row in table.group(1).splitlines() for key in named_keys(row.split("|")[1])]
        line = text[: table.start()].count("\n") + 1
        misfits = min((fitting(keys, wrap) for wrap in _PLACES.values()), key=len)
        wrong.extend(f"line {line}: {key}" for key in misfits)
    return wrong


def test_every_config_key_a_page_names_is_one_the_config_file_takes() -> None:
    made_up = (
        "```yaml\nmcpServers:\n  s: {command: x, trsut: local}\ntimeouts: {call: 5}\n```\n"
        "```yaml\noverrides:\n  t: {readOnly: true}\n```\n"
        "| key | value |\n| --- | --- |\n| `identity.issuer` | x |\n| `identity.groupClaim` | x |\n\n"
        "| key | value |\n| --- | --- |\n| `client_id` / `clientId` | x |\n| `scopes` | x |\n| `redirectUri` | x |\n"
    )
    assert unknown_config_keys(made_up) == [
        "line 1: trsut",
        "line 6: readOnly",
        "line 10: identity.groupClaim",
        "line 15: redirectUri",
    ]
    examples = 0
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        examples += len(config_examples(text)) + len(_KEY_TABLE.findall(text))
        wrong = unknown_config_keys(text)
        assert wrong == [], f"{page.relative_to(ROOT)} names config keys the config file does not take: {wrong}"
    assert examples > 25


def documented_keys(text: str) -> set[str]:
    """The keys a page names: each code span's first word (`key`, `key: value`, `section.key`), and the
    keys of its YAML blocks."""
    named = {span.split(":")[0].strip() for span in re.findall(r"`([^`\n]+)`", text)}
    for block in re.findall(r"^```ya?ml\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        named.update(re.findall(r"([\w-]+):", block))
    return named


def undocumented_keys(config_page: str, policy_page: str) -> list[str]:
    """The keys the config file takes that the pages do not name: every section and its keys in the
    config page (`section.key`), every source's, login's, view's and override's keys (one spelling of each
    setting is enough: the pages say that camelCase and snake_case are alike), the policy's in the policy
    page."""
    from hintgate.config.mcp_entry import SERVER_KEYS
    from hintgate.config.oauth_entry import OAUTH_KEYS
    from hintgate.config.openapi_entry import AUTH_KEYS, FILTER_KEYS, OPENAPI_KEYS
    from hintgate.config.python_entry import PYTHON_KEYS
    from hintgate.config.reader import HINT_SPELLINGS
    from hintgate.config.sections import PEOPLE_KEYS, SECTION_KEYS, SETTINGS_SECTIONS, VIEW_KEYS
    from hintgate.config.types import SOURCE_TYPES
    from hintgate.policy.rules import PREFERENCE_KEYS, TOP_KEYS

    config, policy = documented_keys(config_page), documented_keys(policy_page)
    sections = {name.split(".")[0] for name in config}
    missing = [key for key in (*SETTINGS_SECTIONS, "policy", *(row.key for row in SOURCE_TYPES)) if key not in sections]
    missing += [f"{name}.{key}" for name, keys in SECTION_KEYS.items() for key in keys if f"{name}.{key}" not in config]
    plain = (*VIEW_KEYS, *PEOPLE_KEYS, *FILTER_KEYS, *AUTH_KEYS, *(key for keys in AUTH_KEYS.values() for key in keys))
    missing += [key for key in plain if key not in config]
    for spellings, page, before in (
        (SERVER_KEYS, config, ""),
        (OAUTH_KEYS, config, "oauth."),
        (OPENAPI_KEYS, config, "openapi.NAME."),
        (PYTHON_KEYS, config, "python.NAME."),
        (HINT_SPELLINGS, config, "overrides.TOOL."),
        (TOP_KEYS, policy, "policy."),
        (PREFERENCE_KEYS, policy, "policy.preferences."),
    ):
        for setting in dict.fromkeys(spellings.values()):
            named = [key for key, value in spellings.items() if value == setting]
            if not any(key in page or f"preferences.{key}" in page for key in named):
                missing.append(before + named[0])
    return missing


def test_every_key_the_config_file_takes_is_documented() -> None:
    config, policy = (DOCS / "config.md").read_text(encoding="utf-8"), (DOCS / "policy.md").read_text(encoding="utf-8")
    assert "limits.textLength" in undocumented_keys(config.replace("`limits.textLength`", "`x`"), policy)
    assert "policy.approvalTimeout" in undocumented_keys(config, policy.replace("approvalTimeout", "x"))
    assert undocumented_keys(config, policy) == []
