"""The child process of a stdio upstream: how it is spawned, stopped, and spawned ahead of the gateway.

An upstream spends most of its start-up importing its own code, in its own
process. A client that launches the gateway waits for the slower of the two
(the gateway's imports, the upstream's start) when the upstreams are spawned
first, and for their sum when they are spawned once the gateway is built.
`prestarting(config, environ)` spawns every enabled stdio server of a config
at once and keeps the processes in a `Prestarted`, which the caller hands to
the gateway (`Gateway(prestarted=...)`, on to each MCP source it builds); when
a source opens its channel, `open_stdio` takes the waiting process instead of
spawning one. Only a process started from exactly the same command, arguments,
working directory and environment is taken, once; a server whose definition
changed in between (stored runtime changes laid over the file) starts its
own, and whatever was not taken is stopped (`Prestarted.discard`, and on exit).

Each process spawned ahead is given hintgate's `initialize` request on its stdin as it starts
(`hintgate.sources.handshake`): a server answers it once it has imported its code, while the gateway
imports its own, rather than after the gateway is built. A process is taken only by a connection that would
have sent that same request.

Its answer is read as soon as it comes, and what the connection would say next is said then: the
`notifications/initialized` that ends the handshake and, when the server has tools, the first page of
`tools/list` (`FOLLOW_UP`), as `McpConnection.initialize` and the source's first listing send them. The
server lists its tools while the gateway still imports; measured at load 16, it took 0.45-0.65 s after the
gateway was built, where the client waited for it. What was read and written ahead is handed over with the
process (`Ahead`): its channel reads those lines first and does not write those messages again. Once taken, or
on anything but a well-formed answer, nothing more is read or written ahead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from hintgate import jsontext
from hintgate.config.model import GatewayConfig, ServerConfig, StdioTransport, child_environment
from hintgate.sources.handshake import CLIENT_CAPABILITIES, FIRST_REQUEST_ID, initialize_request

__all__ = [
    "FOLLOW_UP",
    "HURRIED_PATIENCE",
    "LINE_LIMIT",
    "STOP_PATIENCE",
    "Ahead",
    "Prestarted",
    "findable",
    "hurry",
    "prestarting",
    "spawn",
    "stop",
]

logger = logging.getLogger(__name__)

LINE_LIMIT = 64 * 1024 * 1024
"""Bytes one JSON-RPC message from a child may hold (one per line; screenshots make lines large)."""

Key = tuple[str, tuple[str, ...], str | None, tuple[tuple[str, str], ...]]

INITIALIZED: dict[str, Any] = {"jsonrpc": "2.0", "method": "notifications/initialized"}
FIRST_LISTING: dict[str, Any] = {"jsonrpc": "2.0", "id": FIRST_REQUEST_ID + 1, "method": "tools/list"}
FOLLOW_UP = (INITIALIZED, FIRST_LISTING)
"""What a connection sends once its `initialize` is answered, in order: the handshake's end, then (a server
with tools) the first page of its tools, its second request."""


@dataclass(eq=False)
class Ahead:
    """A process spawned ahead, as it is taken: what was written to it and read from it so far.

    Attributes:
        process: the child.
        sent: the messages written to its stdin, in order (the `initialize` request first).
        read: what was read from its stdout, in order: each line (b"" at its end), or the error reading one
            raised (a line over `LINE_LIMIT`).
    """

    process: asyncio.subprocess.Process
    sent: list[dict[str, Any]] = field(default_factory=list)
    read: list[bytes | Exception] = field(default_factory=list)


def _encoded(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def _follow_up(answer: bytes, first: dict[str, Any]) -> tuple[dict[str, Any], ...] | None:
    """What to send once `answer` is read (a line from a process given `first`): `FOLLOW_UP` or its first part
    when it is the well-formed answer a connection goes on from, (), when it is not the answer yet, None when it
    is anything else (nothing more is said ahead).

    The checks are the connection's own (`channels.StdioChannel.receive`, `McpConnection.initialize`), so that
    what is sent ahead is exactly what the connection would send next.
    """
    if not answer.strip():
        return ()
    try:
        message = jsontext.loads(answer)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    if "method" in message or message.get("id") != first.get("id"):
        return ()  # the server's own message, or an answer to nothing: read by the connection as it comes
    result = message.get("result")
    if "error" in message or not isinstance(result, dict) or not isinstance(result.get("protocolVersion"), str):
        return None
    capabilities = result.get("capabilities")
    has_tools = isinstance(capabilities, dict) and "tools" in capabilities
    return FOLLOW_UP if has_tools else FOLLOW_UP[:1]


async def _read_ahead(ahead: Ahead, first: dict[str, Any]) -> None:
    """Read `ahead.process`'s stdout until its answer to `first`, then write what a connection would send next."""
    process = ahead.process
    assert process.stdout is not None
    assert process.stdin is not None
    while True:
        try:
            line = await process.stdout.readline()
        except (ValueError, asyncio.LimitOverrunError) as exc:
            ahead.read.append(exc)
            return
        ahead.read.append(line)
        if not line:
            return
        then = _follow_up(line, first)
        if then is None:
            return
        if then:
            # Written in one step (no await between): taken while it drains, the channel finds them all sent.
            process.stdin.write(b"".join(_encoded(message) for message in then))
            ahead.sent.extend(then)
            with contextlib.suppress(OSError):  # it ended: its channel finds it so and says why
                await process.stdin.drain()
            return


