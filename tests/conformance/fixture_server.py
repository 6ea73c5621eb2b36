"""The upstream "fixture server" for the MCP conformance suite's server scenarios (protocol 2025-11-25).

It implements every tool, resource, prompt and completion that the scenarios of
`@modelcontextprotocol/conformance` expect (names and payloads as the suite's scenario
descriptions specify them), so that hintgate can be run in front of it and the suite
pointed at hintgate. It is also tested on its own: see `test_fixture_conformance.py`.

Usage:
    python tests/conformance/fixture_server.py              # stdio
    python tests/conformance/fixture_server.py --http PORT  # streamable HTTP on http://127.0.0.1:PORT/mcp

It is built on the SDK's low-level `Server` rather than `MCPServer` because several
scenarios check exact wire shapes that a decorator API would derive for us (a 2020-12
`inputSchema` with `$schema`/`$defs`, elicitation schemas with `enumNames`/`oneOf`/`anyOf`).
"""

from __future__ import annotations

import argparse
import base64
import io
import itertools
import json
import sys
import warnings
import wave
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types.jsonrpc import JSONRPCMessage

Ctx = ServerRequestContext[Any]

# A 1x1 red pixel, the minimal test image the suite asks for.
RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"

# How long the logging and progress tools pause between notifications, as the scenarios describe (~50 ms).
STEP_SECONDS = 0.05

# Suggested SSE reconnection delay (ms) sent in priming events, for the SSE polling scenario.
SSE_RETRY_MS = 500

LOG_LEVELS: list[types.LoggingLevel] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
]


