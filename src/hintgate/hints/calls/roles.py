"""Which parameters of a tool decide what a call does, found from its input schema and texts.

Pure. Read once per tool; a role names a top-level property and how its value
is judged:

- `sql`: holds SQL (`format: sql`, or a code parameter whose name,
  description or tool text speaks of SQL, a statement for a database, a
  dialect): `sql.judge_sql`;
- `shell`: holds a command line (a shell, terminal or bash command, a command
  to run): `shell.judge_shell`;
- `argv`: holds a command and its arguments as an array: `programs.judge_argv`;
- `program`: holds the subcommand or arguments of the one program the tool
  names (a `git` tool's `subcommand` and `args`, joined in that order), or
  of the program another parameter names;
- `executable`: names the program a call runs, beside a list of its
  arguments (`{program: "grep", args: [...]}`), or chooses it from an enum
  of programs hintgate knows (`manager: npm|yarn|pnpm`);
- `method`: picks an HTTP method (an enum of methods, or a `method` of a
  tool that takes a URL), judged with the URL's path (`choices.judge_method`);
- `windows`: a PowerShell script or a cmd.exe command line (`dialect` says which), in the one free text of
  a tool whose text names that shell: `windows_shells`;
- `http-text`: a whole HTTP/1.1 request as text (request line, headers, body), judged as `method` is;
- `action`: picks what the tool does among verbs (`choices.judge_action`);
- `language`: a statement of a database language other than SQL the tool's text names (Cypher, KQL,
  SPARQL, CQL) in its one free-text string, or a MongoDB command document in its one object parameter:
  `query_languages.judge_language`;
- `query`: a query whose language the tool's text does not name (a search string, or a statement): only
  a text that is plainly a write statement of SQL (`DELETE FROM t`, `DROP TABLE t`) or a GraphQL
  `mutation` is judged, as that language;
- `dry-run`, `confirm`, `force`: booleans that make a call a read (a dry run;
  a preview unless confirmed), or a write destructive.

A parameter named for nothing it holds (`text`, `input`, `body`, `expr`) decides when it is the tool's one
free-text string (or its one required one) beside parameters that name or place something (`server`,
`db_path`, `project_id`), and the tool's text names SQL or a terminal: it holds the statements or the
command line a call runs. A script parameter of a tool whose text names a SQL engine and no shell holds
statements.

Nothing is taken from one server's names: the words are general English (a
"SQL statement", a "shell command") and JSON Schema's own keywords.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.hints.calls.choices import HTTP_METHODS
from hintgate.hints.calls.programs import knows, program_of
from hintgate.hints.calls.query_languages import language_named
from hintgate.hints.calls.sql import dialect_named
from hintgate.hints.calls.verbs import verb_act
from hintgate.hints.calls.word_tables import word_set
from hintgate.hints.inference.naming import parse_name, tokenize
from hintgate.hints.inference.schema import exec_surface
from hintgate.scan.deferred import compiled

__all__ = ["PROGRAMS", "Role", "roles_of"]

PROGRAMS = word_set(
    """
    git kubectl oc helm docker podman npm pnpm yarn pip uv cargo gh terraform systemctl apt brew aws gcloud az
    redis-cli valkey-cli launchctl ffmpeg magick rsync
    pulumi kustomize alembic rclone skopeo trivy etcdctl dbt crontab glab
    """
)
"""Command-line programs whose argument lists `programs.judge_argv` reads by subcommand."""


@dataclass(frozen=True, slots=True)
class Role:
    """A parameter that decides what a call does.

    Attributes:
        kind: `sql`, `shell`, `argv`, `program`, `executable`, `method`, `graphql`, `redis`, `http-text`,
            `windows`, `language` (a statement of another database language, named by `dialect`), `action`,
            `query`,
            `dry-run`, `confirm` (the
            call only previews unless it is true), `force` (true makes a write destructive; an `overwrite`
            given false makes a write only create) or `exclusive` (true: a write only creates, "only if the
            key does not exist yet").
        parameter: the top-level property's name.
        program: for `program`, the program whose arguments it holds (None: the one an `executable` names).
        dialect: for `sql`, the SQL dialect the tool's text names, if any; for `language`, the language
            (`query_languages.LANGUAGES`).
        target: for `method`, the parameter holding the URL or path the request goes to, if one; for
            `graphql`, the one naming the operation to run (`operationName`).
        body: for `method`, the parameter holding the request's body, if one (a GraphQL document is read).
        headers: for `method`, the parameter holding the request's headers, if one (a method override).
        dialect_parameter: for `sql`, the parameter whose value names the dialect (`dialect: postgres|mysql`).
        default: for `method`, `dry-run` and `confirm`, the schema's default, taken when a call leaves the
            parameter out (the server applies it).
        params: for `method`, the parameter holding the request's query string as an object, if one.
        each: for `sql` and `shell`, the parameter holds a list of statements or command lines, each judged.
        scope: for `confirm`, the actions the preview applies to, when the text names some (else every call).
        given: for `confirm`, only a value given false makes the call a preview (a member of the call's
            options object: the object left out says nothing).
        sure: the parameter's own schema or description says what it holds; when only the tool's text
            does, a value that does not start as a SQL statement is taken for something else (a search
            string) and not judged. A statement or a command line that does not parse is destructive
            either way (fail closed).
    """

    kind: str
    parameter: str
    program: str | None = None
    dialect: str | None = None
    sure: bool = True
    target: str | None = None
    scope: tuple[str, ...] = ()
    body: str | None = None
    headers: str | None = None
    default: str | bool | None = None
    dialect_parameter: str | None = None
    each: bool = False
    params: str | None = None
    given: bool = False


_SQL_TEXT = compiled(
    r"\bsql\b|\b(?:select|insert|update|delete)\b.{0,40}\b(?:statement|query|queries)\b"
    r"|\bquer(?:y|ies)\b.{0,40}\b(?:database|table|db|warehouse)\b|\b(?:database|db|warehouse)\b.{0,40}\bquer(?:y|ies)\b"
    r"|\b(?:postgres(?:ql)?|sqlite|mysql|mariadb|t-sql|bigquery|snowflake|duckdb|clickhouse|redshift)\b"
    r"|\b(?:googlesql|partiql|pl/sql|trino|presto|oracle\s+(?:database|db)|influxql|influxdb)\b"
    r"|\b(?:cockroach(?:db)?|tidb|yugabyte(?:db)?|spanner|db2|teradata|vertica|greenplum|timescaledb|singlestore)\b"
    r"|\b(?:mssql|sql\s*server|cloud\s+sql)\b",
    re.I,
)
_SHELL_TEXT = compiled(
    r"\b(?:shell|bash|terminal|zsh|sh|command[- ]line|cli)\b"
    r"|\bcommands?\b.{0,30}\b(?:run|execute|executed|invoke)\b|\b(?:run|execute|invoke)s?\b.{0,30}\bcommands?\b",
    re.I,
)
_SEARCH = compiled(r"\b(?:search(?:es|ing)?|look(?:s|ing)? for|keywords?|terms?|find|finds)\b", re.I)
_REDIS = compiled(r"\b(?:redis|valkey|keydb)\b", re.I)
_GRAPHQL = compiled(r"\bgraphql\b", re.I)
_GRAPHQL_NAMES = frozenset({"query", "document", "operation", "gql", "graphql", "mutation", "querystring"})
_DATABASE = compiled(r"\b(?:database|db|warehouse|sql|data ?source)\b", re.I)
_STATEMENT_NAMES = frozenset({"statement", "stmt", "sqlquery", "sqltext", "querytext", "sqlstatement", "sqlstring"})
_COMMAND_NAMES = frozenset(
    {"command", "cmd", "shell", "commandline", "cmdline", "script", "shellcommand", "bashcommand", "shellcmd"}
)
_LISTS_OF_STATEMENTS = frozenset({"statements", "stmts", "queries", "sqls", "commands", "cmds", "scripts"})
_STATEMENTS = compiled(r"\b(?:statements|queries|commands|command lines)\b", re.I)
_SHELL_SESSION = compiled(r"\b(?:shell|bash|zsh|terminal|tty|pty)\b|/bin/(?:ba|z|da)?sh\b", re.I)
_STATEMENT_FOR_DATABASE = compiled(r"\b(?:statements?|quer(?:y|ies)|batch|commands?|blocks?)\b", re.I)
# Code in another language (a `node` is that of JavaScript only when named as a runtime: a "control node" or
# a "worker node" is a machine).
_OTHER_CODE = compiled(
    r"\b(?:python|javascript|typescript|js|ruby|lua|cypher|graphql|powershell|node\.?js|nodejs)\b"
    r"|\bnode\s+(?:-e\b|scripts?\b|code\b|programs?\b|repl\b)",
    re.I,
)
_ARGV_TEXT = compiled(r"\b(?:argv|arguments?|args)\b|\bas (?:an )?(?:array|list)\b", re.I)
_HTTP_TEXT = compiled(r"\bhttp\b|\brequest\b|\brest\b|\bapi\b", re.I)
_ACTION_NAMES = frozenset(
    {"action", "actions", "operation", "op", "mode", "command", "cmd", "subcommand", "verb", "task", "method"}
)
# A question put in words, which the tool turns into SQL itself ("show me the top customers"): not a statement.
_NATURAL = compiled(r"\bnatural[- ]language\b|\bplain english\b|\bin english\b|\bquestions?\b|\bprompt\b", re.I)
_RAW_HTTP = compiled(r"\brequest[- ]line\b|\braw http\b|\braw\b.{0,20}\bhttp\S* request\b", re.I)
_ACTION_WORDS = frozenset({"action", "actions", "operation", "op", "verb"})
_RPC_TEXT = compiled(r"\b(?:json-?rpc|xml-?rpc|rpc|soap)\b|\bmethod names?\b", re.I)
_JSON_RPC = compiled(r"\bjson-?rpc\b", re.I)
_ACTION_TEXT = compiled(r"\b(?:action|operation)s?\b.{0,20}\b(?:to )?(?:perform|take|do|run|apply)\b", re.I)
_PREVIEW = compiled(r"\bpreview|\bdry[- ]run|\bwhat would\b|\bonly (?:reports|shows|lists)\b", re.I)
_DRY_RUN = frozenset(
    {"dryrun", "dry", "simulate", "preview", "whatif", "plan", "planonly", "validateonly", "checkonly", "noop"}
)
_EXCLUSIVE = frozenset({"ifnonematch", "noclobber", "createonly", "exclusive", "failifexists", "nooverwrite"})
_CREATES_ONLY = compiled(r"\bonly if\b.{0,40}\b(?:not|doesn't|does not)\b.{0,12}\bexist", re.I)
_FORCE = frozenset({"force", "overwrite", "overwriteexisting", "forcedelete", "replace", "clobber"})


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def roles_of(tool: Mapping[str, Any], *, depth: int = 0, outer_target: str | None = None) -> tuple[Role, ...]:
    """The parameters of a listed tool (its `name`, `description`, `inputSchema`) that decide what a call does.

    The members of an object parameter are read too, one level down (`request.method`); a method among them
    goes where the tool's own URL parameter says when the object names none (WHATWG fetch's `{url, options:
    {method, body}}`): `outer_target`, the top-level parameter naming it.
    """
    schema = tool.get("inputSchema")
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return ()
    name = _text(tool.get("name"))
    description = _text(tool.get("description"))
    tool_text = f"{' '.join(tokenize(name))} {description}"
    program = _program_named(name, description)
    executable = None if program is not None else _executable(properties)
    roles: list[Role] = []
    deciding = _deciding_text(schema if isinstance(schema, Mapping) else {}, properties)
    language = language_named(tool_text)
    windows = _windows_shell(tool_text)
    if language == "mongo":
        deciding = _deciding_document(schema if isinstance(schema, Mapping) else {}, properties)
    target = next((k for k, v in properties.items() if isinstance(v, Mapping) and _names_target(k, v)), None)
    if target is None:
        target = outer_target
    # A wrapper's command line split up (`{verb, resource, name, flags}` of "kubectl against the cluster"): the
    # tool's name says only its program, or one of its parameters is that program's subcommand.
    subcommand = any(isinstance(k, str) and "".join(tokenize(k)) in _SUBCOMMAND_NAMES for k in properties)
    split = program is not None and (_wraps_only(name, program) or subcommand) and _split_command_line(properties)
    for key, raw in properties.items():
        if not isinstance(key, str) or not isinstance(raw, Mapping):
            continue
        if split:
            # `{source, destination, options: [...]}`: the lists hold the program's words, the strings operands
            # (a subcommand's parameter stays a word of the line).
            operand = _kind(raw) == "string" and "".join(tokenize(key)) not in _SUBCOMMAND_NAMES
            roles.append(Role("program", key, program=program, sure=not operand))
            continue
        if key == executable:
            roles.append(Role("executable", key))
            continue
        if windows is not None and key == deciding:
            roles.append(Role("windows", key, dialect=windows))  # a PowerShell script, a cmd.exe line
            continue
        if language is not None and key == deciding and not _OTHER_CODE.search(_text(raw.get("description"))):
            # "Run Cypher against the graph" with `{cypher, params}`: a statement of that language.
            roles.append(Role("language", key, dialect=language))
            continue
        chosen = executable is not None and _chooses(properties.get(executable))
        if executable is not None and (_holds_arguments(key, raw) or (chosen and _names_a_command(key, raw))):
            roles.append(Role("program", key))  # the arguments of the program `executable` names
            continue
        needed = isinstance(schema, Mapping) and isinstance(schema.get("required"), list) and key in schema["required"]
        wrapper = program is not None and _wraps_only(name, program)
        role = _role(
            key,
            raw,
            tool_text,
            program,
            target,
            deciding=key == deciding,
            needed=needed,
            wrapper=wrapper,
            deciding_object=key == _deciding_document(schema if isinstance(schema, Mapping) else {}, properties),
        )
        if role is None:
            continue
        if role.kind == "method":
            default = raw.get("default")
            body = next((k for k in properties if isinstance(k, str) and "".join(tokenize(k)) in _BODY_NAMES), None)
            headers = next((k for k in properties if isinstance(k, str) and "".join(tokenize(k)) == "headers"), None)
            params = next(
                (
                    k
                    for k, v in properties.items()
                    if isinstance(k, str)
                    and "".join(tokenize(k)) in _QUERY_NAMES
                    and isinstance(v, Mapping)
                    and _kind(v) == "object"
                ),
                None,
            )
            default = (
                default if isinstance(default, str) else _said_default(f"{_text(raw.get('description'))} {description}")
            )
            role = Role("method", key, target=target, body=body, headers=headers, default=default, params=params)
        elif role.kind == "confirm":
            default = raw.get("default")
            scope = _preview_scope(raw, description, properties)
            role = Role("confirm", key, scope=scope, default=default if isinstance(default, bool) else None)
        elif role.kind == "dry-run":
            default = raw.get("default")
            role = Role("dry-run", key, default=default if isinstance(default, bool | str) else None)
        elif role.kind == "graphql":
            role = dataclasses.replace(role, target=_operation_name(properties))
        elif role.kind == "sql" and (chooser := _dialect_chooser(properties)) is not None:
            role = dataclasses.replace(role, dialect_parameter=chooser)
        elif role.kind == "shell":
            # "Run a fish command", or an interpreter chosen per call (`shell: bash|zsh|fish`).
            chooser = _shell_chooser(properties)
            named = {m.group(0).lower() for m in _OTHER_SHELL.finditer(tool_text)}
            text_named = named.pop() if len(named) == 1 and not _BASH.search(tool_text) else None
            role = dataclasses.replace(role, dialect=text_named, dialect_parameter=chooser)
        roles.append(role)
    for key, raw in properties.items():
        nested = raw.get("properties") if isinstance(raw, Mapping) and _kind(raw) in {"object", None} else None
        if isinstance(key, str) and isinstance(nested, Mapping) and depth < 1 and not _OTHER_CODE.search(tool_text):
            # `request: {method, url, body}`: the object's own members decide, named `request.method`.
            inner = {"name": name, "description": description, "inputSchema": {"properties": nested}}
            found = roles_of(inner, depth=depth + 1, outer_target=target)
            own = any(isinstance(v, Mapping) and _names_target(k, v) for k, v in nested.items())
            outside = None if own else target
            roles.extend(_prefixed(r, key, outside) for r in found if r.kind in _WHOLE_CALL and not r.each)
            required = schema.get("required") if isinstance(schema, Mapping) else None
            if len(properties) == 1 and isinstance(required, list) and key in required:
                # `call: {verb, target}` as the tool's one, required parameter: the object is the call, its
                # choice of verb is what the call does (a member of optional options may qualify only them).
                roles.extend(_prefixed(r, key) for r in found if r.kind == "action")
            if any(r.kind == "executable" for r in found):
                # `exec: {program, args}`: the object is the command a call runs, its program and arguments.
                roles.extend(_prefixed(r, key) for r in found if r.kind in {"executable", "program"})
            if "".join(tokenize(key)) in _CALL_OPTIONS | _CALL_PARAMETERS:
                # `options: {dry_run, confirm, force, if_none_match}`: the call's own options, so its flags.
                for flag in (r for r in found if r.kind in _FLAGS):
                    if flag.kind == "confirm":
                        spec = nested.get(flag.parameter)
                        scope = _preview_scope(spec if isinstance(spec, Mapping) else {}, description, properties)
                        roles.append(_prefixed(dataclasses.replace(flag, scope=scope, given=True), key))
                    else:
                        roles.append(_prefixed(flag, key))
        elif (
            isinstance(key, str)
            and depth < 1
            and "".join(tokenize(key)) in _CALL_OPTIONS | _CALL_PARAMETERS
            and isinstance(raw, Mapping)
            and _kind(raw) in {"object", None}
            and nested is None
            and raw.get("additionalProperties") is not False
        ):
            # A free-form options object passed through to the call ("e.g. dryRun, gracePeriodSeconds"): its
            # members are read at each call for a dry run.
            roles.append(Role("options", key))
    if any(r.kind in _RUNS_TEXT | {"windows", "http-text"} for r in roles):
        # `{sql, params: {dry_run: true}}`: bind parameters of the statement, no option of the call.
        roles = [
            r
            for r in roles
            if "".join(tokenize(r.parameter.split(".", 1)[0])) not in _CALL_PARAMETERS or r.kind in _RUNS_TEXT
        ]
    # Program parameters are one command line: the subcommand's before the arguments'.
    roles.sort(key=lambda r: r.kind == "program" and "".join(tokenize(r.parameter)) not in _SUBCOMMAND_NAMES)
    return tuple(roles)


_OPTION_LISTS = frozenset({"options", "flags", "opts", "switches"})
_CALL_OPTIONS = frozenset({"options", "opts", "flags", "requestoptions", "calloptions"})
"""Names of an object parameter holding the call's own options (not data the call writes)."""
_CALL_PARAMETERS = frozenset({"parameters", "params", "arguments", "args"})
"""Names of an object parameter holding an API call's parameters (`DryRun: true` of an AWS operation): its
options too, unless the call runs a statement or a command line, whose bind parameters they are."""
_RUNS_TEXT = frozenset({"sql", "shell", "argv", "program", "executable", "language", "query", "graphql", "redis"})
_FLAGS = frozenset({"dry-run", "confirm", "force", "exclusive"})


