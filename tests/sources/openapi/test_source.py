"""OpenAPI documents as tools: conversion, calls over HTTP, and the gateway serving them to a real MCP client."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from typer.testing import CliRunner

from hintgate.cli.app import app
from hintgate.config.loading import parse_config
from hintgate.config.model import ApiAuth, OpenApiConfig
from hintgate.errors import ConfigError, TargetError, UpstreamError, UpstreamTimeout
from hintgate.hints.annotations import Hint, Origin, parse_annotations
from hintgate.hints.catalog import NAME_CHARS, NAME_MAX_STRICT, ToolFacts, resolve_tool
from hintgate.sources.base import SourceState
from hintgate.sources.openapi.convert import Parameter, build_tools, decode_document, title_from_id
from hintgate.sources.openapi.serialization import prepare_request
from hintgate.sources.openapi.source import OpenApiSource
from isolation import child_env

pytestmark = pytest.mark.anyio

FIXTURES = Path(__file__).parents[2] / "fixtures" / "openapi"
SHARED = Path(__file__).parents[3].parent / "shared" / "openapi"
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
TOKEN = "s3cr3t-token-value-42"


def shared_document(name: str) -> Path:
    path = SHARED / name
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: CI has shared/ beside the clone")
        pytest.skip(f"{path} is not beside this checkout")
    return path


def load(path: Path, **kwargs: Any) -> Any:
    return build_tools(decode_document(path.read_bytes(), source=path.name), source=path.name, **kwargs)


# ---------------------------------------------------------------- a local API that echoes what it got


class EchoApi:
    """A petstore-shaped HTTP API on 127.0.0.1 that answers every method and echoes each request."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.url = ""

    async def handle(self, request: Request) -> Response:
        body = await request.body()
        seen = {
            "method": request.method,
            "path": request.url.path,
            "raw_path": request.scope["raw_path"].decode(),
            "query": request.url.query,
            "headers": {k.lower(): v for k, v in request.headers.items()},
            "body": body.decode("utf-8", "replace"),
        }
        self.received.append(seen)
        path = request.url.path
        if path.endswith("/slow"):
            await asyncio.sleep(3)
        if path.endswith("/pet/404") or path.endswith("/things/missing"):
            return PlainTextResponse(f"Pet not found; you sent {seen['headers'].get('authorization')}", 404)
        if path.endswith("/store/inventory"):
            return JSONResponse({"available": 3, "sold": 1})
        if request.method == "HEAD":
            return Response(status_code=200, headers={"X-Thing": "yes"})
        if request.method == "OPTIONS":
            return Response(status_code=204, headers={"Allow": "GET, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE"})
        if request.method == "DELETE":
            return Response(status_code=204)
        return JSONResponse({"id": 1, "name": "echo", "label": "echo", "photoUrls": [], "echo": seen})


@contextmanager
def echo_api() -> Iterator[EchoApi]:
    import uvicorn

    api = EchoApi()
    starlette = Starlette(
        routes=[
            Route(
                "/{path:path}",
                api.handle,
                methods=["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"],
            )
        ]
    )
    server = uvicorn.Server(uvicorn.Config(starlette, host="127.0.0.1", port=0, log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the echo API did not start"
        assert thread.is_alive(), "the echo API failed to start"
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    api.url = f"http://127.0.0.1:{port}"
    try:
        yield api
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class NoClient:
    @property
    def session_key(self) -> object:
        return self

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        return None

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        raise AssertionError("no client requests expected")

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        return None


@asynccontextmanager
async def running(source: OpenApiSource) -> AsyncIterator[OpenApiSource]:
    task = asyncio.create_task(source.run())
    try:
        await source.wait_started(10)
        yield source
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


# ---------------------------------------------------------------- through the gateway, with a real MCP client


def gateway_params(config: Path, env: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config)],
        env=child_env(**(env or {})),
    )


@asynccontextmanager
async def through_gateway(config: Path, env: dict[str, str] | None = None) -> AsyncIterator[Client]:
    with anyio.fail_after(60):
        async with Client(gateway_params(config, env), mode="legacy") as client:
            yield client


def wire(tool: Any) -> dict[str, Any]:
    data: dict[str, Any] = tool.model_dump(by_alias=True, exclude_none=True, mode="json")
    return data