def _silent_wav() -> str:
    """Return 10 ms of 8 kHz mono silence as a base64 WAV file, the minimal test audio the suite asks for."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(8000)
        out.writeframes(b"\x80" * 80)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


SILENT_WAV = _silent_wav()


def _text(text: str) -> types.TextContent:
    return types.TextContent(text=text)


def _image() -> types.ImageContent:
    return types.ImageContent(data=RED_PIXEL_PNG, mime_type="image/png")


def _embedded(uri: str, text: str, mime_type: str = "text/plain") -> types.EmbeddedResource:
    return types.EmbeddedResource(resource=types.TextResourceContents(uri=uri, mime_type=mime_type, text=text))


def _object_schema(properties: dict[str, Any] | None = None, required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = required
    return schema


# --- tools -------------------------------------------------------------------------------------------------------

TOOLS: list[types.Tool] = [
    types.Tool(name="test_simple_text", description="Returns a simple text response.", input_schema=_object_schema()),
    types.Tool(name="test_image_content", description="Returns a 1x1 PNG image.", input_schema=_object_schema()),
    types.Tool(name="test_audio_content", description="Returns a short WAV clip.", input_schema=_object_schema()),
    types.Tool(
        name="test_embedded_resource", description="Returns an embedded text resource.", input_schema=_object_schema()
    ),
    types.Tool(
        name="test_multiple_content_types",
        description="Returns text, image and embedded resource content.",
        input_schema=_object_schema(),
    ),
    types.Tool(
        name="test_tool_with_logging",
        description="Sends three info log notifications while it runs.",
        input_schema=_object_schema(),
    ),
    types.Tool(
        name="test_error_handling", description="Always fails with isError: true.", input_schema=_object_schema()
    ),
    types.Tool(
        name="test_tool_with_progress",
        description="Reports progress 0, 50 and 100 of 100 when given a progress token.",
        input_schema=_object_schema(),
    ),
    types.Tool(
        name="test_sampling",
        description="Asks the client's LLM (sampling/createMessage) to answer a prompt.",
        input_schema=_object_schema(
            {"prompt": {"type": "string", "description": "The prompt for the LLM"}}, ["prompt"]
        ),
    ),
    types.Tool(
        name="test_elicitation",
        description="Asks the user (elicitation/create) for a username and an email address.",
        input_schema=_object_schema(
            {"message": {"type": "string", "description": "The message to show the user"}}, ["message"]
        ),
    ),
    types.Tool(
        name="test_elicitation_sep1034_defaults",
        description="Elicits a form whose fields carry default values of every primitive type (SEP-1034).",
        input_schema=_object_schema(),
    ),
    types.Tool(
        name="test_elicitation_sep1330_enums",
        description="Elicits a form with all five enum field variants (SEP-1330).",
        input_schema=_object_schema(),
    ),
    types.Tool(
        name="json_schema_2020_12_tool",
        description="Tool with JSON Schema 2020-12 features",
        input_schema={
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                }
            },
            "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
            "additionalProperties": False,
        },
    ),
    types.Tool(
        name="test_reconnection",
        description="Closes its SSE response stream mid-call (when the transport allows it), then answers (SEP-1699).",
        input_schema=_object_schema(),
    ),
]

SEP1034_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "Your name", "default": "John Doe"},
        "age": {"type": "integer", "description": "Your age", "default": 30},
        "score": {"type": "number", "description": "Your score", "default": 95.5},
        "status": {
            "type": "string",
            "description": "Account status",
            "enum": ["active", "inactive", "pending"],
            "default": "active",
        },
        "verified": {"type": "boolean", "description": "Is verified", "default": True},
    },
}

SEP1330_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {
            "type": "string",
            "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"},
            ],
        },
        "legacyEnum": {
            "type": "string",
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"],
        },
        "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {
            "type": "array",
            "items": {
                "anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"},
                ]
            },
        },
    },
}

ELICITATION_SCHEMA: dict[str, Any] = _object_schema(
    {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"},
    },
    ["username", "email"],
)


def _session_key(ctx: Ctx) -> str:
    """Identify the client connection: its HTTP session id, or one shared key on stdio (one client per process)."""
    request = ctx.request
    headers = getattr(request, "headers", None)
    return str(headers.get("mcp-session-id", "")) if headers is not None else "stdio"


# Minimum log level per client connection, set by logging/setLevel; unset means everything is sent.
_log_levels: dict[str, types.LoggingLevel] = {}


async def _log(ctx: Ctx, level: types.LoggingLevel, message: str) -> None:
    """Send a request-scoped log notification unless the client asked for a higher minimum level."""
    minimum = _log_levels.get(_session_key(ctx), "debug")
    if LOG_LEVELS.index(level) >= LOG_LEVELS.index(minimum):
        await ctx.session.send_log_message(level, message, logger="fixture", related_request_id=ctx.request_id)


async def _elicit(ctx: Ctx, message: str, schema: dict[str, Any]) -> types.ElicitResult:
    return await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)


def _describe(result: types.ElicitResult) -> str:
    return f"action={result.action}, content={json.dumps(result.content)}"


def _require(arguments: dict[str, Any], name: str) -> str:
    value = arguments.get(name)
    if not isinstance(value, str):
        raise MCPError(types.INVALID_PARAMS, f"argument {name!r} (string) is required")
    return value


async def call_tool(ctx: Ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    """Run one of the fixture's tools (see TOOLS)."""
    name, arguments = params.name, params.arguments or {}
    content: list[types.ContentBlock]
    if name == "test_simple_text":
        content = [_text("This is a simple text response for testing.")]
    elif name == "test_image_content":
        content = [_image()]
    elif name == "test_audio_content":
        content = [types.AudioContent(data=SILENT_WAV, mime_type="audio/wav")]
    elif name == "test_embedded_resource":
        content = [_embedded("test://embedded-resource", "This is an embedded resource content.")]
    elif name == "test_multiple_content_types":
        content = [
            _text("Multiple content types test:"),
            _image(),
            _embedded("test://mixed-content-resource", json.dumps({"test": "data", "value": 123}), "application/json"),
        ]
    elif name == "test_tool_with_logging":
        await _log(ctx, "info", "Tool execution started")
        await anyio.sleep(STEP_SECONDS)
        await _log(ctx, "info", "Tool processing data")
        await anyio.sleep(STEP_SECONDS)
        await _log(ctx, "info", "Tool execution completed")
        content = [_text("Tool with logging executed successfully")]
    elif name == "test_error_handling":
        return types.CallToolResult(
            content=[_text("This tool intentionally returns an error for testing")], is_error=True
        )
    elif name == "test_tool_with_progress":
        # report_progress is a no-op when the request carried no progress token, as the scenario wants.
        for step, progress in enumerate((0, 50, 100)):
            if step:
                await anyio.sleep(STEP_SECONDS)
            await ctx.session.report_progress(progress, 100)
        content = [_text("Tool with progress executed successfully")]
    elif name == "test_sampling":
        sampled = await ctx.session.create_message(
            messages=[types.SamplingMessage(role="user", content=_text(_require(arguments, "prompt")))],
            max_tokens=100,
            related_request_id=ctx.request_id,
        )
        answer = sampled.content.text if isinstance(sampled.content, types.TextContent) else str(sampled.content)
        content = [_text(f"LLM response: {answer}")]
    elif name == "test_elicitation":
        result = await _elicit(ctx, _require(arguments, "message"), ELICITATION_SCHEMA)
        content = [_text(f"User response: {_describe(result)}")]
    elif name == "test_elicitation_sep1034_defaults":
        result = await _elicit(ctx, "Please review and update the form fields with defaults", SEP1034_SCHEMA)
        content = [_text(f"Elicitation completed: {_describe(result)}")]
    elif name == "test_elicitation_sep1330_enums":
        result = await _elicit(ctx, "Please select options from the enum fields", SEP1330_SCHEMA)
        content = [_text(f"Elicitation completed: {_describe(result)}")]
    elif name == "json_schema_2020_12_tool":
        content = [_text(f"Received: {json.dumps(arguments, sort_keys=True)}")]
    elif name == "test_reconnection":
        # The transport offers this callback only with an event store and a 2025-11-25+ request; the
        # client then reconnects with Last-Event-ID and gets the result replayed. Otherwise just answer.
        if ctx.close_sse_stream is not None:
            await ctx.close_sse_stream()
            await anyio.sleep(STEP_SECONDS * 2)
        content = [_text("Reconnection test completed successfully")]
    else:
        raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name}")
    return types.CallToolResult(content=content)