def _split_command_line(properties: Mapping[str, Any]) -> bool:
    """Whether a wrapper tool's parameters are its program's command line split up: a list of options beside
    operands (`{source, destination, options: ["-az", "--delete"]}`), every parameter a string or a list of
    strings, so that together, in the schema's order, they are the whole command line."""
    lists = False
    for key, raw in properties.items():
        if not isinstance(key, str) or not isinstance(raw, Mapping):
            return False
        items = raw.get("items")
        if _kind(raw) == "array" and isinstance(items, Mapping) and _kind(items) == "string":
            lists = lists or "".join(tokenize(key)) in _OPTION_LISTS
        elif _kind(raw) != "string":
            return False
    return lists


_EXECUTABLE_NAMES = frozenset({"program", "executable", "exe", "binary", "bin", "command", "cmd", "manager", "tool"})
_ARGUMENT_NAMES = frozenset({"args", "arguments", "argv", "params", "parameters", "options", "flags"})
_COMMAND_LINE = compiled(r"\bcommand[- ]line\b|\bshell\b|\bbash\b|\bpipes?\b", re.I)


_WHOLE_CALL = frozenset({"method", "sql", "shell", "argv", "graphql", "query", "redis"})
"""Roles whose value says what the whole call does wherever it sits: an object's `method` or statement is
the request's. A member choosing among verbs or a flag may qualify only that object, so is not read there."""


