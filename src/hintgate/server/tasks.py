"""Long-running calls through the gateway: the Tasks extension's handles and requests, routed per session.

An upstream that offers the Tasks extension (`hintgate.sources.tasks`) may
answer a `tools/call` with a task handle. The policy decided that call when
it was made (a person approved it then, if it asked); the task's requests
never ask again. The client gets a handle of the gateway's own: a random
256-bit id, kept in a table with the session that made the call, the server
that issued the task and that server's id for it. `tasks/get`,
`tasks/update` and `tasks/cancel` find the task by that id and session only:
an id from another session, or one never issued, is answered as the spec
answers an unknown task (-32602), so nobody learns another session's tasks
exist, and an upstream's ids never reach a client.

The call is recorded when the task is seen to end (the `tasks/get` that
finds it terminal, or the `tasks/cancel` that stops it): its duration then
runs from the call to its end, and its outcome is the tool's result (scanned
as any result is), the task's error, or its cancellation. A session that
ends (its client went away) cancels its unfinished tasks upstream, and each
is recorded as withdrawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ConfigDict, Field

from hintgate.errors import UpstreamError
from hintgate.hints.catalog import CatalogEntry
from hintgate.pipeline import TaskFinish
from hintgate.results import tool_error
from hintgate.server.client_call import ClientCall
from hintgate.server.context import RequestContext
from hintgate.server.errors import to_mcp_error
from hintgate.server.sessions import ClientSession, SessionTracker
from hintgate.sources.base import Source
from hintgate.sources.mcp import McpUpstream
from hintgate.sources.tasks import TASK_METHODS, TASKS, TERMINAL

__all__ = ["NOT_FOUND", "TaskRoutes", "task_params_model"]

logger = logging.getLogger(__name__)

NOT_FOUND = -32602
"""What the spec answers for a task id that names no task of the caller's (Invalid params)."""

MISSING_CAPABILITY = -32021
"""What the spec answers a client that sends a task request without declaring the extension."""

CANCELLED_BY_CLIENT = "cancelled by its client (tasks/cancel) while it ran"
"""The error on record of a task its client cancelled."""

WITHDRAWN_TASK = "withdrawn: its client's session ended while it ran; it was cancelled upstream"
"""The error on record of a task whose caller went away."""

_CANCEL_WAIT = 10.0  # seconds a cancellation sent upstream for a departed session may take
_POLL_DEFAULT = 1.0  # seconds between polls of a task whose server suggests no interval
_POLL_MIN = 0.05
_POLL_MAX = 5.0


def task_params_model() -> type[Any]:
    """The params model of the extension's requests: a `taskId`, and whatever else the request carries."""
    from mcp_types import RequestParams

    class TaskRequestParams(RequestParams):
        model_config = ConfigDict(extra="allow", populate_by_name=True)
        task_id: str = Field(alias="taskId")

    return TaskRequestParams


@dataclass(slots=True)
class _Task:
    """One task a client holds a handle of."""

    owner: str  # the session that made the call
    server: str
    upstream_id: str
    finish: TaskFinish
    caller: ClientCall  # the call that started it: who it was made as (a person's own login)
    ended: bool = False
    result: dict[str, Any] | None = None  # the tool's result as the client got it, once completed
    settling: asyncio.Lock = field(default_factory=asyncio.Lock)  # two polls that see the end record it once


def _error(code: int, message: str, data: Any = None) -> Exception:
    from mcp.shared.exceptions import MCPError

    return MCPError(code=code, message=message, data=data)


