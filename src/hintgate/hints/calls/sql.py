"""What a SQL text does, read with a real parser (sqlglot): a read, an additive write or a destructive one.

Pure. Every statement is parsed; the text reads only when every statement
reads. What counts:

- read: SELECT, VALUES, TABLE, set operations, SHOW, DESCRIBE, USE, EXPLAIN
  without ANALYZE, a PRAGMA that reads, transaction control, a session's own
  SET, system procedures that report (sp_who), DBCC checks;
- additive: INSERT (not REPLACE, not ON CONFLICT DO UPDATE), CREATE (not OR
  REPLACE), SELECT INTO a new table, ALTER ... ADD, COPY FROM a file,
  COMMENT, nextval, storage maintenance (VACUUM, REINDEX, ANALYZE);
- destructive: UPDATE, DELETE, MERGE, DROP, ALTER, TRUNCATE, GRANT, REVOKE,
  SET GLOBAL, a PRAGMA that sets, COPY to a file or a program, CALL, EXECUTE,
  DO, EXPLAIN ANALYZE of a write (it runs it), a function with effects
  (`pg_terminate_backend`, `load_extension`, a system function named for a
  writing verb such as `SYSTEM$ABORT_SESSION`), any statement the parser
  reads as a bare expression or a command it does not know, a text that
  does not parse or is too long to read.

Row changes between BEGIN and a ROLLBACK of the whole transaction persist
nothing and read; a MySQL versioned comment (`/*! ... */`) runs what it holds.
A write hidden anywhere in a statement (a CTE's DELETE, a sub-select's
function call) makes the statement that write. Several statements take the
riskiest. The dialect comes from the tool's text when it names one
(PostgreSQL, SQLite, MySQL...); a text that fails in it is read in the other
common dialects before it is called unparseable.
"""

from __future__ import annotations

import functools
import logging
import re
from typing import Any

from hintgate.hints.calls.judgement import Act, Judgement, riskiest, shorten


def _names(text: str) -> frozenset[str]:
    """The words of a table written as text, one set."""
    return frozenset(text.split())


__all__ = ["DIALECTS", "MAX_SQL", "dialect_named", "judge_sql"]

MAX_SQL = 32_000
"""Characters of SQL read; a longer text is judged destructive unread (parsing is bounded work)."""

_RETRY_MAX = 4_000  # a text that fails in its dialect is tried in the others only up to this length

DIALECTS: dict[str, str] = {
    "postgresql": "postgres",
    "postgres": "postgres",
    "psql": "postgres",
    "redshift": "redshift",
    "sqlite": "sqlite",
    "mysql": "mysql",
    "mariadb": "mysql",
    "t-sql": "tsql",
    "tsql": "tsql",
    "sql server": "tsql",
    "mssql": "tsql",
    "bigquery": "bigquery",
    "snowflake": "snowflake",
    "duckdb": "duckdb",
    "clickhouse": "clickhouse",
    "oracle": "oracle",
    "trino": "trino",
    "presto": "presto",
    "databricks": "databricks",
    "spark": "spark",
    "hive": "hive",
}
"""Names of SQL dialects in general English (as a tool's text writes them) to sqlglot's dialect names."""

_DIALECT_WORDS = re.compile(r"\b(" + "|".join(re.escape(k) for k in DIALECTS) + r")\b", re.IGNORECASE)
_FALLBACKS = ("postgres", "mysql", "sqlite", "tsql", "snowflake", "bigquery")