def _prefixed(role: Role, key: str, outside: str | None = None) -> Role:
    """A role found among an object parameter's members, its parameters named `key.member`; `outside` is the
    top-level parameter naming where a request goes, when the object names no place of its own."""

    def under(name: str | None) -> str | None:
        return None if name is None else f"{key}.{name}"

    return dataclasses.replace(
        role,
        parameter=f"{key}.{role.parameter}",
        target=role.target if outside is not None and role.target == outside else under(role.target),
        body=under(role.body),
        headers=under(role.headers),
        params=under(role.params),
        dialect_parameter=under(role.dialect_parameter),
    )


def _executable(properties: Mapping[str, Any]) -> str | None:
    """The parameter that names the program a call runs, when the program is not in the tool's own text.

    Either an enum whose every value is a program hintgate reads by subcommand (`manager: npm|yarn|pnpm`),
    or a string named for a program (`program`, `executable`, `command`) beside a list of its arguments
    (`args`): an exec without a shell, whose command line is the two joined.
    """
    arguments = any(isinstance(v, Mapping) and _holds_arguments(k, v) for k, v in properties.items())
    named = None
    for key, spec in properties.items():
        if not isinstance(key, str) or not isinstance(spec, Mapping) or _kind(spec) not in {"string", None}:
            continue
        enum = spec.get("enum")
        if isinstance(enum, list) and enum and all(isinstance(v, str) and knows(v) for v in enum):
            return key
        joined = "".join(tokenize(key))
        described = _text(spec.get("description"))
        if (
            arguments
            and named is None
            and joined in _EXECUTABLE_NAMES
            and (not enum or _programs(enum))
            and not _COMMAND_LINE.search(described)
        ):
            named = key
    return named