def result_json(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    return data


@pytest.mark.parametrize("document", ["petstore.oas3.json", "petstore.swagger2.json"])
async def test_petstore_is_served_through_the_gateway_and_every_method_reaches_the_api(
    tmp_path: Path, document: str
) -> None:
    path = shared_document(document)
    with echo_api() as api:
        config = tmp_path / "hintgate.json"
        config.write_text(
            json.dumps(
                {
                    "policy": {"mode": "bypass"},  # these tests are about calls reaching the API
                    "openapi": {
                        "pets": {
                            "document": str(path),
                            "baseUrl": api.url + "/v2",
                            "auth": {"bearer": "${PETSTORE_TOKEN}"},
                        }
                    },
                }
            )
        )
        async with through_gateway(config, {"PETSTORE_TOKEN": TOKEN}) as client:
            tools = {t.name: wire(t) for t in (await client.list_tools()).tools}
            got = await client.call_tool("pets_getPetById", {"petId": 7})
            added = await client.call_tool(
                "pets_addPet", {"name": "Rex", "photoUrls": ["http://x/1.png"], "status": "available"}
            )
            updated = await client.call_tool("pets_updatePet", {"body": {"name": "Rex", "photoUrls": []}})
            if "body" not in tools["pets_updatePet"]["inputSchema"]["properties"]:
                updated = await client.call_tool("pets_updatePet", {"name": "Rex", "photoUrls": []})
            deleted = await client.call_tool("pets_deletePet", {"petId": 7, "api_key": "header-value"})
            found = await client.call_tool("pets_findPetsByStatus", {"status": ["available", "sold"]})
            form = await client.call_tool("pets_updatePetWithForm", {"petId": 7, "name": "Max", "status": "sold"})
            inventory = await client.call_tool("pets_getInventory", {})
            missing = await client.call_tool("pets_getPetById", {"petId": 404})
            no_id = await client.call_tool("pets_getPetById", {})

    assert len(tools) == 20
    for name, tool in tools.items():
        assert set(tool["annotations"]) >= set(HINTS), name
        assert "title" not in tool["annotations"], name  # titles live in Tool.title
        assert tool["title"], name
        assert len(name) <= NAME_MAX_STRICT
        assert NAME_CHARS.match(name)
    get, post, put, delete = (
        tools[f"pets_{n}"]["annotations"] for n in ("getPetById", "addPet", "updatePet", "deletePet")
    )
    assert [get[h] for h in HINTS] == [True, False, True, True]  # AC1
    assert [post[h] for h in HINTS] == [False, False, False, True]  # AC2
    assert [put[h] for h in HINTS] == [False, True, True, True]  # AC3
    assert [delete[h] for h in HINTS] == [False, True, True, True]  # AC5
    provenance = tools["pets_getPetById"]["_meta"]["hintgate/provenance"]
    assert provenance == dict.fromkeys(HINTS, "inferred:http.get")
    assert tools["pets_getPetById"]["title"] == "Find pet by ID"

    assert got.is_error is False
    assert got.structured_content is not None
    assert got.structured_content["echo"]["path"] == "/v2/pet/7"
    assert got.structured_content["echo"]["headers"]["authorization"] == "Bearer ***"
    assert added.is_error is False
    calls = api.received
    by = {(c["method"], c["path"]): c for c in calls}
    assert json.loads(by[("POST", "/v2/pet")]["body"]) == {
        "name": "Rex",
        "photoUrls": ["http://x/1.png"],
        "status": "available",
    }
    assert by[("POST", "/v2/pet")]["headers"]["content-type"] == "application/json"
    assert ("PUT", "/v2/pet") in by
    assert updated.is_error is False
    assert by[("DELETE", "/v2/pet/7")]["headers"]["api_key"] == "header-value"
    assert deleted.is_error is False
    assert by[("GET", "/v2/pet/findByStatus")]["query"] == "status=available&status=sold"
    assert found.is_error is False
    assert by[("POST", "/v2/pet/7")]["body"] == "name=Max&status=sold"
    assert by[("POST", "/v2/pet/7")]["headers"]["content-type"] == "application/x-www-form-urlencoded"
    assert form.is_error is False
    assert inventory.structured_content == {"available": 3, "sold": 1}
    assert all(c["headers"]["authorization"] == f"Bearer {TOKEN}" for c in calls)
    assert missing.is_error is True
    text = result_json(missing)["content"][0]["text"]
    assert text.startswith("HTTP 404")
    assert TOKEN not in text
    assert "***" in text
    assert no_id.is_error is True
    assert "petId" in result_json(no_id)["content"][0]["text"]


async def test_patch_head_options_and_trace_are_called_and_annotated_per_seed_002(
    tmp_path: Path, demo_cmd: list[str]
) -> None:
    with echo_api() as api:
        config = tmp_path / "hintgate.yaml"
        config.write_text(
            "policy: {mode: bypass}\n"
            f"mcpServers:\n  demo: {{command: {json.dumps(demo_cmd[0])}, args: {json.dumps(demo_cmd[1:])}}}\n"
            f"openapi:\n  things:\n    document: {FIXTURES / 'methods.oas31.yaml'}\n    baseUrl: {api.url}/api\n"
        )
        async with through_gateway(config) as client:
            listed = {t.name: wire(t) for t in (await client.list_tools()).tools}
            patched = await client.call_tool("things_patchThing", {"thingId": "a b/c", "label": None})
            head = await client.call_tool("things_headThing", {"thingId": "x"})
            options = await client.call_tool("things_thingOptions", {"thingId": "x"})
            traced = await client.call_tool("things_traceThing", {"thingId": "x"})
            demo = await client.call_tool("demo_search_notes", {"query": "milk"})

    def hints(name: str) -> list[bool]:
        return [listed[name]["annotations"][h] for h in HINTS]

    assert hints("things_patchThing") == [False, True, False, True]  # AC4
    assert hints("things_headThing") == hints("things_getThing") == [True, False, True, True]  # AC6
    assert hints("things_thingOptions") == [True, False, True, True]  # AC6
    trace_provenance = listed["things_traceThing"]["_meta"]["hintgate/provenance"]
    assert not any(p.startswith("inferred:http.") for p in trace_provenance.values())  # AC7: no method hints
    assert all("title" not in t["annotations"] for n, t in listed.items() if n.startswith("things_"))  # AC8
    assert listed["things_patchThing"]["title"] == "Change some fields of a thing"  # from the summary
    assert listed["things_deleteThing"]["title"] == "Delete thing"  # generated from the operationId
    # AC12: the MCP server's tools, annotated or not, are served beside them and still work.
    assert any(n.startswith("demo_") for n in listed)
    assert demo.is_error is False

    by = {c["method"]: c for c in api.received}
    assert by["PATCH"]["raw_path"] == "/api/things/a%20b%2Fc"
    assert json.loads(by["PATCH"]["body"]) == {"label": None}
    assert patched.is_error is False
    assert head.is_error is False
    assert head.structured_content is not None
    assert head.structured_content["headers"]["x-thing"] == "yes"
    assert options.is_error is False
    assert "OPTIONS" in by
    assert "TRACE" in by
    assert traced.is_error is False


# ---------------------------------------------------------------- hints: declared, inferred, overridden


def resolved(path: Path, name: str, *, trusted: bool = False, profile: str | None = None) -> Any:
    op = load(path).by_name()[name]
    declared = parse_annotations(op.declared, tool=op.name) if op.declared is not None else None
    return resolve_tool(
        op.tool, facts=ToolFacts(declared=declared, http_method=op.method), trusted=trusted, profile=profile
    )


def test_x_mcp_annotations_count_as_declared_and_the_method_fills_nothing_they_set() -> None:
    tool = resolved(FIXTURES / "methods.oas31.yaml", "createThing", trusted=True)
    assert {h.value: str(r.provenance) for h, r in tool.resolution.hints.items()} == dict.fromkeys(HINTS, "declared")
    assert tool.resolution.value(Hint.IDEMPOTENT) is True
    assert tool.resolution.value(Hint.OPEN_WORLD) is False


def test_untrusted_document_cannot_make_an_operation_look_safer_than_its_method() -> None:
    tool = resolved(FIXTURES / "methods.oas31.yaml", "createThing", trusted=False)
    assert tool.resolution.value(Hint.IDEMPOTENT) is False  # POST says not idempotent; declared true is distrusted
    assert tool.resolution.hints[Hint.IDEMPOTENT].distrusted is True


def test_the_permissive_profile_makes_put_and_patch_non_destructive() -> None:
    put = resolved(FIXTURES / "methods.oas31.yaml", "replaceThing", profile="permissive")
    assert put.resolution.value(Hint.DESTRUCTIVE) is False
    assert put.resolution.hints[Hint.DESTRUCTIVE].provenance.origin is Origin.INFERRED


def test_every_operation_has_all_four_hints_inferred_from_its_method_case_insensitively() -> None:
    for op in load(shared_document("petstore.oas3.json")).operations:
        tool = resolve_tool(op.tool, facts=ToolFacts(http_method=op.method.lower()))
        assert all(r.provenance.rule == f"http.{op.method.lower()}" for r in tool.resolution.hints.values())


# ---------------------------------------------------------------- conversion


def test_recursive_schemas_are_kept_as_defs_not_expanded() -> None:
    tools = load(FIXTURES / "methods.oas31.yaml").by_name()
    output = tools["getThing"].tool["outputSchema"]
    assert output["type"] == "object"
    assert output["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert output["$defs"]["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert output["$defs"]["Owner"]["properties"]["manager"] == {"$ref": "#/$defs/Owner"}
    body = tools["replaceThing"].tool["inputSchema"]
    assert body["properties"]["owner"] == {"$ref": "#/$defs/Owner"}
    assert set(body["$defs"]) == {"Node", "Owner"}
    import jsonschema

    jsonschema.validate({"label": "a", "children": [{"label": "b", "children": []}]}, output)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"label": "a", "children": [{"children": []}]}, output)