def _key(spec: StdioTransport, env: Mapping[str, str]) -> Key:
    return (spec.command, tuple(spec.args), None if spec.cwd is None else str(spec.cwd), tuple(sorted(env.items())))


def findable(spec: StdioTransport, env: Mapping[str, str]) -> bool:
    """Whether the command can be run: a path, or a name on the child's PATH."""
    return os.sep in spec.command or shutil.which(spec.command, path=env.get("PATH")) is not None


async def spawn(spec: StdioTransport, env: Mapping[str, str]) -> asyncio.subprocess.Process:
    """Start the child with pipes on stdin, stdout and stderr, in a session of its own.

    Raises:
        OSError: it could not be started.
    """
    return await asyncio.create_subprocess_exec(
        spec.command,
        *spec.args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=dict(env),
        cwd=spec.cwd,
        limit=LINE_LIMIT,
        start_new_session=True,  # a Ctrl-C to the gateway must not reach the child first
    )


STOP_PATIENCE = 2.0
"""Seconds a stop waits for the child at each step: after closing its stdin, after SIGTERM, after SIGKILL."""

HURRIED_PATIENCE = 0.2
"""Seconds a hurried stop (`hurry`) waits after closing the child's stdin and after SIGTERM, before SIGKILL."""


class _Stops:
    """Whether this process was told to hurry its stops, and the stops under way (each by its event)."""

    def __init__(self) -> None:
        self.hurried = False
        self.under_way: set[asyncio.Event] = set()


_STOPS = _Stops()


def hurry() -> None:
    """Make every stop under way and every later one hurry: the gateway was told to stop during its shutdown.

    A hurried stop waits `HURRIED_PATIENCE` instead of `STOP_PATIENCE` for the child to leave after its stdin
    closes and after SIGTERM (a wait under way ends at once), then kills it, waiting as before for that.
    """
    _STOPS.hurried = True
    for hurried in _STOPS.under_way:
        hurried.set()


async def stop(process: asyncio.subprocess.Process) -> None:
    """The spec's shutdown: close stdin, wait, then SIGTERM, then SIGKILL (at most ~6 s; ~2.5 s once `hurry`)."""
    hurried = asyncio.Event()
    if _STOPS.hurried:
        hurried.set()
    _STOPS.under_way.add(hurried)
    try:
        if process.stdin is not None and not process.stdin.is_closing():
            process.stdin.close()
        for step in (None, process.terminate, process.kill):
            if process.returncode is not None:
                break
            if step is not None:
                with contextlib.suppress(ProcessLookupError):
                    step()
            if step is process.kill:
                await _exited(process, STOP_PATIENCE)
            elif hurried.is_set():
                await _exited(process, HURRIED_PATIENCE)
            else:
                await _exited(process, STOP_PATIENCE, hurried)  # cut short by `hurry`
    finally:
        _STOPS.under_way.discard(hurried)