class TaskRoutes:
    """The tasks clients hold handles of, by the gateway's ids; routes their requests to the issuing server.

    Also a session observer: a session's end cancels its unfinished tasks upstream.
    """

    def __init__(self, sources: Mapping[str, Source], sessions: SessionTracker, *, modern: frozenset[str]) -> None:
        self._sources = sources
        self._sessions = sessions
        self._modern = modern
        self._tasks: dict[str, _Task] = {}
        self._withdrawals: set[asyncio.Task[None]] = set()

    def extensions(self) -> dict[str, dict[str, Any]]:
        """What the gateway advertises: the Tasks extension while an upstream offers it."""
        offered = any(isinstance(s, McpUpstream) and s.offers_tasks for s in self._sources.values())
        return {TASKS: {}} if offered else {}

    def declared(self, ctx: RequestContext | None) -> bool:
        """Whether the request's client takes task handles: a 2026-07-28 request declaring the extension."""
        if ctx is None or ctx.protocol_version not in self._modern:
            return False
        extensions = getattr(ctx.session.client_capabilities, "extensions", None)
        return isinstance(extensions, Mapping) and TASKS in extensions

    # -- a call became a task ------------------------------------------------

    async def started(
        self,
        ctx: RequestContext | None,
        session: ClientSession | None,
        entry: CatalogEntry,
        handle: Mapping[str, Any],
        finish: TaskFinish,
    ) -> tuple[dict[str, Any], bool]:
        """The client's handle for the task an upstream answered a call with; or, without one, the task's end.

        A client that declared the extension gets a handle and the call is
        recorded when the task ends (`finish`). Any other client (every
        handshake-era client) gets what the call would have returned: the
        gateway polls the task for it, within the server's call timeout.
        """
        upstream_id = str(handle["taskId"])
        if session is not None and self.declared(ctx):
            task_id = secrets.token_urlsafe(32)
            self._tasks[task_id] = _Task(session.id, entry.server, upstream_id, finish, ClientCall(ctx))
            return {**dict(handle), "taskId": task_id, "resultType": "task"}, True
        return await self._wait_for_end(ctx, entry, upstream_id, handle), False

    async def _wait_for_end(
        self, ctx: RequestContext | None, entry: CatalogEntry, upstream_id: str, handle: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The tool's result of a task, polled for a client that takes no handles; the task's questions go to it."""
        source = self._sources[entry.server]
        client = ClientCall(ctx)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + source.call_timeout
        answer: Mapping[str, Any] = handle
        answered: set[str] = set()
        try:
            while (status := answer.get("status")) not in TERMINAL:
                if status == "input_required":
                    await self._relay_questions(client, entry.server, upstream_id, answer, answered)
                left = deadline - loop.time()
                if left <= 0:
                    self._spawn(self._cancel_upstream(entry.server, upstream_id, client))
                    return tool_error(
                        f"The tool {entry.name!r} did not finish within {source.call_timeout:g} s "
                        f"(server {entry.server!r}); its task was cancelled."
                    )
                interval = answer.get("pollIntervalMs")
                wait = interval / 1000 if isinstance(interval, int | float) and interval > 0 else _POLL_DEFAULT
                # The server's suggested interval, within bounds: neither a busy loop nor a stall.
                await asyncio.sleep(min(max(wait, _POLL_MIN), _POLL_MAX, left))
                answer = await source.request("tasks/get", {"taskId": upstream_id}, context=client)
        except asyncio.CancelledError:
            # The client cancelled its call (or went away): the work stops upstream too.
            self._spawn(self._cancel_upstream(entry.server, upstream_id, client))
            raise
        except UpstreamError as exc:
            self._spawn(self._cancel_upstream(entry.server, upstream_id, client))
            return tool_error(f"The tool {entry.name!r} failed: server {entry.server!r} {exc.detail}.")
        if status == "completed" and isinstance(answer.get("result"), Mapping):
            return dict(answer["result"])
        if status == "failed":
            error = answer.get("error")
            message = error.get("message") if isinstance(error, Mapping) else None
            return tool_error(
                f"The tool {entry.name!r} failed: server {entry.server!r} said: {message or 'no message'}."
            )
        return tool_error(f"The tool {entry.name!r} ended {status} at server {entry.server!r} without a result.")

    async def _relay_questions(
        self, client: ClientCall, server: str, upstream_id: str, answer: Mapping[str, Any], answered: set[str]
    ) -> None:
        """Ask the client the task's new input requests, as an upstream's own requests are relayed; answer upstream."""
        requests = answer.get("inputRequests")
        if not isinstance(requests, Mapping):
            return
        responses: dict[str, Any] = {}
        for key, request in requests.items():
            if key in answered or not isinstance(request, Mapping) or not isinstance(request.get("method"), str):
                continue
            params = request.get("params")
            responses[key] = await client.client_request(
                request["method"], params if isinstance(params, dict) else None
            )
            answered.add(key)
        if responses:
            await self._sources[server].request(
                "tasks/update", {"taskId": upstream_id, "inputResponses": responses}, context=client
            )

    # -- the extension's requests ------------------------------------------

    def handlers(self) -> dict[str, Callable[[Any, Any], Awaitable[dict[str, Any]]]]:
        """The request handlers of the extension's methods, for the SDK's `Server.add_request_handler`."""
        return {method: self._handler(method) for method in TASK_METHODS}

    def _handler(self, method: str) -> Callable[[Any, Any], Awaitable[dict[str, Any]]]:
        async def handle(ctx: Any, params: Any) -> dict[str, Any]:
            raw = params.model_dump(by_alias=True, exclude_none=True)
            return await self.request(ctx, method, raw)

        return handle

    async def request(self, ctx: RequestContext, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """Answer one of the extension's requests for the client, from the server that issued the task."""
        if not self.declared(ctx):
            raise _error(
                MISSING_CAPABILITY,
                "Missing required client capability",
                {"requiredCapabilities": {"extensions": {TASKS: {}}}},
            )
        task_id = params.get("taskId")
        with self._sessions.serving(ctx) as session:
            task = self._tasks.get(task_id) if isinstance(task_id, str) else None
            if task is None or task.owner != session.id or not isinstance(task_id, str):
                raise _error(NOT_FOUND, "Failed to retrieve task: Task not found")
            forwarded = {k: v for k, v in params.items() if k != "_meta"}
            forwarded["taskId"] = task.upstream_id
            answer = await self._forward(ctx, task, method, forwarded)
            if method == "tasks/get":
                return await self._status(task_id, task, answer)
            if method == "tasks/cancel":
                async with task.settling:
                    if not task.ended:
                        task.ended = True
                        await task.finish(None, CANCELLED_BY_CLIENT)
            return {k: v for k, v in answer.items() if k != "taskId"}

    async def _forward(self, ctx: RequestContext, task: _Task, method: str, params: dict[str, Any]) -> dict[str, Any]:
        source = self._sources.get(task.server)
        if source is None:
            raise _error(NOT_FOUND, f"Failed to retrieve task: its server {task.server!r} is no longer configured")
        try:
            return await source.request(method, params, context=ClientCall(ctx))
        except UpstreamError as exc:
            raise to_mcp_error(exc) from exc

    async def _status(self, task_id: str, task: _Task, answer: Mapping[str, Any]) -> dict[str, Any]:
        """A `tasks/get` answer for the client: its id, and once the task ended, the result as recorded."""
        status = answer.get("status")
        shown = {**dict(answer), "taskId": task_id}
        if status in TERMINAL:
            async with task.settling:
                if not task.ended:
                    task.ended = True
                    await self._settle(task, status, answer)
        if status == "completed":
            # Every poll shows the result the call's record holds: scanned once, the same each time.
            shown["result"] = task.result if task.result is not None else {}
        return shown

    @staticmethod
    async def _settle(task: _Task, status: Any, answer: Mapping[str, Any]) -> None:
        """Record the call of a task seen to end: its result (scanned), its error or its cancellation."""
        if status == "completed":
            result = answer.get("result")
            task.result = await task.finish(result if isinstance(result, Mapping) else {}, None)
        elif status == "failed":
            error = answer.get("error")
            message = error.get("message") if isinstance(error, Mapping) else None
            await task.finish(None, f"the task failed: {message or 'no message'}")
        else:
            await task.finish(None, f"the task was cancelled by its server: {answer.get('statusMessage') or ''}")

    # -- a client that went away ---------------------------------------------

    def session_started(self, session: ClientSession) -> None:
        """Nothing to do: a session holds no task until it makes a call that becomes one."""

    def session_ended(self, session: ClientSession) -> None:
        """Cancel upstream the unfinished tasks of a session that ended, and forget all of its tasks."""
        for task_id, task in list(self._tasks.items()):
            if task.owner != session.id:
                continue
            del self._tasks[task_id]
            if not task.ended:
                task.ended = True
                self._spawn(self._withdraw(task))

    async def _withdraw(self, task: _Task) -> None:
        await self._cancel_upstream(task.server, task.upstream_id, task.caller)
        await task.finish(None, WITHDRAWN_TASK)

    async def _cancel_upstream(self, server: str, upstream_id: str, caller: ClientCall) -> None:
        """Send `tasks/cancel` as the call's caller: a server with a login per person has the task on theirs."""
        source = self._sources.get(server)
        if source is None:
            return
        try:
            await asyncio.wait_for(
                source.request("tasks/cancel", {"taskId": upstream_id}, context=caller), _CANCEL_WAIT
            )
        except (UpstreamError, TimeoutError) as exc:
            logger.warning("%s: cancelling task %s upstream failed: %s", server, upstream_id, exc)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._withdrawals.add(task)
        task.add_done_callback(self._withdrawals.discard)

    async def aclose(self) -> None:
        """Wait (bounded) for the cancellations sent upstream (departed sessions, cancelled calls)."""
        if self._withdrawals:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*self._withdrawals, return_exceptions=True), _CANCEL_WAIT)