def test_openapi_31_yaml_keeps_type_lists_and_the_array_answer_gets_no_output_schema() -> None:
    tools = load(FIXTURES / "methods.oas31.yaml").by_name()
    assert tools["patchThing"].tool["inputSchema"]["properties"]["label"] == {"type": ["string", "null"]}
    assert "outputSchema" not in tools["get_things"].tool  # an array is not an object
    assert tools["get_things"].tool["title"] == "List things"


def test_swagger_2_yaml_becomes_tools_with_bodies_forms_and_collection_formats() -> None:
    toolset = load(FIXTURES / "store.swagger2.yaml")
    tools = toolset.by_name()
    assert toolset.version == "2.0"
    assert toolset.servers == ("http://localhost:1/v1",)
    listing = tools["list_items"]
    assert listing.parameters[0].style == "pipeDelimited"
    assert listing.tool["inputSchema"]["properties"]["limit"] == {"type": "integer", "exclusiveMinimum": 1}
    assert listing.tool["outputSchema"]["properties"]["items"]["items"] == {"$ref": "#/$defs/Item"}
    add = tools["add_item"]
    assert add.body is not None
    assert add.body.media_type == "application/json"
    assert add.tool["inputSchema"]["$defs"]["Item"]["properties"]["parent"] == {"$ref": "#/$defs/Item"}
    upload = tools["upload_photo"]
    assert upload.body is not None
    assert upload.body.media_type == "multipart/form-data"
    assert upload.tool["inputSchema"]["properties"]["file"] == {"type": "string", "format": "binary"}
    rename = tools["rename_item"]
    assert rename.body is not None
    assert rename.body.media_type == "application/x-www-form-urlencoded"
    assert rename.tool["inputSchema"]["required"] == ["id", "name"]