async def _exited(process: asyncio.subprocess.Process, within: float, hurried: asyncio.Event | None = None) -> None:
    """Return once `process` has exited, `within` seconds have passed, or `hurried` is set."""
    waits = [asyncio.ensure_future(process.wait())]
    if hurried is not None:
        waits.append(asyncio.ensure_future(hurried.wait()))
    try:
        await asyncio.wait(waits, timeout=within, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


class Prestarted:
    """Processes spawned before the sources that will run them exist, by what they were started from, each
    with the request it was given first and what was read and written ahead since."""

    def __init__(self) -> None:
        self._waiting: dict[Key, tuple[Ahead, dict[str, Any] | None, asyncio.Task[None] | None]] = {}

    async def start(self, server: ServerConfig, env: Mapping[str, str], first: dict[str, Any] | None = None) -> None:
        """Spawn `server`'s child now (a stdio server that can be found), and write `first` to its stdin (one
        JSON-RPC request, None for none), then read its answer and follow it up (`FOLLOW_UP`) as it comes; a
        failure is left to its source."""
        spec = server.transport
        if not isinstance(spec, StdioTransport) or not findable(spec, env):
            return
        key = _key(spec, env)
        if key in self._waiting:  # two servers with one definition: the second starts its own
            return
        try:
            process = await spawn(spec, env)
        except OSError:
            return  # its source tries again and says why
        ahead = Ahead(process)
        reading: asyncio.Task[None] | None = None
        if first is not None and process.stdin is not None:
            process.stdin.write(_encoded(first))
            ahead.sent.append(first)
            reading = asyncio.ensure_future(_read_ahead(ahead, first))
        self._waiting[key] = (ahead, first, reading)
        if reading is not None and process.stdin is not None:
            with contextlib.suppress(OSError):  # it ended already: its source finds it so and says why
                await process.stdin.drain()

    async def take(
        self, spec: StdioTransport, env: Mapping[str, str], first: dict[str, Any] | None = None
    ) -> Ahead | None:
        """The process started from exactly `spec` and `env` and given exactly `first`, handed out once, with
        what was read and written ahead (nothing more is, from then on); None when there is none (one given
        another request first is left to be stopped)."""
        key = _key(spec, env)
        waiting = self._waiting.get(key)
        if waiting is None or waiting[1] != first:
            return None
        del self._waiting[key]
        ahead, _first, reading = waiting
        await _stopped(reading)
        return ahead

    async def discard(self) -> None:
        """Stop every process not taken."""
        waiting = list(self._waiting.values())
        self._waiting.clear()
        if waiting:
            logger.debug("stopping %d upstream processes started ahead and not used", len(waiting))
        await asyncio.gather(*(_stopped(reading) for _ahead, _first, reading in waiting))
        await asyncio.gather(*(stop(ahead.process) for ahead, _first, _reading in waiting))


async def _stopped(reading: asyncio.Task[None] | None) -> None:
    """Stop reading ahead (`_read_ahead`): once this returns, nothing more is read from or written to the process.

    Cancelled as it waits for a line, the line stays in the pipe's buffer for the channel.
    """
    if reading is not None:
        reading.cancel()
        await asyncio.wait([reading])  # its end, whatever it was (not raised here)


@asynccontextmanager
async def prestarting(config: GatewayConfig, environ: Mapping[str, str]) -> AsyncIterator[Prestarted]:
    """Spawn every enabled stdio server of `config` now, each given hintgate's `initialize` request; the
    processes, for the sources built within to take.

    `environ` is what the gateway will be given: each child gets the environment its source would give it.
    Any process not taken is stopped on exit.
    """
    prestarted = Prestarted()
    first = initialize_request(CLIENT_CAPABILITIES)
    try:
        for server in config.servers.values():
            if server.enabled:
                await prestarted.start(server, child_environment(server, config, environ), first)
        yield prestarted
    finally:
        await prestarted.discard()
