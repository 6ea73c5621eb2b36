"""Hints per call: what one call does, judged from its arguments with real parsers.

Pure (the parsers, sqlglot and tree-sitter's bash grammar, are imported at the
first text they read). A tool's static hints carry its worst case; a generic
tool (`execute_sql`, `run_command`, `api_request`, a file tool with an
`action`) is a read for one call and a DROP for the next. `ArgumentJudge`
reads a tool's schema once (`roles.roles_of`) and judges each call's
arguments: SQL (`sql`), shell command lines (`shell`), program argument lists
(`programs`: git, kubectl, docker, npm, terraform, aws...), HTTP methods
with the request's URL and body (`choices`, `graphql`), action names and
flags (`choices`). The judgement (`judgement.Judgement`) carries the act,
the four hints it implies, what the call does in words, and the judge's
rule; `bound.per_call` lays it over the tool's resolved hints within the
bound the server's trust allows. A call whose arguments cannot be judged (no
such parameter, a value of another type) gets no judgement: its static hints
stand.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Mapping
from typing import Any

from hintgate.hints.calls.choices import judge_action, judge_method, judge_rpc
from hintgate.hints.calls.graphql import judge_graphql
from hintgate.hints.calls.judgement import Act, Judgement, riskiest, shorten
from hintgate.hints.calls.other_shells import SHELL_DIALECTS
from hintgate.hints.calls.programs import judge_argv
from hintgate.hints.calls.query_languages import judge_language
from hintgate.hints.calls.redis_commands import judge_redis
from hintgate.hints.calls.roles import Role, roles_of
from hintgate.hints.calls.shell import judge_shell
from hintgate.hints.calls.sql import dialect_named, judge_sql, opens_a_write
from hintgate.hints.calls.windows_shells import judge_cmd, judge_powershell
from hintgate.hints.inference.naming import tokenize
from hintgate.scan.deferred import compiled

HEAVY = 2_000
"""Characters of a text to judge past which parsing it may take milliseconds: judged off the event loop."""

__all__ = ["HEAVY", "Act", "ArgumentJudge", "Judgement", "Role", "judge_argv", "judge_shell", "judge_sql", "roles_of"]


class ArgumentJudge:
    """Judges the calls of one tool from their arguments; built once per tool from its listed definition.

    Args:
        roles: the parameters that decide what a call does (`roles_of`).
    """

    __slots__ = ("roles",)

    def __init__(self, roles: tuple[Role, ...]) -> None:
        self.roles = roles

    @classmethod
    def of(cls, tool: Mapping[str, Any]) -> ArgumentJudge | None:
        """The judge of a listed tool, or None when none of its parameters decides what a call does."""
        try:
            roles = roles_of(tool)
        except (TypeError, ValueError, AttributeError, RecursionError):
            return None  # a schema no reader expected (a server writes it): its calls keep the tool's hints
        # Flags and an options object qualify a call another parameter says; alone they judge nothing.
        return cls(roles) if any(r.kind not in {"force", "exclusive", "options"} for r in roles) else None

    def heavy(self, arguments: Mapping[str, Any] | None) -> bool:
        """Whether judging these arguments is more than a few hundred microseconds of parsing (a long text):
        the gateway then judges them on a worker thread, off its event loop."""
        if not arguments:
            return False
        arguments = self._flat(arguments)
        for role in self.roles:
            value = arguments.get(role.parameter)
            if isinstance(value, str) and len(value) > HEAVY:
                return True
            body = arguments.get(role.body) if role.body is not None else None
            if isinstance(body, Mapping):
                body = body.get("query")
            if isinstance(body, str) and len(body) > HEAVY:
                return True  # a GraphQL document is parsed
            if isinstance(value, list) and sum(len(w) for w in value if isinstance(w, str)) > HEAVY:
                return True
            if isinstance(value, list) and role.each and role.body is not None:
                texts = [v.get(role.body) for v in value if isinstance(v, Mapping)]
                if sum(len(t) for t in texts if isinstance(t, str)) > HEAVY:
                    return True  # the statements of a list of operations
        return False

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of parameter it reads (`sql`, `shell`...), for people."""
        return tuple(dict.fromkeys(r.kind for r in self.roles))

    def judge(self, arguments: Mapping[str, Any] | None) -> Judgement | None:
        """What the call with these arguments does; None when nothing in them can be judged.

        Never raises: arguments a judge fails on are destructive (they could not be read).
        """
        if not arguments:
            return None
        try:
            return self._judge(self._flat(arguments))
        except Exception as exc:  # a parser's failure on hostile input: fail closed, never into the call
            return Judgement(Act.DESTRUCTIVE, f"the arguments could not be read ({type(exc).__name__})", "unread")

    def _flat(self, arguments: Mapping[str, Any]) -> Mapping[str, Any]:
        """The arguments with the members of object parameters a role reads named `key.member` too."""
        prefixes = {r.parameter.split(".", 1)[0] for r in self.roles if "." in r.parameter}
        if not prefixes:
            return arguments
        flat = dict(arguments)
        for prefix in prefixes:
            nested = arguments.get(prefix)
            if isinstance(nested, Mapping):
                for member, value in nested.items():
                    if isinstance(member, str):
                        flat.setdefault(f"{prefix}.{member}", value)
        return flat

    def _judge(self, arguments: Mapping[str, Any]) -> Judgement | None:
        found: list[Judgement] = []
        dry_run: Role | None = None
        force: Role | None = None
        creates_only: Role | None = None
        program: list[str] = []
        program_role: Role | None = None
        executable: list[str] = []
        shell_syntax: list[str] = []
        for role in self.roles:
            value = arguments.get(role.parameter)
            if value is None and role.kind in {"confirm", "dry-run", "method"}:
                value = role.default  # left out: the server applies the schema's default
            if role.kind == "confirm":
                chosen = [arguments.get(r.parameter) for r in self.roles if r.kind == "action"]
                applies = not role.scope or any(c in role.scope for c in chosen)
                if (value is False if role.given else value is not True) and applies:
                    dry_run = role
                continue
            if value is None:
                continue
            if role.kind == "executable":
                if isinstance(value, str) and value.strip():
                    executable = _split(value) or [value]
                continue
            if role.kind == "program" and not role.sure and isinstance(value, str):
                # An operand of a command line split into parameters (`destination`): one word, as the tool
                # passes it; one that reads as an option may be another option's value, so it is not read.
                if value.lstrip().startswith("-"):
                    what = f"{role.parameter} {shorten(value, 40)!r} reads as an option"
                    found.append(Judgement(Act.DESTRUCTIVE, what, "argv"))
                elif value.strip():
                    program.append(value)
                    program_role = role
                continue
            if role.kind == "program":
                # `{subcommand: "branch", args: ["-D", "x"]}`: one command line, in the schema's order.
                words = value if _words(value) else _split(value) if isinstance(value, str) else None
                if words:
                    program.extend(words)
                    program_role = role
                if isinstance(value, str) and _SHELL_SYNTAX.search(value):
                    shell_syntax.append(value)
                continue
            if role.kind == "dry-run":
                if value is True or (isinstance(value, str) and value.strip().lower() not in _NOT_DRY):
                    dry_run = role  # `dry_run: true`, Kubernetes' `dryRun: All`
                continue
            if role.kind == "force":
                if value is True:
                    force = role
                elif value is False and "".join(tokenize(role.parameter)) in _OVERWRITE:
                    creates_only = role  # `overwrite: false`: the call fails rather than replace what exists
                continue
            if role.kind == "options":
                member = _dry_run_member(value)
                if member is not None:
                    dry_run = dataclasses.replace(role, parameter=f"{role.parameter}.{member}")
                continue
            if role.kind == "exclusive":
                if value is True or value == "*":
                    creates_only = role  # `if_none_match: true`: "put only if the key does not exist yet"
                continue
            try:
                target = arguments.get(role.target) if role.target is not None else None
                body = arguments.get(role.body) if role.body is not None else None
                if role.kind == "graphql":
                    body = arguments.get(role.target) if role.target is not None else None
                headers = arguments.get(role.headers) if role.headers is not None else None
                named = arguments.get(role.dialect_parameter) if role.dialect_parameter is not None else None
                dialect = dialect_named(named) if isinstance(named, str) else None
                if role.kind == "shell" and isinstance(named, str):
                    dialect = named.strip().lower() if named.strip().lower() in SHELL_DIALECTS else None
                params = arguments.get(role.params) if role.params is not None else None
                if isinstance(target, str) and isinstance(params, Mapping) and params:
                    target = _with_query(target, params)  # `{endpoint, query: {dry_run: "true"}}`: one URL
                judged = _judge_value(role, value, target if isinstance(target, str) else None, body, dialect, headers)
            except Exception as exc:  # a parser's own failure on a hostile text: fail closed, never raise into a call
                judged = Judgement(
                    Act.DESTRUCTIVE, f"{role.parameter} could not be read ({type(exc).__name__})", role.kind
                )
            if judged is not None:
                found.append(judged)
        if executable:
            found.append(judge_argv([*executable, *program], judge_shell))
        elif program_role is not None:
            found.append(_program(program_role, program))
        if shell_syntax and (executable or program_role is not None):
            # Arguments given as one string that holds shell syntax (`get pods; kubectl delete pod x`): whether
            # the tool hands them to a shell is not said, so they are also read as the command line a shell sees.
            name = " ".join(executable) or (program_role.program if program_role is not None else None) or ""
            first = program[0].lower().rsplit("/", 1)[-1] if program else ""
            line = " ".join(shell_syntax if executable == [] and first == name else [name, *shell_syntax])
            found.append(judge_shell(line.strip()))
        if dry_run is not None:
            if dry_run.kind == "confirm":
                what = f"a preview ({dry_run.parameter} is not true)"
                return Judgement(Act.READ, what, "flag.confirm", True) if found else None
            said = _member(arguments, dry_run.parameter, dry_run.default)
            return Judgement(Act.READ, f"a dry run ({dry_run.parameter}: {said})", "flag.dry-run", True)
        actions = [j for j in found if j.rule == "action"]
        # An action that adds or reads takes the other texts as its data (a job's command is stored, not run);
        # an action that runs them (`run`, `exec`) is judged with them.
        if actions and len(actions) < len(found) and not any(_RUNS in j.what for j in actions):
            found = actions
        if not found:
            return None
        whole = found[0] if len(found) == 1 else riskiest(found)
        if creates_only is not None and whole.act is Act.DESTRUCTIVE and actions and len(actions) == len(found):
            values = {str(arguments.get(r.parameter)).lower() for r in self.roles if r.kind == "action"}
            if values and values <= _REPLACING_WRITES:
                # A write whose only destruction is replacing what exists, told never to: it only creates.
                what = f"{whole.what} ({creates_only.parameter}: {arguments.get(creates_only.parameter)})"
                return Judgement(Act.ADDITIVE, what, "flag.creates-only", True, whole.open_world)
        if force is not None and whole.act is Act.ADDITIVE:
            # A write that may overwrite or delete what is there when forced.
            return Judgement(Act.DESTRUCTIVE, f"{whole.what}, {force.parameter}: true", "flag.force")
        return whole