def test_openapi_30_nullable_and_boolean_exclusive_bounds_become_json_schema_2020_12() -> None:
    doc = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/n": {
                "get": {
                    "operationId": "n",
                    "parameters": [
                        {
                            "name": "q",
                            "in": "query",
                            "schema": {"type": "string", "nullable": True, "enum": ["a", "b"]},
                        },
                        {
                            "name": "m",
                            "in": "query",
                            "schema": {"type": "number", "maximum": 5, "exclusiveMaximum": True},
                        },
                    ],
                    "responses": {},
                }
            }
        },
    }
    props = build_tools(doc, source="n.json").operations[0].tool["inputSchema"]["properties"]
    assert props["q"] == {"type": ["string", "null"], "enum": ["a", "b", None]}
    assert props["m"] == {"type": "number", "exclusiveMaximum": 5}


def test_names_are_valid_unique_deterministic_and_at_most_64_characters() -> None:
    long_id = "get" + "VeryLongOperationIdentifier" * 4
    doc = {
        "openapi": "3.0.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/a": {"get": {"operationId": long_id, "responses": {}}},
            "/b": {"get": {"operationId": long_id, "responses": {}}},
            "/c/{id}": {"get": {"operationId": "has spaces/and:colons", "responses": {}}},
            "/d/{id}/e": {"post": {"responses": {}}},
        },
    }
    first = [op.name for op in build_tools(doc, source="t").operations]
    second = [op.name for op in build_tools(doc, source="t").operations]
    assert first == second
    assert len(set(first)) == 4
    assert all(len(n) <= NAME_MAX_STRICT and NAME_CHARS.match(n) for n in first)
    assert first[2] == "has_spaces_and_colons"
    assert first[3] == "post_d_id_e"
    by_path = [op.name for op in build_tools(doc, source="t", naming="method-path").operations]
    assert by_path == ["get_a", "get_b", "get_c_id", "post_d_id_e"]


def test_the_x_mcp_annotations_title_is_the_tools_title_before_the_summary() -> None:
    ops = load(FIXTURES / "methods.oas31.yaml").by_name()
    assert ops["createThing"].tool["title"] == "Make a thing"
    assert ops["get_things"].tool["title"] == "List things"
    assert "title" not in ops["createThing"].declared  # the tool's title, never annotations.title


def test_titles_come_from_the_summary_else_from_the_operation_id() -> None:
    assert title_from_id("getPetById") == "Get pet by id"
    assert title_from_id("list_repo_issues") == "List repo issues"
    assert title_from_id("getHTTPStatus") == "Get HTTP status"


# ---------------------------------------------------------------- bad documents


def test_a_partly_broken_document_serves_what_converts_and_names_the_json_path_of_each_skip() -> None:
    toolset = load(FIXTURES / "partly_broken.json")
    assert [op.name for op in toolset.operations] == ["fine", "delete_also-fine_id"]
    skipped = {p.pointer: p.message for p in toolset.skipped}
    assert skipped["$.paths./nameless.get.parameters[0]"] == 'a parameter needs a "name" string'
    assert "external $ref" in skipped["$.paths./elsewhere.get.parameters[0]"]
    assert "points at nothing" in skipped["$.paths./dangling.post.requestBody.content.application/json.schema"]
    assert "application/xml" in skipped["$.paths./xml-only.put.requestBody.content"]
    assert "not declared" in toolset.warnings[0].message


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("bad_syntax.json", "bad_syntax.json:3:13: not valid JSON"),
        ("not_openapi.yaml", 'not_openapi.yaml: $: not an OpenAPI document: no "openapi" or "swagger" key'),
    ],
)
def test_a_document_that_cannot_be_read_is_an_error_naming_the_file_and_place(name: str, expected: str) -> None:
    with pytest.raises(TargetError) as caught:
        load(FIXTURES / name)
    assert str(caught.value).startswith(expected)