_COMMAND_WORD = compiled(r"[A-Za-z0-9][\w.+-]*")


def _programs(enum: list[Any]) -> bool:
    """Whether an enum's values are names of programs (`ansible`, `rclone`, `kafka-topics`), not verbs a tool
    does (`start`, `list`): a runner's allow-list, its program named beside the arguments."""
    return all(isinstance(v, str) and _COMMAND_WORD.fullmatch(v) and verb_act(v) is None for v in enum)


def _chooses(spec: Any) -> bool:
    """Whether the executable parameter is an enum of programs (its command is then in another parameter)."""
    return isinstance(spec, Mapping) and isinstance(spec.get("enum"), list)


def _names_a_command(key: str, spec: Mapping[str, Any]) -> bool:
    """`command: "s3 ls s3://b"` beside `cli: aws|gcloud`: the chosen program's command line."""
    return _kind(spec) in {"string", None} and "".join(tokenize(key)) in {"command", "cmd", "subcommand"}


def _operation_name(properties: Mapping[str, Any]) -> str | None:
    """The parameter naming which operation of a GraphQL document runs (`operationName`)."""
    return next((k for k in properties if isinstance(k, str) and "".join(tokenize(k)) == "operationname"), None)


def _holds_arguments(key: Any, spec: Mapping[str, Any]) -> bool:
    """A list of a program's arguments (`args: ["-c", "ERROR", "app.log"]`), or one string of them."""
    if not isinstance(key, str):
        return False
    joined = "".join(tokenize(key))
    kind = _kind(spec)
    items = spec.get("items")
    if kind == "array" and isinstance(items, Mapping) and _kind(items) == "string":
        return joined in _ARGUMENT_NAMES or bool(_ARGV_TEXT.search(_text(spec.get("description"))))
    return kind == "string" and joined in {"args", "arguments", "argv"}


