"""Statements of database languages other than SQL, judged by each language's documented clauses."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.hints.calls import ArgumentJudge, judge_sql
from hintgate.hints.calls.judgement import Act
from hintgate.hints.calls.query_languages import judge_language, language_named

R, A, D = Act.READ, Act.ADDITIVE, Act.DESTRUCTIVE


@pytest.mark.parametrize(
    ("language", "value", "act"),
    [
        ("cypher", "MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name LIMIT 20", R),
        ("cypher", "MATCH (n) WHERE n.note = 'DETACH DELETE n' RETURN n", R),
        ("cypher", "EXPLAIN MATCH (n:Session) DELETE n", R),
        ("cypher", "CALL db.labels()", R),
        ("cypher", "MERGE (t:Tag {name: 'graph'}) RETURN t", A),
        ("cypher", "CREATE (:Event {kind: 'login'})", A),
        ("cypher", "MATCH (n:Session) DETACH DELETE n", D),
        ("cypher", "MATCH (u:User {id: 1}) SET u.plan = 'pro'", D),
        ("cypher", "CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'DELETE n', {})", D),
        ("kql", "StormEvents | where State == 'TEXAS' | take 10", R),
        ("kql", ".show tables", R),
        ("kql", ".set-or-append Logs <| RawLogs | where Timestamp > ago(1h)", A),
        ("kql", ".drop table Staging ifexists", D),
        ("kql", ".set-or-replace Rollup <| Logs | summarize count()", D),
        ("kql", "Logs | take 1\n.drop table Logs", D),
        ("sparql", "PREFIX foaf: <http://xmlns.com/foaf/0.1/> SELECT ?s WHERE { ?s foaf:name 'DELETE' }", R),
        ("sparql", "PREFIX ex: <http://example.org/> INSERT DATA { ex:a ex:knows ex:b }", A),
        ("sparql", "PREFIX ex: <http://example.org/> DELETE WHERE { ?s ex:status 'stale' }", D),
        ("sparql", "CLEAR GRAPH <http://example.org/graphs/import>", D),
        ("cql", "SELECT * FROM users WHERE user_id = 42", R),
        ("cql", "INSERT INTO users (user_id, name) VALUES (43, 'Lin')", D),
        ("cql", "INSERT INTO shop.carts (cart_id, owner) VALUES (9, 'ana') IF NOT EXISTS", A),
        ("cql", "INSERT INTO shop.carts (cart_id) VALUES (9) IF NOT EXISTS; TRUNCATE shop.carts", D),
        ("mongo", {"find": "users", "filter": {"age": {"$gt": 30}}}, R),
        ("mongo", {"aggregate": "orders", "pipeline": [{"$group": {"_id": "$s"}}], "cursor": {}}, R),
        ("mongo", {"aggregate": "orders", "pipeline": [{"$match": {}}, {"$out": "copy"}], "cursor": {}}, D),
        ("mongo", {"explain": {"delete": "users", "deletes": [{"q": {}, "limit": 0}]}}, R),
        ("mongo", {"insert": "logs", "documents": [{"msg": "started"}]}, A),
        ("mongo", {"delete": "users", "deletes": [{"q": {}, "limit": 0}]}, D),
        ("mongo", {"dropDatabase": 1}, D),
    ],
)
def test_each_language_reads_adds_or_changes_by_its_documented_clauses(language: str, value: Any, act: Act) -> None:
    judged = judge_language(language, value, judge_sql)
    assert judged is not None
    assert judged.act is act


def test_a_text_with_no_query_form_of_the_language_is_destructive() -> None:
    judged = judge_language("sparql", "frobnicate everything", judge_sql)
    assert judged is not None
    assert judged.act is D


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Run Cypher against the graph.", "cypher"),
        ("Run a KQL query or a management (dot) command.", "kql"),
        ("SPARQL 1.1 query and update against the dataset.", "sparql"),
        ("Executes CQL on the cluster's default keyspace.", "cql"),
        ("Runs a database command (db.runCommand) and returns the reply document.", "mongo"),
        ("Run a SQL query.", None),
    ],
)
def test_the_language_is_named_by_the_tools_text(text: str, language: str | None) -> None:
    assert language_named(text) == language


@pytest.mark.parametrize(
    ("listed", "arguments", "act"),
    [
        (
            {"cypher": {"type": "string"}, "params": {"type": "object"}},
            {"cypher": "MATCH (n) RETURN n LIMIT 5", "params": {}},
            R,
        ),
        (
            {"cypher": {"type": "string"}, "params": {"type": "object"}},
            {"cypher": "MATCH (n) DETACH DELETE n", "params": {}},
            D,
        ),
    ],
)
def test_the_free_text_of_a_tool_that_runs_a_named_language_is_judged_in_it(
    listed: dict[str, Any], arguments: dict[str, Any], act: Act
) -> None:
    judge = ArgumentJudge.of(
        {
            "name": "graph",
            "description": "Run Cypher against the graph.",
            "inputSchema": {"type": "object", "properties": listed, "required": ["cypher"]},
        }
    )
    assert judge is not None
    judged = judge.judge(arguments)
    assert judged is not None
    assert judged.act is act


def test_the_command_document_of_a_tool_that_runs_database_commands_is_judged_by_its_first_key() -> None:
    schema = {
        "type": "object",
        "properties": {"db": {"type": "string"}, "document": {"type": "object"}},
        "required": ["db", "document"],
    }
    description = "Runs a database command (db.runCommand) and returns the reply document."
    judge = ArgumentJudge.of({"name": "mongo", "description": description, "inputSchema": schema})
    assert judge is not None
    read = judge.judge({"db": "app", "document": {"count": "users", "query": {}}})
    drop = judge.judge({"db": "app", "document": {"drop": "users"}})
    assert read is not None
    assert read.act is R
    assert drop is not None
    assert drop.act is D


@pytest.mark.parametrize(
    "statement",
    [
        "GRANT TRAVERSE ON GRAPH * TO reader",
        "REVOKE ROLE admin FROM alice",
        "STOP DATABASE neo4j",
        "DENY READ {*} ON GRAPH * TO x",
    ],
)
def test_cypher_administration_commands_are_destructive(statement: str) -> None:
    judged = judge_language("cypher", statement, judge_sql)
    assert judged is not None
    assert judged.act is D


def test_a_mongodb_validate_may_repair_so_it_is_not_read() -> None:
    judged = judge_language("mongo", {"validate": "users", "repair": True}, judge_sql)
    assert judged is not None
    assert judged.act is D


@pytest.mark.parametrize(
    "text",
    [
        "Search Confluence content using CQL (Confluence Query Language).",
        "Run a find command on MongoDB with a filter.",
    ],
)
def test_a_search_language_of_the_same_name_or_a_query_filter_is_no_database_command(text: str) -> None:
    assert language_named(text) is None


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("kql", "Logs | take 1; .drop table Logs"),
        ("kql", ".show tables; .drop table Logs"),
        ("cypher", "EXPLAIN MATCH (n) RETURN n; MATCH (n) DETACH DELETE n"),
    ],
)
def test_a_write_after_a_read_in_one_text_is_found(language: str, text: str) -> None:
    judged = judge_language(language, text, judge_sql)
    assert judged is not None
    assert judged.act is D


@pytest.mark.parametrize(
    ("script", "act"),
    [
        ("db.orders.find({status: 'open'}).limit(5)", R),
        ("db.getCollectionNames()", R),
        ("use app\ndb.orders.aggregate([{$group: {_id: '$s', n: {$sum: 1}}}])", R),
        ("db.events.insertOne({type: 'deploy', at: new Date()})", A),
        ("db.users.countDocuments({}); db.users.createIndex({email: 1})", A),
        ("db.x.find().forEach(d => db.y.deleteOne(d))", D),
        ("db.x.aggregate([{$match: {}}, {$out: 'y'}])", D),
        ("db.x.drop()", D),
        ("load('cleanup.js')", D),
        ("db.getSiblingDB('admin').runCommand({shutdown: 1})", D),
    ],
)
def test_a_mongosh_script_is_judged_by_the_shell_methods_it_calls(script: str, act: Act) -> None:
    judged = judge_language("mongosh", script, judge_sql)
    assert judged is not None
    assert judged.act is act


def test_a_tool_that_evaluates_javascript_in_mongosh_is_judged_as_mongosh() -> None:
    listed = {
        "name": "shell_eval",
        "description": "Evaluate JavaScript in mongosh connected to the app database.",
        "inputSchema": {"type": "object", "properties": {"script": {"type": "string"}}, "required": ["script"]},
    }
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge({"script": "db.orders.find().limit(5)"})
    assert judged is not None
    assert judged.act is R


@pytest.mark.parametrize(
    ("traversal", "act"),
    [
        ("g.V().has('person', 'name', 'ada').out('knows').values('name')", Act.READ),
        ("g.E().groupCount().by(label)", Act.READ),
        ("g.V().has('note', 'text', 'drop()').count()", Act.READ),
        ("g.addV('city').property('name', 'Oslo')", Act.ADDITIVE),
        ("g.addE('follows').from(__.V(1)).to(__.V(2))", Act.ADDITIVE),
        ("g.V().has('session', 'expired', true).drop()", Act.DESTRUCTIVE),
        ("g.V(7).property('score', 3)", Act.DESTRUCTIVE),
        ("g.addV('a').V(7).property('score', 3)", Act.DESTRUCTIVE),
        ("g.mergeV([(T.label): 'city', name: 'Oslo'])", Act.DESTRUCTIVE),
        ("g.V().map{ it.get().remove() }", Act.DESTRUCTIVE),
        ("g.io('graph.json').read().iterate()", Act.DESTRUCTIVE),
    ],
)
def test_a_gremlin_traversal_is_judged_by_its_steps(traversal: str, act: Act) -> None:
    judge = ArgumentJudge.of(
        {
            "name": "graph_traverse",
            "description": "Send a traversal to the Apache TinkerPop server.",
            "inputSchema": {
                "type": "object",
                "properties": {"traversal": {"type": "string"}, "bindings": {"type": "object"}},
                "required": ["traversal"],
            },
        }
    )
    assert judge is not None
    judged = judge.judge({"traversal": traversal})
    assert judged is not None
    assert judged.act is act


@pytest.mark.parametrize(
    ("script", "act"),
    [
        ("db.orders.explain().remove({ status: 'void' })", R),
        ("db.orders.explain('executionStats').deleteMany({})", R),
        ("db.orders.explain().find({}).remove()", D),
        ("db.orders.remove({ status: 'void' })", D),
    ],
)
def test_a_write_method_called_on_mongosh_s_explainable_object_only_reports_its_plan(script: str, act: Act) -> None:
    assert judge_language("mongosh", script, judge_sql).act is act