@pytest.mark.parametrize(
    ("doc", "expected"),
    [
        ({"swagger": "1.2", "paths": {}}, "$.swagger: unsupported version '1.2'"),
        ({"openapi": "3.0.0", "paths": []}, "$.paths: expected an object of paths, got list"),
        ([1, 2], "$: expected an OpenAPI document (an object), got list"),
    ],
)
def test_malformed_documents_are_errors_with_a_json_path(doc: Any, expected: str) -> None:
    with pytest.raises(TargetError, match=expected.replace("$", r"\$").replace("(", r"\(").replace(")", r"\)")):
        build_tools(doc, source="api.json")


def _one_bad_operation(paths: dict[str, Any], components: dict[str, Any] | None = None) -> Any:
    """A document with the given paths beside one sound operation, converted."""
    fine = {"get": {"operationId": "fine", "responses": {"200": {"description": "ok"}}}}
    doc = {"openapi": "3.0.3", "info": {"title": "t"}, "paths": {**paths, "/fine": fine}}
    return build_tools({**doc, "components": components or {}}, source="api.json")


def _query(schema: Any) -> dict[str, Any]:
    return {"get": {"parameters": [{"name": "q", "in": "query", "schema": schema}]}}


def _body(schema: Any) -> dict[str, Any]:
    return {"post": {"requestBody": {"content": {"application/json": {"schema": schema}}}}}


@pytest.mark.parametrize(
    ("paths", "components", "pointer", "message"),
    [
        ({"/a": _query(5)}, None, "$.paths./a.get.parameters[0].schema", "expected a schema (an object), got int"),
        ({"/a": _query({"type": "array", "items": 5})}, None, "$.paths./a.get.parameters[0].schema.items", "got int"),
        ({"/a": _query({"allOf": {}})}, None, "$.paths./a.get.parameters[0].schema.allOf", "expected a list of"),
        (
            {"/a": _body({"properties": [1]})},
            None,
            "$.paths./a.post.requestBody.content.application/json.schema.properties",
            "expected an object of schemas, got list",
        ),
        (
            {"/a": {"post": {"requestBody": {"content": ["x"]}}}},
            None,
            "$.paths./a.post.requestBody.content",
            "expected an object of media types, got list",
        ),
        (
            {"/a": {"post": {"requestBody": {"content": {"application/json": 3}}}}},
            None,
            "$.paths./a.post.requestBody.content.application/json",
            "expected a media type object, got int",
        ),
        (
            {"/a": {"get": {"parameters": [{"name": "q", "in": "query", "explode": "no"}]}}},
            None,
            "$.paths./a.get.parameters[0].explode",
            'expected true or false, got str "no"',
        ),
        (
            {"/a": {"get": {"parameters": [{"name": "q", "in": "query", "required": "yes"}]}}},
            None,
            "$.paths./a.get.parameters[0].required",
            'expected true or false, got str "yes"',
        ),
        (
            {"/a": {"get": {"parameters": [{"name": "q", "in": "query", "style": 5}]}}},
            None,
            "$.paths./a.get.parameters[0].style",
            "expected a style name (a string), got int",
        ),
        (
            {"/a": {"get": {"parameters": [{"$ref": 5}]}}},
            None,
            "$.paths./a.get.parameters[0]",
            "$ref must be a string, got int",
        ),
        (
            {"/a": {"get": {"parameters": [{"$ref": "#/components/parameters/A"}]}}},
            {"parameters": {"A": {"$ref": "#/components/parameters/B"}, "B": {"$ref": "#/components/parameters/A"}}},
            "$.paths./a.get.parameters[0]",
            "is circular (#/components/parameters/A -> #/components/parameters/B",
        ),
        (
            {"/a": _query({"$ref": "#/components/schemas/A"})},
            {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}},
            "$.paths./a.get.parameters[0].schema",
            "never reaches a schema",
        ),
        (
            {"/a": _query({"$ref": "#/components/schemas/Count"})},
            {"schemas": {"Count": 7}},
            "$.paths./a.get",
            "uses $.components.schemas.Count: expected a schema (an object), got int",
        ),
    ],
)
def test_an_operation_with_a_part_of_the_wrong_type_is_skipped_naming_its_json_path_and_the_others_are_kept(
    paths: dict[str, Any], components: dict[str, Any] | None, pointer: str, message: str
) -> None:
    toolset = _one_bad_operation(paths, components)
    assert [op.name for op in toolset.operations] == ["fine"]
    assert [p.pointer for p in toolset.skipped] == [pointer]
    assert message in toolset.skipped[0].message


def test_every_operation_reaching_a_broken_shared_schema_is_skipped_and_the_document_still_loads() -> None:
    shared = {"$ref": "#/components/schemas/Item"}
    components = {
        "schemas": {
            "Item": {"type": "object", "properties": {"tag": {"$ref": "#/components/schemas/Tag"}}},
            "Tag": "a word",
        }
    }
    paths = {"/a": _query(shared), "/b": _body(shared), "/c": _query({"type": "string"})}
    toolset = _one_bad_operation(paths, components)
    assert [op.name for op in toolset.operations] == ["get_c", "fine"]
    assert {p.pointer: p.message for p in toolset.skipped} == {
        "$.paths./a.get": "uses $.components.schemas.Tag: expected a schema (an object), got str",
        "$.paths./b.post": "uses $.components.schemas.Tag: expected a schema (an object), got str",
    }


