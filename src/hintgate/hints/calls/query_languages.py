"""What a statement of a database language other than SQL does, by the language's documented clauses.

Pure. Each language here documents which of its clauses or commands read and
which change data, and has no way to hide a write from them:

- Cypher (openCypher, Neo4j): `MATCH`, `RETURN`, `WITH`, `UNWIND`, `SHOW`
  read; `CREATE` adds, `MERGE` adds only what is missing; `SET`, `REMOVE`,
  `DELETE`, `DROP`, `LOAD CSV`, `FOREACH` change data; `EXPLAIN` plans
  without running (`PROFILE` runs); a `CALL` of a procedure reads only for
  the database's documented read-only catalogue procedures (`db.labels()`).
- KQL (Kusto): a query reads, always; a management command starts with a
  dot: `.show` reads, `.create`/`.append`/`.set-or-append`/`.ingest`/`.set`
  add, anything else (`.drop`, `.alter`, `.set-or-replace`, `.purge`)
  changes data.
- SPARQL 1.1: `SELECT`, `ASK`, `CONSTRUCT`, `DESCRIBE` read; of SPARQL
  Update, `INSERT`, `LOAD`, `CREATE` and `ADD` add (a graph is a set, so
  `INSERT DATA` is repeatable), `DELETE`, `CLEAR`, `DROP`, `COPY`, `MOVE`
  change data.
- CQL (Cassandra): read as SQL, except that an `INSERT` or `UPDATE` is an
  upsert (it replaces a row that exists) unless it says `IF NOT EXISTS`.
- mongosh: the methods a script calls, by the shell's documented collection
  and cursor methods (`find`, `countDocuments`, `getIndexes` read;
  `insertOne`, `createIndex` add; `updateOne`, `deleteMany`, `drop` and any
  method or function not listed change data);
- MongoDB database commands (`db.runCommand`): the command is the
  document's first key; the documented reads (`find`, `count`, `aggregate`
  without an `$out` or `$merge` stage, `explain` of anything) read;
  `insert`, `create`, `createIndexes` add; any other command changes data.
- Gremlin (Apache TinkerPop): a traversal is its steps; the reference's
  navigation, filter, map and reduce steps (`V`, `has`, `out`, `values`,
  `count`, `order`...) read; `addV`/`addE` add, with the `property` steps
  that follow them on the new element; `drop`, `mergeV`/`mergeE`, a
  `property` of an element that exists, `io`, `call` and any step not
  listed change data, and so does a lambda (a `{...}` closure runs code).

Literals, identifiers in backticks, IRIs and comments are taken out before
clauses are read, so a keyword in a string does not count. A keyword used as
a name elsewhere counts as the clause (cautious). A text no reading above
covers is destructive.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from hintgate.hints.calls.judgement import Act, Judgement, shorten
from hintgate.hints.calls.word_tables import word_set
from hintgate.scan.deferred import compiled

__all__ = ["LANGUAGES", "judge_language", "language_named"]

R, A, D = Act.READ, Act.ADDITIVE, Act.DESTRUCTIVE

LANGUAGES = ("cypher", "kql", "sparql", "cql", "mongo", "mongosh", "gremlin")
"""The languages judged here, by the names `language_named` returns."""

_NAMED = (
    ("sparql", compiled(r"\bsparql\b", re.I)),
    ("cypher", compiled(r"\b(?:cypher|opencypher)\b", re.I)),
    ("kql", compiled(r"\b(?:kql|kusto)\b", re.I)),
    # CQL is Cassandra's only beside Cassandra's words: Confluence's CQL is a search language.
    ("cql", compiled(r"\b(?:cassandra|scylla(?:db)?|keyspaces?)\b", re.I)),
    ("mongosh", compiled(r"\bmongosh\b|\bmongo shell\b", re.I)),
    ("gremlin", compiled(r"\b(?:gremlin|tinkerpop)\b", re.I)),
    (
        "mongo",
        compiled(r"\bmongo(?:db)?\b.{0,80}\b(?:database commands?|command documents?)\b|\bruncommand\b", re.I | re.S),
    ),
)


def language_named(text: str) -> str | None:
    """The one language of this module a tool's text names ("Run Cypher against the graph"), if exactly one."""
    found = [name for name, pattern in _NAMED if pattern.search(text)]
    return found[0] if len(found) == 1 else None


