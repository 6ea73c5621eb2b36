"""SQL texts judged with a real parser: every statement counts, the riskiest decides."""

from __future__ import annotations

import pytest

from hintgate.hints.calls.judgement import Act
from hintgate.hints.calls.shell import judge_shell
from hintgate.hints.calls.sql import MAX_SQL, judge_sql


@pytest.mark.parametrize(
    "text",
    [
        "SELECT id FROM users WHERE name = 'DROP TABLE users'",
        "select 1; -- DROP TABLE users",
        "SHOW TABLES",
        "DESCRIBE users",
        "EXPLAIN SELECT * FROM orders",
        "PRAGMA table_info(users)",
        "WITH recent AS (SELECT * FROM orders) SELECT count(*) FROM recent",
    ],
)
def test_statements_that_only_read_resolve_read_only(text: str) -> None:
    judged = judge_sql(text)
    assert judged.act is Act.READ
    assert judged.hints()  # read-only, not destructive, idempotent


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("INSERT INTO notes (body) VALUES ('x')", Act.ADDITIVE),
        ("CREATE TABLE t (a int)", Act.ADDITIVE),
        ("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", Act.ADDITIVE),
        ("INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET a = 1", Act.DESTRUCTIVE),
        ("DROP TABLE users", Act.DESTRUCTIVE),
        ("TRUNCATE audit_log", Act.DESTRUCTIVE),
        ("UPDATE users SET admin = true", Act.DESTRUCTIVE),
        ("GRANT ALL ON users TO mallory", Act.DESTRUCTIVE),
        ("PRAGMA journal_mode = WAL", Act.DESTRUCTIVE),
        ("SELECT pg_terminate_backend(42)", Act.DESTRUCTIVE),
        ("SELECT * INTO users_copy FROM users", Act.ADDITIVE),
    ],
)
def test_writes_resolve_by_what_they_change(text: str, act: Act) -> None:
    assert judge_sql(text, "postgres").act is act


def test_a_cte_that_deletes_makes_the_select_destructive() -> None:
    judged = judge_sql("WITH gone AS (DELETE FROM users RETURNING *) SELECT * FROM gone", "postgres")
    assert judged.act is Act.DESTRUCTIVE


def test_explain_analyze_runs_the_statement_and_plain_explain_does_not() -> None:
    assert judge_sql("EXPLAIN ANALYZE DELETE FROM orders", "postgres").act is Act.DESTRUCTIVE
    assert judge_sql("EXPLAIN (ANALYZE, BUFFERS) UPDATE t SET a = 1", "postgres").act is Act.DESTRUCTIVE
    assert judge_sql("EXPLAIN DELETE FROM orders", "postgres").act is Act.READ
    assert judge_sql("EXPLAIN ANALYZE SELECT 1", "postgres").act is Act.READ


def test_several_statements_take_the_riskiest_and_say_how_many() -> None:
    judged = judge_sql("SELECT 1; DELETE FROM users WHERE id = 7; SELECT 2")
    assert judged.act is Act.DESTRUCTIVE
    assert judged.reason == "3 statements: DELETE FROM users WHERE id = 7; destructive"


def test_a_rolled_back_row_change_persists_nothing_but_ddl_inside_still_counts() -> None:
    assert judge_sql("BEGIN; DELETE FROM carts WHERE id = 5; ROLLBACK;").act is Act.READ
    assert judge_sql("BEGIN; DROP TABLE carts; ROLLBACK;").act is Act.DESTRUCTIVE
    assert judge_sql("BEGIN; DELETE FROM carts; COMMIT;").act is Act.DESTRUCTIVE


@pytest.mark.parametrize("text", ["SELEC * FRM users", "DROP TABLE (", "REINDEX users"])
def test_a_text_that_does_not_parse_or_is_no_known_statement_is_destructive(text: str) -> None:
    assert judge_sql(text).act is Act.DESTRUCTIVE


def test_a_text_too_long_to_read_is_destructive_unread() -> None:
    judged = judge_sql("SELECT 1 " + " " * MAX_SQL)
    assert judged.act is Act.DESTRUCTIVE
    assert "too long" in judged.reason


def test_a_mysql_versioned_comment_runs_what_it_holds() -> None:
    assert judge_sql("SELECT 1; /*!50000 DELETE FROM users */", "mysql").act is Act.DESTRUCTIVE
    assert judge_sql("SELECT 1; /* DELETE FROM users */", "mysql").act is Act.READ