async def list_tools(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    """List the fixture's tools."""
    return types.ListToolsResult(tools=TOOLS)


# --- resources ---------------------------------------------------------------------------------------------------

STATIC_TEXT = "This is the content of the static text resource."
WATCHED_TEXT = "This resource can be subscribed to."

RESOURCES: list[types.Resource] = [
    types.Resource(
        uri="test://static-text", name="static-text", description="A static text resource", mime_type="text/plain"
    ),
    types.Resource(
        uri="test://static-binary", name="static-binary", description="A static PNG image", mime_type="image/png"
    ),
    types.Resource(
        uri="test://watched-resource",
        name="watched-resource",
        description="A resource clients can subscribe to",
        mime_type="text/plain",
    ),
]

TEMPLATE_PREFIX, TEMPLATE_SUFFIX = "test://template/", "/data"


async def list_resources(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
    """List the fixture's direct (non-template) resources."""
    return types.ListResourcesResult(resources=RESOURCES)


async def list_resource_templates(
    ctx: Ctx, params: types.PaginatedRequestParams | None
) -> types.ListResourceTemplatesResult:
    """List the fixture's one resource template."""
    template = types.ResourceTemplate(
        uri_template=f"{TEMPLATE_PREFIX}{{id}}{TEMPLATE_SUFFIX}",
        name="template-data",
        description="JSON data for any id",
        mime_type="application/json",
    )
    return types.ListResourceTemplatesResult(resource_templates=[template])


async def read_resource(ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    """Read a static resource, or the template `test://template/{id}/data` with `{id}` substituted."""
    uri = str(params.uri)
    contents: types.TextResourceContents | types.BlobResourceContents
    if uri == "test://static-text":
        contents = types.TextResourceContents(uri=uri, mime_type="text/plain", text=STATIC_TEXT)
    elif uri == "test://static-binary":
        contents = types.BlobResourceContents(uri=uri, mime_type="image/png", blob=RED_PIXEL_PNG)
    elif uri == "test://watched-resource":
        contents = types.TextResourceContents(uri=uri, mime_type="text/plain", text=WATCHED_TEXT)
    elif (
        uri.startswith(TEMPLATE_PREFIX)
        and uri.endswith(TEMPLATE_SUFFIX)
        and "/" not in (ident := uri[len(TEMPLATE_PREFIX) : -len(TEMPLATE_SUFFIX)])
    ):
        data = {"id": ident, "templateTest": True, "data": f"Data for ID: {ident}"}
        contents = types.TextResourceContents(uri=uri, mime_type="application/json", text=json.dumps(data))
    else:
        # -32002 is the spec's "resource not found" code.
        raise MCPError(-32002, f"Resource not found: {uri}")
    return types.ReadResourceResult(contents=[contents])


# URIs each client connection subscribed to. Nothing here changes, so no update is ever sent; the suite checks
# only that subscribe/unsubscribe are accepted.
_subscriptions: dict[str, set[str]] = {}


async def subscribe(ctx: Ctx, params: types.SubscribeRequestParams) -> types.EmptyResult:
    """Record a resources/subscribe."""
    _subscriptions.setdefault(_session_key(ctx), set()).add(str(params.uri))
    return types.EmptyResult()


async def unsubscribe(ctx: Ctx, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
    """Forget a subscription (unknown URIs are accepted too)."""
    _subscriptions.get(_session_key(ctx), set()).discard(str(params.uri))
    return types.EmptyResult()


# --- prompts and completion --------------------------------------------------------------------------------------

PROMPTS: list[types.Prompt] = [
    types.Prompt(name="test_simple_prompt", description="A simple prompt without arguments"),
    types.Prompt(
        name="test_prompt_with_arguments",
        description="A prompt with two required arguments",
        arguments=[
            types.PromptArgument(name="arg1", description="First test argument", required=True),
            types.PromptArgument(name="arg2", description="Second test argument", required=True),
        ],
    ),
    types.Prompt(
        name="test_prompt_with_embedded_resource",
        description="A prompt that embeds a resource",
        arguments=[types.PromptArgument(name="resourceUri", description="URI of the resource to embed", required=True)],
    ),
    types.Prompt(name="test_prompt_with_image", description="A prompt that includes an image"),
]

# What completion/complete offers for test_prompt_with_arguments' arguments.
COMPLETIONS = ["paris", "park", "party", "test", "testing", "testValue1"]


def _user(content: types.ContentBlock) -> types.PromptMessage:
    return types.PromptMessage(role="user", content=content)


async def list_prompts(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
    """List the fixture's prompts."""
    return types.ListPromptsResult(prompts=PROMPTS)


async def get_prompt(ctx: Ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
    """Render one of the fixture's prompts."""
    arguments = params.arguments or {}
    if params.name == "test_simple_prompt":
        messages = [_user(_text("This is a simple prompt for testing."))]
    elif params.name == "test_prompt_with_arguments":
        arg1, arg2 = _require(arguments, "arg1"), _require(arguments, "arg2")
        messages = [_user(_text(f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"))]
    elif params.name == "test_prompt_with_embedded_resource":
        uri = _require(arguments, "resourceUri")
        messages = [
            _user(_embedded(uri, "Embedded resource content for testing.")),
            _user(_text("Please process the embedded resource above.")),
        ]
    elif params.name == "test_prompt_with_image":
        messages = [_user(_image()), _user(_text("Please analyze the image above."))]
    else:
        raise MCPError(types.INVALID_PARAMS, f"Unknown prompt: {params.name}")
    return types.GetPromptResult(messages=messages)


async def complete(ctx: Ctx, params: types.CompleteRequestParams) -> types.CompleteResult:
    """Complete prompt arguments by prefix; anything else completes to nothing."""
    values: list[str] = []
    if isinstance(params.ref, types.PromptReference) and params.ref.name == "test_prompt_with_arguments":
        values = [value for value in COMPLETIONS if value.startswith(params.argument.value)]
    return types.CompleteResult(completion=types.Completion(values=values, total=len(values), has_more=False))


async def set_logging_level(ctx: Ctx, params: types.SetLevelRequestParams) -> types.EmptyResult:
    """Remember the client's minimum log level for this connection."""
    _log_levels[_session_key(ctx)] = params.level
    return types.EmptyResult()


# --- transport ---------------------------------------------------------------------------------------------------


class MemoryEventStore(EventStore):
    """Keeps every SSE event in memory so a client that reconnects with Last-Event-ID gets what it missed."""

    def __init__(self) -> None:
        """Start empty."""
        self._events: list[tuple[EventId, StreamId, JSONRPCMessage | None]] = []
        self._ids = itertools.count(1)

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        """Append one event (None for a priming event) and return its id."""
        event_id = str(next(self._ids))
        self._events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        """Send the events of last_event_id's stream that came after it; return that stream's id."""
        position = next((i for i, (event_id, _, _) in enumerate(self._events) if event_id == last_event_id), None)
        if position is None:
            return None
        stream_id = self._events[position][1]
        for event_id, stream, message in self._events[position + 1 :]:
            if stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


def build_server() -> Server[Any]:
    """Build the fixture server with every handler the conformance scenarios need."""
    with warnings.catch_warnings():
        # Logging is deprecated from protocol 2026-07-28 on, but the 2025-11-25 scenarios require it.
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        return Server(
            "hintgate-conformance-fixture",
            version="1.0.0",
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_list_resources=list_resources,
            on_list_resource_templates=list_resource_templates,
            on_read_resource=read_resource,
            on_subscribe_resource=subscribe,
            on_unsubscribe_resource=unsubscribe,
            on_list_prompts=list_prompts,
            on_get_prompt=get_prompt,
            on_completion=complete,
            on_set_logging_level=set_logging_level,
        )


async def _serve_stdio(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def _serve_http(server: Server[Any], port: int) -> None:
    import uvicorn

    # host="127.0.0.1" also turns on the SDK's DNS-rebinding protection (Host/Origin must be localhost),
    # which the dns-rebinding-protection scenario checks.
    app = server.streamable_http_app(event_store=MemoryEventStore(), retry_interval=SSE_RETRY_MS, host="127.0.0.1")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and serve until stopped."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args(argv)
    # Sampling and logging calls warn that they are deprecated from 2026-07-28; this server speaks 2025-11-25.
    warnings.filterwarnings("ignore", category=MCPDeprecationWarning)
    server = build_server()
    if args.http is None:
        anyio.run(_serve_stdio, server)
    else:
        _serve_http(server, args.http)
    return 0


if __name__ == "__main__":
    sys.exit(main())
