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
imports its own, rather than after the gateway is built. The answer waits in the pipe for the connection
that takes the process, and a process is taken only by a connection that would have sent that same request.
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
from typing import Any

from hintgate.config.model import GatewayConfig, ServerConfig, StdioTransport, child_environment
from hintgate.sources.handshake import CLIENT_CAPABILITIES, initialize_request

__all__ = ["LINE_LIMIT", "Prestarted", "findable", "prestarting", "spawn", "stop"]

logger = logging.getLogger(__name__)

LINE_LIMIT = 64 * 1024 * 1024
"""Bytes one JSON-RPC message from a child may hold (one per line; screenshots make lines large)."""

Key = tuple[str, tuple[str, ...], str | None, tuple[tuple[str, str], ...]]


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


async def stop(process: asyncio.subprocess.Process) -> None:
    """The spec's shutdown: close stdin, wait, then SIGTERM, then SIGKILL (at most ~6 s)."""
    if process.stdin is not None and not process.stdin.is_closing():
        process.stdin.close()
    for step in (None, process.terminate, process.kill):
        if process.returncode is not None:
            break
        if step is not None:
            with contextlib.suppress(ProcessLookupError):
                step()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2.0):
                await process.wait()


class Prestarted:
    """Processes spawned before the sources that will run them exist, by what they were started from, each
    with the request it was given first."""

    def __init__(self) -> None:
        self._waiting: dict[Key, tuple[asyncio.subprocess.Process, dict[str, Any] | None]] = {}

    async def start(self, server: ServerConfig, env: Mapping[str, str], first: dict[str, Any] | None = None) -> None:
        """Spawn `server`'s child now (a stdio server that can be found), and write `first` to its stdin (one
        JSON-RPC message, None for none); a failure is left to its source."""
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
        self._waiting[key] = (process, first)
        if first is not None and process.stdin is not None:
            process.stdin.write(json.dumps(first, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
            with contextlib.suppress(OSError):  # it ended already: its source finds it so and says why
                await process.stdin.drain()

    def take(
        self, spec: StdioTransport, env: Mapping[str, str], first: dict[str, Any] | None = None
    ) -> asyncio.subprocess.Process | None:
        """The process started from exactly `spec` and `env` and given exactly `first`, handed out once; None
        when there is none (one given another request first is left to be stopped)."""
        key = _key(spec, env)
        waiting = self._waiting.get(key)
        if waiting is None or waiting[1] != first:
            return None
        del self._waiting[key]
        return waiting[0]

    async def discard(self) -> None:
        """Stop every process not taken."""
        waiting = [process for process, _first in self._waiting.values()]
        self._waiting.clear()
        if waiting:
            logger.debug("stopping %d upstream processes started ahead and not used", len(waiting))
        await asyncio.gather(*(stop(process) for process in waiting))


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