_QUERY_NAMES = frozenset({"query", "params", "queryparams", "querystring", "searchparams", "qs"})
_BODY_NAMES = frozenset({"body", "data", "json", "payload", "content", "requestbody", "postdata"})
_SUBCOMMAND_NAMES = frozenset({"subcommand", "command", "cmd", "action", "verb", "operation", "op"})
_TARGET_NAMES = frozenset({"url", "uri", "path", "endpoint", "route", "href", "resource"})


_OTHER_SHELL = compiled(r"\b(?:fish|zsh)\b", re.I)
_BASH = compiled(r"\b(?:bash|sh|posix)\b", re.I)
_SHELL_NAMES = frozenset({"bash", "sh", "zsh", "fish", "dash", "ksh", "ash", "mksh"})


def _shell_chooser(properties: Mapping[str, Any]) -> str | None:
    """The parameter that chooses the shell a call's text runs in: an enum of shell names."""
    for key, spec in properties.items():
        enum = spec.get("enum") if isinstance(spec, Mapping) else None
        if isinstance(key, str) and isinstance(enum, list) and enum and all(v in _SHELL_NAMES for v in enum):
            return key
    return None


def _dialect_chooser(properties: Mapping[str, Any]) -> str | None:
    """The parameter that names the SQL dialect of a call: an enum of dialect names (`postgres`, `mssql`)."""
    for key, spec in properties.items():
        enum = spec.get("enum") if isinstance(spec, Mapping) else None
        if (
            isinstance(key, str)
            and isinstance(enum, list)
            and enum
            and all(isinstance(v, str) and dialect_named(v) is not None for v in enum)
        ):
            return key
    return None


_SQL_MEMBERS = frozenset({"sql", "statement", "stmt", "sqlstatement", "sqlquery"})
_STEP_NAMES = frozenset({"run", "command", "cmd", "commandline", "shellcommand", "script"})


def _statement_member(items: Mapping[str, Any], names: frozenset[str] = _SQL_MEMBERS) -> str | None:
    """The member of a list's objects that holds a SQL statement (`{sql, params}`, `{statement, args}`), or
    with `names` another text each item runs (a step's `run`)."""
    properties = items.get("properties") if _kind(items) in {"object", None} else None
    if not isinstance(properties, Mapping):
        return None
    found = [
        k
        for k, v in properties.items()
        if isinstance(k, str)
        and isinstance(v, Mapping)
        and _kind(v) in {"string", None}
        and "".join(tokenize(k)) in names
    ]
    return found[0] if len(found) == 1 else None


def _names_target(key: Any, spec: Mapping[str, Any]) -> bool:
    """A parameter that says where a request goes: a URL or an API path."""
    if not isinstance(key, str) or _kind(spec) not in {"string", None}:
        return False
    return "".join(tokenize(key)) in _TARGET_NAMES or _text(spec.get("format")) in {"uri", "url", "uri-reference"}


_SAID_DEFAULT = compiled(r"\bmethod\b[^.]{0,40}?\bdefaults?\s+(?:to\s+|is\s+)?`?([A-Za-z]+)\b", re.I)


def _said_default(text: str) -> str | None:
    """The HTTP method a text says a left-out method defaults to ("method defaults to GET"), if one."""
    found = _SAID_DEFAULT.search(text)
    method = found.group(1).upper() if found else None
    return method if method in HTTP_METHODS else None