_READ_FUNCTIONS_WITH_EFFECTS = {
    # functions that change state from inside a SELECT (PostgreSQL, SQLite, MySQL builtins)
    "pg_terminate_backend": Act.DESTRUCTIVE,
    "pg_cancel_backend": Act.DESTRUCTIVE,
    "pg_reload_conf": Act.DESTRUCTIVE,
    "pg_rotate_logfile": Act.DESTRUCTIVE,
    "pg_switch_wal": Act.DESTRUCTIVE,
    "pg_drop_replication_slot": Act.DESTRUCTIVE,
    "pg_create_logical_replication_slot": Act.ADDITIVE,
    "pg_create_physical_replication_slot": Act.ADDITIVE,
    "pg_file_write": Act.DESTRUCTIVE,
    "pg_file_unlink": Act.DESTRUCTIVE,
    "pg_file_rename": Act.DESTRUCTIVE,
    "pg_promote": Act.DESTRUCTIVE,
    "pg_truncate_visibility_map": Act.DESTRUCTIVE,
    "set_config": Act.DESTRUCTIVE,
    "setval": Act.DESTRUCTIVE,
    "nextval": Act.ADDITIVE,
    "lo_import": Act.ADDITIVE,
    "lo_export": Act.DESTRUCTIVE,
    "lo_unlink": Act.DESTRUCTIVE,
    "lo_create": Act.ADDITIVE,
    "lo_put": Act.DESTRUCTIVE,
    "dblink_exec": Act.DESTRUCTIVE,
    "dblink": Act.DESTRUCTIVE,
    "pg_advisory_lock": Act.ADDITIVE,
    "pg_advisory_xact_lock": Act.ADDITIVE,
    "load_extension": Act.DESTRUCTIVE,
    "writefile": Act.DESTRUCTIVE,
    "edit": Act.DESTRUCTIVE,
    "sys_exec": Act.DESTRUCTIVE,
    "sys_eval": Act.DESTRUCTIVE,
    "get_lock": Act.ADDITIVE,
    "release_lock": Act.ADDITIVE,
    "xp_cmdshell": Act.DESTRUCTIVE,
}

# SQLite PRAGMAs that take an argument and still only read (a pragma with any other argument sets a value).
_READ_PRAGMAS_WITH_ARGUMENT = frozenset(
    {
        "table_info",
        "table_xinfo",
        "table_list",
        "index_info",
        "index_xinfo",
        "index_list",
        "foreign_key_list",
        "foreign_key_check",
        "integrity_check",
        "quick_check",
        "pragma_list",
        "function_list",
        "module_list",
        "collation_list",
        "database_list",
        "compile_options",
    }
)
# PRAGMAs that act when named without a value.
_ACTION_PRAGMAS = frozenset({"optimize", "wal_checkpoint", "incremental_vacuum", "shrink_memory", "analysis_limit"})

_EXECUTABLE_COMMENT = re.compile(r"/\*M?!\d*(.*?)\*/", re.S)
_LEAD = re.compile(r"^\s*([A-Za-z_]+)")
_READ_COMMANDS = frozenset({"SHOW", "DESCRIBE", "DESC", "LIST", "HELP"})
_NEUTRAL_COMMANDS = frozenset({"BEGIN", "START", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "ABORT"})


def dialect_named(text: str) -> str | None:
    """The sqlglot dialect a tool's text names (its description: "Run a query on PostgreSQL"), if one."""
    found = _DIALECT_WORDS.search(text)
    return DIALECTS[found.group(1).lower()] if found else None


def judge_sql(text: str, dialect: str | None = None) -> Judgement:
    """What a SQL text does: the riskiest of its statements, with what they are.

    Args:
        text: one or more statements, as the call gives them.
        dialect: the sqlglot dialect to read them in (`None`: sqlglot's generic SQL).
    """
    if len(text) > MAX_SQL:
        return Judgement(Act.DESTRUCTIVE, f"a SQL text of {len(text)} characters, too long to read", "sql")
    # MySQL and MariaDB run what a versioned comment holds (`/*!50000 DROP TABLE t */`): read it as code.
    statements = _parse(_EXECUTABLE_COMMENT.sub(r" \1 ", text), dialect)
    if statements is None:
        return Judgement(Act.DESTRUCTIVE, f"SQL that does not parse: {shorten(text, 60)}", "sql")
    # A comment after the last `;` comes back as a bare Semicolon holding it: nothing runs.
    statements = [s for s in statements if s is not None and type(s).__name__ != "Semicolon"]
    if not statements:
        return Judgement(Act.READ, "an empty SQL text", "sql")
    # One statement is shown as written; several are each printed back from the parse (a cost only then).
    single = shorten(text, 72) if len(statements) == 1 else None
    parts = _undo_rolled_back(statements, [_statement(s, single) for s in statements])
    whole = riskiest(parts)
    worst = [p for p in parts if p.act is whole.act]
    shown = worst[0].what
    if whole.act is Act.READ:
        what = shorten(text, 72) if len(parts) == 1 else f"{len(parts)} statements: {shorten(text, 60)}"
    elif len(parts) > 1:
        others = f" and {len(worst) - 1} more like it" if len(worst) > 1 else ""
        what = f"{len(parts)} statements: {shown}{others}"
    else:
        what = shown
    return Judgement(whole.act, what, "sql", whole.idempotent, None)


