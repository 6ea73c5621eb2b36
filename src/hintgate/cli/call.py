"""`hintgate call`: call one tool of a running gateway from a terminal, as an MCP client would, and print the result.

It speaks MCP to the gateway's `/mcp` endpoint (streamable HTTP), so the call
goes through everything a client's call does: the policy (a call that asks
waits for a person in the dashboard or `hintgate approvals`), recording and
metrics. `--list` lists the tools with their hints instead. For trying the
demo, and for debugging what a client would see.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from hintgate.cli.common import EXIT_TARGET, EXIT_USAGE, FormatOpt, OutputFormat, ToolArg, fail, out
from hintgate.cli.gateway_api import DEFAULT_URL, TokenOpt, UrlOpt, api_token, unreachable

__all__ = ["EXIT_TOOL_ERROR", "call", "hint_words", "parse_arguments", "print_result"]

EXIT_TOOL_ERROR = 1
"""The tool answered with an error (a denial included): the result is printed all the same."""


def parse_arguments(pairs: list[str], given_json: str | None) -> dict[str, Any]:
    """A call's arguments: the `--json` object, with each `key=value` laid over it.

    A value that reads as JSON (`3`, `true`, `[1, 2]`, `{"a": 1}`, `"3"`) is
    that JSON; anything else is the text as written.

    Raises:
        ValueError: `--json` is not a JSON object, or a pair has no `=`; the message names it.
    """
    arguments: dict[str, Any] = {}
    if given_json is not None:
        try:
            loaded = json.loads(given_json)
        except ValueError as exc:
            raise ValueError(f"--json: not JSON ({exc})") from None
        if not isinstance(loaded, dict):
            raise ValueError(f"--json: expected a JSON object of arguments, got {type(loaded).__name__}")
        arguments.update(loaded)
    for pair in pairs:
        key, equals, text = pair.partition("=")
        if not equals or not key:
            raise ValueError(f"{pair!r}: write an argument as KEY=VALUE (or give them all with --json)")
        try:
            arguments[key] = json.loads(text)
        except ValueError:
            arguments[key] = text
    return arguments


def call(
    tool: ToolArg = None,
    pairs: Annotated[
        list[str] | None,
        typer.Argument(metavar="[KEY=VALUE]...", help="Arguments; a value that reads as JSON is that JSON."),
    ] = None,
    url: UrlOpt = DEFAULT_URL,
    given_json: Annotated[
        str | None, typer.Option("--json", help="The arguments as one JSON object; KEY=VALUE pairs are laid over it.")
    ] = None,
    listing: Annotated[bool, typer.Option("--list", help="List the gateway's tools and their hints instead.")] = False,
    output: FormatOpt = OutputFormat.TEXT,
    timeout: Annotated[
        float, typer.Option("--timeout", min=1, help="Seconds to wait for the result (a call may wait for a person).")
    ] = 300.0,
    token: TokenOpt = None,
) -> None:
    """Call a tool of a running gateway over MCP and print its result (or `--list` its tools).

    The gateway is at `--url`, the address `serve --http` printed. A call that asks waits for a person.

    Examples: `hintgate call notes_get_note note_id=1`; `hintgate call notes_create_note --json '{"title": "Plan"}'`.

    Exit codes: 0 the tool answered; 1 it answered with an error (a denial too); 2 bad usage; 3 no gateway there.
    """
    import anyio

    if not listing and tool is None:
        fail("name a tool to call (hintgate call TOOL [KEY=VALUE]...), or list them with --list", EXIT_USAGE)
    if listing and (tool is not None or pairs or given_json is not None):
        fail("--list takes no tool or arguments", EXIT_USAGE)
    try:
        arguments = parse_arguments(list(pairs or ()), given_json)
    except ValueError as exc:
        fail(str(exc), EXIT_USAGE)
    endpoint = url.rstrip("/")
    endpoint = endpoint if endpoint.endswith("/mcp") else endpoint + "/mcp"
    try:
        answer = anyio.run(_talk, endpoint, api_token(token), tool, arguments, timeout)
    except Exception as exc:  # the SDK's and the network's errors alike: one line, naming the gateway
        leaf = _leaf(exc)
        advice = f"; {unreachable(url)}" if _refused(leaf) else ""
        fail(f"cannot call {endpoint}: {str(leaf) or type(leaf).__name__}{advice}", EXIT_TARGET)
    if listing:
        _print_tools(answer, output)
        return
    result = answer.model_dump(mode="json", by_alias=True, exclude_none=True)
    if output is OutputFormat.JSON:
        out().print_json(json.dumps(result))
    else:
        print_result(result)
    if result.get("isError"):
        raise typer.Exit(EXIT_TOOL_ERROR)


async def _talk(endpoint: str, token: str | None, tool: str | None, arguments: dict[str, Any], timeout: float) -> Any:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from hintgate import __version__

    headers = {"User-Agent": f"hintgate-call/{__version__}"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=timeout))
    async with http, Client(streamable_http_client(endpoint, http_client=http), mode="legacy") as client:
        if tool is None:
            listed: list[Any] = []
            cursor: str | None = None
            while True:
                page = await client.list_tools(cursor=cursor)
                listed.extend(page.tools)
                cursor = page.next_cursor
                if not cursor:
                    return listed
        return await client.call_tool(tool, arguments)


def _leaf(exc: BaseException) -> BaseException:
    # An exception group from the SDK's task group: the first leaf says what happened.
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _refused(exc: BaseException) -> bool:
    """Whether nothing listens where the gateway was looked for (the connection itself failed)."""
    import httpx2

    return isinstance(exc, httpx2.ConnectError | ConnectionError)


def print_result(result: dict[str, Any]) -> None:
    """Print a `tools/call` result: text blocks as the tool wrote them, other blocks and structured content as JSON."""
    console = out()
    blocks = result.get("content") or []
    for block in blocks:
        if block.get("type") == "text":  # as the tool wrote it: never wrapped to the terminal, nor read as markup
            console.file.write(str(block.get("text", "")) + "\n")
        else:
            console.print_json(json.dumps(block))
    if not blocks and "structuredContent" in result:
        console.print_json(json.dumps(result["structuredContent"]))


def hint_words(annotations: Any) -> str:
    """A tool's hints in a few words, never none: `read-only idempotent`, `write`, `destructive open-world`.

    `write` is a tool that changes things but declares it destroys nothing; one
    not read-only that leaves destructiveHint unset is `destructive`, as the MCP
    spec tells clients to assume. A tool with no hints at all says so.
    """
    hints = annotations if isinstance(annotations, dict) else {}
    words = []
    if hints.get("readOnlyHint") is True:
        words.append("read-only")
    elif hints.get("destructiveHint") is False:
        words.append("write")
    elif hints.get("destructiveHint") is True or hints.get("readOnlyHint") is False:
        words.append("destructive")
    if hints.get("idempotentHint") is True:
        words.append("idempotent")
    if hints.get("openWorldHint") is True:
        words.append("open-world")
    return " ".join(words) or "no hints"


def _print_tools(tools: list[Any], output: OutputFormat) -> None:
    rows = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    if output is OutputFormat.JSON:
        out().print_json(json.dumps(rows))
        return
    from hintgate.cli.layout import Column, counted, fit_table

    cells: list[list[Any]] = [
        [
            str(row["name"]),
            hint_words(row.get("annotations")),
            str(row.get("title") or (row.get("annotations") or {}).get("title") or ""),
        ]
        for row in rows
    ]
    columns = [Column("tool"), Column("hints", priority=1, cut=True), Column("title", priority=2, cut=True)]
    console = out()
    console.print(fit_table(columns, cells, width=console.width, title=counted(len(rows), "tool")))