def _kind(spec: Mapping[str, Any]) -> str | None:
    """A schema's `type` as one name: `["string", "null"]` is a string; a type of several kinds, or of none
    a reader knows, is "other" (a server writes its schemas: anything may be there)."""
    kind = spec.get("type")
    if kind is None or isinstance(kind, str):
        return kind
    if isinstance(kind, list):
        named = [k for k in kind if isinstance(k, str) and k != "null"]
        return named[0] if len(named) == 1 else "other"
    return "other"


def _preview_scope(spec: Mapping[str, Any], description: str, properties: Mapping[str, Any]) -> tuple[str, ...]:
    """The action values a preview sentence names ("`delete` only returns a preview unless confirm=true")."""
    text = " ".join(
        s for s in re.split(r"(?<=[.!?])\s", f"{_text(spec.get('description'))} {description}") if _PREVIEW.search(s)
    )
    values = {
        v for p in properties.values() if isinstance(p, Mapping) for v in p.get("enum") or [] if isinstance(v, str)
    }
    return tuple(sorted(v for v in values if re.search(rf"\b{re.escape(v)}\b", text)))


def _program_named(name: str, description: str) -> str | None:
    """The one command-line program a tool is a wrapper of (`git_command`, "Run a kubectl command"), if one."""
    named = {t for t in tokenize(name) if t in PROGRAMS}
    if len(named) == 1:
        return named.pop()
    first = re.split(r"(?<=[.!?])\s", description, maxsplit=1)[0]
    found = {program_of(w) for w in re.findall(r"[A-Za-z][\w-]*", first) if w.lower() in PROGRAMS}
    if not found:
        # The programs' own names for themselves: "Azure CLI" is `az`, "GitHub CLI" is `gh`.
        found = {_CLI_NAMES[m.lower()] for m in _CLI_NAME.findall(f"{' '.join(tokenize(name))} {first}")}
    return found.pop() if len(found) == 1 else None


# Words of a wrapper tool's name beside its program's: "kubectl_cli", "run_helm", "azure_cli".
_WRAPPER_WORDS = frozenset(
    {"cli", "run", "runner", "exec", "execute", "command", "cmd", "tool", "wrapper", "invoke", "call", "azure"}
    | {"line", "argline", "args"}
    | {"github", "gitlab", "google", "cloud"}
)
# A tool's text saying that what it runs is a command line ("Run one CLI command line", "Executes the given
# command line"), not that it takes command-line flags.
_RUNS_A_COMMAND_LINE = compiled(
    r"\b(?:run|runs|execute|executes|invoke|invokes)\b.{0,30}\bcommand[- ]lines?\b"
    r"(?!\s+(?:flags?|arguments?|args|options?))",
    re.I,
)
_A_COMMAND_LINE = compiled(
    r"\bcommand[- ]line\b(?!\s+(?:flags?|arguments?|args|options?|switches|parameters?)\b)", re.I
)


def _wraps_only(name: str, program: str) -> bool:
    """Whether a tool's name says only which program it runs (`kubectl`, `azure_cli`), not what it does with
    it (`kubectl_get`, whose one free text names a resource, not a command line)."""
    return not (set(tokenize(name)) - {program} - _WRAPPER_WORDS)


_CLI_NAMES = {"azure": "az", "github": "gh", "google cloud": "gcloud", "aws": "aws"}
_CLI_NAME = compiled(r"\b(azure|github|google cloud|aws)\s+cli\b", re.I)


# Words of a parameter's name that say it names or places something (a path, a database, a server, an id,
# a time-out) rather than holding the free text a call runs.
_NAMING_WORDS = word_set(
    """
    path paths file files filename dir directory folder cwd workdir id ids name names db database databases server
    host hostname port cluster project projectid warehouse role user username account schema keyspace catalog region
    zone namespace url uri endpoint timeout timeoutms timeouts limit format dialect language lang mode encoding
    consistency token key locale tz timezone env environment profile context instance bucket index collection table
    question questions prompt instruction instructions ask session sessionid tab pane window
    """
)


def _deciding_text(schema: Mapping[str, Any], properties: Mapping[str, Any]) -> str | None:
    """The one free-text string of a tool that holds what a call runs, found from the schema alone.

    A string without `enum`, `const`, `format` or `pattern`, whose name does not say it names or places
    something (`db_path`, `server`, `project_id`): when there is one such parameter, or one among the
    required ones, a tool whose text names a query language or a shell runs it ("Sends a T-SQL batch" with
    `{text, server}`).
    """
    free = [
        k
        for k, v in properties.items()
        if isinstance(k, str)
        and isinstance(v, Mapping)
        and _kind(v) == "string"
        and not {"enum", "const", "format", "pattern"} & v.keys()
        and not _NAMING_WORDS.intersection(tokenize(k))
        and "".join(tokenize(k)) not in _NAMING_WORDS
    ]
    if len(free) == 1:
        return free[0]
    required = schema.get("required")
    needed = [k for k in free if isinstance(required, list) and k in required]
    return needed[0] if len(needed) == 1 else None


_POWERSHELL = compiled(r"\b(?:powershell|pwsh)\b", re.I)
_CMD_EXE = compiled(r"\bcmd\.exe\b|\bcommand prompt\b", re.I)
_POSIX_SHELL = compiled(r"\b(?:bash|zsh|sh|posix|python|node)\b", re.I)