@pytest.mark.parametrize(
    ("operation", "pointer", "message"),
    [
        (
            {"operationId": 12},
            "$.paths./a.get.operationId",
            "expected a string, got int 12; the tool is named from its method and path",
        ),
        (
            {"responses": "oops"},
            "$.paths./a.get.responses",
            'expected an object of responses, got str "oops"; no output schema',
        ),
        (
            {"responses": {"200": "oops"}},
            "$.paths./a.get.responses.200",
            'expected a response object, got str "oops"; no output schema',
        ),
        ({"summary": 5}, "$.paths./a.get.summary", "expected a string, got int 5; ignored"),
        ({"tags": "pets"}, "$.paths./a.get.tags", "expected a list of tag names, got str; ignored"),
        (
            {"x-mcp-annotations": {"readOnlyHint": "yes", "idempotentHint": True}},
            "$.paths./a.get.x-mcp-annotations.readOnlyHint",
            'expected true or false, got str "yes"; ignored',
        ),
        (
            {
                "parameters": [
                    {
                        "name": "q",
                        "in": "query",
                        "schema": {"type": "object", "properties": {"n": {}}, "required": True},
                    }
                ]
            },
            "$.paths./a.get.parameters[0].schema.required",
            "expected a list of property names, got true; ignored",
        ),
    ],
)
def test_a_part_read_with_a_compromise_keeps_the_operation_and_is_reported_with_its_json_path(
    operation: dict[str, Any], pointer: str, message: str
) -> None:
    toolset = _one_bad_operation({"/a": {"get": operation}})
    assert [op.name for op in toolset.operations] == ["get_a", "fine"]
    assert [(p.pointer, p.message) for p in toolset.warnings] == [(pointer, message)]
    json.dumps([op.tool for op in toolset.operations])  # what is served is plain JSON


def test_a_hint_that_is_not_true_or_false_leaves_the_other_declared_hints_of_the_operation() -> None:
    toolset = _one_bad_operation(
        {"/a": {"get": {"x-mcp-annotations": {"readOnlyHint": "yes", "idempotentHint": True}}}}
    )
    assert toolset.operations[0].declared == {"idempotentHint": True}


