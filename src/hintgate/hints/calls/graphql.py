"""What a GraphQL request does, read with graphql-core's parser: a query reads, a mutation does what its fields say.

Pure (graphql-core is imported at the first document read). A request body
carries a document (`{"query": "...", "operationName": ...}`, as JSON or as
an object); the operation that runs is the one `operationName` names, or
every operation when none is named (the riskiest counts). A `query` or
`subscription` reads; a `mutation` does what its top-level fields' names say
by the verb lexicon (`addComment` adds, `deleteProjectV2Item` deletes,
`updateIssue` updates), and a field no verb names is destructive (a mutation
whose effect the call does not say). Comments (`# mutation {...}`) and
operation names are not fields.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from hintgate.hints.calls.judgement import Act, Judgement
from hintgate.hints.calls.verbs import verb_act

__all__ = ["MAX_GRAPHQL", "judge_graphql"]

MAX_GRAPHQL = 32_000
"""Characters of a document read; a longer one is not judged as GraphQL (the request's method stands)."""


def judge_graphql(body: Any) -> Judgement | None:
    """What the GraphQL operation in a request `body` does; None when the body holds no GraphQL document."""
    if isinstance(body, str) and body.lstrip().startswith("{"):
        try:
            body = json.loads(body)
        except ValueError:
            return None
    if not isinstance(body, Mapping):
        return None
    document = body.get("query")
    if not isinstance(document, str) or not document.strip() or len(document) > MAX_GRAPHQL:
        return None
    operations = _operations(document)
    if operations is None:
        return None
    name = body.get("operationName")
    chosen = [op for op in operations if op[1] == name] if isinstance(name, str) else operations
    if not chosen:
        return None
    parts = [_operation(kind, fields) for kind, _name, fields in chosen]
    worst = max(parts, key=lambda p: p[0])
    act = worst[0]
    idempotent = True if act is Act.READ else all(p[1] is True for p in parts if p[0] is not Act.READ)
    return Judgement(act, f"a GraphQL {worst[2]}", "http.graphql", idempotent, True)


def _operation(kind: str, fields: tuple[str, ...]) -> tuple[Act, bool | None, str]:
    if kind != "mutation":
        return Act.READ, True, kind
    act, idempotent = Act.READ, True
    for field in fields or ("?",):
        found = verb_act(field)
        if found is None:
            return Act.DESTRUCTIVE, None, f"mutation {field}"
        act = max(act, found[0])
        idempotent = idempotent and found[1] is True
    if act is Act.READ:
        # A mutation field named like a read (`validateX`) still runs as a mutation: at least additive.
        act = Act.ADDITIVE
    return act, idempotent, f"mutation {', '.join(fields)}"


def _operations(document: str) -> list[tuple[str, str | None, tuple[str, ...]]] | None:
    """(kind, name, top-level field names) of each operation, or None when the text is no GraphQL document."""
    language = _language()
    try:
        parsed = language.parse(document, no_location=True, max_tokens=10_000)
    except Exception:  # GraphQLError and whatever a hostile text makes the parser raise: no document
        return None
    found = []
    for definition in parsed.definitions:
        if not isinstance(definition, language.OperationDefinitionNode):
            continue
        fields = tuple(s.name.value for s in definition.selection_set.selections if isinstance(s, language.FieldNode))
        name = definition.name.value if definition.name is not None else None
        found.append((definition.operation.value, name, fields))
    return found or None


@functools.cache
def _language() -> Any:
    import graphql.language

    return graphql.language