def _undo_rolled_back(statements: list[Any], parts: list[Judgement]) -> list[Judgement]:
    """Row changes (INSERT, UPDATE, DELETE, MERGE) between BEGIN and a full ROLLBACK persist nothing.

    Only plain row changes are taken back: DDL commits by itself in some
    databases (MySQL), and a function's effect (a terminated session) is not
    transactional.
    """
    from sqlglot import exp

    out = list(parts)
    begun: list[int] | None = None
    for at, node in enumerate(statements):
        if isinstance(node, exp.Transaction) or (
            isinstance(node, exp.Command) and str(node.this).upper() in {"BEGIN", "START"}
        ):
            begun = []
        elif isinstance(node, exp.Rollback) and begun is not None:
            if node.args.get("savepoint") is None:
                for index in begun:
                    out[index] = Judgement(Act.READ, f"{parts[index].what} (rolled back)", "sql", True)
            begun = None
        elif isinstance(node, exp.Commit):
            begun = None
        elif begun is not None:
            plain = isinstance(node, exp.Insert | exp.Update | exp.Delete | exp.Merge) and not any(
                isinstance(inner, exp.Func) and _effect_of(inner) is not Act.READ for inner in node.walk()
            )
            if plain:
                begun.append(at)
            else:
                begun = None  # anything else may commit the transaction or act outside it
    return out


def _parse(text: str, dialect: str | None) -> list[Any] | None:
    sqlglot = _sqlglot()
    tried = [dialect, *(d for d in _FALLBACKS if d != dialect)] if dialect else [None, *_FALLBACKS]
    if len(text) > _RETRY_MAX:
        tried = tried[:1]  # a long text is read once: each try costs its length again
    for name in tried:
        try:
            return list(sqlglot.parse(text, read=name))
        except (sqlglot.errors.ParseError, sqlglot.errors.TokenError, ValueError, RecursionError):
            continue
    return None


@functools.cache
def _sqlglot() -> Any:
    """sqlglot, imported at the first SQL text (not at the gateway's start); its fallback warnings silenced."""
    import sqlglot
    import sqlglot.errors

    # "contains unsupported syntax, falling back to a Command" is how an unknown statement is told apart
    # here (judged destructive), not a problem to log on every call.
    logging.getLogger("sqlglot").setLevel(logging.ERROR)
    return sqlglot


def _sql_of(node: Any) -> str:
    try:
        text = node.sql()
    except Exception:  # a node sqlglot cannot print back: show its kind
        text = type(node).__name__
    return shorten(str(text), 72)


def _statement(node: Any, shown: str | None = None) -> Judgement:
    """One parsed statement's act; `shown` is how to show it (printed back from the parse when not given)."""
    from sqlglot import exp

    if shown is None:
        shown = _sql_of(node)
    if isinstance(node, exp.Command):
        return _command(node, shown)
    if isinstance(node, exp.Pragma):
        return _pragma(node, shown)
    if isinstance(node, exp.Transaction | exp.Commit | exp.Rollback | exp.Use | exp.Declare):
        return Judgement(Act.READ, shown, "sql")
    if isinstance(node, exp.Show | exp.Describe):
        return Judgement(Act.READ, shown, "sql")
    if isinstance(node, exp.Execute):
        procedure = _sql_of(node.this).split("(")[0].strip().lower() if node.this is not None else ""
        if procedure.split(".")[-1] in _READ_PROCEDURES:
            return Judgement(Act.READ, shown, "sql", True)
        return Judgement(Act.DESTRUCTIVE, f"{shown} (runs a procedure whose body is not in the call)", "sql")
    if isinstance(node, exp.Query | exp.Values):
        return _walk(node, shown, Act.READ)
    if isinstance(node, exp.Insert):
        return _walk(node, shown, _insert(node))
    if isinstance(node, exp.Create):
        replace = bool(node.args.get("replace"))
        return _walk(node, shown, Act.DESTRUCTIVE if replace else Act.ADDITIVE)
    if isinstance(node, exp.Comment):
        return Judgement(Act.ADDITIVE, shown, "sql")
    if isinstance(node, exp.Copy):
        return _copy(node, shown)
    if isinstance(node, exp.Alter):
        return _alter(node, shown)
    if isinstance(node, exp.Set):
        return _set(node, shown)
    if isinstance(node, exp.Analyze):
        return Judgement(Act.ADDITIVE, f"{shown} (refreshes statistics)", "sql", True)
    # UPDATE, DELETE, MERGE, DROP, ALTER, TRUNCATE, GRANT, REVOKE, SET, EXECUTE, KILL, ATTACH, ANALYZE..., and
    # whatever the parser took for a bare expression (an unknown statement's words read as a column or alias).
    return Judgement(Act.DESTRUCTIVE, shown, "sql")