def test_hintgate_openapi_lists_tools_with_hints_provenance_and_skipped_operations() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["openapi", str(FIXTURES / "partly_broken.json"), "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [t["name"] for t in report["tools"]] == ["fine", "delete_also-fine_id"]
    assert report["tools"][0]["provenance"]["readOnlyHint"] == "inferred:http.get"
    assert report["tools"][0]["method"] == "GET"
    assert len(report["skipped"]) == 4
    text = runner.invoke(app, ["openapi", str(FIXTURES / "partly_broken.json")], env={"COLUMNS": "200"})
    assert text.exit_code == 0
    assert "skipped: " in text.output
    assert "$.paths./nameless.get.parameters[0]" in text.output
    bad = runner.invoke(app, ["openapi", str(FIXTURES / "not_openapi.yaml")])
    assert bad.exit_code == 3


# ---------------------------------------------------------------- serialization


def request_for(param: Parameter, value: Any) -> str:
    from hintgate.sources.openapi.convert import Operation

    op = Operation("t", "GET", "/x/{p}" if param.location == "path" else "/x", None, (), (param,), None, None, {}, "$")
    return prepare_request(op, {param.arg: value}, "http://h/base/").url


@pytest.mark.parametrize(
    ("style", "explode", "value", "expected"),
    [
        ("simple", False, 5, "/x/5"),
        ("simple", False, [3, 4, 5], "/x/3,4,5"),
        ("simple", True, {"role": "admin", "first": "Alex"}, "/x/role=admin,first=Alex"),
        ("simple", False, {"role": "admin"}, "/x/role,admin"),
        ("label", True, [3, 4], "/x/.3.4"),
        ("label", False, [3, 4], "/x/.3,4"),
        ("matrix", False, 5, "/x/;p=5"),
        ("matrix", True, [3, 4], "/x/;p=3;p=4"),
        ("simple", False, "a b/c?", "/x/a%20b%2Fc%3F"),
    ],
)
def test_path_parameters_are_encoded_per_style_and_explode(
    style: str, explode: bool, value: Any, expected: str
) -> None:
    url = request_for(Parameter("p", "path", "p", True, style, explode), value)
    assert url == "http://h/base" + expected


@pytest.mark.parametrize(
    ("style", "explode", "value", "expected"),
    [
        ("form", True, [1, 2], "id=1&id=2"),
        ("form", False, [1, 2], "id=1,2"),
        ("form", True, {"a": 1, "b": "x y"}, "a=1&b=x%20y"),
        ("form", False, {"a": 1}, "id=a,1"),
        ("spaceDelimited", False, [1, 2], "id=1%202"),
        ("pipeDelimited", False, [1, 2], "id=1%7C2"),
        ("deepObject", True, {"role": "admin"}, "id%5Brole%5D=admin"),
        ("form", True, True, "id=true"),
        ("form", True, "a&b=c", "id=a%26b%3Dc"),
    ],
)
def test_query_parameters_are_serialized_per_style_and_explode(
    style: str, explode: bool, value: Any, expected: str
) -> None:
    url = request_for(Parameter("id", "query", "id", False, style, explode), value)
    assert url == f"http://h/base/x?{expected}"


def test_headers_cookies_and_form_bodies_are_built_from_the_arguments() -> None:
    tools = load(FIXTURES / "methods.oas31.yaml").by_name()
    request = prepare_request(
        tools["get_things"],
        {"ids": [1, 2], "filter": {"color": "red"}, "sort": ["a", "b"], "X-Trace": ["t1", "t2"], "session": "s 1"},
        "http://h",
    )
    assert request.url == "http://h/things?ids=1,2&filter%5Bcolor%5D=red&sort=a%7Cb"
    assert request.headers == {"X-Trace": "t1,t2", "Cookie": "session=s%201"}
    form = load(shared_document("stripe.com.apisguru.json")).by_name()["PostCustomers"]
    built = prepare_request(form, {"email": "a@b.c", "metadata": {"k": "v"}, "expand": ["x", "y"]}, "http://h")
    assert built.content is not None
    assert set(built.content.decode().split("&")) == {
        "email=a%40b.c",
        "metadata%5Bk%5D=v",
        "expand%5B0%5D=x",
        "expand%5B1%5D=y",
    }


# ---------------------------------------------------------------- the source itself


def source_for(api_url: str, document: Path, **kwargs: Any) -> OpenApiSource:
    return OpenApiSource(OpenApiConfig(name="api", document=str(document), base_url=api_url, **kwargs))


async def test_credentials_never_appear_in_results_errors_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    doc = FIXTURES / "methods.oas31.yaml"
    auths = [
        ApiAuth("apiKey", value=TOKEN, name="api_key", location="query"),
        ApiAuth("apiKey", value=TOKEN, name="X-Key", location="header"),
        ApiAuth("basic", username="me", password=TOKEN),
        ApiAuth("bearer", value=TOKEN),
    ]
    with echo_api() as api:
        for auth in auths:
            source = source_for(api.url + "/api", doc, auth=auth, headers={"X-Other": TOKEN + "-other"})
            async with running(source):
                ok = await source.call_tool("getThing", {"thingId": "x"}, meta=None, context=NoClient())
                failed = await source.call_tool("getThing", {"thingId": "missing"}, meta=None, context=NoClient())
            assert TOKEN not in json.dumps(ok)
            assert "***" in json.dumps(ok)
            assert failed["isError"] is True
            assert TOKEN not in json.dumps(failed)
        assert any(TOKEN in json.dumps(c) for c in api.received)  # it was sent, just never shown
    down = source_for("http://127.0.0.1:9/api", doc, auth=auths[0])
    async with running(down):
        with pytest.raises(UpstreamError) as caught:
            await down.call_tool("getThing", {"thingId": "x"}, meta=None, context=NoClient())
    assert TOKEN not in str(caught.value)
    assert TOKEN not in caplog.text


async def test_a_call_slower_than_the_timeout_is_cancelled() -> None:
    doc = {
        "openapi": "3.0.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/slow": {"get": {"operationId": "slow", "responses": {}}}},
    }
    with echo_api() as api:
        path = Path(os.environ.get("TMPDIR", "/tmp")) / f"slow-{os.getpid()}.json"
        path.write_text(json.dumps(doc))
        try:
            source = source_for(api.url, path, call_timeout=0.3)
            async with running(source):
                with anyio.fail_after(10), pytest.raises(UpstreamTimeout, match=r"within 0\.3 s"):
                    await source.call_tool("slow", {}, meta=None, context=NoClient())
        finally:
            path.unlink()


async def test_a_document_that_fails_to_load_marks_the_source_down_with_the_reason(tmp_path: Path) -> None:
    source = source_for("http://127.0.0.1:9", tmp_path / "missing.json")
    async with running(source):
        assert source.status.state is SourceState.DOWN
        assert source.status.reason is not None
        assert "missing.json: no such file" in source.status.reason
        assert source.tools == []


async def test_a_served_document_logs_each_skipped_operation_and_each_compromise_as_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    document = tmp_path / "shop.json"
    ok = {"200": {"description": "ok"}}
    paths = {
        "/items": {
            "get": {"operationId": 12, "responses": ok},
            "post": {"operationId": "addItem", "parameters": [{"name": "x", "in": "body"}], "responses": ok},
        }
    }
    document.write_text(json.dumps({"openapi": "3.0.0", "info": {"title": "shop", "version": "1"}, "paths": paths}))
    caplog.set_level(logging.DEBUG, logger="hintgate.sources.openapi.source")
    async with running(source_for("http://127.0.0.1:9", document)):
        pass
    said = [(r.levelno, r.getMessage()) for r in caplog.records if str(document) in r.getMessage()]
    assert said == [
        (
            logging.WARNING,
            f'api: {document}: $.paths./items.post.parameters[0]: parameter "in" must be path, '
            "query, header or cookie, got 'body': operation skipped",
        ),
        (
            logging.WARNING,
            f"api: {document}: $.paths./items.get.operationId: expected a string, got int 12; "
            "the tool is named from its method and path",
        ),
    ]