def _windows_shell(text: str) -> str | None:
    """`powershell` or `cmd` when a tool's text names that one Windows shell and no other shell or language."""
    if _POSIX_SHELL.search(text):
        return None
    powershell, cmd = _POWERSHELL.search(text), _CMD_EXE.search(text)
    if powershell and not cmd:
        return "powershell"
    return "cmd" if cmd and not powershell else None


def _deciding_document(schema: Mapping[str, Any], properties: Mapping[str, Any]) -> str | None:
    """The one object parameter (or the one required one) of a tool that runs a database command document."""
    objects = [
        k for k, v in properties.items() if isinstance(k, str) and isinstance(v, Mapping) and _kind(v) == "object"
    ]
    if len(objects) == 1:
        return objects[0]
    required = schema.get("required")
    needed = [k for k in objects if isinstance(required, list) and k in required]
    return needed[0] if len(needed) == 1 else None


def _role(
    key: str,
    spec: Mapping[str, Any],
    tool_text: str,
    program: str | None,
    target: str | None,
    *,
    deciding: bool = False,
    needed: bool = False,
    wrapper: bool = False,
    deciding_object: bool = False,
) -> Role | None:
    words = tokenize(key)
    joined = "".join(words)
    kind = _kind(spec)
    description = _text(spec.get("description"))
    enum = spec.get("enum")
    if joined in _DRY_RUN and kind in {"string", None}:
        return Role("dry-run", key)  # Kubernetes' `dryRun: All`
    if kind == "boolean":
        if joined in _DRY_RUN or (words and words[0] == "dry"):
            return Role("dry-run", key)
        if joined in {"confirm", "confirmed", "execute", "apply", "commit"} and _PREVIEW.search(
            f"{description} {tool_text}"
        ):
            return Role("confirm", key)  # "only returns a preview unless confirm=true"
        if joined in _FORCE or (words and words[0] == "force"):
            return Role("force", key)
        if joined in _EXCLUSIVE or _CREATES_ONLY.search(description):
            return Role("exclusive", key)
        return None
    if isinstance(enum, list) and enum and all(isinstance(v, str) for v in enum):
        if program is not None and joined in _SUBCOMMAND_NAMES:
            return Role("program", key, program=program)  # `terraform_run {subcommand: plan|apply|...}`
        if all(v.strip().upper() in HTTP_METHODS for v in enum):
            return Role("method", key)
        verbs = [v for v in enum if parse_name(v).verb_class is not None]
        if joined in _ACTION_WORDS or ((joined in _ACTION_NAMES or _ACTION_TEXT.search(description)) and verbs):
            return Role("action", key)  # a value no verb table knows is not judged (`judge_action`)
        if needed and len(enum) > 1 and 2 * len(verbs) > len(enum):
            # A required choice among verbs, however it is called (`do: search|read|trash`): what the call does.
            return Role("action", key)
        return None
    if (
        joined in {"method", "soapaction"}
        and kind in {"string", None}
        and _RPC_TEXT.search(f"{description} {tool_text}")
    ):
        return Role("rpc", key)  # "JSON-RPC call to a node" with `{method, params}`: the procedure's name
    if (
        deciding_object
        and kind in {"object", None}
        and not isinstance(spec.get("properties"), Mapping)
        and _JSON_RPC.search(f"{description} {tool_text}")
    ):
        return Role("rpc", key)  # "POST a JSON-RPC payload": the request object, its `method` read at each call
    if kind == "string" and joined == "ifnonematch":
        return Role("exclusive", key)  # HTTP's `If-None-Match: *`: only if nothing is there yet
    if kind in {"string", None} and joined in {"method", "httpmethod", "verb", "requestmethod"}:
        default = spec.get("default")
        http_default = isinstance(default, str) and default.upper() in HTTP_METHODS
        if _HTTP_TEXT.search(description) or _HTTP_TEXT.search(tool_text) or "GET" in description or http_default:
            return Role("method", key)
        if target is not None:
            return Role("method", key)
    if kind == "string" and joined in {"action", "operation", "op"}:
        return Role("action", key)
    items = spec.get("items")
    argv = kind == "array" and isinstance(items, Mapping) and _kind(items) == "string"
    member = _statement_member(items) if kind == "array" and isinstance(items, Mapping) else None
    if member is not None and (_SQL_TEXT.search(tool_text) or _DATABASE.search(tool_text)):
        # `ops: [{sql, params}]`: a list of operations, each running the statement its member holds.
        return Role("sql", key, dialect=dialect_named(f"{description} {tool_text}"), each=True, body=member)
    step = _statement_member(items, _STEP_NAMES) if kind == "array" and isinstance(items, Mapping) else None
    if step is not None and _SHELL_TEXT.search(f"{description} {tool_text}") and not _OTHER_CODE.search(tool_text):
        # `steps: [{name, run}]` of "each step a shell command": each step's command line, run in order.
        return Role("shell", key, each=True, body=step)
    if (
        argv
        and (joined in _LISTS_OF_STATEMENTS or _STATEMENTS.search(description))
        and not _OTHER_CODE.search(f"{description} {tool_text}")
    ):
        if _SQL_TEXT.search(f"{description} {tool_text}") or joined in {"statements", "queries", "sqls"}:
            return Role("sql", key, dialect=dialect_named(f"{description} {tool_text}"), each=True)
        if _SHELL_TEXT.search(f"{description} {tool_text}") or joined in {"commands", "cmds", "scripts"}:
            return Role("shell", key, each=True)  # `commands: ["ls", "rm -rf x"]`: each a command line
    if argv:
        if program is not None and (
            joined in {"args", "arguments", "argv", "command", "cmd"} or _ARGV_TEXT.search(description)
        ):
            return Role("program", key, program=program)
        if _REDIS.search(tool_text) and (
            joined in {"command", "cmd", "argv", "args"} or "command" in description.lower()
        ):
            return Role("redis", key)  # `["SET", "k", "v"]`: one Redis command's words, not a program's
        if joined in {"command", "cmd", "argv", "commandline"} or (
            _ARGV_TEXT.search(description) and re.search(r"\bcommand\b", description, re.I)
        ):
            return Role("argv", key)
        return None
    if kind not in {"string", None}:
        return None
    if deciding and _RAW_HTTP.search(f"{description} {tool_text}"):
        return Role("http-text", key)  # "Request line, headers, blank line, body": judged by its method
    if program is not None and (
        joined in {"args", "arguments", "command", "cmd", "subcommand"} or (deciding and wrapper)
    ):
        # A `helm` tool's one free text (`cli_args`, `argline`, `text`): the program's arguments.
        return Role("program", key, program=program)
    if _REDIS.search(tool_text) and (joined in {"command", "cmd", "query", "args"} or "command" in description.lower()):
        return Role("redis", key)  # "Run a Redis command against the cache": `GET key`, `FLUSHALL`
    if _GRAPHQL.search(f"{description} {tool_text}") and joined in _GRAPHQL_NAMES:
        return Role("graphql", key)  # a GraphQL document: a query reads, a mutation does what its fields say
    if _text(spec.get("format")).lower() == "sql":
        return Role("sql", key, dialect=dialect_named(f"{description} {tool_text}"))
    names_database = _SQL_TEXT.search(tool_text) or _DATABASE.search(tool_text)
    if joined in _STATEMENT_NAMES and names_database and not _OTHER_CODE.search(f"{description} {tool_text}"):
        return Role("sql", key, dialect=dialect_named(f"{description} {tool_text}"))  # `statement`, `sql_query`
    if not exec_surface(spec, words, description) and joined not in {"query", "sql", "q"} | _COMMAND_NAMES:
        # "Statement text passed verbatim to the MySQL server": a statement for a database, in other words.
        if _STATEMENT_FOR_DATABASE.search(description) and (
            _SQL_TEXT.search(description) or (deciding and _SQL_TEXT.search(tool_text))
        ):
            return Role("sql", key, dialect=dialect_named(f"{description} {tool_text}"))
        # "Text sent to the terminal followed by Enter" of a tool that types into a bash session: a command line.
        if _SHELL_SESSION.search(description) and _SHELL_SESSION.search(tool_text):
            return None if _OTHER_CODE.search(f"{description} {tool_text}") else Role("shell", key)
        if deciding and _A_COMMAND_LINE.search(description) and not _OTHER_CODE.search(f"{description} {tool_text}"):
            return Role("shell", key)  # "Full command line": what a shell would run
        if (
            deciding
            and _RUNS_A_COMMAND_LINE.search(tool_text)
            and not _OTHER_CODE.search(f"{description} {tool_text}")
            and not _SQL_TEXT.search(f"{description} {tool_text}")
        ):
            return Role("shell", key, sure=False)  # "Run one CLI command line": its one free text is that line
        if deciding and not _OTHER_CODE.search(f"{description} {tool_text}") and not _NATURAL.search(description):
            # The tool's one free text, of a tool whose text names SQL ("Sends a T-SQL batch") or a shell
            # ("Type into the user's terminal"): what the call runs. Only a text that starts as a statement is
            # judged as one; a command line that does not parse is destructive.
            both = f"{' '.join(words)} {description} {tool_text}"  # `shell_input`: its name says a shell too
            if _SQL_TEXT.search(both) and not _SHELL_SESSION.search(both):
                return Role("sql", key, dialect=dialect_named(both), sure=False)
            if _SHELL_SESSION.search(both) and not _SQL_TEXT.search(both):
                return Role("shell", key, sure=False)
        return None
    own = f"{' '.join(words)} {description}"
    if _OTHER_CODE.search(own):
        return None
    if _SQL_TEXT.search(own) or joined == "sql":
        return Role("sql", key, dialect=dialect_named(f"{description} {tool_text}"))
    if joined in _COMMAND_NAMES and not _SHELL_TEXT.search(f"{own} {tool_text}") and _SQL_TEXT.search(tool_text):
        # "Evaluate a DuckDB script": a script of the database's statements, not a command line.
        return Role("sql", key, dialect=dialect_named(tool_text), sure=False)
    if _SHELL_TEXT.search(own) or joined in _COMMAND_NAMES or (len(words) > 1 and words[-1] in {"command", "cmd"}):
        # `remote_command`, `exec_cmd`: a command named for where or how it runs is a command line still.
        if _OTHER_CODE.search(tool_text) and not _SHELL_TEXT.search(tool_text):
            return None
        return Role("shell", key, sure=bool(_SHELL_TEXT.search(own)) or joined != "script")
    if joined in {"query", "q"} and not _SQL_TEXT.search(tool_text):
        if _SEARCH.search(f"{description} {tool_text}"):
            return None  # words to search for, not a statement
        # A statement in a language the tool's text does not name ("Run a query."): only a text that is
        # plainly a write statement (`DELETE FROM t`, a GraphQL `mutation`) is judged as one.
        return Role("query", key, sure=False)
    if _SQL_TEXT.search(tool_text) and not _OTHER_CODE.search(tool_text):
        return Role("sql", key, dialect=dialect_named(tool_text), sure=joined == "sql")
    if _SHELL_TEXT.search(tool_text) and not _OTHER_CODE.search(tool_text):
        return Role("shell", key, sure=joined in {"command", "cmd", "shell", "commandline"})
    return None