@pytest.mark.parametrize(
    ("dialect", "text", "act"),
    [
        ("oracle", "SELECT seq_orders.NEXTVAL FROM dual", Act.ADDITIVE),
        ("oracle", "SELECT seq_orders.CURRVAL FROM dual", Act.READ),
        ("snowflake", "SELECT order_seq.nextval", Act.ADDITIVE),
        ("tsql", "SELECT NEXT VALUE FOR dbo.order_seq", Act.ADDITIVE),
        ("postgres", "SELECT setval('invoice_seq', 1000)", Act.DESTRUCTIVE),
    ],
)
def test_sequence_functions_in_a_select_consume_or_set_a_value_in_every_dialect(
    dialect: str, text: str, act: Act
) -> None:
    assert judge_sql(text, dialect).act is act


@pytest.mark.parametrize(
    ("dialect", "text", "act"),
    [
        ("postgres", "NOTIFY cache_invalidate, 'users'", Act.ADDITIVE),
        ("tsql", "WAITFOR DELAY '00:00:05'; SELECT GETDATE();", Act.READ),
        ("tsql", "DBCC CHECKDB ('Sales') WITH NO_INFOMSGS", Act.READ),
        ("tsql", "DBCC CHECKDB ('Sales', REPAIR_ALLOW_DATA_LOSS)", Act.DESTRUCTIVE),
        ("tsql", "BACKUP DATABASE Sales TO DISK = 'D:\\bak\\Sales.bak' WITH NOINIT", Act.ADDITIVE),
        ("tsql", "BACKUP DATABASE Sales TO DISK = 'D:\\bak\\Sales.bak' WITH INIT", Act.DESTRUCTIVE),
        ("oracle", "FLASHBACK TABLE orders TO BEFORE DROP", Act.ADDITIVE),
        ("oracle", "FLASHBACK TABLE orders TO TIMESTAMP SYSDATE - 1", Act.DESTRUCTIVE),
        ("mysql", "SELECT * FROM customers INTO OUTFILE '/tmp/c.csv' FIELDS TERMINATED BY ','", Act.ADDITIVE),
        ("mysql", "SELECT pg_terminate_backend(1) INTO OUTFILE '/tmp/c.csv' FROM t", Act.DESTRUCTIVE),
        ("mysql", "LOAD DATA LOCAL INFILE 'leads.csv' INTO TABLE leads IGNORE 1 LINES", Act.ADDITIVE),
        ("mysql", "LOAD DATA INFILE 'leads.csv' REPLACE INTO TABLE leads", Act.DESTRUCTIVE),
        ("oracle", "BEGIN EXECUTE IMMEDIATE 'DROP TABLE x'; END;", Act.DESTRUCTIVE),
        ("postgres", "NOTIFY ch, 'x'; BEGIN EXECUTE 'DROP TABLE x'", Act.DESTRUCTIVE),
    ],
)
def test_statements_the_parser_does_not_know_are_read_one_by_one_by_their_grammar(
    dialect: str, text: str, act: Act
) -> None:
    assert judge_sql(text, dialect).act is act


@pytest.mark.parametrize(
    ("dialect", "text", "act"),
    [
        ("postgres", "CREATE ROLE readonly NOLOGIN", Act.ADDITIVE),
        ("mysql", "CREATE USER 'report'@'%' IDENTIFIED BY 'x'", Act.ADDITIVE),
        ("snowflake", "ALTER WAREHOUSE IF EXISTS etl_wh RESUME IF SUSPENDED", Act.ADDITIVE),
        ("snowflake", "ALTER WAREHOUSE etl_wh SUSPEND", Act.DESTRUCTIVE),
        ("snowflake", "UNDROP TABLE customers", Act.ADDITIVE),
        ("duckdb", "INSTALL httpfs; LOAD httpfs;", Act.ADDITIVE),
        ("duckdb", "SUMMARIZE SELECT * FROM 'data/sales.csv'", Act.READ),
        ("duckdb", "PIVOT sales ON year USING sum(amount)", Act.READ),
        ("duckdb", "COPY (SELECT * FROM trips) TO 'out/trips.parquet' (FORMAT PARQUET)", Act.DESTRUCTIVE),
        ("snowflake", "COPY INTO @~/unload/orders_ FROM orders OVERWRITE = TRUE", Act.DESTRUCTIVE),
        ("snowflake", "COPY INTO @~/unload/orders_ FROM orders", Act.ADDITIVE),
        ("snowflake", "COPY INTO orders FROM @stage/orders/ PURGE = TRUE", Act.DESTRUCTIVE),
        (
            "bigquery",
            "EXPORT DATA OPTIONS(uri='gs://b/x-*.csv', format='CSV', overwrite=true) AS SELECT 1",
            Act.DESTRUCTIVE,
        ),
    ],
)
def test_statements_by_their_documented_meaning(dialect: str, text: str, act: Act) -> None:
    assert judge_sql(text, dialect).act is act


