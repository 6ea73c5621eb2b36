"""Which parameter decides what a call does, found from the schema and texts, and never a crash on odd schemas."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.hints import calls
from hintgate.hints.calls import ArgumentJudge
from hintgate.hints.calls.roles import roles_of


def tool(properties: dict[str, Any], description: str = "", name: str = "tool") -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": properties}}


@pytest.mark.parametrize(
    ("listed", "kind"),
    [
        (tool({"sql": {"type": "string"}}), "sql"),
        (
            tool({"payload": {"type": "string", "description": "Statement text passed verbatim to the MySQL server"}}),
            "sql",
        ),
        (tool({"q": {"type": "string", "format": "sql"}}), "sql"),
        (tool({"command": {"type": "string", "description": "The shell command to run"}}), "shell"),
        (
            tool(
                {"command": {"type": "array", "items": {"type": "string"}, "description": "Command and its arguments"}}
            ),
            "argv",
        ),
        (tool({"args": {"type": "array", "items": {"type": "string"}}}, "Run a git command.", "git_run"), "program"),
        (tool({"method": {"type": "string", "enum": ["GET", "POST"]}, "url": {"type": "string"}}), "method"),
        (tool({"action": {"type": "string", "enum": ["read", "write", "delete"]}}), "action"),
    ],
)
def test_the_parameter_that_decides_is_found_from_the_schema_and_its_words(listed: dict[str, Any], kind: str) -> None:
    assert kind in [r.kind for r in roles_of(listed)]


def test_a_search_string_named_query_is_no_statement() -> None:
    judge = ArgumentJudge.of(tool({"query": {"type": "string"}}, "Query the notes database."))
    assert judge is not None  # a statement may come: SELECT ... is judged as one
    assert judge.judge({"query": "meeting notes from monday"}) is None
    assert judge.judge({"query": "SELECT * FROM notes"}) is not None
    assert (
        ArgumentJudge.of(tool({"query": {"type": "string", "description": "Words to look for"}}, "Search the web."))
        is None
    )


@pytest.mark.parametrize(
    "properties",
    [
        {"sql": {"type": ["string", "null"]}},
        {"url": {"type": ["string", "integer"], "format": ["uri"]}, "method": {"type": "string"}},
        {"command": {"type": "array", "items": [{"type": "string"}]}},
        {"q": {"type": {"weird": True}, "format": {"x": 1}, "enum": "not a list"}},
    ],
)
def test_schemas_of_any_shape_are_read_without_failing(properties: dict[str, Any]) -> None:
    ArgumentJudge.of(tool(properties, "Execute a SQL statement or a shell command."))


def test_a_judge_that_fails_on_hostile_arguments_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    import hintgate.hints.calls as calls

    judge = ArgumentJudge.of(
        tool({"args": {"type": "array", "items": {"type": "string"}}}, "Run a git command.", "git")
    )
    assert judge is not None

    def broken(*_: object, **__: object) -> None:
        raise RecursionError("too deep")

    monkeypatch.setattr(calls, "judge_argv", broken)
    judged = judge.judge({"args": ["status"]})
    assert judged is not None
    assert judged.act is calls.Act.DESTRUCTIVE


def test_a_subcommand_enum_of_a_named_program_is_part_of_its_command_line() -> None:
    terraform = tool(
        {
            "subcommand": {"type": "string", "enum": ["init", "plan", "apply", "fmt", "state"]},
            "options": {"type": "array", "items": {"type": "string"}, "description": "extra arguments and flags"},
        },
        "Run a Terraform subcommand in a working directory.",
        "terraform_run",
    )
    judge = ArgumentJudge.of(terraform)
    assert judge is not None
    assert judge.judge({"subcommand": "fmt", "options": ["-recursive"]}).act is calls.Act.DESTRUCTIVE  # type: ignore[union-attr]
    assert judge.judge({"subcommand": "state", "options": ["list"]}).act is calls.Act.READ  # type: ignore[union-attr]
    assert judge.judge({"subcommand": "plan"}).act is calls.Act.READ  # type: ignore[union-attr]


def test_a_parameter_that_names_the_program_runs_it_with_the_arguments_beside_it() -> None:
    chooser = tool(
        {
            "manager": {"type": "string", "enum": ["npm", "yarn", "pnpm"]},
            "args": {"type": "array", "items": {"type": "string"}},
        },
        "Invoke a JavaScript package manager.",
    )
    spawn = tool(
        {
            "program": {"type": "string", "description": "executable name or path"},
            "args": {"type": "array", "items": {"type": "string"}},
        },
        "Start a program with arguments (no shell).",
    )
    for listed, arguments, act in [
        (chooser, {"manager": "npm", "args": ["ls", "--depth=0"]}, calls.Act.READ),
        (chooser, {"manager": "yarn", "args": ["add", "-D", "typescript"]}, calls.Act.ADDITIVE),
        (chooser, {"manager": "npm", "args": ["version", "patch"]}, calls.Act.DESTRUCTIVE),
        (chooser, {"args": ["ls"]}, calls.Act.DESTRUCTIVE),  # to a program not named
        (spawn, {"program": "grep", "args": ["-c", "ERROR", "app.log"]}, calls.Act.READ),
        (spawn, {"program": "find", "args": ["/data", "-name", "*.tmp", "-delete"]}, calls.Act.DESTRUCTIVE),
    ]:
        judge = ArgumentJudge.of(listed)
        assert judge is not None
        judged = judge.judge(arguments)
        assert judged is not None
        assert judged.act is act, arguments


def test_text_typed_into_a_shell_session_is_a_command_line() -> None:
    terminal = tool(
        {"input": {"type": "string", "description": "Text sent to the terminal followed by Enter"}},
        "Type a line into a persistent bash session and read what it prints.",
    )
    judge = ArgumentJudge.of(terminal)
    assert judge is not None
    assert judge.judge({"input": "uname -a; id; uptime"}).act is calls.Act.READ  # type: ignore[union-attr]
    assert judge.judge({"input": "rm -rf build"}).act is calls.Act.DESTRUCTIVE  # type: ignore[union-attr]


def test_q_of_a_tool_that_queries_a_sql_engine_holds_a_statement() -> None:
    judge = ArgumentJudge.of(tool({"q": {"type": "string"}}, "Query DuckDB.", "duckdb_query"))
    assert judge is not None
    assert judge.judge({"q": "COPY (SELECT 1) TO 'out.parquet'"}).act is calls.Act.DESTRUCTIVE  # type: ignore[union-attr]
    assert judge.judge({"q": "SELECT 1"}).act is calls.Act.READ  # type: ignore[union-attr]


def test_a_statement_that_does_not_parse_never_keeps_a_read_only_tools_hints() -> None:
    judge = ArgumentJudge.of(tool({"q": {"type": "string"}}, "Query DuckDB.", "duckdb_query"))
    assert judge is not None
    judged = judge.judge({"q": "DROP TABLE"})
    assert judged is not None
    assert judged.act is calls.Act.DESTRUCTIVE
    assert judge.judge({"q": "taxi trips in march"}) is None  # not a statement: the tool's hints stand


def test_a_dialect_argument_picks_the_dialect_the_statement_is_read_in() -> None:
    listed = tool(
        {"dialect": {"type": "string", "enum": ["postgres", "mysql", "sqlite", "mssql"]}, "sql": {"type": "string"}},
        "Generic SQL tool.",
    )
    [role] = [r for r in roles_of(listed) if r.kind == "sql"]
    assert role.dialect_parameter == "dialect"
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge({"dialect": "mssql", "sql": "WAITFOR DELAY '00:00:01'; SELECT 1"})
    assert judged is not None
    assert judged.act is calls.Act.READ


def test_a_command_line_that_does_not_parse_is_destructive_even_where_only_the_tools_text_says_shell() -> None:
    listed = tool({"script": {"type": "string"}}, "Run a script in the shell.")
    [role] = roles_of(listed)
    assert (role.kind, role.sure) == ("shell", False)
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge({"script": "echo 'unterminated"})
    assert judged is not None
    assert judged.act is calls.Act.DESTRUCTIVE


S: dict[str, Any] = {"type": "string"}


@pytest.mark.parametrize(
    ("listed", "arguments", "act"),
    [
        (tool({"query": S}, "Runs the query against the data warehouse.", "run_query"), {"query": "DELETE FROM s"}, 2),
        (tool({"statement": S}, "Runs it on the database."), {"statement": "SELECT 1"}, 0),
        (tool({"sql_query": S}, "Execute on Snowflake."), {"sql_query": "DROP TABLE t"}, 2),
        (tool({"cmdline": S}, "Run a command line in a shell."), {"cmdline": "ls -la"}, 0),
        (
            tool(
                {"operation": {"type": "string", "enum": ["status", "log", "push", "reset"]}}, "Git operations.", "git"
            ),
            {"operation": "log"},
            0,
        ),
        (tool({"method": {"type": "string", "enum": ["get", "set", "del"]}, "key": S}), {"method": "del"}, 2),
        (
            tool(
                {"commands": {"type": "array", "items": S, "description": "shell commands to run in order"}},
                "Run shell commands.",
            ),
            {"commands": ["ls", "rm -rf /srv"]},
            2,
        ),
        (
            tool({"statements": {"type": "array", "items": S}}, "Run SQL statements in one transaction."),
            {"statements": ["SELECT 1", "SELECT 2"]},
            0,
        ),
        (
            tool({"cli": {"type": "string", "enum": ["aws", "gcloud"]}, "command": S}, "Run a cloud CLI."),
            {"cli": "aws", "command": "s3 ls s3://logs"},
            0,
        ),
    ],
)
def test_more_parameter_shapes_hold_a_statement_a_command_or_a_choice(
    listed: dict[str, Any], arguments: dict[str, Any], act: int
) -> None:
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge(arguments)
    assert judged is not None
    assert judged.act is calls.Act(act)


def test_a_graphql_document_parameter_reads_a_query_and_judges_a_mutation_by_its_fields() -> None:
    listed = tool(
        {"query": {"type": "string", "description": "GraphQL document"}, "operationName": S},
        "Execute a GraphQL operation against the API.",
        "graphql",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    for arguments, act in [
        ({"query": "query { me { id } }"}, calls.Act.READ),
        ({"query": "mutation { deleteUser(id: 1) { id } }"}, calls.Act.DESTRUCTIVE),
        (
            {"query": "query A { me { id } } mutation B { deleteUser(id: 1) { id } }", "operationName": "A"},
            calls.Act.READ,
        ),
        ({"query": "query { me { id "}, calls.Act.DESTRUCTIVE),  # does not parse: fail closed
    ]:
        judged = judge.judge(arguments)
        assert judged is not None
        assert judged.act is act, arguments


@pytest.mark.parametrize(
    ("flag", "arguments", "act"),
    [
        ({"type": "boolean", "default": True}, {"action": "delete"}, calls.Act.READ),  # the server dry-runs
        ({"type": "boolean"}, {"action": "delete"}, calls.Act.DESTRUCTIVE),
        ({"type": "string"}, {"action": "delete", "dry_run": "All"}, calls.Act.READ),
        ({"type": "string"}, {"action": "delete", "dry_run": "false"}, calls.Act.DESTRUCTIVE),
    ],
)
def test_a_dry_run_left_out_is_the_schemas_default_and_a_string_dry_run_counts(
    flag: dict[str, Any], arguments: dict[str, Any], act: calls.Act
) -> None:
    listed = tool({"action": {"type": "string", "enum": ["list", "delete"]}, "dry_run": flag})
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    assert judge.judge(arguments).act is act  # type: ignore[union-attr]


def test_a_confirm_that_defaults_to_true_does_not_make_a_call_a_preview() -> None:
    listed = tool(
        {"action": {"type": "string", "enum": ["list", "delete"]}, "confirm": {"type": "boolean", "default": True}},
        "delete only previews unless confirm is true",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    assert judge.judge({"action": "delete"}).act is calls.Act.DESTRUCTIVE  # type: ignore[union-attr]
    assert judge.judge({"action": "delete", "confirm": False}).act is calls.Act.READ  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("value", "act"),
    [
        ("DELETE FROM orders WHERE id = 4", calls.Act.DESTRUCTIVE),
        ("drop table customers", calls.Act.DESTRUCTIVE),
        ("INSERT INTO notes (body) VALUES ('x')", calls.Act.ADDITIVE),
        ("mutation { deleteUser(id: 1) { id } }", calls.Act.DESTRUCTIVE),
        ("delete old emails", None),
        ("drop shipping suppliers", None),
        ("SELECT * FROM orders", None),
        ("best pizza near me", None),
    ],
)
def test_a_query_in_a_language_no_text_names_is_judged_only_when_it_is_plainly_a_write(
    value: str, act: calls.Act | None
) -> None:
    judge = ArgumentJudge.of(tool({"query": {"type": "string"}}, "Run a query.", "query"))
    assert judge is not None
    judged = judge.judge({"query": value})
    assert (judged.act if judged is not None else None) is act


@pytest.mark.parametrize(
    ("listed", "arguments", "act"),
    [
        (tool({"args": {"type": "string"}}, "Run kubectl.", "kubectl"), {"args": "get pods; kubectl delete pod x"}, 2),
        (tool({"args": {"type": "string"}}, "Run kubectl.", "kubectl"), {"args": "get pods > pods.txt"}, 2),
        (
            tool({"program": {"type": "string"}, "args": {"type": "string"}}, "Run a program."),
            {"program": "ls", "args": "-la; rm -rf build"},
            2,
        ),
        (tool({"args": {"type": "string"}}, "Run kubectl.", "kubectl"), {"args": "get pods | grep web"}, 0),
        (
            tool({"command": {"type": "string"}}, "Execute a git command line.", "git_command"),
            {"command": "git status && git diff --cached"},
            0,
        ),
    ],
)
def test_a_program_s_arguments_in_one_string_with_shell_syntax_are_also_read_as_a_shell_line(
    listed: dict[str, Any], arguments: dict[str, Any], act: int
) -> None:
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge(arguments)
    assert judged is not None
    assert judged.act is calls.Act(act)


def test_the_members_of_an_object_parameter_decide_too() -> None:
    listed = tool(
        {
            "request": {
                "type": "object",
                "properties": {"method": {"type": "string"}, "url": {"type": "string"}, "body": {"type": "string"}},
            }
        },
        "Fetch a URL.",
        "fetch",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    deleting = judge.judge({"request": {"method": "DELETE", "url": "https://api.example.com/items/4"}})
    assert deleting is not None
    assert deleting.act is calls.Act.DESTRUCTIVE
    reading = judge.judge({"request": {"method": "GET", "url": "https://api.example.com/items/4"}})
    assert reading is not None
    assert reading.act is calls.Act.READ
    nested_flag = tool({"options": {"type": "object", "properties": {"mode": {"type": "string", "enum": ["read"]}}}})
    assert ArgumentJudge.of(nested_flag) is None  # a member choosing among verbs may qualify only its object


def with_required(listed: dict[str, Any], *required: str) -> dict[str, Any]:
    listed["inputSchema"]["required"] = list(required)
    return listed


@pytest.mark.parametrize(
    ("listed", "arguments", "act"),
    [
        (  # the one required free text of a tool whose text names SQL, beside a name of a server
            with_required(
                tool({"text": {"type": "string"}, "server": {"type": "string"}}, "Sends a T-SQL batch.", "t"), "text"
            ),
            {"text": "SELECT TOP (10) * FROM dbo.Orders", "server": "db1"},
            calls.Act.READ,
        ),
        (
            with_required(
                tool({"text": {"type": "string"}, "server": {"type": "string"}}, "Sends a T-SQL batch.", "t"), "text"
            ),
            {"text": "DROP TABLE dbo.Orders", "server": "db1"},
            calls.Act.DESTRUCTIVE,
        ),
        (  # beside a path, both required: the path names a file, the other holds the statements
            with_required(
                tool(
                    {"db_path": {"type": "string"}, "input": {"type": "string", "description": "Statement(s) to run"}},
                    "Local SQLite access.",
                ),
                "db_path",
                "input",
            ),
            {"db_path": "a.db", "input": "PRAGMA table_info(users)"},
            calls.Act.READ,
        ),
        (  # the parameter's own text names the dialect
            tool({"expr": {"type": "string", "description": "GoogleSQL text"}, "project_id": {"type": "string"}}),
            {"expr": "DELETE FROM t WHERE true", "project_id": "p"},
            calls.Act.DESTRUCTIVE,
        ),
        (  # a script of a database's statements is no command line
            tool(
                {"script": {"type": "string", "description": "Statements separated by semicolons"}},
                "Evaluate a DuckDB script.",
            ),
            {"script": "FROM 'data/*.parquet' LIMIT 10"},
            calls.Act.READ,
        ),
        (  # what is typed into a terminal is a command line
            tool({"input": {"type": "string"}}, "Type into the user's terminal and return what it printed."),
            {"input": "rm -rf build"},
            calls.Act.DESTRUCTIVE,
        ),
    ],
)
def test_the_one_free_text_of_a_tool_whose_text_names_sql_or_a_terminal_is_what_a_call_runs(
    listed: dict[str, Any], arguments: dict[str, Any], act: calls.Act
) -> None:
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge(arguments)
    assert judged is not None
    assert judged.act is act


def test_a_free_text_of_an_sql_tool_that_is_not_a_statement_is_not_judged() -> None:
    listed = tool({"text": {"type": "string"}, "server": {"type": "string"}}, "Sends a T-SQL batch.")
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    assert judge.judge({"text": "orders of last week", "server": "db1"}) is None


@pytest.mark.parametrize(
    ("listed", "arguments", "act"),
    [
        (tool({"cli_args": {"type": "string"}}, "Helm 3", "helm"), {"cli_args": "list -A"}, calls.Act.READ),
        (
            tool({"cli_args": {"type": "string"}}, "Helm 3", "helm"),
            {"cli_args": "uninstall api"},
            calls.Act.DESTRUCTIVE,
        ),
        (
            tool(
                {"argline": {"type": "string", "description": "Everything after the program"}},
                "kubectl, current context.",
            ),
            {"argline": "get pods -n prod"},
            calls.Act.READ,
        ),
        (tool({"text": {"type": "string"}}, "Azure CLI", "cloud_cli"), {"text": "group list -o table"}, calls.Act.READ),
        (
            tool({"text": {"type": "string"}}, "Azure CLI", "cloud_cli"),
            {"text": "group delete --name rg --yes"},
            calls.Act.DESTRUCTIVE,
        ),
    ],
)
def test_the_one_free_text_of_a_tool_that_wraps_a_named_program_holds_its_arguments(
    listed: dict[str, Any], arguments: dict[str, Any], act: calls.Act
) -> None:
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge(arguments)
    assert judged is not None
    assert judged.act is act


def test_a_required_choice_among_verbs_decides_whatever_it_is_called() -> None:
    listed = tool(
        {
            "do": {"type": "string", "enum": ["search", "read", "trash", "delete_forever"]},
            "ids": {"type": "array", "items": {"type": "string"}},
        },
        "Mailbox actions.",
    )
    listed["inputSchema"]["required"] = ["do"]
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    search = judge.judge({"do": "search"})
    gone = judge.judge({"do": "delete_forever", "ids": ["1"]})
    assert search is not None
    assert search.act is calls.Act.READ
    assert gone is not None
    assert gone.act is calls.Act.DESTRUCTIVE


def test_an_action_parameter_whose_values_no_table_knows_is_judged_only_for_known_values() -> None:
    listed = tool({"action": {"type": "string", "enum": ["stats", "invalidate", "warm"]}}, "Edge cache administration.")
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    stats = judge.judge({"action": "stats"})
    assert stats is not None
    assert stats.act is calls.Act.READ
    assert judge.judge({"action": "warm"}) is None
    invalidated = judge.judge({"action": "invalidate"})
    assert invalidated is not None
    assert invalidated.act is calls.Act.DESTRUCTIVE  # invalidate: make what is cached no longer valid


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("GET /v1/status HTTP/1.1\r\nHost: status.example.com\r\n\r\n", calls.Act.READ),
        ("DELETE /v2/buckets/tmp HTTP/1.1\r\nHost: storage.example.com\r\n\r\n", calls.Act.DESTRUCTIVE),
        ("POST /api/v1/pods?dryRun=All HTTP/1.1\r\nHost: k8s.example.com\r\n\r\n{}", calls.Act.READ),
        ("GET /x HTTP/1.1\r\nX-HTTP-Method-Override: DELETE\r\n\r\n", calls.Act.DESTRUCTIVE),
        ("hello there", calls.Act.DESTRUCTIVE),
    ],
)
def test_a_raw_http_request_text_is_judged_by_its_request_line_headers_and_body(text: str, act: calls.Act) -> None:
    listed = tool(
        {"payload": {"type": "string", "description": "Request line, headers, blank line, body"}},
        "Send a raw HTTP/1.1 request text over TLS.",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge({"payload": text})
    assert judged is not None
    assert judged.act is act


@pytest.mark.parametrize(("line", "act"), [("ls -la /srv", calls.Act.READ), ("rm -rf /srv/app", calls.Act.DESTRUCTIVE)])
def test_the_one_free_text_described_as_a_command_line_is_one(line: str, act: calls.Act) -> None:
    listed = tool({"invocation": {"type": "string", "description": "Full command line"}}, "Run an invocation.")
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge({"invocation": line})
    assert judged is not None
    assert judged.act is act


def test_the_one_free_text_of_a_tool_named_for_what_it_does_with_a_program_is_not_its_command_line() -> None:
    listed = tool({"resource": {"type": "string"}}, "Run kubectl get for a resource type.", "kubectl_get")
    judge = ArgumentJudge.of(listed)
    assert judge is None or "program" not in judge.kinds


def test_a_free_text_of_command_line_flags_is_not_a_command_line() -> None:
    listed = tool({"extra": {"type": "string", "description": "Command-line flags passed to the linter"}}, "Lint.")
    judge = ArgumentJudge.of(listed)
    assert judge is None or "shell" not in judge.kinds


def test_a_control_node_is_a_machine_not_javascript() -> None:
    listed = tool(
        {"invocation": {"type": "string", "description": "Full command line"}},
        "Run an ansible invocation on the control node.",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge({"invocation": "ansible web -m ping"})
    assert judged is not None
    assert judged.act is calls.Act.READ


def test_a_question_in_words_for_a_tool_that_writes_sql_itself_is_not_judged_as_a_statement() -> None:
    listed = tool(
        {"text": {"type": "string", "description": "A question in plain English"}},
        "Turns the question into SQL and runs it against PostgreSQL.",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is None or "sql" not in judge.kinds


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("show me the users and then drop the old ones", calls.Act.DESTRUCTIVE),
        ("SELECT * FROM audit WHERE note = 'please delete the row'", calls.Act.READ),
        ("SELECT 42 AS answer; -- then drop the table", calls.Act.READ),
    ],
)
def test_a_read_written_as_english_that_names_a_write_is_not_read_where_only_the_tool_says_sql(
    text: str, act: calls.Act
) -> None:
    judge = ArgumentJudge.of(tool({"task": {"type": "string"}}, "Performs a task on SQL Server."))
    assert judge is not None
    judged = judge.judge({"task": text})
    assert judged is not None
    assert judged.act is act


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ('SELECT mean("usage_idle") FROM "cpu" WHERE time > now() - 1h GROUP BY time(5m)', calls.Act.READ),
        ("SHOW RETENTION POLICIES ON telegraf", calls.Act.READ),
        ('DROP MEASUREMENT "cpu_old"', calls.Act.DESTRUCTIVE),
        ('from(bucket: "b") |> range(start: -1h) |> to(bucket: "c")', calls.Act.DESTRUCTIVE),
    ],
)
def test_influxql_is_read_as_sql_and_flux_is_not_read(text: str, act: calls.Act) -> None:
    listed = tool({"influxql": {"type": "string"}, "db": {"type": "string"}}, "InfluxDB query endpoint.")
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge({"influxql": text, "db": "telegraf"})
    assert judged is not None
    assert judged.act is act


def test_a_method_in_an_options_object_goes_to_the_url_beside_it() -> None:
    # WHATWG fetch: `fetch(url, {method, headers, body})`, the URL outside the options object.
    listed = tool(
        {
            "url": {"type": "string"},
            "options": {
                "type": "object",
                "properties": {"method": {"type": "string"}, "headers": {"type": "object"}, "body": {"type": "string"}},
            },
        },
        "fetch() a URL. options follows the WHATWG fetch RequestInit (method, headers, body).",
        "fetch_url",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    patching = judge.judge({"url": "https://api.example.com/v1/pages/4", "options": {"method": "PATCH", "body": "{}"}})
    assert patching is not None
    assert patching.act is calls.Act.DESTRUCTIVE
    getting = judge.judge({"url": "https://api.example.com/v1/pages/4", "options": {"method": "GET"}})
    assert getting is not None
    assert getting.act is calls.Act.READ


def test_a_method_left_out_is_the_default_the_tools_text_says() -> None:
    listed = tool(
        {"method": {"type": "string"}, "url": {"type": "string"}, "body": {"type": ["string", "object"]}},
        "Send an HTTP request and return status, headers and body. method defaults to GET.",
        "http_request",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    reading = judge.judge({"url": "https://api.example.com/bot1/getMe"})
    assert reading is not None
    assert reading.act is calls.Act.READ
    sending = judge.judge({"url": "https://api.example.com/bot1/sendMessage?chat_id=1&text=hi"})
    assert sending is not None
    assert sending.act is not calls.Act.READ


def test_a_runner_whose_program_is_chosen_from_an_allow_list_runs_it_with_the_arguments_beside_it() -> None:
    listed = tool(
        {
            "tool": {"type": "string", "enum": ["ansible", "rclone", "pulumi", "mvn"]},
            "arguments": {"type": "array", "items": {"type": "string"}},
        },
        "Run an allow-listed developer tool with an argument list (no shell).",
        "run_tool",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    previewing = judge.judge({"tool": "pulumi", "arguments": ["preview", "--stack", "prod"]})
    assert previewing is not None
    assert previewing.act is calls.Act.READ
    syncing = judge.judge({"tool": "rclone", "arguments": ["sync", "./a", "remote:a"]})
    assert syncing is not None
    assert syncing.act is calls.Act.DESTRUCTIVE
    building = judge.judge({"tool": "mvn", "arguments": ["-q", "verify"]})
    assert building is not None
    assert building.act is calls.Act.DESTRUCTIVE  # a program hintgate does not know


def test_an_enum_of_verbs_beside_arguments_is_no_program() -> None:
    listed = tool(
        {
            "command": {"type": "string", "enum": ["list", "delete"]},
            "args": {"type": "array", "items": {"type": "string"}},
        },
        "Manage the queue.",
    )
    assert "executable" not in [r.kind for r in roles_of(listed)]


def test_a_list_of_statements_run_in_one_session_executes_what_an_earlier_item_prepared() -> None:
    listed = tool(
        {"statements": {"type": "array", "items": {"type": "string"}, "description": "SQL statements"}},
        "Execute MySQL 8.0 statements in order on the shop database, in one session.",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    prepared = ["PREPARE s FROM 'SELECT * FROM orders WHERE id = ?'", "SET @id = 1001", "EXECUTE s USING @id"]
    reading = judge.judge({"statements": prepared})
    assert reading is not None
    assert reading.act is calls.Act.READ
    deleting = judge.judge({"statements": ["PREPARE s FROM 'DELETE FROM orders'", "EXECUTE s"]})
    assert deleting is not None
    assert deleting.act is calls.Act.DESTRUCTIVE
    unknown = judge.judge({"statements": ["SELECT 1 --", "EXECUTE s"]})
    assert unknown is not None
    assert unknown.act is calls.Act.DESTRUCTIVE
    # A row change rolled back across items still counts alone: items are not read as safer together.
    rolled = judge.judge({"statements": ["BEGIN", "DELETE FROM orders", "ROLLBACK", "EXECUTE s"]})
    assert rolled is not None
    assert rolled.act is calls.Act.DESTRUCTIVE


def test_a_statement_of_a_tool_that_runs_it_on_a_data_source_is_sql() -> None:
    listed = tool(
        {
            "request": {
                "type": "object",
                "properties": {"statement": {"type": "string"}, "parameters": {"type": "array"}},
            }
        },
        "Execute a statement on the configured data source.",
        "execute_statement",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    locking = judge.judge({"request": {"statement": "SELECT qty FROM inventory WHERE sku = ? FOR UPDATE"}})
    assert locking is not None
    assert locking.act is calls.Act.READ
    deleting = judge.judge({"request": {"statement": "DELETE FROM inventory WHERE sku = ?"}})
    assert deleting is not None
    assert deleting.act is calls.Act.DESTRUCTIVE


S3_OBJECTS = tool(
    {
        "op": {"type": "string", "enum": ["get", "list", "put", "delete"]},
        "bucket": {"type": "string"},
        "key": {"type": "string"},
        "options": {
            "type": "object",
            "properties": {"dry_run": {"type": "boolean"}, "if_none_match": {"type": "string"}},
        },
    },
    "Operate on objects in Amazon S3.",
)


@pytest.mark.parametrize(
    ("arguments", "act"),
    [
        ({"op": "delete", "bucket": "b", "key": "k", "options": {"dry_run": True}}, calls.Act.READ),
        ({"op": "delete", "bucket": "b", "key": "k", "options": {"dry_run": False}}, calls.Act.DESTRUCTIVE),
        ({"op": "delete", "bucket": "b", "key": "k"}, calls.Act.DESTRUCTIVE),
        ({"op": "put", "bucket": "b", "key": "k", "options": {"if_none_match": "*"}}, calls.Act.ADDITIVE),
        ({"op": "put", "bucket": "b", "key": "k"}, calls.Act.DESTRUCTIVE),
    ],
)
def test_the_flags_in_a_calls_options_object_qualify_the_call(arguments: dict[str, Any], act: calls.Act) -> None:
    judge = ArgumentJudge.of(S3_OBJECTS)
    assert judge is not None
    found = judge.judge(arguments)
    assert found is not None
    assert found.act is act


BACKUPS = tool(
    {
        "action": {"type": "string", "enum": ["list", "create", "restore", "prune"]},
        "options": {"type": "object", "properties": {"confirm": {"type": "boolean"}, "label": {"type": "string"}}},
    },
    "Manage local database backups. For restore and prune, confirm=false only returns a preview of what would happen.",
)


@pytest.mark.parametrize(
    ("arguments", "act"),
    [
        ({"action": "restore", "options": {"confirm": False}}, calls.Act.READ),
        ({"action": "restore", "options": {"confirm": True}}, calls.Act.DESTRUCTIVE),
        ({"action": "restore"}, calls.Act.DESTRUCTIVE),  # the options left out say nothing
        ({"action": "create", "options": {"confirm": False}}, calls.Act.ADDITIVE),  # no preview for create
    ],
)
def test_a_confirm_given_false_in_the_options_previews_only_the_actions_the_text_names(
    arguments: dict[str, Any], act: calls.Act
) -> None:
    judge = ArgumentJudge.of(BACKUPS)
    assert judge is not None
    found = judge.judge(arguments)
    assert found is not None
    assert found.act is act


K8S = tool(
    {
        "action": {"type": "string", "enum": ["get", "apply", "delete"]},
        "name": {"type": "string"},
        "options": {"type": "object", "additionalProperties": True},
        "config": {"type": "object", "additionalProperties": True},
    },
    "Act on a Kubernetes resource. options are passed through to the API call (e.g. dryRun, gracePeriodSeconds).",
)


@pytest.mark.parametrize(
    ("arguments", "act"),
    [
        ({"action": "delete", "name": "api", "options": {"dryRun": ["All"]}}, calls.Act.READ),
        ({"action": "delete", "name": "api", "options": {"dry_run": True}}, calls.Act.READ),
        ({"action": "delete", "name": "api", "options": {"dryRun": []}}, calls.Act.DESTRUCTIVE),
        ({"action": "delete", "name": "api", "options": {"dryRun": "false"}}, calls.Act.DESTRUCTIVE),
        ({"action": "delete", "name": "api", "options": {"gracePeriodSeconds": 0}}, calls.Act.DESTRUCTIVE),
        ({"action": "apply", "name": "api", "config": {"dryRun": True}}, calls.Act.DESTRUCTIVE),  # data written
    ],
)
def test_a_dry_run_member_of_a_free_form_options_object_makes_the_call_a_read(
    arguments: dict[str, Any], act: calls.Act
) -> None:
    judge = ArgumentJudge.of(K8S)
    assert judge is not None
    found = judge.judge(arguments)
    assert found is not None
    assert found.act is act


@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("sqlite3 app.db .schema", calls.Act.READ),
        ("psql -d app -c '\\dt+ public.*'", calls.Act.READ),
        ("podman rm -f web", calls.Act.DESTRUCTIVE),
    ],
)
def test_the_one_free_text_of_a_tool_that_runs_a_command_line_is_that_line(line: str, act: calls.Act) -> None:
    listed = tool(
        {"input": {"type": "string"}},
        "Run one CLI command line. The first word selects the program; pipes and redirection are not supported.",
        "exec_cli",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge({"input": line})
    assert found is not None
    assert found.act is act


@pytest.mark.parametrize(
    ("method", "act"),
    [
        ("conversations.history", calls.Act.READ),
        ("users.lookupByEmail", calls.Act.READ),
        ("chat.postMessage", calls.Act.ADDITIVE),
        ("conversations.mark", calls.Act.DESTRUCTIVE),
        ("chat.delete", calls.Act.DESTRUCTIVE),
    ],
)
def test_an_rpc_method_name_does_what_its_verb_says(method: str, act: calls.Act) -> None:
    listed = tool(
        {
            "method": {"type": "string", "description": "Web API method name, e.g. conversations.list"},
            "args": {"type": "object"},
        },
        "Call a Slack Web API method (POST https://slack.com/api/<method>) with form arguments.",
        "slack_api",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge({"method": method, "args": {}})
    assert found is not None
    assert found.act is act


def test_a_json_rpc_request_is_judged_by_its_method_and_an_unknown_one_keeps_the_tools_hints() -> None:
    node = tool(
        {"method": {"type": "string"}, "params": {"type": "array"}},
        "JSON-RPC 2.0 call to an Ethereum mainnet node.",
        "eth_rpc",
    )
    judge = ArgumentJudge.of(node)
    assert judge is not None
    balance = judge.judge({"method": "eth_getBalance", "params": ["0xde0b", "latest"]})
    assert balance is not None
    assert balance.act is calls.Act.READ
    assert judge.judge({"method": "eth_chainId"}) is None
    envelope = tool(
        {"endpoint": {"type": "string"}, "payload": {"type": "object"}},
        "POST a JSON-RPC payload to an endpoint and return the response.",
        "jsonrpc",
    )
    judge = ArgumentJudge.of(envelope)
    assert judge is not None
    reading = judge.judge({"endpoint": "https://x", "payload": {"jsonrpc": "2.0", "id": 1, "method": "getAccountInfo"}})
    assert reading is not None
    assert reading.act is calls.Act.READ
    calling = judge.judge({"endpoint": "https://x", "payload": {"jsonrpc": "2.0", "id": 7, "method": "call"}})
    assert calling is not None
    assert calling.act is calls.Act.DESTRUCTIVE  # runs a procedure the request names in its params
    batch = [{"jsonrpc": "2.0", "id": 1, "method": "getBalance"}, {"jsonrpc": "2.0", "id": 2, "method": "frob"}]
    assert judge.judge({"endpoint": "https://x", "payload": batch}) is None


AWS_CALL = tool(
    {
        "service": {"type": "string"},
        "operation": {"type": "string"},
        "parameters": {"type": "object"},
        "region": {"type": "string"},
    },
    "AWS CLI call.",
    "aws",
)


@pytest.mark.parametrize(
    ("arguments", "act"),
    [
        ({"service": "ec2", "operation": "run-instances", "parameters": {"DryRun": True}}, calls.Act.READ),
        ({"service": "s3", "operation": "rm", "parameters": {"path": "s3://b/x", "dryrun": True}}, calls.Act.READ),
        ({"service": "s3", "operation": "rm", "parameters": {"path": "s3://b/x"}}, calls.Act.DESTRUCTIVE),
    ],
)
def test_a_dry_run_among_an_api_calls_parameters_makes_it_a_read(arguments: dict[str, Any], act: calls.Act) -> None:
    judge = ArgumentJudge.of(AWS_CALL)
    assert judge is not None
    found = judge.judge(arguments)
    assert found is not None
    assert found.act is act


def test_a_statement_s_bind_parameters_are_no_options_of_the_call() -> None:
    listed = tool({"sql": {"type": "string"}, "params": {"type": "object"}}, "Run SQL on the database.")
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge({"sql": "DELETE FROM runs WHERE dry_run = :dry_run", "params": {"dry_run": True}})
    assert found is not None
    assert found.act is calls.Act.DESTRUCTIVE


@pytest.mark.parametrize(
    ("listed", "arguments", "act"),
    [
        (
            tool(
                {"action": {"type": "string", "enum": ["describe", "get_value", "put_value", "delete"]}},
                "AWS Secrets Manager.",
                "secrets",
            ),
            {"action": "get_value"},
            calls.Act.READ,
        ),
        (
            tool({"command": {"type": "string"}, "stack": {"type": "string"}}, "Pulumi CLI.", "pulumi"),
            {"command": "preview --diff", "stack": "prod"},
            calls.Act.READ,
        ),
        (
            tool({"args": {"type": "array", "items": {"type": "string"}}}, "Manage the user crontab.", "crontab"),
            {"args": ["-l"]},
            calls.Act.READ,
        ),
        (
            tool(
                {"stmts": {"type": "array", "items": {"type": "string"}, "description": "statements"}},
                "CockroachDB: executes each statement of stmts in order.",
                "crdb",
            ),
            {"stmts": ["SHOW JOBS", "SELECT range_id FROM crdb_internal.ranges LIMIT 10"]},
            calls.Act.READ,
        ),
        (
            tool(
                {"stmts": {"type": "array", "items": {"type": "string"}, "description": "statements"}},
                "CockroachDB: executes each statement of stmts in order.",
                "crdb",
            ),
            {"stmts": ["SET CLUSTER SETTING kv.rangefeed.enabled = true"]},
            calls.Act.DESTRUCTIVE,
        ),
        (
            tool(
                {"endpoint": {"type": "string"}, "soap_action": {"type": "string"}, "envelope": {"type": "string"}},
                "Invoke a SOAP 1.1 operation.",
                "soap_call",
            ),
            {"endpoint": "https://ws.example/Accounts.asmx", "soap_action": "GetAccountBalance", "envelope": "<x/>"},
            calls.Act.READ,
        ),
        (
            tool(
                {"endpoint": {"type": "string"}, "soap_action": {"type": "string"}, "envelope": {"type": "string"}},
                "Invoke a SOAP 1.1 operation.",
                "soap_call",
            ),
            {"endpoint": "https://ws.example/Accounts.asmx", "soap_action": "CloseAccount", "envelope": "<x/>"},
            calls.Act.DESTRUCTIVE,
        ),
    ],
)
def test_wrappers_of_one_service_program_engine_or_soap_operation_are_judged_by_it(
    listed: dict[str, Any], arguments: dict[str, Any], act: calls.Act
) -> None:
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge(arguments)
    assert found is not None
    assert found.act is act


def test_the_shell_chosen_per_call_reads_the_text_in_its_grammar() -> None:
    listed = tool(
        {
            "script": {"type": "string", "description": "Script source"},
            "shell": {"type": "string", "enum": ["bash", "zsh", "fish", "sh"]},
        },
        "Run a script with the chosen interpreter on the workstation.",
        "shell",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    fish = judge.judge({"shell": "fish", "script": "for f in *.md\n    wc -l $f\nend"})
    assert fish is not None
    assert fish.act is calls.Act.READ
    bash = judge.judge({"shell": "bash", "script": "for f in *.md\n    wc -l $f\nend"})
    assert bash is not None
    assert bash.act is calls.Act.DESTRUCTIVE  # not bash: it does not parse


@pytest.mark.parametrize(
    ("keys", "act"),
    [
        ("top -b -n 1 | head -20\n", calls.Act.READ),
        ("y\n", calls.Act.DESTRUCTIVE),
        ("rm -rf build\n", calls.Act.DESTRUCTIVE),
    ],
)
def test_keystrokes_typed_into_a_terminal_session_are_a_command_line(keys: str, act: calls.Act) -> None:
    listed = tool(
        {"session": {"type": "string"}, "keys": {"type": "string"}},
        "Type keystrokes into an open terminal tab.",
        "terminal_send",
    )
    listed["inputSchema"]["required"] = ["session", "keys"]
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge({"session": "tab-2", "keys": keys})
    assert found is not None
    assert found.act is act


def test_a_list_of_operations_runs_the_statement_each_one_holds() -> None:
    listed = tool(
        {
            "ops": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"sql": {"type": "string"}, "params": {"type": "array"}},
                    "required": ["sql"],
                },
            }
        },
        "Run a list of parameterised statements against the database in one transaction.",
        "db_batch",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    reading = judge.judge({"ops": [{"sql": "SELECT 1"}, {"sql": "SELECT count(*) FROM audit WHERE action = 'DROP'"}]})
    assert reading is not None
    assert reading.act is calls.Act.READ
    deleting = judge.judge({"ops": [{"sql": "SELECT 1"}, {"sql": "DELETE FROM audit", "params": []}]})
    assert deleting is not None
    assert deleting.act is calls.Act.DESTRUCTIVE
    missing = judge.judge({"ops": [{"sql": "SELECT 1"}, {"params": [1]}]})
    assert missing is not None
    assert missing.act is calls.Act.DESTRUCTIVE
    assert judge.heavy({"ops": [{"sql": "SELECT 1 " + " " * 3000}]})


@pytest.mark.parametrize(
    ("program", "args", "act"),
    [
        ("rm", ["-rf", "/var/cache/app"], calls.Act.DESTRUCTIVE),
        ("sh", ["-c", "rm -rf /tmp/build && mkdir /tmp/build"], calls.Act.DESTRUCTIVE),
        ("ls", ["-la", "; rm -rf /"], calls.Act.READ),
        ("echo", ["$(reboot)"], calls.Act.READ),
    ],
)
def test_an_object_holding_a_program_and_its_arguments_is_the_command_a_call_runs(
    program: str, args: list[str], act: calls.Act
) -> None:
    listed = tool(
        {
            "exec": {
                "type": "object",
                "properties": {"program": {"type": "string"}, "args": {"type": "array", "items": {"type": "string"}}},
                "required": ["program"],
            }
        },
        "Starts a program directly, without a shell.",
        "start_program",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge({"exec": {"program": program, "args": args}})
    assert found is not None
    assert found.act is act


@pytest.mark.parametrize(
    ("name", "parameter", "line", "act"),
    [
        ("podman_line", "cli_line", "podman pod rm -f dev-pod", calls.Act.DESTRUCTIVE),
        ("podman_line", "cli_line", "podman ps -a", calls.Act.READ),
        ("gitlab_glab", "argline", "mr merge 42 --remove-source-branch --yes", calls.Act.DESTRUCTIVE),
        ("gitlab_glab", "argline", "mr list --assignee=@me", calls.Act.READ),
    ],
)
def test_the_one_free_text_of_a_tool_named_for_a_program_and_its_command_line_is_that_program_s_line(
    name: str, parameter: str, line: str, act: calls.Act
) -> None:
    judge = ArgumentJudge.of(tool({parameter: {"type": "string"}}, "", name))
    assert judge is not None
    found = judge.judge({parameter: line})
    assert found is not None
    assert found.act is act


@pytest.mark.parametrize(
    ("arguments", "act"),
    [
        (
            {"verb": "rollout", "resource": "restart", "name": "deployment/api", "namespace": "prod"},
            calls.Act.DESTRUCTIVE,
        ),
        ({"verb": "cordon", "resource": "node", "name": "node-3"}, calls.Act.DESTRUCTIVE),
        ({"verb": "get", "resource": "pods", "namespace": "prod", "flags": ["-o", "wide"]}, calls.Act.READ),
        ({"verb": "describe", "resource": "node", "name": "node-3"}, calls.Act.READ),
    ],
)
def test_a_program_s_command_line_split_into_a_subcommand_operands_and_flags_is_read_as_one_line(
    arguments: dict[str, Any], act: calls.Act
) -> None:
    listed = tool(
        {
            "verb": {"type": "string"},
            "resource": {"type": "string"},
            "name": {"type": "string"},
            "namespace": {"type": "string"},
            "flags": {"type": "array", "items": {"type": "string"}},
        },
        "kubectl against the current context. verb + resource + optional name, namespace and extra flags.",
        "cluster_cmd",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge(arguments)
    assert found is not None
    assert found.act is act


@pytest.mark.parametrize(("verb", "act"), [("archive", calls.Act.DESTRUCTIVE), ("get", calls.Act.READ)])
def test_the_verb_chosen_in_the_object_that_is_a_tool_s_one_parameter_is_what_the_call_does(
    verb: str, act: calls.Act
) -> None:
    listed = {
        "name": "repositories",
        "description": "Administer hosted repositories.",
        "inputSchema": {
            "type": "object",
            "required": ["call"],
            "properties": {
                "call": {
                    "type": "object",
                    "properties": {
                        "verb": {"type": "string", "enum": ["get", "archive", "star"]},
                        "target": {"type": "string"},
                    },
                    "required": ["verb", "target"],
                }
            },
        },
    }
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge({"call": {"verb": verb, "target": "acme/app"}})
    assert found is not None
    assert found.act is act


@pytest.mark.parametrize(
    ("listed", "parameter"),
    [
        (
            tool(
                {"shell_input": {"type": "string"}, "cwd": {"type": "string"}},
                "Executes shell_input with /bin/sh -c in the given working directory.",
                "posix_exec",
            ),
            "shell_input",
        ),
        (
            tool(
                {"host": {"type": "string"}, "remote_command": {"type": "string"}, "timeout_s": {"type": "integer"}},
                "Run remote_command over SSH on an inventory host.",
                "fleet_ssh",
            ),
            "remote_command",
        ),
    ],
)
@pytest.mark.parametrize(
    ("line", "act"),
    [
        ("test -f /etc/nginx/nginx.conf && cat /etc/nginx/nginx.conf", calls.Act.READ),
        ("uptime; df -h /", calls.Act.READ),
        ("touch /var/run/app.ready", calls.Act.ADDITIVE),
        ("rm -rf /var/cache/app", calls.Act.DESTRUCTIVE),
    ],
)
def test_a_command_named_for_its_shell_or_where_it_runs_is_a_command_line(
    listed: dict[str, Any], parameter: str, line: str, act: calls.Act
) -> None:
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge({parameter: line, "host": "web-3", "cwd": "/"})
    assert found is not None
    assert found.act is act


@pytest.mark.parametrize(
    ("steps", "act"),
    [
        (
            [{"name": "fmt", "run": "terraform fmt -check -recursive"}, {"name": "v", "run": "terraform validate"}],
            calls.Act.READ,
        ),
        ([{"name": "list", "run": "ls -la"}, {"name": "clean", "run": "rm -rf build"}], calls.Act.DESTRUCTIVE),
        ([{"name": "list", "run": "ls -la"}, {"name": "nothing"}], calls.Act.DESTRUCTIVE),
    ],
)
def test_a_list_of_steps_runs_the_command_line_each_one_holds(steps: list[dict[str, str]], act: calls.Act) -> None:
    listed = tool(
        {
            "steps": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}, "run": {"type": "string"}},
                    "required": ["run"],
                },
            }
        },
        "Runs a sequence of steps, each a shell command, stopping at the first failure.",
        "pipeline_steps",
    )
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge({"steps": steps})
    assert found is not None
    assert found.act is act
