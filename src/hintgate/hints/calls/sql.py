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
  SET GLOBAL, a PRAGMA that sets, COPY to a file or a program, CALL, EXECUTE
  (except of a statement PREPAREd earlier in the text: it does what that
  statement does, and the PREPARE reads), DO, a function the parser does
  not know named in words of no known verb (a user's own), EXPLAIN ANALYZE
  of a write (it runs it), a function with effects
  (`pg_terminate_backend`, `load_extension`, a system function named for a
  writing verb such as `SYSTEM$ABORT_SESSION`), any statement the parser
  reads as a bare expression or a command it does not know, a text that
  does not parse or is too long to read.

A function that runs a query text (`OPENQUERY`, `OPENROWSET`, `dblink`,
`query_to_xml`) does what that text does. Row changes between BEGIN and a
ROLLBACK of the whole transaction persist nothing and read; a MySQL versioned comment (`/*! ... */`) runs what it holds.
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
from collections.abc import Callable
from typing import Any

from hintgate.hints.calls.judgement import Act, Judgement, riskiest, shorten
from hintgate.hints.calls.word_tables import word_set
from hintgate.scan.deferred import compiled

__all__ = ["DIALECTS", "MAX_SQL", "Command", "dialect_named", "judge_sql", "opens_a_write"]

Command = Callable[[str], Judgement]
"""Judges a command line a statement runs (the shell judge)."""

MAX_SQL = 32_000
"""Characters of SQL read; a longer text is judged destructive unread (parsing is bounded work)."""

_RETRY_MAX = 4_000  # a text that fails in its dialect is tried in the others only up to this length
_MAX_PIECES = 200  # statements read one by one when a text does not parse whole

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

_DIALECT_WORDS = compiled(r"\b(" + "|".join(re.escape(k) for k in DIALECTS) + r")\b", re.IGNORECASE)
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
    "lo_from_bytea": Act.ADDITIVE,
    "lo_truncate": Act.DESTRUCTIVE,
    "lo_put": Act.DESTRUCTIVE,
    "dblink_exec": Act.DESTRUCTIVE,
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

# System functions that only read (PostgreSQL's "System Information" and "Database Object Size" functions,
# MySQL's information functions) and that the parser does not know by name: a compound name with no verb
# hintgate knows is otherwise not judged a read.
_READ_SYSTEM_FUNCTIONS = frozenset(
    {"pg_size_pretty", "pg_size_bytes", "pg_database_size", "pg_relation_size", "pg_total_relation_size"}
    | {"pg_table_size", "pg_indexes_size", "pg_column_size", "pg_tablespace_size", "current_setting"}
    | {"pg_backend_pid", "pg_is_in_recovery", "pg_typeof", "pg_get_viewdef", "pg_get_functiondef"}
    | {"pg_get_indexdef", "pg_get_constraintdef", "pg_get_triggerdef", "pg_get_userbyid", "pg_get_expr"}
    | {"pg_postmaster_start_time", "pg_conf_load_time", "pg_current_wal_lsn", "pg_last_wal_receive_lsn"}
    | {"pg_last_wal_replay_lsn", "pg_wal_lsn_diff", "pg_last_xact_replay_timestamp", "pg_blocking_pids"}
    | {"pg_table_is_visible", "pg_function_is_visible", "pg_encoding_to_char", "pg_jit_available"}
    | {"has_table_privilege", "has_schema_privilege", "has_database_privilege", "has_column_privilege"}
    | {"has_function_privilege", "obj_description", "col_description", "shobj_description", "format_type"}
    | {"current_database", "current_schema", "current_schemas", "current_user", "session_user", "inet_server_addr"}
    | {"inet_server_port", "inet_client_addr", "txid_current_snapshot", "pg_current_snapshot", "to_regclass"}
    | {"connection_id", "last_insert_id", "found_rows", "row_count", "current_role", "database_size"}
    # String functions (PostgreSQL's manual): they quote, split and format text, a statement inside it included.
    | {"quote_ident", "quote_literal", "quote_nullable", "split_part", "regexp_split_to_table", "string_to_array"}
    | {"regexp_split_to_array", "regexp_matches", "array_to_string", "to_regtype", "to_regrole", "to_regnamespace"}
)

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

_URL = compiled(r"^(?:https?|s3|s3a|gs|gcs|az|azure|abfss?|r2|hf|ftp|sftp)://", re.I)
_GO = compiled(r"^[ \t]*GO(?:[ \t]+\d+)?[ \t]*;?[ \t]*$", re.I | re.M)
_EXECUTABLE_COMMENT = compiled(r"/\*M?!\d*(.*?)\*/", re.S)
_LEAD = compiled(r"^\s*([A-Za-z_]+)")
_READ_COMMANDS = frozenset({"SHOW", "DESCRIBE", "DESC", "LIST", "HELP"})
_NEUTRAL_COMMANDS = frozenset({"BEGIN", "START", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "ABORT"})


def dialect_named(text: str) -> str | None:
    """The sqlglot dialect a tool's text names (its description: "Run a query on PostgreSQL"), if one."""
    found = _DIALECT_WORDS.search(text)
    return DIALECTS[found.group(1).lower()] if found else None


# The grammar that opens a SQL statement that writes, as SQL writes it (a search string rarely reads so):
# `DELETE FROM`, `UPDATE t SET`, `INSERT INTO`, `DROP TABLE`, `ALTER TABLE`, `TRUNCATE TABLE`, `GRANT ... TO`.
_OPENS_A_WRITE = compiled(
    r"\s*(?:--[^\n]*\n\s*|/\*.*?\*/\s*)*(?:delete\s+from\s|update\s+[\w.\"`\[\]]+\s+set\s|"
    r"(?:insert|replace|upsert)\s+(?:or\s+\w+\s+)?(?:ignore\s+)?into\s|merge\s+into\s|"
    r"(?:drop|alter|create(?:\s+or\s+replace)?)\s+(?:temp(?:orary)?\s+)?(?:table|view|database|schema|index|user|role|"
    r"function|procedure|sequence|trigger|materialized\s+view)\b|truncate\s+table\s|"
    r"(?:grant|revoke)\s+[\w\s,]+\s+on\s)",
    re.I | re.S,
)


def opens_a_write(text: str) -> bool:
    """Whether `text` opens with the grammar of a SQL statement that writes (`DELETE FROM`, `UPDATE t SET`,
    `DROP TABLE`...): a statement, plainly, where the language is not said (a search string rarely reads so)."""
    return _OPENS_A_WRITE.match(text) is not None


def judge_sql(text: str, dialect: str | None = None, *, command: Command | None = None) -> Judgement:
    """What a SQL text does: the riskiest of its statements, with what they are.

    Args:
        text: one or more statements, as the call gives them.
        dialect: the sqlglot dialect to read them in (`None`: sqlglot's generic SQL).
        command: judges a command line a statement runs (`COPY ... FROM PROGRAM 'curl ...'`); without it
            such a statement is destructive unread.
    """
    if len(text) > MAX_SQL:
        return Judgement(Act.DESTRUCTIVE, f"a SQL text of {len(text)} characters, too long to read", "sql")
    # MySQL and MariaDB run what a versioned comment holds (`/*!50000 DROP TABLE t */`): read it as code.
    code = _EXECUTABLE_COMMENT.sub(r" \1 ", text)
    if dialect in {None, "tsql"}:
        # `GO` on a line of its own ends a batch in SQL Server's tools (sqlcmd, SSMS); it is no statement.
        code = _GO.sub(";", code)
    statements = _parse(code, dialect)
    if statements is not None:
        # A comment after the last `;` comes back as a bare Semicolon holding it: nothing runs.
        statements = [s for s in statements if s is not None and type(s).__name__ != "Semicolon"]
        if not statements:
            return Judgement(Act.READ, "an empty SQL text", "sql")
        # One statement is shown as written; several are each printed back from the parse (a cost only then).
        single = shorten(text, 72) if len(statements) == 1 else None
        parts = [_statement(s, single, command) for s in statements]
        parts = _undo_rolled_back(statements, _prepared(statements, parts, dialect, command))
        if dialect == "tsql":
            parts = _compiled_only(statements, parts)
    else:
        # Some statement the parser does not know (`NOTIFY ch, 'x'`, `WAITFOR DELAY`, `DBCC CHECKDB (...)`):
        # each statement is read on its own, and one still unread is judged by its documented grammar.
        read = _statement_by_statement(code, dialect, command)
        if read is None:
            return Judgement(Act.DESTRUCTIVE, f"SQL that does not parse: {shorten(text, 60)}", "sql")
        statements, parts = read
        parts = _undo_rolled_back(statements, _prepared(statements, parts, dialect, command))
        if dialect == "tsql":
            parts = _compiled_only(statements, parts)
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
    return Judgement(whole.act, what, "sql", whole.idempotent, whole.open_world or None)


_PREPARE_AS = compiled(r"\s*([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s+AS\s+(.+)", re.I | re.S)
_PREPARE_FROM = compiled(r"\s*([A-Za-z_]\w*)\s+FROM\s+'((?:[^']|'')*)'\s*", re.I | re.S)
_EXECUTED = compiled(r"\s*([A-Za-z_]\w*)")


def _prepared(
    statements: list[Any], parts: list[Judgement], dialect: str | None, command: Command | None
) -> list[Judgement]:
    """PREPARE only names a statement (PostgreSQL's `PREPARE p AS SELECT ...`, MySQL's `PREPARE p FROM '...'`):
    it reads; an EXECUTE of a name prepared before it in the same text does what that statement does. An
    EXECUTE of any other name keeps its judgement (what it runs is not in the text)."""
    from sqlglot import exp

    known: dict[str, Judgement] = {}
    judged = list(parts)
    for at, node in enumerate(statements):
        if not isinstance(node, exp.Command) or at >= len(judged):
            continue
        keyword, rest = str(node.this).upper(), _command_rest(node)
        if keyword == "PREPARE":
            found = _PREPARE_AS.fullmatch(rest) or _PREPARE_FROM.fullmatch(rest)
            if found is None:
                continue
            inner = found.group(2) if found.re is _PREPARE_AS else found.group(2).replace("''", "'")
            known[found.group(1).lower()] = judge_sql(inner, dialect, command=command)
            judged[at] = Judgement(Act.READ, f"{shorten(rest, 60)} (prepared, not run)", "sql", True)
        elif keyword in {"EXECUTE", "EXEC"}:
            name = _EXECUTED.match(rest)
            if name is not None and name.group(1).lower() in known:
                inner = known[name.group(1).lower()]
                judged[at] = Judgement(inner.act, f"EXECUTE {inner.what}", "sql", inner.idempotent, inner.open_world)
    return judged


_NOT_EXECUTING = compiled(
    r"SET\s+(SHOWPLAN_XML|SHOWPLAN_TEXT|SHOWPLAN_ALL|NOEXEC|PARSEONLY|FMTONLY)\s*=?\s*(ON|OFF)\s*;?", re.I
)


def _compiled_only(statements: list[Any], parts: list[Judgement]) -> list[Judgement]:
    """SQL Server's `SET SHOWPLAN_XML ON` (and `SHOWPLAN_TEXT`, `SHOWPLAN_ALL`, `NOEXEC`, `PARSEONLY`,
    `FMTONLY`): the statements after it are compiled (a plan returned), not run, until it is set OFF."""
    off: set[str] = set()
    out = list(parts)
    for at, node in enumerate(statements):
        found = _NOT_EXECUTING.fullmatch(_sql_of(node).strip()) if node is not None else None
        if found is not None:
            option, state = found.group(1).upper(), found.group(2).upper()
            (off.add if state == "ON" else off.discard)(option)
            out[at] = Judgement(Act.READ, parts[at].what, "sql", True)
        elif off and at < len(out):
            out[at] = Judgement(Act.READ, f"{parts[at].what} (compiled, not run)", "sql", True)
    return out


def _statement_by_statement(
    text: str, dialect: str | None, command: Command | None
) -> tuple[list[Any], list[Judgement]] | None:
    """Each statement of a text the parser could not read whole, split where the tokenizer finds a `;`
    (never inside a string or a comment): parsed alone, or judged by its leading words (`_unparsed`).
    None when the text does not even tokenize (an unterminated string)."""
    sqlglot = _sqlglot()
    try:
        tokens = sqlglot.Dialect.get_or_raise(dialect).tokenize(text)
    except (sqlglot.errors.TokenError, sqlglot.errors.ParseError, ValueError, RecursionError):
        return None
    pieces: list[list[Any]] = [[]]
    for token in tokens:
        if token.token_type == sqlglot.tokens.TokenType.SEMICOLON:
            pieces.append([])
        else:
            pieces[-1].append(token)
    pieces = [p for p in pieces if p]
    if len(pieces) > _MAX_PIECES:
        return None  # bounded work: a text of that many statements that does not parse whole is not read
    # Each statement is tried in the other dialects only when there are few: the work stays a few parses.
    retry = len(text) <= _RETRY_MAX and len(pieces) <= 16
    nodes: list[Any] = []
    parts: list[Judgement] = []
    for piece in pieces:
        source = text[piece[0].start : piece[-1].end + 1]
        parsed = _parse(source, dialect, retry=retry)
        found = [s for s in parsed or [] if s is not None and type(s).__name__ != "Semicolon"]
        if parsed is not None and found:
            nodes.extend(found)
            parts.extend(_statement(s, shorten(source, 72) if len(found) == 1 else None, command) for s in found)
        else:
            nodes.append(None)
            parts.append(_unparsed(piece, source, dialect))
    return (nodes, parts) if parts else None


_OUTFILE = frozenset({"OUTFILE", "DUMPFILE"})
# Words that end MySQL's `INTO OUTFILE 'file' [export options]` clause, when it stands before them.
_AFTER_INTO = frozenset({"FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION", "FOR", "LOCK", "WINDOW"})


def _unparsed(tokens: list[Any], source: str, dialect: str | None) -> Judgement:
    """One statement the parser does not read, judged by its documented grammar's leading words; any other
    is destructive (it could not be read). A `SELECT ... INTO OUTFILE` writes a new file (MySQL refuses an
    existing one) and is otherwise the SELECT."""
    shown = shorten(source, 72)
    words = [str(t.text).upper() for t in tokens]
    for at in range(len(words) - 1):
        if words[at] == "INTO" and words[at + 1] in _OUTFILE:
            end = next((i for i in range(at + 2, len(words)) if words[i] in _AFTER_INTO), len(words))
            rest = source[: tokens[at].start - tokens[0].start]
            if end < len(words):
                rest += " " + source[tokens[end].start - tokens[0].start :]
            inner = judge_sql(rest, dialect)
            act = max(inner.act, Act.ADDITIVE)
            return Judgement(act, f"{shown} (writes a new file)", "sql", None)
    rest = source[tokens[1].start - tokens[0].start :] if len(tokens) > 1 else ""
    # Only statements whose grammar is read from their words here; a `BEGIN` or `SET` that did not parse may
    # open a procedural block (`BEGIN EXECUTE IMMEDIATE '...'`): unread, destructive.
    judged = _command_words(words[0], rest, shown) if words[0] in _READ_BY_WORDS else None
    if judged is not None:
        return judged
    return Judgement(Act.DESTRUCTIVE, f"SQL that does not parse: {shown}", "sql")


_READ_BY_WORDS = frozenset(
    {"CREATE", "ALTER", "NOTIFY", "LISTEN", "UNLISTEN", "WAITFOR", "BACKUP", "FLASHBACK", "LOAD", "DBCC"}
    | {"UNDROP", "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "INSTALL", "DO", "CHECK", "EXISTS", "FETCH", "MOVE"}
)


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
        if (isinstance(node, exp.Transaction) and _opens_transaction(node)) or (
            isinstance(node, exp.Command)
            and str(node.this).upper() in {"BEGIN", "START"}
            and _only_transaction_words(_command_rest(node))
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


def _parse(text: str, dialect: str | None, *, retry: bool = True) -> list[Any] | None:
    sqlglot = _sqlglot()
    tried = [dialect, *(d for d in _FALLBACKS if d != dialect)] if dialect else [None, *_FALLBACKS]
    if len(text) > _RETRY_MAX or not retry:
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
    return shorten(str(text or type(node).__name__), 72)


def _statement(node: Any, shown: str | None = None, command: Command | None = None) -> Judgement:
    """One parsed statement's act; `shown` is how to show it (printed back from the parse when not given)."""
    from sqlglot import exp

    if shown is None:
        shown = _sql_of(node)
    if isinstance(node, exp.Command):
        return _command(node, shown)
    if isinstance(node, exp.Pragma):
        return _pragma(node, shown)
    if isinstance(node, exp.Transaction) and not _opens_transaction(node):
        return Judgement(Act.DESTRUCTIVE, f"{shown} (not a transaction: a command it does not read)", "sql")
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
    kind = type(node).__name__
    if kind == "Install":
        # An extension fetched from its repository (DuckDB); FORCE INSTALL replaces one installed.
        act = Act.DESTRUCTIVE if node.args.get("force") else Act.ADDITIVE
        return Judgement(act, f"{shown} (installs an extension)", "sql", True, True)
    if kind == "Undrop":
        return Judgement(Act.ADDITIVE, f"{shown} (restores what was dropped)", "sql")
    if kind == "Export":
        return _export(node, shown)
    if kind == "ListStage":
        return Judgement(Act.READ, shown, "sql", True)
    if kind == "Put":
        # A local file uploaded to a stage; files already there are skipped unless OVERWRITE = TRUE.
        overwrites = "OVERWRITE=TRUE" in shown.upper().replace(" ", "")
        return Judgement(Act.DESTRUCTIVE if overwrites else Act.ADDITIVE, f"{shown} (uploads a file)", "sql", True)
    if isinstance(node, exp.Column) and not node.table and node.name.upper() in _MAINTENANCE:
        return Judgement(Act.ADDITIVE, f"{shown} (maintenance)", "sql", True)  # a bare CHECKPOINT
    if kind in {"Summarize", "Pivot"}:
        return _walk(node, shown, Act.READ)  # DuckDB's SUMMARIZE and PIVOT/UNPIVOT statements are queries
    if isinstance(node, exp.Copy):
        return _copy(node, shown, command)
    if isinstance(node, exp.Alter):
        if str(node.args.get("kind") or "").upper() == "SESSION":
            return Judgement(Act.READ, f"{shown} (a setting of this session only)", "sql", True)
        return _alter(node, shown)
    if isinstance(node, exp.Set):
        return _set(node, shown)
    if isinstance(node, exp.Analyze):
        return Judgement(Act.ADDITIVE, f"{shown} (refreshes statistics)", "sql", True)
    # UPDATE, DELETE, MERGE, DROP, ALTER, TRUNCATE, GRANT, REVOKE, SET, EXECUTE, KILL, ATTACH, ANALYZE..., and
    # whatever the parser took for a bare expression (an unknown statement's words read as a column or alias).
    return Judgement(Act.DESTRUCTIVE, shown, "sql")


def _walk(node: Any, shown: str, act: Act) -> Judgement:
    """`act`, made riskier by any write or effectful function anywhere inside the statement; open world
    when a function reads or writes a URL (`read_parquet('s3://...')`, `http_get('https://...')`)."""
    from sqlglot import exp

    worst = act
    reaches = None
    writes = (exp.Update, exp.Delete, exp.Merge, exp.Drop, exp.Alter, exp.TruncateTable)
    for inner in node.walk():
        if isinstance(inner, exp.Func):
            worst = max(worst, _effect_of(inner))
        elif isinstance(inner, exp.Literal):
            if inner.is_string and isinstance(inner.parent, exp.Func) and _URL.match(inner.name):
                reaches = True
        elif isinstance(inner, exp.Column) and inner.table and inner.name.upper() == "NEXTVAL":
            worst = max(worst, Act.ADDITIVE)  # `seq.NEXTVAL` (Oracle, Snowflake) consumes a value
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
    return Judgement(worst, shown, "sql", True if worst is Act.READ else None, reaches)


def _into_variables(node: Any) -> bool:
    """SELECT ... INTO @var (MySQL, T-SQL variables) stores into the session, not the database."""
    return _sql_of(node).upper().replace("INTO", "", 1).strip().startswith("@")


def _effect_of(function: Any) -> Act:
    """What calling a function does: a builtin with effects (by the table), else by its name's verb.

    A system function named for what it does (`SYSTEM$ABORT_SESSION`, `pg_cancel_backend`) acts as its verb
    says; a plain builtin (`count`, `replace` on a string) reads.
    """
    from sqlglot import exp

    if type(function).__name__ == "NextValueFor":
        return Act.ADDITIVE  # NEXT VALUE FOR seq (SQL standard, T-SQL, MariaDB) consumes a value
    name = (function.name if isinstance(function, exp.Anonymous) else function.sql_name()).lower()
    if name in _PASS_THROUGH:
        return _passed_through(function, _PASS_THROUGH[name])
    known = _READ_FUNCTIONS_WITH_EFFECTS.get(name)
    if known is not None:
        return known
    if not isinstance(function, exp.Anonymous) or not re.search(r"[_$.]", name) or name in _READ_SYSTEM_FUNCTIONS:
        return Act.READ
    verb = _function_verb(name)
    if not verb:
        # A function the parser does not know, named for what it does in words hintgate cannot read
        # (`recalc_tiers(2026)`, a user's own): its body may write, so it is not judged a read (fail closed).
        return Act.DESTRUCTIVE
    return _VERB_ACTS.get(verb, Act.READ)


_PASS_THROUGH: dict[str, int | None] = {
    "openquery": 1,
    "openrowset": 2,
    "dblink": None,
    "query_to_xml": 0,
    "query_to_xml_and_xmlschema": 0,
}
"""Functions that hand a query text to another server or run it themselves (T-SQL's `OPENQUERY(srv, 'text')`,
`OPENROWSET(provider, conn, 'text')`, PostgreSQL's `dblink(conn, 'text')`, `query_to_xml('text', ...)`), with
the position of that text among their arguments (None: the last string): the call does what the text does."""


def _passed_through(function: Any, position: int | None) -> Act:
    """What the query text a pass-through function runs does; a table named in its place is read."""
    from sqlglot import exp

    arguments = list(function.expressions)
    if position is None:
        texts = [a for a in arguments if isinstance(a, exp.Literal) and a.is_string]
        argument = texts[-1] if texts else None
    else:
        argument = arguments[position] if position < len(arguments) else None
    if argument is None:
        return Act.DESTRUCTIVE  # no text where it belongs: what runs is not in the statement
    if not (isinstance(argument, exp.Literal) and argument.is_string):
        return Act.READ if isinstance(argument, exp.Column | exp.Table | exp.Dot) else Act.DESTRUCTIVE
    return judge_sql(argument.name).act


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
    # A state moved or flipped (`archive_orders`, `mark_paid`, `lock_account`, `toggle_flag`) is not kept as it was.
    "name.verb.transition": Act.DESTRUCTIVE,
    "name.verb.toggle": Act.DESTRUCTIVE,
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
    from sqlglot import exp

    for item in node.expressions:
        kind = str(item.args.get("kind") or "").upper()
        if kind in {"GLOBAL", "PERSIST", "PERSIST_ONLY"}:
            return Judgement(Act.DESTRUCTIVE, f"{shown} (a server-wide setting)", "sql")
        target = item.this.this if isinstance(item.this, exp.EQ | exp.PropertyEQ) else item.this
        if isinstance(target, exp.Column) and target.name.upper() == "PASSWORD":
            return Judgement(Act.DESTRUCTIVE, f"{shown} (changes a password)", "sql")  # MySQL SET PASSWORD = ...
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


def _copy(node: Any, shown: str, command: Command | None) -> Judgement:
    """COPY ... TO STDOUT reads; FROM a file appends rows; TO a file may overwrite it; a PROGRAM's command
    line is judged as one (`FROM PROGRAM 'curl -s URL'` appends rows a read fetched). Snowflake's COPY INTO
    a stage or a URL unloads: new files, or replaced ones with OVERWRITE = TRUE; its load with PURGE = TRUE
    deletes the staged files it loaded."""
    from sqlglot import exp

    kind = node.args.get("kind")  # True: FROM (into the table); False: TO
    files = node.args.get("files") or []
    target = " ".join(_sql_of(f) for f in files).upper()
    options = {
        str(p.this.name if isinstance(p.this, exp.Expression) else p.this).upper(): _sql_of(p.expression).upper()
        for p in node.args.get("params") or []
        if p.this is not None and p.expression is not None
    }
    program = next((p for p in node.args.get("params") or [] if p.expression is None and not p.expressions), None)
    if target == "PROGRAM" and program is not None and command is not None:
        line = command(str(program.this.name if isinstance(program.this, exp.Expression) else program.this))
        floor = Act.ADDITIVE if kind is True else Act.READ
        act = max(line.act, floor)
        idempotent = False if kind is True else line.idempotent  # rows appended again on each run
        return Judgement(act, f"{shown} (runs {line.what})", "sql", idempotent, line.open_world)
    if "PROGRAM" in target or "PROGRAM" in shown.upper().split("'")[0]:
        return Judgement(Act.DESTRUCTIVE, f"{shown} (runs a program)", "sql", None, True)
    into = node.this.this if isinstance(node.this, exp.Table) else node.this
    location = _sql_of(into).strip("'\"")
    remote = bool(_URL.match(location)) or any(_URL.match(_sql_of(f).strip("'\"")) for f in files) or None
    if kind is True and (location.startswith("@") or _URL.match(location)):
        overwrites = options.get("OVERWRITE") == "TRUE"
        act = Act.DESTRUCTIVE if overwrites else Act.ADDITIVE
        return Judgement(act, f"{shown} (unloads to files)", "sql", True, remote)
    if kind is False and ("STDOUT" in target or not target):
        return Judgement(Act.READ, shown, "sql", True)
    if kind is True:
        if options.get("PURGE") == "TRUE":
            return Judgement(Act.DESTRUCTIVE, f"{shown} (deletes the files it loaded)", "sql", None, remote)
        # Snowflake's load skips files already loaded unless FORCE = TRUE: a repeat adds nothing.
        idempotent = options.get("FORCE") != "TRUE" and any(_sql_of(f).startswith("@") for f in files)
        return Judgement(Act.ADDITIVE, f"{shown} (appends rows)", "sql", idempotent or None, remote)
    return Judgement(Act.DESTRUCTIVE, shown, "sql", True, remote)


def _export(node: Any, shown: str) -> Judgement:
    """EXPORT DATA (BigQuery) writes files at its URI: new ones, or replaced ones with `overwrite=true`."""
    options = " ".join(_sql_of(o) for o in node.find_all(_property_class())).lower().replace(" ", "")
    overwrites = "overwrite=true" in options
    reaches = bool(re.search(r"uri='?(?:gs|s3|https?)://", options)) or None
    inner = _walk(node.this, shown, Act.READ) if node.this is not None else Judgement(Act.READ, shown, "sql")
    act = max(inner.act, Act.DESTRUCTIVE if overwrites else Act.ADDITIVE)
    return Judgement(act, f"{shown} (writes files)", "sql", True, reaches)


def _property_class() -> Any:
    from sqlglot import exp

    return exp.Property


def _command(node: Any, shown: str) -> Judgement:
    """A statement sqlglot keeps as a command: known reads, EXPLAIN (its ANALYZE runs it), else destructive."""
    keyword = str(node.this).upper()
    judged = _command_words(keyword, _command_rest(node), shown)
    return judged if judged is not None else Judgement(Act.DESTRUCTIVE, shown, "sql")


def _command_rest(node: Any) -> str:
    """The text after a command's first word."""
    expression = node.expression
    return expression if isinstance(expression, str) else str(getattr(expression, "this", "") or "")


# What may follow BEGIN or START when they open a transaction (PostgreSQL, MySQL, SQL Server, SQLite).
_TRANSACTION_WORDS = frozenset(
    {"TRANSACTION", "TRAN", "WORK", "ISOLATION", "LEVEL", "READ", "WRITE", "ONLY", "COMMITTED", "UNCOMMITTED"}
    | {"REPEATABLE", "SERIALIZABLE", "DEFERRABLE", "NOT", "DEFERRED", "IMMEDIATE", "EXCLUSIVE", "DISTRIBUTED"}
    | {"CONSISTENT", "SNAPSHOT", "WITH", ","}
)


def _opens_transaction(node: Any) -> bool:
    """Whether a parsed BEGIN/START opens a transaction: MySQL's parser takes any `START x` for one
    (`START REPLICA` starts replication)."""
    modes = [str(node.args.get("this") or ""), *(str(m) for m in node.args.get("modes") or [])]
    return _only_transaction_words(" ".join(modes))


def _only_transaction_words(rest: str) -> bool:
    """Whether what follows BEGIN or START opens a transaction (`BEGIN ISOLATION LEVEL ...`, `BEGIN TRAN t1`),
    rather than a block of statements (T-SQL's `BEGIN DELETE ... END`) or another command (`START REPLICA`)."""
    words = rest.upper().replace(",", " , ").replace(";", " ").split()
    if words[:1] in (["TRAN"], ["TRANSACTION"]) and len(words) == 2 and words[1].isidentifier():
        return True  # a named transaction
    return all(w in _TRANSACTION_WORDS for w in words)


def _command_words(keyword: str, rest: str, shown: str) -> Judgement | None:
    """A statement by its first word and the text after it, as its dialect's manual defines it; None when
    the word is no statement known here."""
    words = rest.upper().replace("(", " ( ").replace(",", " , ").split()
    first = words[0] if words else ""
    if keyword == "CREATE":
        # CREATE ROLE, USER, FUNCTION... a new object; OR REPLACE / OR ALTER replaces one that exists; a
        # query it is created from (`CREATE ... AS SELECT`) runs, and is judged too.
        replaces = words[:2] in (["OR", "REPLACE"], ["OR", "ALTER"])
        act = Act.DESTRUCTIVE if replaces else Act.ADDITIVE
        query = _CREATED_FROM.search(rest)
        if query is not None and not replaces:
            act = max(act, judge_sql(query.group(1)).act)
        return Judgement(act, shown, "sql")
    if keyword == "ALTER":
        if first == "SESSION":
            return Judgement(Act.READ, f"{shown} (a setting of this session only)", "sql", True)
        # Resuming a warehouse or compute pool starts compute; nothing that exists changes (suspending stops it).
        compute = first == "WAREHOUSE" or words[:2] == ["COMPUTE", "POOL"]
        if compute and "RESUME" in words and "SUSPEND" not in words:
            return Judgement(Act.ADDITIVE, f"{shown} (starts compute)", "sql", True)
        return Judgement(Act.DESTRUCTIVE, shown, "sql")
    if keyword == "INSTALL":
        # An extension fetched from its repository; FORCE INSTALL replaces an installed one.
        return Judgement(Act.ADDITIVE, f"{shown} (installs an extension)", "sql", True, True)
    if keyword == "DO" and rest.lstrip()[:1] not in {"$", "'", ""} and first != "LANGUAGE":
        # MySQL's DO evaluates expressions as a SELECT would, returning nothing (PostgreSQL's DO runs a block).
        inner = judge_sql(f"SELECT {rest}")
        return Judgement(inner.act, shown, "sql", inner.idempotent)
    if keyword in {"CHECK", "EXISTS"} and first == "TABLE":
        return Judgement(Act.READ, shown, "sql", True)  # CHECK TABLE (MySQL, ClickHouse), EXISTS TABLE
    if keyword in {"FETCH", "MOVE"}:
        return Judgement(Act.READ, f"{shown} (a cursor of this session)", "sql", True)
    if keyword == "DECLARE" and (cursor := _CURSOR_FOR.search(rest)) is not None:
        inner = judge_sql(cursor.group(1))
        return Judgement(inner.act, shown, "sql", inner.idempotent)
    if keyword == "NOTIFY":
        return Judgement(Act.ADDITIVE, f"{shown} (sends a notification)", "sql", False)
    if keyword in {"LISTEN", "UNLISTEN"}:
        return Judgement(Act.READ, f"{shown} (this session's subscriptions)", "sql", True)
    if keyword == "WAITFOR":
        if first in {"DELAY", "TIME"}:
            return Judgement(Act.READ, shown, "sql", True)
        return Judgement(Act.DESTRUCTIVE, f"{shown} (receives from a queue)", "sql")
    if keyword == "BACKUP":
        # WITH INIT or FORMAT overwrites the backup media; otherwise (NOINIT, the default) a set is appended.
        overwrites = "INIT" in words or "FORMAT" in words
        act = Act.DESTRUCTIVE if overwrites else Act.ADDITIVE
        return Judgement(act, shown, "sql", overwrites, True if "URL" in words else None)
    if keyword == "FLASHBACK":
        if words[-3:] == ["TO", "BEFORE", "DROP"] or ("BEFORE" in words and "DROP" in words[words.index("BEFORE") :]):
            return Judgement(Act.ADDITIVE, f"{shown} (restores what was dropped)", "sql")
        return Judgement(Act.DESTRUCTIVE, shown, "sql")
    if keyword == "LOAD":
        if first in {"DATA", "XML"}:
            # LOAD DATA INFILE appends rows; REPLACE replaces rows with the same key.
            act = Act.DESTRUCTIVE if "REPLACE" in words else Act.ADDITIVE
            return Judgement(act, f"{shown} (loads rows from a file)", "sql", False)
        return Judgement(Act.ADDITIVE, f"{shown} (loads an extension into the session)", "sql", True)
    if keyword in _READ_COMMANDS:
        return Judgement(Act.READ, shown, "sql")
    if keyword in {"BEGIN", "START"} and not _only_transaction_words(rest):
        return Judgement(Act.DESTRUCTIVE, f"{shown} (a block of statements hintgate does not read)", "sql")
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
        # CockroachDB's `SET CLUSTER SETTING` changes every node's setting, kept: not this session's.
        if (first in {"GLOBAL", "PERSIST", "PERSIST_ONLY", "ROLE", "PASSWORD", "DEFAULT", "CLUSTER"}) or (
            first == "SESSION" and len(words) > 1 and words[1].upper() == "AUTHORIZATION"
        ):
            return Judgement(Act.DESTRUCTIVE, shown, "sql")
        return Judgement(Act.READ, f"{shown} (a setting of this session only)", "sql", True)
    if keyword in {"EXEC", "EXECUTE"}:
        procedure = rest.split("(", maxsplit=1)[0].split(maxsplit=1)[0].lower() if rest.split() else ""
        if procedure.split(".")[-1] in _READ_PROCEDURES:
            return Judgement(Act.READ, shown, "sql", True)
    if keyword == "DBCC":
        check = rest.split("(", maxsplit=1)[0].split(maxsplit=1)[0].upper() if rest.split() else ""
        if check in _READ_DBCC and "REPAIR" not in rest.upper():
            return Judgement(Act.READ, shown, "sql", True)
    if keyword == "UNDROP":
        return Judgement(Act.ADDITIVE, f"{shown} (restores what was dropped)", "sql")
    return None


_CURSOR_FOR = compiled(r"\bCURSOR\b.*?\bFOR\s+(\(?\s*(?:SELECT|WITH|VALUES|TABLE)\b.*)", re.I | re.S)
_CREATED_FROM = compiled(r"\bAS\s+(\(?\s*(?:SELECT|WITH|VALUES|TABLE|FROM)\b.*)", re.I | re.S)


_MAINTENANCE = frozenset({"VACUUM", "REINDEX", "OPTIMIZE", "CHECKPOINT", "ANALYZE", "ANALYSE"})
# System procedures of SQL Server that only report (their documented purpose).
_READ_PROCEDURES = word_set(
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


_EXPLAIN_OPTIONS = compiled(r"^\s*\(([^)]*)\)")
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