@pytest.mark.parametrize(
    "text",
    [
        "SELECT * FROM read_parquet('s3://datasets/taxi/*.parquet')",
        "SELECT status FROM http_get('https://api.example.com/latest')",
        "CREATE TABLE population AS SELECT * FROM read_csv_auto('https://example.org/population.csv')",
    ],
)
def test_a_statement_that_reads_a_url_reaches_the_open_world(text: str) -> None:
    assert judge_sql(text, "duckdb").open_world is True
    assert judge_sql("SELECT 'https://example.com' AS link", "duckdb").open_world is None


@pytest.mark.parametrize(
    ("dialect", "text"),
    [
        ("postgres", "BEGIN DELETE FROM users"),
        ("tsql", "BEGIN DELETE FROM users END"),
        ("mysql", "START REPLICA"),
    ],
)
def test_a_begin_or_start_that_opens_no_transaction_is_not_a_read(dialect: str, text: str) -> None:
    assert judge_sql(text, dialect).act is Act.DESTRUCTIVE
    assert judge_sql("BEGIN TRAN; DELETE FROM t; ROLLBACK", "tsql").act is Act.READ


def test_a_program_a_copy_runs_is_judged_as_a_command_line() -> None:
    fetch = "COPY feed FROM PROGRAM 'curl -s https://example.com/feed.csv' WITH (FORMAT csv)"
    fetched = judge_sql(fetch, "postgres", command=judge_shell)
    assert fetched.act is Act.ADDITIVE  # rows appended from what a read fetched
    assert fetched.open_world is True
    assert judge_sql("COPY feed FROM PROGRAM 'rm -rf /srv; cat x.csv'", "postgres", command=judge_shell).act is (
        Act.DESTRUCTIVE
    )
    assert judge_sql(fetch, "postgres").act is Act.DESTRUCTIVE  # no command judge: unread


@pytest.mark.parametrize(
    ("dialect", "text", "act"),
    [
        ("mysql", "SET PASSWORD = 'n3w'", Act.DESTRUCTIVE),
        ("mysql", "SET PASSWORD FOR 'app'@'%' = 'n3w'", Act.DESTRUCTIVE),
        ("mysql", "SET DEFAULT ROLE admin TO 'app'@'%'", Act.DESTRUCTIVE),
        ("mysql", "SET NAMES utf8mb4", Act.READ),
        ("mysql", "DO SLEEP(1)", Act.READ),
        ("mysql", "DO RELEASE_LOCK('x')", Act.ADDITIVE),
        ("postgres", "DO $$ BEGIN DELETE FROM t; END $$", Act.DESTRUCTIVE),
        ("snowflake", "ALTER SESSION SET QUERY_TAG = 'x'", Act.READ),
        ("oracle", "ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY'", Act.READ),
        ("postgres", "DECLARE c CURSOR FOR SELECT pg_terminate_backend(1)", Act.DESTRUCTIVE),
        ("postgres", "FETCH 10 FROM c", Act.READ),
        ("mysql", "CHECK TABLE orders", Act.READ),
        ("snowflake", "LIST @stage", Act.READ),
        ("snowflake", "PUT file:///tmp/x.csv @stage", Act.ADDITIVE),
        ("snowflake", "PUT file:///tmp/x.csv @stage OVERWRITE = TRUE", Act.DESTRUCTIVE),
    ],
)
def test_session_settings_read_and_credentials_change(dialect: str, text: str, act: Act) -> None:
    assert judge_sql(text, dialect).act is act


