"""HTTP methods and action values judged by what the request or the action does, with the flags beside them."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.hints.calls import ArgumentJudge
from hintgate.hints.calls.choices import judge_method
from hintgate.hints.calls.judgement import Act


def tool(properties: dict[str, Any], description: str = "", name: str = "tool") -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": properties}}


def judged(listed: dict[str, Any], arguments: dict[str, Any]) -> Act:
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    found = judge.judge(arguments)
    assert found is not None
    return found.act


REQUEST = tool(
    {"method": {"type": "string", "description": "HTTP method"}, "url": {"type": "string"}, "body": {}},
    "Make an HTTP request.",
)


@pytest.mark.parametrize(
    ("body", "act"),
    [
        ({"query": "query { viewer { login } }"}, Act.READ),
        ({"query": "{ viewer { login } }"}, Act.READ),
        ({"query": 'query DeleteCandidates { repository(name: "api") { name } }'}, Act.READ),
        ({"query": "# mutation { deleteRepository(input: {}) { id } }\nquery { rateLimit { remaining } }"}, Act.READ),
        ({"query": 'mutation { addComment(input: {body: "x"}) { id } }'}, Act.ADDITIVE),
        ({"query": 'mutation { deleteProjectV2Item(input: {itemId: "1"}) { id } }'}, Act.DESTRUCTIVE),
        ({"query": 'mutation { updateIssue(input: {id: "1"}) { id } }'}, Act.DESTRUCTIVE),
        ({"query": "mutation { frobnicate(id: 1) { id } }"}, Act.DESTRUCTIVE),
        ('{"query": "mutation CreateUser { createUser(email: \\"a\\") { id } }"}', Act.ADDITIVE),
        (
            {"query": "query Q { a } mutation M { deleteAll { n } }", "operationName": "Q"},
            Act.READ,
        ),
        ({"query": "query Q { a } mutation M { deleteAll { n } }"}, Act.DESTRUCTIVE),
    ],
)
def test_a_graphql_post_does_what_its_operation_does(body: Any, act: Act) -> None:
    arguments = {"method": "POST", "url": "https://api.example.com/graphql", "body": body}
    assert judged(REQUEST, arguments) is act


def test_a_post_body_that_is_no_graphql_document_keeps_the_method_profile() -> None:
    arguments = {"method": "POST", "url": "https://api.example.com/orders", "body": {"query": "red shoes"}}
    assert judged(REQUEST, arguments) is Act.ADDITIVE


@pytest.mark.parametrize(
    ("method", "url", "act"),
    [
        ("DELETE", "https://k8s.example.com/api/v1/namespaces/staging?dryRun=All", Act.READ),
        ("POST", "https://k8s.example.com/api/v1/namespaces/default/pods?dryRun=All", Act.READ),
        ("DELETE", "https://k8s.example.com/api/v1/namespaces/staging?dryRun=", Act.DESTRUCTIVE),
        ("GET", "https://news.example.com/newsletter/unsubscribe?token=4f9a", Act.DESTRUCTIVE),
        ("GET", "https://ci.example.com/job/deploy/build?token=abc", Act.DESTRUCTIVE),
        ("POST", "https://translation.example.com/language/translate/v2", Act.READ),
        ("GET", "https://httpbin.org/anything?delete=true&drop=users", Act.READ),
    ],
)
def test_the_url_says_what_a_request_does(method: str, url: str, act: Act) -> None:
    found = judge_method(method, "method", url)
    assert found is not None
    assert found.act is act


def test_a_method_left_out_is_the_schemas_default() -> None:
    fetch = tool({"url": {"type": "string"}, "verb": {"type": "string", "default": "GET"}}, "Fetch a URL.")
    assert judged(fetch, {"url": "https://example.com/pricing"}) is Act.READ
    assert judged(fetch, {"url": "https://example.com/newsletter/unsubscribe?t=1"}) is Act.DESTRUCTIVE


FILES = tool(
    {
        "operation": {"type": "string", "enum": ["read", "write", "move", "copy", "delete"]},
        "path": {"type": "string"},
        "overwrite": {"type": "boolean", "description": "replace an existing file; when false the call fails"},
    },
    "Filesystem operations.",
)


@pytest.mark.parametrize(
    ("arguments", "act"),
    [
        ({"operation": "write", "path": "a", "overwrite": False}, Act.ADDITIVE),
        ({"operation": "copy", "path": "a", "overwrite": False}, Act.ADDITIVE),
        ({"operation": "write", "path": "a"}, Act.DESTRUCTIVE),
        ({"operation": "write", "path": "a", "overwrite": True}, Act.DESTRUCTIVE),
        ({"operation": "move", "path": "a", "overwrite": False}, Act.DESTRUCTIVE),
        ({"operation": "delete", "path": "a", "overwrite": False}, Act.DESTRUCTIVE),
    ],
)
def test_a_write_told_never_to_replace_only_creates(arguments: dict[str, Any], act: Act) -> None:
    assert judged(FILES, arguments) is act


def test_a_put_only_if_the_key_does_not_exist_only_creates() -> None:
    store = tool(
        {
            "mode": {"type": "string", "enum": ["list", "get", "put", "delete"]},
            "key": {"type": "string"},
            "if_none_match": {"type": "boolean", "description": "put only if the key does not exist yet"},
        }
    )
    assert judged(store, {"mode": "put", "key": "k", "if_none_match": True}) is Act.ADDITIVE
    assert judged(store, {"mode": "put", "key": "k"}) is Act.DESTRUCTIVE


@pytest.mark.parametrize(
    ("value", "act"),
    [
        ("ttl", Act.READ),
        ("stats", Act.READ),
        ("presign", Act.READ),
        ("draft", Act.ADDITIVE),
        ("incr", Act.DESTRUCTIVE),
        ("toggle", Act.DESTRUCTIVE),
        ("archive", Act.DESTRUCTIVE),
        ("unsubscribe", Act.DESTRUCTIVE),
        ("star", Act.ADDITIVE),
    ],
)
def test_an_actions_value_means_what_the_word_means(value: str, act: Act) -> None:
    listed = tool({"action": {"type": "string", "enum": [value, "get"]}})
    assert judged(listed, {"action": value}) is act


def test_a_json_patch_that_only_appends_to_arrays_is_additive() -> None:
    url = "https://api.example.com/v1/playlists/7"
    appends = [{"op": "add", "path": "/tracks/-", "value": "trk_99"}]
    found = judge_method("PATCH", "method", url, appends)
    assert found is not None
    assert found.act is Act.ADDITIVE
    for body in ([{"op": "add", "path": "/name", "value": "x"}], [{"op": "remove", "path": "/tracks/0"}], {}):
        found = judge_method("PATCH", "method", url, body)  # an add to a member replaces it
        assert found is not None
        assert found.act is Act.DESTRUCTIVE


@pytest.mark.parametrize(
    ("url", "act"),
    [
        ("https://api.example.com/v1/charges/ch_3MmlLrLk/capture", Act.ADDITIVE),
        ("https://api.example.com/print", Act.ADDITIVE),
        ("https://api.example.com/v1/products/search", Act.READ),
        ("https://api.dropboxapi.com/2/files/list_folder", Act.READ),
        ("https://api.example.com/v1/customers/cus_NffrFeUfNV2Hib", Act.DESTRUCTIVE),
    ],
)
def test_a_post_reads_only_where_its_endpoint_names_a_search_a_listing_or_a_computation(url: str, act: Act) -> None:
    found = judge_method("POST", "method", url)
    assert found is not None
    assert found.act is act


def test_a_method_override_header_is_the_method_a_server_applies() -> None:
    headers = {"X-HTTP-Method-Override": "DELETE"}
    found = judge_method("POST", "method", "https://api.example.com/v1/items/search", None, headers)
    assert found is not None
    assert found.act is Act.DESTRUCTIVE
    arguments = {"method": "POST", "url": "https://api.example.com/items/search", "headers": headers}
    listed = tool({**REQUEST["inputSchema"]["properties"], "headers": {"type": "object"}}, "Make an HTTP request.")
    assert judged(listed, arguments) is Act.DESTRUCTIVE


@pytest.mark.parametrize("value", ["capture", "take", "print", "check"])
def test_a_read_word_that_as_often_acts_is_not_judged_alone(value: str) -> None:
    judge = ArgumentJudge.of(tool({"action": {"type": "string", "enum": [value, "get"]}}))
    assert judge is not None
    assert judge.judge({"action": value}) is None  # the tool's own hints stand


@pytest.mark.parametrize(
    ("target", "body", "act"),
    [
        ("https://db.example.com/query", {"sql": "DELETE FROM orders"}, Act.DESTRUCTIVE),
        ("https://db.example.com/v1/statements", "DROP TABLE orders", Act.DESTRUCTIVE),
        ("https://api.example.com/search?_method=DELETE", None, Act.DESTRUCTIVE),
        ("https://api.example.com/items", "_method=DELETE&id=4", Act.DESTRUCTIVE),
        ("https://api.example.com/items", {"_method": "delete"}, Act.DESTRUCTIVE),
        # A search body, or a statement that only reads, keeps what the endpoint says.
        ("https://db.example.com/query", {"sql": "SELECT * FROM orders"}, Act.READ),
        ("https://api.example.com/search", {"q": "drop shipping"}, Act.READ),
    ],
)
def test_a_post_does_what_a_statement_or_a_method_parameter_it_carries_says(target: str, body: Any, act: Act) -> None:
    judged = judge_method("POST", "method", target, body)
    assert judged is not None
    assert judged.act is act


@pytest.mark.parametrize(
    "target",
    ["https://hooks.example.com/hooks/catch/123456/abcdef/", "/repos/acme/app/dispatches", "/api/webhooks/deploy"],
)
def test_a_post_to_a_webhook_or_a_dispatch_endpoint_is_destructive(target: str) -> None:
    judged = judge_method("POST", "method", target, {"event": "run"})
    assert judged is not None
    assert judged.act is Act.DESTRUCTIVE


def test_a_get_of_a_webhook_listing_still_reads() -> None:
    judged = judge_method("GET", "method", "/repos/acme/app/hooks")
    assert judged is not None
    assert judged.act is Act.READ


@pytest.mark.parametrize(
    ("query", "act"),
    [
        ({"dry_run": "true"}, Act.READ),
        ({"preview": True}, Act.READ),
        ({"dry_run": "false"}, Act.DESTRUCTIVE),
        ({"page": 2}, Act.DESTRUCTIVE),
    ],
)
def test_a_query_string_object_beside_the_url_is_part_of_the_request(query: dict[str, Any], act: Act) -> None:
    listed = {
        "name": "rest_call",
        "description": "Call a REST endpoint.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "method": {"type": "string", "enum": ["GET", "POST", "DELETE"]},
                "endpoint": {"type": "string"},
                "query": {"type": "object"},
            },
        },
    }
    judge = ArgumentJudge.of(listed)
    assert judge is not None
    judged = judge.judge({"method": "DELETE", "endpoint": "https://api.example.com/v1/projects/9", "query": query})
    assert judged is not None
    assert judged.act is act


@pytest.mark.parametrize(
    ("value", "act"),
    [
        ("mark_done", Act.DESTRUCTIVE),
        ("markAsSpam", Act.DESTRUCTIVE),
        ("mark", Act.ADDITIVE),
        ("pin", Act.ADDITIVE),
    ],
)
def test_marking_a_state_replaces_the_state_an_item_had_and_a_bare_marker_only_adds(value: str, act: Act) -> None:
    listed = tool({"action": {"type": "string", "enum": [value, "get"]}})
    assert judged(listed, {"action": value}) is act


@pytest.mark.parametrize("target", ["/v2/payments/pay_7/void", "/orders/41/annul", "/charges/ch_3/nullify"])
def test_a_post_that_voids_or_annuls_a_thing_cancels_it(target: str) -> None:
    found = judge_method("POST", "method", target, None)
    assert found is not None
    assert found.act is Act.DESTRUCTIVE


@pytest.mark.parametrize(
    ("url", "act"),
    [
        ("https://slack.com/api/conversations.history", Act.READ),
        ("https://slack.com/api/users.info", Act.READ),
        ("https://slack.com/api/chat.postMessage", Act.ADDITIVE),
        ("https://slack.com/api/chat.delete", Act.DESTRUCTIVE),
        ("https://files.example.com/upload/report.pdf", Act.ADDITIVE),
    ],
)
def test_a_post_to_a_method_named_in_the_path_does_what_its_verb_says(url: str, act: Act) -> None:
    found = judge_method("POST", "method", url)
    assert found is not None
    assert found.act is act