def _walk(node: Any, shown: str, act: Act) -> Judgement:
    """`act`, made riskier by any write or effectful function anywhere inside the statement."""
    from sqlglot import exp

    worst = act
    writes = (exp.Update, exp.Delete, exp.Merge, exp.Drop, exp.Alter, exp.TruncateTable)
    for inner in node.walk():
        if isinstance(inner, exp.Func):
            worst = max(worst, _effect_of(inner))
        elif inner is node:
            continue
        elif isinstance(inner, writes):
            worst = Act.DESTRUCTIVE
        elif isinstance(inner, exp.Insert):
            worst = max(worst, _insert(inner))
        elif isinstance(inner, exp.Into) and not _into_variables(inner):
            worst = max(worst, Act.ADDITIVE)  # SELECT ... INTO a new table: it is created, nothing else changes
        if worst is Act.DESTRUCTIVE:
            break
    return Judgement(worst, shown, "sql", True if worst is Act.READ else None)


def _into_variables(node: Any) -> bool:
    """SELECT ... INTO @var (MySQL, T-SQL variables) stores into the session, not the database."""
    return _sql_of(node).upper().replace("INTO", "", 1).strip().startswith("@")


def _effect_of(function: Any) -> Act:
    """What calling a function does: a builtin with effects (by the table), else by its name's verb.

    A system function named for what it does (`SYSTEM$ABORT_SESSION`, `pg_cancel_backend`) acts as its verb
    says; a plain builtin (`count`, `replace` on a string) reads.
    """
    from sqlglot import exp

    name = (function.name if isinstance(function, exp.Anonymous) else function.sql_name()).lower()
    known = _READ_FUNCTIONS_WITH_EFFECTS.get(name)
    if known is not None:
        return known
    if not isinstance(function, exp.Anonymous) or not re.search(r"[_$.]", name):
        return Act.READ
    return _VERB_ACTS.get(_function_verb(name), Act.READ)


def _function_verb(name: str) -> str:
    from hintgate.hints.inference.naming import lookup_verb, tokenize

    for word in tokenize(name.replace("$", "_").replace(".", "_")):
        verb = lookup_verb(word)
        if verb is not None and not verb.opaque:
            return verb.rule
    return ""


_VERB_ACTS = {
    "name.verb.delete": Act.DESTRUCTIVE,
    "name.verb.update": Act.DESTRUCTIVE,
    "name.verb.edit": Act.DESTRUCTIVE,
    "name.verb.restore": Act.DESTRUCTIVE,
    "name.verb.execute": Act.DESTRUCTIVE,
    "name.verb.lifecycle": Act.DESTRUCTIVE,
    "name.verb.import": Act.DESTRUCTIVE,
    "name.verb.change": Act.DESTRUCTIVE,
    "name.verb.create": Act.ADDITIVE,
    "name.verb.send": Act.ADDITIVE,
    "name.verb.start": Act.ADDITIVE,
    "name.verb.artifact": Act.ADDITIVE,
}