def judge_language(language: str, value: Any, sql: Callable[[str], Judgement]) -> Judgement | None:
    """What a statement (a command document for `mongo`) of `language` does; None for a value of another type.

    Args:
        language: one of `LANGUAGES`.
        value: the call's argument.
        sql: judges a SQL text (CQL is read as SQL first).
    """
    if language == "mongo":
        return _mongo(value) if isinstance(value, Mapping) else None
    if not isinstance(value, str):
        return None
    if language == "cypher":
        return _cypher(value)
    if language == "kql":
        return _kql(value)
    if language == "sparql":
        return _sparql(value)
    if language == "cql":
        return _cql(value, sql)
    if language == "mongosh":
        return _mongosh(value)
    if language == "gremlin":
        return _gremlin(value)
    return None


_STRINGS = compiled(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`", re.S)
_C_COMMENTS = compiled(r"//[^\n]*|/\*.*?\*/", re.S)
_WORDS = compiled(r"[A-Za-z_][\w.]*")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORDS.findall(text)]


# Cypher: clauses that add and clauses that change what exists (the Cypher manual's "writing clauses").
_CYPHER_ADDS = frozenset({"create"})
_CYPHER_CHANGES = frozenset(
    {"set", "remove", "delete", "detach", "drop", "load", "foreach", "alter", "rename"}
    # administration: privileges, databases, servers, transactions
    | {"grant", "deny", "revoke", "start", "stop", "terminate", "kill", "enable", "disable", "deallocate"}
    | {"reallocate", "dryrun", "finish"}
)
_CYPHER_READ_PROCEDURES = frozenset(
    {"db.labels", "db.relationshiptypes", "db.propertykeys", "db.schema.visualization", "db.indexes"}
    | {"db.schema.nodetypeproperties", "db.schema.reltypeproperties", "db.constraints", "db.info", "db.ping"}
    | {"dbms.components", "dbms.procedures", "dbms.functions", "dbms.showcurrentuser", "dbms.listconfig"}
)


_CYPHER_CALL = compiled(r"\bcall\s+([A-Za-z_][\w.]*)", re.I)


def _cypher(text: str) -> Judgement:
    bare = _C_COMMENTS.sub(" ", _STRINGS.sub(" '' ", text))
    parts = [p for p in bare.split(";") if p.strip()]
    if len(parts) > 1:
        # Several statements (cypher-shell runs each): the riskiest.
        judged = [_cypher_statement(p, shorten(text, 72)) for p in parts]
        return max(judged, key=lambda j: j.act)
    return _cypher_statement(bare, shorten(text, 72))


def _cypher_statement(bare: str, shown: str) -> Judgement:
    words = _words(bare)
    if words and words[0] == "explain":
        return Judgement(R, f"{shown} (a plan; not run)", "cypher", True)
    act = R
    idempotent = True
    for word in words:
        if word in _CYPHER_CHANGES:
            act = D
        elif word in _CYPHER_ADDS:
            act = max(act, A)
            idempotent = False  # each CREATE makes another node
        elif word == "merge":
            act = max(act, A)  # creates only what no match finds
    # `CALL { ... }` is a subquery, judged by its clauses above; a procedure not known to read may write.
    if any(name.lower() not in _CYPHER_READ_PROCEDURES for name in _CYPHER_CALL.findall(bare)):
        act = D
    return Judgement(act, shown, "cypher", True if act is R else (idempotent if act is A else None))


_KQL_COMMAND_AFTER = compiled(r";\s*\.[A-Za-z]")
# KQL management commands that add (a table or rows; `.set` fails when the table exists).
_KQL_ADDS = frozenset({".create", ".append", ".set-or-append", ".ingest", ".set", ".create-merge"})


def _kql(text: str) -> Judgement:
    shown = shorten(text, 72)
    bare = _C_COMMENTS.sub(" ", _STRINGS.sub(" '' ", text))
    lines = [line.strip() for line in bare.splitlines() if line.strip()]
    if not lines:
        return Judgement(R, "an empty query", "kql", True)
    commands = [line for line in lines if line.startswith(".")]
    if not commands:
        if _KQL_COMMAND_AFTER.search(bare):
            return Judgement(D, f"{shown} (a command after a statement)", "kql")
        return Judgement(R, f"{shown} (a query)", "kql", True)
    if commands != lines[:1]:
        return Judgement(D, f"{shown} (commands after a query)", "kql")
    command = re.match(r"\.[\w-]+", commands[0])
    name = command.group(0).lower() if command else ""
    if name == ".show" and ";" not in bare:
        return Judgement(R, shown, "kql", True)
    if name in _KQL_ADDS:
        return Judgement(A, shown, "kql", None)
    return Judgement(D, shown, "kql")


_IRIS = compiled(r"<[^<>\s]*>")
_HASH_COMMENTS = compiled(r"#[^\n]*")
_NAMES = compiled(r"[?$]\w+|[\w-]*:[\w.-]*")
_SPARQL_READS = frozenset({"select", "ask", "construct", "describe"})
_SPARQL_ADDS = frozenset({"insert", "load", "create", "add"})
_SPARQL_CHANGES = frozenset({"delete", "clear", "drop", "copy", "move"})


def _sparql(text: str) -> Judgement:
    shown = shorten(text, 72)
    bare = _NAMES.sub(" ", _HASH_COMMENTS.sub(" ", _IRIS.sub(" ", _STRINGS.sub(" '' ", text))))
    words = set(_words(bare))
    if words & _SPARQL_CHANGES:
        return Judgement(D, shown, "sparql")
    if words & _SPARQL_ADDS:
        # A graph is a set of triples: adding the same data again adds nothing (LOAD fetches anew).
        return Judgement(A, shown, "sparql", "load" not in words, True if "load" in words else None)
    if words & _SPARQL_READS:
        return Judgement(R, shown, "sparql", True)
    return Judgement(D, f"{shown} (no query form hintgate reads)", "sparql")


_IF_NOT_EXISTS = compiled(r"\bif\s+not\s+exists\b", re.I)
_UPSERTS = compiled(r"^\s*(?:insert|update)\b", re.I | re.M)


# A lightweight transaction's condition at the end of a CQL INSERT (`... IF NOT EXISTS`), which SQL has not.
_TRAILING_IF_NOT_EXISTS = compiled(r"\bIF\s+NOT\s+EXISTS\s*(;|$)", re.I)


def _cql(text: str, sql: Callable[[str], Judgement]) -> Judgement:
    conditional = _TRAILING_IF_NOT_EXISTS.sub(r"\1", text)
    judged = sql(conditional)
    if conditional != text and judged.act is A:
        # A repeat finds the row there and inserts nothing more.
        return Judgement(A, f"{judged.what} (only where the row is absent)", "cql", True)
    if judged.act is A and _UPSERTS.search(text) and not _IF_NOT_EXISTS.search(text):
        # Cassandra writes by key: an INSERT replaces the row that has it.
        return Judgement(D, f"{judged.what} (an upsert)", "cql")
    return judged


_MONGO_READS = frozenset(
    {"find", "count", "distinct", "explain", "listcollections", "listindexes", "listdatabases", "dbstats"}
    | {"collstats", "serverstatus", "buildinfo", "ping", "hello", "ismaster", "connectionstatus", "datasize"}
    | {"hostinfo", "getmore", "currentop", "getparameter", "getlog"}
)
_MONGO_ADDS = frozenset({"insert", "create", "createindexes"})


def _mongo(document: Mapping[Any, Any]) -> Judgement:
    name = next(iter(document), None)
    if not isinstance(name, str):
        return Judgement(D, "an empty command document", "mongo")
    command = name.lower()
    shown = f"{name}: {shorten(str(document[name]), 40)}"
    if command == "aggregate":
        pipeline = document.get("pipeline")
        stages = pipeline if isinstance(pipeline, list) else [None]
        if all(isinstance(s, Mapping) and not {"$out", "$merge"} & set(s) for s in stages):
            return Judgement(R, f"{shown} (an aggregation)", "mongo", True)
        return Judgement(D, f"{shown} (writes its output)", "mongo")
    if command in _MONGO_READS:
        return Judgement(R, shown, "mongo", True)
    if command in _MONGO_ADDS:
        return Judgement(A, shown, "mongo", command != "insert")
    return Judgement(D, shown, "mongo")


def _lowered(text: str) -> frozenset[str]:
    """The words of a table written as text, lower case."""
    return word_set(text.lower())


_MONGOSH_READS = _lowered(
    """
    find findOne countDocuments estimatedDocumentCount count distinct aggregate getCollectionNames
    getCollectionInfos getIndexes getIndexKeys stats dataSize totalSize storageSize totalIndexSize explain limit
    skip sort project projection toArray pretty hint batchSize itcount size hasNext next forEach map getName
    getSiblingDB getCollection serverStatus version hostInfo isMaster hello stringify parse floor ceil round min
    max abs getTime toISOString tryNext close comment maxTimeMS collation readPref allowDiskUse
    """
)
_MONGOSH_ADDS = _lowered("insertOne insertMany insert createIndex createIndexes createCollection createView")
_MONGOSH_FUNCTIONS = _lowered(
    "ObjectId ISODate Date NumberInt NumberLong NumberDecimal UUID Timestamp BinData printjson print tojson"
)
_JS_CALL = compiled(r"(\.)?\s*([A-Za-z_$][\w$]*)\s*\(")
_EXPLAINED = compiled(r"\.\s*explain\s*\([^()]*\)\s*\.\s*[A-Za-z_$][\w$]*\s*\(")
_SHELL_HELPER = compiled(r"^\s*(?:use|show)\s+\w+\s*;?\s*$", re.I | re.M)


def _mongosh(text: str) -> Judgement:
    shown = shorten(text, 72)
    bare = _SHELL_HELPER.sub(" ", _C_COMMENTS.sub(" ", _STRINGS.sub(" '' ", text)))
    # `db.c.explain().remove(...)`: a write method called on the explainable object reports its plan and
    # modifies nothing (the shell's manual), as a find does.
    bare = _EXPLAINED.sub(".explain().find(", bare)
    act = R
    insert_only = True
    for dot, name in _JS_CALL.findall(bare):
        lowered = name.lower()
        if dot and lowered in _MONGOSH_READS:
            continue
        if dot and lowered in _MONGOSH_ADDS:
            act = max(act, A)
            insert_only = insert_only and lowered.startswith("insert")
            continue
        if not dot and lowered in _MONGOSH_FUNCTIONS:
            continue
        return Judgement(D, f"{shown} ({name}: not a method hintgate reads)", "mongosh")
    if act is R and re.search(r"\$(?:out|merge)\b", bare):
        return Judgement(D, f"{shown} (an aggregation that writes its output)", "mongosh")
    return Judgement(act, shown, "mongosh", True if act is R else (False if insert_only else None))


# Gremlin steps that read (TinkerPop reference: start, navigation, filter, map, reduce and branch steps, the
# predicates and tokens written as calls, and the terminal steps that only fetch results).
_GREMLIN_READS = frozenset(
    {"v", "e", "has", "haslabel", "hasid", "haskey", "hasvalue", "hasnot", "is", "not", "and", "or", "where"}
    | {"filter", "out", "in", "both", "oute", "ine", "bothe", "outv", "inv", "otherv", "bothv", "values"}
    | {"valuemap", "elementmap", "properties", "propertymap", "key", "value", "label", "id", "count", "sum"}
    | {"min", "max", "mean", "fold", "unfold", "group", "groupcount", "order", "by", "limit", "range", "skip"}
    | {"tail", "dedup", "path", "simplepath", "cyclicpath", "select", "project", "as", "coalesce", "optional"}
    | {"union", "repeat", "times", "until", "emit", "loops", "choose", "option", "constant", "identity", "local"}
    | {"barrier", "math", "tolist", "toset", "next", "hasnext", "trynext", "explain", "profile", "within"}
    | {"without", "eq", "neq", "lt", "lte", "gt", "gte", "between", "inside", "outside", "containing"}
    | {"startingwith", "endingwith", "notcontaining", "regex", "cap", "aggregate", "store", "inject", "sample"}
    | {"coin", "index", "asstring", "concat", "tolower", "toupper", "trim", "length", "split", "substring"}
    | {"format", "datediff", "asdate", "combine", "difference", "intersect", "merge", "product", "conjoin"}
    | {"disjunct", "reverse", "shortestpath", "timelimit", "iterate", "none", "all", "any", "element"}
)
_GREMLIN_ADDS = frozenset({"addv", "adde"})
# After addV/addE a step that sets the new element's properties or the edge's ends still only adds.
_GREMLIN_ON_NEW = frozenset({"property", "from", "to", "as"})
_GREMLIN_STEP = compiled(r"([A-Za-z_]\w*)\s*\(")


def _gremlin(text: str) -> Judgement:
    shown = shorten(text, 72)
    bare = _C_COMMENTS.sub(" ", _STRINGS.sub(" '' ", text))
    if "{" in bare:
        return Judgement(D, f"{shown} (a lambda runs code)", "gremlin")
    act = R
    on_new = False
    for match in _GREMLIN_STEP.finditer(bare):
        step = match.group(1).lower()
        if step in _GREMLIN_ADDS:
            act, on_new = max(act, A), True
        elif (on_new and step in _GREMLIN_ON_NEW) or (step in _GREMLIN_READS and step not in {"v", "e"}):
            continue
        elif step in {"v", "e"}:
            # A traversal back to elements that exist, unless it is an argument (`from(V(1))`, `to(__.V(2))`).
            on_new = on_new and bare[: match.start()].rstrip().endswith(("(", ",", "__."))
        else:
            return Judgement(D, f"{shown} ({match.group(1)}() changes data)", "gremlin")
    if act is R and not _GREMLIN_STEP.search(bare):
        return Judgement(D, f"{shown} (no traversal hintgate can read)", "gremlin")
    return Judgement(act, shown, "gremlin", act is R)
