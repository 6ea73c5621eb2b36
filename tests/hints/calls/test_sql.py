"""SQL texts judged with a real parser: every statement counts, the riskiest decides."""

from __future__ import annotations

import pytest

from hintgate.hints.calls.judgement import Act
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