_STATEMENT_START = compiled(
    r"\s*(?:--[^\n]*\n\s*|/\*.*?\*/\s*)*\(*\s*(?:select|with|insert|update|delete|drop|create|alter|truncate|merge|"
    r"replace|grant|revoke|show|describe|desc|explain|pragma|values|table|set|call|exec|execute|copy|vacuum|begin|"
    r"commit|rollback|attach|detach|analyze|use|lock|comment|reindex|refresh|do|upsert|load|unload|install|uninstall|"
    r"notify|listen|unlisten|waitfor|dbcc|backup|restore|flashback|undrop|kill|rename|optimize|checkpoint|purge|"
    r"summarize|pivot|unpivot|declare|msck|discard|reassign|deallocate|flush|unlock|savepoint|abort|bulk|export|from|"
    r"prepare)\b",
    re.I | re.S,
)


_WRITE_WORD = compiled(
    r"\b(?:delete|drop|update|insert|truncate|alter|create|grant|revoke|merge|replace|remove|exec|execute|call|kill"
    r"|purge|erase|wipe|destroy|overwrite)\b",
    re.I,
)
_ENGLISH = compiled(r"\b(?:the|please|me|my|them|those|these|we|our|you|your)\b", re.I)
_SQL_COMMENTS = compiled(r"--[^\n]*|#[^\n]*|/\*.*?\*/", re.S)