def _alter(node: Any, shown: str) -> Judgement:
    """ALTER ... ADD (a column, a constraint) only adds; any other alteration changes what exists."""
    from sqlglot import exp

    actions = node.args.get("actions") or []
    adds = actions and all(
        isinstance(a, exp.ColumnDef | exp.AddConstraint | exp.Constraint)
        or type(a).__name__ in {"AddConstraint", "AddPartition"}
        for a in actions
    )
    if adds and str(node.args.get("kind") or "").upper() in {"TABLE", ""}:
        return Judgement(Act.ADDITIVE, shown, "sql")
    return Judgement(Act.DESTRUCTIVE, shown, "sql")


def _set(node: Any, shown: str) -> Judgement:
    """SET of a session's own variable changes nothing stored; SET GLOBAL or PERSIST changes the server."""
    for item in node.expressions:
        kind = str(item.args.get("kind") or "").upper()
        if kind in {"GLOBAL", "PERSIST", "PERSIST_ONLY"}:
            return Judgement(Act.DESTRUCTIVE, f"{shown} (a server-wide setting)", "sql")
    return Judgement(Act.READ, f"{shown} (a setting of this session only)", "sql", True)


def _insert(node: Any) -> Act:
    """INSERT adds; REPLACE, INSERT OR REPLACE, ON CONFLICT DO UPDATE and INSERT OVERWRITE overwrite."""
    alternative = str(node.args.get("alternative") or "").upper()
    conflict = node.args.get("conflict")
    if alternative in {"REPLACE", "UPDATE"} or node.args.get("overwrite"):
        return Act.DESTRUCTIVE
    if conflict is not None and (conflict.args.get("action") is None or "UPDATE" in _sql_of(conflict).upper()):
        return Act.DESTRUCTIVE if "UPDATE" in _sql_of(conflict).upper() else Act.ADDITIVE
    return Act.ADDITIVE


def _pragma(node: Any, shown: str) -> Judgement:
    from sqlglot import exp

    inner = node.this
    head = inner.this if isinstance(inner, exp.EQ | exp.PropertyEQ) else inner
    name = (head.name if isinstance(head, exp.Anonymous | exp.Column | exp.Identifier) else "").lower()
    if not name and head is not None:
        name = _sql_of(head).split("(")[0].split("=")[0].split(".")[-1].strip().lower()
    if name in _READ_PRAGMAS_WITH_ARGUMENT:
        return Judgement(Act.READ, shown, "sql", True)  # PRAGMA table_info(users), however it is spelled
    if isinstance(inner, exp.EQ | exp.PropertyEQ):
        return Judgement(Act.DESTRUCTIVE, shown, "sql")
    if name in _ACTION_PRAGMAS:
        return Judgement(Act.DESTRUCTIVE, shown, "sql")
    takes_argument = isinstance(inner, exp.Anonymous | exp.Func) and bool(inner.expressions or inner.args.get("this"))
    if takes_argument and name not in _READ_PRAGMAS_WITH_ARGUMENT:
        return Judgement(Act.DESTRUCTIVE, shown, "sql")  # PRAGMA cache_size(100) sets it
    return Judgement(Act.READ, shown, "sql")


def _copy(node: Any, shown: str) -> Judgement:
    """COPY ... TO STDOUT reads; FROM a file appends rows; TO a file may overwrite it; a PROGRAM runs."""
    kind = node.args.get("kind")  # True: FROM (into the table); False: TO
    text = shown.upper()
    target = " ".join(_sql_of(f) for f in node.args.get("files") or []).upper()
    if "PROGRAM" in text:
        return Judgement(Act.DESTRUCTIVE, f"{shown} (runs a program)", "sql", None, True)
    if kind is False and ("STDOUT" in target or not target):
        return Judgement(Act.READ, shown, "sql", True)
    if kind is True:
        return Judgement(Act.ADDITIVE, f"{shown} (appends rows)", "sql")
    return Judgement(Act.DESTRUCTIVE, shown, "sql")