async def test_include_and_exclude_select_operations_by_tag_path_method_and_name(tmp_path: Path) -> None:
    config = parse_config(
        {
            "openapi": {
                "pets": {
                    "document": str(shared_document("petstore.oas3.json")),
                    "include": {"tags": ["pet", "store"], "methods": ["GET", "DELETE"]},
                    "exclude": {"paths": ["/store/*"], "tools": ["findPetsByTags"]},
                }
            }
        }
    )
    source = OpenApiSource(config.openapi["pets"])
    async with running(source):
        names = [t["name"] for t in source.tools if source.wants(t["name"])]
    assert names == ["findPetsByStatus", "getPetById", "deletePet"]


# ---------------------------------------------------------------- config


def test_openapi_config_reads_auth_filters_naming_and_overrides() -> None:
    config = parse_config(
        {
            "openapi": {
                "gh": {
                    "document": "https://example.com/openapi.json",
                    "baseUrl": "https://api.example.com",
                    "auth": {"apiKey": {"name": "X-Key", "in": "query", "value": "${KEY}"}},
                    "include": ["get*"],
                    "naming": "method-path",
                    "trust": "trusted",
                    "overrides": {"getThing": {"readOnlyHint": True}},
                    "timeout": 5,
                }
            },
            "python": {"tools": "mytools.sub:registry"},
        },
        environ={"KEY": TOKEN},
    )
    gh = config.openapi["gh"]
    assert gh.auth == ApiAuth("apiKey", value=TOKEN, name="X-Key", location="query")
    assert gh.include.tools == ("get*",)
    assert gh.naming == "method-path"
    assert gh.call_timeout == 5
    assert gh.prefix == "gh"
    override = gh.override_for("get_things", "getThing")
    assert override is not None
    assert override.hints == {Hint.READ_ONLY: True}
    assert TOKEN not in gh.describe()
    assert config.python["tools"].registry == "mytools.sub:registry"


def test_openapi_config_errors_name_the_key_path_and_never_a_secret() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(
            {
                "mcpServers": {"api": {"command": "x"}},
                "openapi": {
                    "api": {"document": "a.json"},
                    "auth": {"document": "a.json", "auth": {"bearer": 12345678, "basic": {}}},
                    "other": {"document": "b.json", "baseUrl": "ftp://x", "naming": "camel", "include": {"verbs": []}},
                    "third": {"auth": {"apiKey": {"name": "k", "in": "body", "value": TOKEN}}},
                },
                "python": {"py": {"registry": "not a spec"}},
            },
            source="gw.yaml",
        )
    message = str(caught.value)
    assert "openapi.auth.auth: give exactly one of bearer, apiKey, basic" in message
    assert 'openapi.api: the name "api" is also used in mcpServers' in message
    assert "openapi.other.baseUrl: expected an http:// or https:// URL" in message
    assert 'openapi.other.naming: expected "operationId" or "method-path", got "camel"' in message
    assert 'openapi.other.include.verbs: unknown key "verbs"' in message
    assert 'openapi.third: needs "document"' in message
    assert 'openapi.third.auth.apiKey.in: expected "header", "query" or "cookie", got "body"' in message
    assert 'python.py.registry: expected "module:attribute"' in message
    assert TOKEN not in message
    assert "12345678" not in message


def test_a_post_whose_name_holds_a_read_word_as_object_stays_a_write_and_has_its_summary_as_title() -> None:
    def post(operation_id: str, summary: str) -> dict[str, Any]:
        return {"post": {"operationId": operation_id, "summary": summary, "responses": {"200": {"description": "ok"}}}}

    doc = {
        "openapi": "3.1.0",
        "info": {"title": "gizmos", "version": "1"},
        "paths": {
            "/runs/{id}/pending": post("reviewPendingGizmoRollouts", "Review pending rollouts for a run"),
            "/reviews/{id}/approve": post("approveRolloutReview", "Approve or reject a rollout review"),
            "/gizmos/search": post("searchGizmos", "Search gizmos"),
        },
    }
    ops = build_tools(doc, source="gizmos.json").by_name()

    def tool(name: str) -> Any:
        return resolve_tool(ops[name].tool, facts=ToolFacts(http_method=ops[name].method))

    for name in ("reviewPendingGizmoRollouts", "approveRolloutReview"):
        assert tool(name).resolution.value(Hint.READ_ONLY) is False, name
        assert str(tool(name).resolution.hints[Hint.READ_ONLY].provenance) == "inferred:http.post"
    assert str(tool("searchGizmos").resolution.hints[Hint.READ_ONLY].provenance) == "inferred:http.post.read-name"
    assert (tool("searchGizmos").title, tool("searchGizmos").title_origin) == ("Search gizmos", "openapi")