def _in_words(text: str) -> bool:
    """Whether a text written as English (outside its quotes and comments) also names a write."""
    bare = _SQL_COMMENTS.sub(" ", _QUOTED.sub(" ", text))
    return _ENGLISH.search(bare) is not None and _WRITE_WORD.search(bare) is not None


_QUOTED = compiled(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|`[^`]*`|\[[^\]]*\]")
_GRAPHQL_MUTATION = compiled(r"\s*(?:#[^\n]*\n\s*)*mutation\b", re.I)


def _plain_write(value: str) -> Judgement | None:
    """A query of a language no text names: judged only when it is plainly a write statement of SQL or a
    GraphQL mutation; anything else (a search string, a read) keeps the tool's own hints."""
    if opens_a_write(value):
        judged = judge_sql(value, command=judge_shell)
    elif _GRAPHQL_MUTATION.match(value):
        judged = judge_graphql({"query": value}) or Judgement(
            Act.DESTRUCTIVE, f"a GraphQL mutation that does not parse: {shorten(value, 60)}", "graphql"
        )
    else:
        return None
    return judged if judged.act is not Act.READ else None


def _judge_value(
    role: Role,
    value: Any,
    target: str | None = None,
    body: Any = None,
    dialect: str | None = None,
    headers: Any = None,
) -> Judgement | None:
    kind = role.kind
    if role.each and kind in {"sql", "shell"} and role.body is not None and isinstance(value, list) and value:
        # `[{sql: "...", params: [...]}, ...]`, `[{name, run}]`: each operation's statement or command line; a
        # list with one item that holds none is not read (fail closed).
        texts = [v.get(role.body) if isinstance(v, Mapping) else None for v in value]
        if not all(isinstance(t, str) for t in texts):
            return Judgement(Act.DESTRUCTIVE, f"{role.parameter}: an operation without its text", kind)
        value = texts
        role = dataclasses.replace(role, body=None)
    if role.each and kind in {"sql", "shell"} and _words(value):
        # A list of statements or command lines, run in order: the riskiest decides.
        parts = [_judge_value(dataclasses.replace(role, each=False), v, target, body, dialect) for v in value]
        judged = [p for p in parts if p is not None]
        if kind == "sql" and judged and any(_EXECUTES.match(v) for v in value):
            # Statements run in order in one session: an EXECUTE runs what a PREPARE before it named, so they
            # are also read as one text (each item kept whole: a line of its own between them). The items
            # judged alone still count, all but the EXECUTEs, whose statement only the whole text shows.
            whole = judge_sql("\n;\n".join(value), dialect or role.dialect, command=judge_shell)
            alone = [p for v, p in zip(value, parts, strict=True) if p is not None and not _EXECUTES.match(v)]
            return riskiest([whole, *alone])
        return riskiest(judged) if judged else None
    if kind == "graphql" and isinstance(value, str):
        operation = judge_graphql({"query": value, "operationName": body})
        if operation is None:
            return Judgement(Act.DESTRUCTIVE, f"a GraphQL document that does not parse: {shorten(value, 60)}", kind)
        return operation
    if kind == "redis" and isinstance(value, str):
        return judge_redis(value)
    if kind == "redis" and _words(value):
        return judge_redis(shlex.join(value))
    if kind == "language" and role.dialect is not None:
        return judge_language(role.dialect, value, lambda text: judge_sql(text, command=judge_shell))
    if kind == "query" and isinstance(value, str):
        return _plain_write(value)
    if kind == "sql" and isinstance(value, str):
        if not role.sure and not _STATEMENT_START.match(value):
            return None  # the parameter may be a search string: only a statement is judged as one
        # A text that starts as a statement and does not parse is destructive, sure or not: a tool whose
        # parameter holds a statement it cannot read never resolves read-only (fail closed).
        read = judge_sql(value, dialect or role.dialect, command=judge_shell)
        if not role.sure and read.act is Act.READ and _in_words(value):
            # Where only the tool's text says SQL, a "read" written as English that also says drop or delete
            # may be words put to a tool that writes its own SQL ("show me the users, then drop the old
            # ones"): not read, to be safe.
            return Judgement(Act.DESTRUCTIVE, f"{read.what} (words of a write beside a read)", "sql")
        return read
    if kind == "shell" and isinstance(value, str):
        # A command line that does not parse is destructive, sure or not; fish and zsh are read as themselves.
        return judge_shell(value, dialect=dialect or role.dialect)
    if kind == "shell" and _words(value):
        return judge_argv(value, judge_shell)
    if kind == "argv":
        if _words(value):
            return judge_argv(value, judge_shell)
        if isinstance(value, str):
            return judge_shell(value)
        return None
    if kind == "method" and isinstance(value, str):
        request = judge_method(value, role.parameter, target, body, headers)
        return request if request is not None else judge_rpc(value, role.parameter)  # `chat.postMessage`
    if kind == "rpc":
        return judge_rpc(value, role.parameter)
    if kind == "windows" and isinstance(value, str):
        return judge_powershell(value) if role.dialect == "powershell" else judge_cmd(value)
    if kind == "http-text" and isinstance(value, str):
        return _http_text(value, role.parameter)
    if kind == "action" and isinstance(value, str):
        return judge_action(value, role.parameter)
    return None


_REQUEST_LINE = compiled(r"\s*([A-Za-z]+)[ \t]+(\S+)(?:[ \t]+HTTP/\d(?:\.\d)?)?[ \t]*\r?$", re.M)


def _http_text(text: str, parameter: str) -> Judgement:
    """A whole HTTP/1.1 request as text (RFC 9112: request line, header lines, a blank line, the body),
    judged by its method, target, headers and body; a text that does not open with a request line, or
    whose method is not known, is destructive."""
    head, _, body = text.replace("\r\n", "\n").partition("\n\n")
    lines = head.split("\n")
    line = _REQUEST_LINE.match(lines[0]) if lines else None
    if line is None:
        return Judgement(Act.DESTRUCTIVE, f"an HTTP request that does not parse ({parameter})", "http.method")
    headers = {}
    for header in lines[1:]:
        name, colon, value = header.partition(":")
        if colon:
            headers[name.strip()] = value.strip()
    judged = judge_method(line.group(1), parameter, line.group(2), body or None, headers)
    if judged is None:
        return Judgement(Act.DESTRUCTIVE, f"an HTTP {line.group(1)} request (a method not known)", "http.method")
    return judged


def _with_query(target: str, params: Mapping[Any, Any]) -> str:
    """A URL with a query-string object's scalar members added (`{preview: true}`: `?preview=true`)."""
    from urllib.parse import urlencode

    pairs = [
        (k, str(v).lower() if isinstance(v, bool) else str(v))
        for k, v in params.items()
        if isinstance(k, str) and isinstance(v, str | int | float | bool)
    ]
    if not pairs:
        return target
    return f"{target}{'&' if '?' in target else '?'}{urlencode(pairs)}"


def _member(arguments: Mapping[str, Any], parameter: str, default: Any) -> Any:
    """An argument by its name, or a free-form object's member by `object.member`."""
    if parameter in arguments:
        return arguments[parameter]
    key, _dot, member = parameter.partition(".")
    nested = arguments.get(key)
    return nested.get(member, default) if isinstance(nested, Mapping) else default


_DRY_RUN_MEMBERS = frozenset({"dryrun", "simulate", "whatif", "validateonly", "checkonly", "noop"})


def _dry_run_member(options: Any) -> str | None:
    """The member of a free-form options object that asks for a dry run (`dryRun: ["All"]`, `dry_run:
    true`, `whatIf: true`), if one."""
    if not isinstance(options, Mapping):
        return None
    for member, value in options.items():
        if not isinstance(member, str) or "".join(tokenize(member)) not in _DRY_RUN_MEMBERS:
            continue
        values = value if isinstance(value, list) else [value]
        if values and all(v is True or (isinstance(v, str) and v.strip().lower() not in _NOT_DRY) for v in values):
            return member
    return None


_RUNS = "(runs)"
_EXECUTES = compiled(r"\s*exec(?:ute)?\b", re.I)
_NOT_DRY = frozenset({"", "false", "0", "no", "none", "off"})
_OVERWRITE = frozenset({"overwrite", "overwriteexisting", "replace", "replaceexisting", "clobber"})
# Actions that destroy nothing but what they replace (a file's or a key's earlier content).
_REPLACING_WRITES = frozenset({"write", "put", "save", "upload", "copy", "cp", "store", "set", "create", "writefile"})


def _program(role: Role, words: list[str]) -> Judgement:
    """One program's command line: the program first (`git`), then what the parameters held. Arguments
    whose program another parameter names, left out of the call, go to a program not known: destructive."""
    if role.program is None:
        return Judgement(Act.DESTRUCTIVE, f"{shorten(' '.join(words), 60)} (to a program not named)", "argv")
    if words[0].lower().rsplit("/", 1)[-1] != role.program:
        words = [role.program, *words]
    return judge_argv(words, judge_shell)


_SHELL_SYNTAX = compiled(r"[;&|`<>\n]|\$\(")
"""What a POSIX shell reads as more than words: separators, pipes, redirections, substitutions."""


def _words(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(w, str) for w in value)


def _split(text: str) -> list[str] | None:
    import shlex

    try:
        return shlex.split(text)
    except ValueError:
        return None