def _command(node: Any, shown: str) -> Judgement:
    """A statement sqlglot keeps as a command: known reads, EXPLAIN (its ANALYZE runs it), else destructive."""
    keyword = str(node.this).upper()
    expression = node.expression
    rest = expression if isinstance(expression, str) else str(getattr(expression, "this", "") or "")
    if keyword in _READ_COMMANDS:
        return Judgement(Act.READ, shown, "sql")
    if keyword in _NEUTRAL_COMMANDS:
        return Judgement(Act.READ, shown, "sql")
    if keyword == "EXPLAIN":
        return _explain(rest, shown)
    if keyword in _MAINTENANCE:
        # Storage rewritten, what it holds unchanged (VACUUM, VACUUM INTO a new file, REINDEX, OPTIMIZE).
        return Judgement(Act.ADDITIVE, f"{shown} (maintenance)", "sql", True)
    if keyword == "SET":
        words = rest.split()
        first = words[0].upper() if words else ""
        if (first in {"GLOBAL", "PERSIST", "PERSIST_ONLY", "ROLE", "SESSION"} and first != "SESSION") or (
            first == "SESSION" and len(words) > 1 and words[1].upper() == "AUTHORIZATION"
        ):
            return Judgement(Act.DESTRUCTIVE, shown, "sql")
        return Judgement(Act.READ, f"{shown} (a setting of this session only)", "sql", True)
    if keyword in {"EXEC", "EXECUTE"}:
        procedure = rest.split("(")[0].split()[0].lower() if rest.split() else ""
        if procedure.split(".")[-1] in _READ_PROCEDURES:
            return Judgement(Act.READ, shown, "sql", True)
    if keyword == "DBCC":
        check = rest.split("(")[0].split()[0].upper() if rest.split() else ""
        if check in _READ_DBCC and "REPAIR" not in rest.upper():
            return Judgement(Act.READ, shown, "sql", True)
    if keyword == "UNDROP":
        return Judgement(Act.ADDITIVE, f"{shown} (restores what was dropped)", "sql")
    return Judgement(Act.DESTRUCTIVE, shown, "sql")


_MAINTENANCE = frozenset({"VACUUM", "REINDEX", "OPTIMIZE", "CHECKPOINT", "ANALYZE", "ANALYSE"})
# System procedures of SQL Server that only report (their documented purpose).
_READ_PROCEDURES = _names(
    """
    sp_who sp_who2 sp_help sp_helptext sp_helpindex sp_helpdb sp_helpfile sp_columns sp_tables sp_databases
    sp_spaceused sp_lock sp_helprotect sp_helpuser sp_helprole sp_server_info sp_statistics
    sp_stored_procedures sp_fkeys sp_pkeys sp_depends sp_monitor
    """
)
_READ_DBCC = frozenset(
    {
        "CHECKDB",
        "CHECKTABLE",
        "CHECKALLOC",
        "CHECKCATALOG",
        "CHECKCONSTRAINTS",
        "CHECKFILEGROUP",
        "SHOW_STATISTICS",
        "SQLPERF",
        "INPUTBUFFER",
        "OPENTRAN",
        "USEROPTIONS",
        "TRACESTATUS",
    }
)


_EXPLAIN_OPTIONS = re.compile(r"^\s*\(([^)]*)\)")
_EXPLAIN_WORDS = frozenset({"ANALYZE", "ANALYSE", "VERBOSE", "QUERY", "PLAN", "EXTENDED", "FORMAT", "PARTITIONS"})


def _explain(rest: str, shown: str) -> Judgement:
    """EXPLAIN shows a plan (reads); EXPLAIN ANALYZE runs the statement, so it does what the statement does."""
    analyze = False
    options = _EXPLAIN_OPTIONS.match(rest)
    if options:
        for option in options.group(1).split(","):
            words = option.split()
            if words and words[0].upper() in {"ANALYZE", "ANALYSE"}:
                analyze = len(words) == 1 or words[1].upper() not in {"FALSE", "OFF", "0"}
        rest = rest[options.end() :]
    else:
        while (lead := _LEAD.match(rest)) and lead.group(1).upper() in _EXPLAIN_WORDS:
            word = lead.group(1).upper()
            analyze = analyze or word in {"ANALYZE", "ANALYSE"}
            rest = rest[lead.end() :]
            if word == "FORMAT":  # FORMAT JSON: skip the format's name
                rest = re.sub(r"^\s*[=]?\s*\w+", "", rest, count=1)
    if not analyze:
        return Judgement(Act.READ, shown, "sql")
    inner = judge_sql(rest)
    return Judgement(max(inner.act, Act.READ), f"EXPLAIN ANALYZE runs {inner.what}", "sql", inner.idempotent)