@pytest.mark.parametrize(
    ("dialect", "text", "act"),
    [
        ("tsql", "SELECT * FROM OPENQUERY(reports, 'DELETE FROM orders')", Act.DESTRUCTIVE),
        ("tsql", "SELECT * FROM OPENROWSET('SQLNCLI', 'Server=x', 'EXEC xp_cmdshell ''del x''')", Act.DESTRUCTIVE),
        ("postgres", "SELECT * FROM dblink('other', 'DELETE FROM t RETURNING id') AS t(id int)", Act.DESTRUCTIVE),
        ("postgres", "SELECT query_to_xml('DELETE FROM t RETURNING id', true, false, '')", Act.DESTRUCTIVE),
        ("tsql", "SELECT * FROM OPENQUERY(reports, 'SELECT name FROM sys.tables')", Act.READ),
        ("tsql", "SELECT * FROM OPENROWSET('SQLNCLI', 'Server=x', sales.dbo.orders)", Act.READ),
        ("postgres", "SELECT * FROM dblink('other', 'SELECT id FROM t') AS t(id int)", Act.READ),
    ],
)
def test_a_function_that_runs_a_query_text_does_what_the_text_does(dialect: str, text: str, act: Act) -> None:
    assert judge_sql(text, dialect).act is act


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("SELECT archive_orders()", Act.DESTRUCTIVE),
        ("SELECT mark_paid(42)", Act.DESTRUCTIVE),
        ("SELECT toggle_flag('beta')", Act.DESTRUCTIVE),
        ("SELECT lo_from_bytea(0, 'x')", Act.ADDITIVE),
        ("SELECT get_orders(42)", Act.READ),
    ],
)
def test_a_function_named_for_moving_or_flipping_a_state_changes_it(text: str, act: Act) -> None:
    assert judge_sql(text, "postgres").act is act


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("SELECT rebalance_quotas(3)", Act.DESTRUCTIVE),
        ("SELECT * FROM reprice_catalog('EUR')", Act.DESTRUCTIVE),
        ("SELECT pg_size_pretty(pg_total_relation_size('orders'))", Act.READ),
        ("SELECT current_setting('work_mem'), has_table_privilege('orders', 'SELECT')", Act.READ),
        ("SELECT get_orders(42), lower(name) FROM users", Act.READ),
    ],
)
def test_a_function_the_parser_does_not_know_named_in_words_of_no_known_verb_is_not_a_read(text: str, act: Act) -> None:
    assert judge_sql(text, "postgres").act is act


@pytest.mark.parametrize(
    ("text", "dialect", "act"),
    [
        ("PREPARE top_n(int) AS SELECT name FROM items LIMIT $1; EXECUTE top_n(5)", "postgres", Act.READ),
        ("PREPARE q FROM 'SELECT COUNT(*) FROM items'; EXECUTE q", "mysql", Act.READ),
        ("PREPARE wipe(int) AS DELETE FROM items WHERE id = $1; EXECUTE wipe(5)", "postgres", Act.DESTRUCTIVE),
        ("PREPARE q AS SELECT 1; PREPARE q AS UPDATE items SET n = 0; EXECUTE q", "postgres", Act.DESTRUCTIVE),
        ("EXECUTE top_n(5)", "postgres", Act.DESTRUCTIVE),
    ],
)
def test_an_execute_does_what_the_statement_prepared_before_it_does(text: str, dialect: str, act: Act) -> None:
    assert judge_sql(text, dialect).act is act


@pytest.mark.parametrize(
    ("text", "dialect", "act"),
    [
        ("EXEC sp_who2;\nGO\nSELECT name, state_desc FROM sys.databases;", "tsql", Act.READ),
        ("SELECT 1\nGO 2\nSELECT 2", None, Act.READ),
        ("SELECT 1\ngo\nDROP TABLE users\nGO", "tsql", Act.DESTRUCTIVE),
    ],
)
def test_a_go_line_ends_a_batch_and_is_no_statement(text: str, dialect: str | None, act: Act) -> None:
    assert judge_sql(text, dialect).act is act


def test_a_statement_only_quoted_into_generated_text_is_not_run() -> None:
    text = "SELECT 'DROP TABLE tmp.' || quote_ident(tablename) || ';' FROM pg_tables WHERE schemaname = 'tmp'"
    assert judge_sql(text, "postgres").act is Act.READ
    assert judge_sql("SELECT quote_literal(purge_cache('x'))", "postgres").act is Act.DESTRUCTIVE


@pytest.mark.parametrize(
    ("text", "act"),
    [
        ("SET SHOWPLAN_XML ON;\nGO\nUPDATE dbo.Prices SET Amount = Amount * 1.1;\nGO", Act.READ),
        ("SET NOEXEC ON; DROP TABLE x", Act.READ),
        ("SET NOEXEC ON; DROP TABLE x; SET NOEXEC OFF; DROP TABLE y", Act.DESTRUCTIVE),
        ("IF 1=0 SET NOEXEC ON; DROP TABLE x", Act.DESTRUCTIVE),
    ],
)
def test_statements_after_sql_server_s_showplan_or_noexec_are_compiled_not_run(text: str, act: Act) -> None:
    assert judge_sql(text, "tsql").act is act
    assert judge_sql("SET NOEXEC ON; DROP TABLE x", "mysql").act is Act.DESTRUCTIVE  # SQL Server's option only
