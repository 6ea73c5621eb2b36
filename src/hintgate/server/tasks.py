"""Long-running calls through the gateway: the Tasks extension's handles and requests, on any replica.

An upstream that offers the Tasks extension (`hintgate.sources.tasks`) may
answer a `tools/call` with a task handle. The policy decided that call when
it was made (a person approved it then, if it asked); the task's requests
never ask again. The client gets a handle of the gateway's own: a random
256-bit id. What the gateway keeps of the task is a `hintgate.handles.TaskRecord`
in its book (the store's, shared by every replica; in memory without a store),
found by the handle's SHA-256 and bound to its owner (the person, client name
and version, view of the session that made the call). `tasks/get`,
`tasks/update` and `tasks/cancel` find the task by that key and owner only:
a handle of another owner, or one never issued, is answered as the spec
answers an unknown task (-32602), so nobody learns another client's tasks
exist, and an upstream's ids never reach a client.

The call's record is written, with the task, before the handle goes out (its
decision, approver, arguments and the server's task id: a `kill -9` then
loses nothing), and completed when the task is seen to end (the `tasks/get`
that finds it terminal, on whichever replica, or the `tasks/cancel` that
stops it): its duration runs from the call to its end, and its outcome is
the tool's result (scanned as any result is), the task's error, or its
cancellation. The book keeps the scanned result until a `tasks/get` served it
(and a short grace for a repeated poll), within bounds per client and for the
gateway, and forgets a task after its TTL (an unfinished one is withdrawn
then). A client that stops asking (its session ends everywhere) has its
unfinished tasks cancelled upstream and recorded as withdrawn; so have the
tasks of a stdio server when the gateway stops (its child goes with it), and
at the next start those a gateway left unfinished when it was killed
(`hintgate.store.tasks.withdraw_abandoned`), cancelled upstream where the
server still runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from hintgate.errors import StoreError, UpstreamError, UpstreamRequestError
from hintgate.handles import (
    CANCELLED,
    COMPLETED,
    FAILED,
    WITHDRAWN,
    WORKING,
    CallEnd,
    MemoryTasks,
    TaskBook,
    TaskRecord,
    task_key,
)
from hintgate.hints.catalog import CatalogEntry
from hintgate.pipeline import HandedOff, TaskFinish
from hintgate.request_context import RequestContext
from hintgate.results import tool_error
from hintgate.server.client_call import ClientCall
from hintgate.server.errors import mcp_error, to_mcp_error
from hintgate.server.sessions import SessionTracker
from hintgate.session import ClientSession
from hintgate.sources.base import Source
from hintgate.sources.capabilities import RunsTasks
from hintgate.sources.tasks import TASK_METHODS, TASKS, TERMINAL

if TYPE_CHECKING:
    from hintgate.observers.recording import Recording

__all__ = ["NOT_FOUND", "TaskRoutes", "owner_of", "task_params_model"]

logger = logging.getLogger(__name__)

NOT_FOUND = -32602
"""What the spec answers for a task id that names no task of the caller's (Invalid params)."""

MISSING_CAPABILITY = -32021
"""What the spec answers a client that sends a task request without declaring the extension."""

CANCELLED_BY_CLIENT = "cancelled by its client (tasks/cancel) while it ran"
"""The error on record of a task its client cancelled."""

WITHDRAWN_TASK = "withdrawn: its client's session ended while it ran; it was cancelled upstream"
"""The error on record of a task whose caller went away."""

WITHDRAWN_WITH_GATEWAY = (
    "withdrawn: the gateway stopped while it ran, and its server with it; it was cancelled upstream"
)
"""The error on record of a task of a stdio server when the gateway stopped."""

EXPIRED_TASK = "withdrawn: it ran longer than the gateway keeps a task; it was cancelled upstream"
"""The error on record of a task whose time ran out."""

RESULT_DROPPED = (
    "The result of this task was delivered already, by an earlier tasks/get, and is no longer kept; "
    "its call's record holds it."
)
"""What a `tasks/get` of a completed task gets once its result was served and dropped."""

_CANCEL_WAIT = 10.0  # seconds a cancellation sent upstream for a departed session may take
_POLL_DEFAULT = 1.0  # seconds between polls of a task whose server suggests no interval
_POLL_MIN = 0.05
_POLL_MAX = 5.0
_SWEEP_EVERY = 30.0  # seconds between looks for tasks whose time ran out
_TOUCH_EVERY = timedelta(seconds=1)  # a client polling fast is noted at most this often


def task_params_model() -> type[Any]:
    """The params model of the extension's requests: a `taskId`, and whatever else the request carries."""
    from mcp_types import RequestParams
    from pydantic import ConfigDict, Field

    class TaskRequestParams(RequestParams):
        model_config = ConfigDict(extra="allow", populate_by_name=True)
        task_id: str = Field(alias="taskId")

    return TaskRequestParams


def owner_of(session: ClientSession) -> str:
    """Who may use a task's handle: the session's person (by key), client name and version, view; the same on
    every replica.

    A 2026-07-28 session (the only kind that gets handles) is these four, so the owner is the session as every
    replica would group the client's requests.
    """
    person = session.principal.key if session.principal is not None else session.user
    key = [person, session.client_name, session.client_version, session.view]
    return json.dumps(key, ensure_ascii=False, separators=(",", ":"))


@dataclass(slots=True)
class _Local:
    """What only the process that started a task holds: the call's own ending, and who made it."""

    finish: TaskFinish
    caller: ClientCall  # the call that started it: who it was made as (a person's own login)


UNDECLARED = -32601
"""The error of a task whose server asked the client for what it did not declare (sampling, elicitation, roots)."""

_WORDS = ("statusMessage", "error", "inputRequests")
"""What a task's answer carries in its server's own words (the result is read by the call's scan)."""


def _refused(client: ClientCall, answer: Mapping[str, Any]) -> str | None:
    """Why the client may not be asked one of the answer's input requests (a capability it did not declare)."""
    requests = answer.get("inputRequests")
    if not isinstance(requests, Mapping):
        return None
    for request in requests.values():
        method = request.get("method") if isinstance(request, Mapping) else None
        refusal = client.refusal(method) if isinstance(method, str) else None
        if refusal is not None:
            return f"the task's server asked for {method}, but {refusal}; the task was cancelled"
    return None


def _failure(answer: Mapping[str, Any]) -> str:
    error = answer.get("error")
    message = error.get("message") if isinstance(error, Mapping) else None
    return f"the task failed: {message or 'no message'}"


class TaskRoutes:
    """The tasks clients hold handles of, by their keys in a book; routes their requests to the issuing server.

    Also a session observer: the end of a client's session everywhere cancels its unfinished tasks upstream.

    One concept for all its methods: a task's life from the call that starts it to its end (the routes of
    `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list`, the questions relayed meanwhile, the end
    recorded, the withdrawal when its owner leaves), each step reading and changing the same book entry.

    Args:
        sources: the gateway's sources, by name.
        sessions: the gateway's sessions.
        modern: the protocol versions that have no connection (the only ones that get handles).
        book: where tasks are kept (`MemoryTasks` until `keep_in` gives the store's).
        entry_of: the catalog entry of a public tool name (a task ended on a replica that did not start it).
        scan: scans such a task's result (`hintgate.pipeline.ToolCalls.scan_task_result`).
        words: reads what a task's server says besides its result (its status message, its error, its input
            requests, a JSON-RPC error) before a client sees it (`hintgate.pipeline.ToolCalls.scan_task_words`);
            without it, those are withheld.
    """

    def __init__(
        self,
        sources: Mapping[str, Source],
        sessions: SessionTracker,
        *,
        modern: frozenset[str],
        book: TaskBook | None = None,
        entry_of: Callable[[str], CatalogEntry | None] | None = None,
        scan: Callable[
            [Any, CatalogEntry, Mapping[str, Any]], Awaitable[tuple[dict[str, Any], tuple[Any, ...], str | None]]
        ]
        | None = None,
        words: Callable[[Any, CatalogEntry | None, Mapping[str, Any]], Awaitable[dict[str, Any]]] | None = None,
    ) -> None:
        self._sources = sources
        self._sessions = sessions
        self._modern = modern
        self.book: TaskBook = book if book is not None else MemoryTasks()
        self.replica = "local"
        self._recording: Recording | None = None
        self._entry_of = entry_of or (lambda _name: None)
        self._scan = scan
        self._words = words
        self._local: dict[str, _Local] = {}
        self._withdrawals: set[asyncio.Future[object]] = set()

    def keep_in(self, book: TaskBook, *, replica: str, recording: Recording | None) -> None:
        """Keep tasks in `book` (the store's) from now on, as `replica`; `recording` masks what is recorded."""
        self.book = book
        self.replica = replica
        self._recording = recording

    def extensions(self) -> dict[str, dict[str, Any]]:
        """What the gateway advertises: the Tasks extension while an upstream offers it."""
        offered = any(isinstance(s, RunsTasks) and s.offers_tasks for s in self._sources.values())
        return {TASKS: {}} if offered else {}

    def declared(self, ctx: RequestContext | None) -> bool:
        """Whether the request's client takes task handles: a 2026-07-28 request declaring the extension."""
        if ctx is None or ctx.protocol_version not in self._modern:
            return False
        extensions = getattr(ctx.session.client_capabilities, "extensions", None)
        return isinstance(extensions, Mapping) and TASKS in extensions

    # -- a call became a task ------------------------------------------------

    async def started(self, handed: HandedOff) -> tuple[dict[str, Any], bool]:
        """The client's handle for the task an upstream answered a call with; or, without one, the task's end.

        A client that declared the extension gets a handle once the task and the call's record so far
        (`handed.started`) are kept; the record is completed when the task ends. Any other client (every
        handshake-era client) gets what the call would have returned: the gateway polls the task for it,
        within the server's call timeout.
        """
        ctx, session, entry, handle = handed.call.ctx, handed.call.session, handed.call.entry, handed.handle
        upstream_id = str(handle["taskId"])
        if session is None or not self.declared(ctx):
            return await self._wait_for_end(ctx, entry, upstream_id, handle), False
        task_id = secrets.token_urlsafe(32)
        now = datetime.now(UTC)
        record = TaskRecord(
            key=task_key(task_id),
            call_id=handed.started.call_id,
            owner=owner_of(session),
            session_id=session.id,
            server=entry.server,
            tool=entry.name,
            upstream_id=upstream_id,
            replica=self.replica,
            status=WORKING,
            started_at=now,
            touched_at=now,
            expires_at=now + timedelta(seconds=self.book.limits.ttl),
        )
        call = None
        if self._recording is not None:
            from hintgate.observers.recording import call_record

            call = call_record(handed.started, self._recording.redact, self._recording.config_path)
        try:
            refusal = await self.book.open(record, call)
        except StoreError as exc:
            refusal = f"the gateway could not keep it ({exc})"
        if refusal is not None:
            self._spawn(self._cancel_upstream(entry.server, upstream_id, ClientCall(ctx)))
            logger.warning("%s: a task of %s was refused and cancelled upstream: %s", entry.server, entry.name, refusal)
            return tool_error(
                f"The tool {entry.name!r} answered with a task the gateway cannot hold: {refusal}. "
                f"The task was cancelled at server {entry.server!r}."
            ), False
        self._local[record.key] = _Local(handed.finish, ClientCall(ctx))
        shown = await self._read_words(ctx, entry.name, {k: v for k, v in handle.items() if k != "_meta"})
        return {**shown, "taskId": task_id, "resultType": "task"}, True

    async def _read_words(self, ctx: RequestContext | None, tool: str, answer: Mapping[str, Any]) -> dict[str, Any]:
        """`answer` with what its server says in its own words (`_WORDS`) read like the call's result."""
        said = {k: answer[k] for k in _WORDS if k in answer}
        if not said:
            return dict(answer)
        if self._words is None:
            read: Mapping[str, Any] = dict.fromkeys(said, "[hintgate withheld this text: it could not be scanned]")
        else:
            read = await self._words(ctx, self._entry_of(tool), said)
        return {**dict(answer), **read}

    async def _wait_for_end(
        self, ctx: RequestContext | None, entry: CatalogEntry, upstream_id: str, handle: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The tool's result of a task, polled for a client that takes no handles; the task's questions go to it."""
        source = self._sources[entry.server]
        if not isinstance(source, RunsTasks):
            return tool_error(f"The tool {entry.name!r} answered with a task its server {entry.server!r} cannot run.")
        client = ClientCall(ctx)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + source.call_timeout
        answer: Mapping[str, Any] = handle
        answered: set[str] = set()
        try:
            while (status := answer.get("status")) not in TERMINAL:
                if status == "input_required":
                    asked = await self._read_words(ctx, entry.name, answer)
                    await self._relay_questions(client, entry.server, upstream_id, asked, answered)
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
        """Ask the client the task's new input requests (read already), as an upstream's own requests are relayed:
        the same capability checks (`ClientCall.client_request`); answer upstream."""
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
        source = self._sources.get(server)
        if responses and isinstance(source, RunsTasks):
            await source.request("tasks/update", {"taskId": upstream_id, "inputResponses": responses}, context=client)

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
            raise mcp_error(
                MISSING_CAPABILITY,
                "Missing required client capability",
                {"requiredCapabilities": {"extensions": {TASKS: {}}}},
            )
        task_id = params.get("taskId")
        with self._sessions.serving(ctx) as session:
            if not isinstance(task_id, str):
                raise mcp_error(NOT_FOUND, "Failed to retrieve task: Task not found")
            now = datetime.now(UTC)
            record = await self._read(task_key(task_id), now)
            if record is None or record.owner != owner_of(session):
                raise mcp_error(NOT_FOUND, "Failed to retrieve task: Task not found")
            if now - record.touched_at >= _TOUCH_EVERY:
                await self._quietly(self.book.touch(record.key, now), "note a task's poll")
            if method == "tasks/get" and not record.unfinished:
                return await self._as_kept(task_id, record, now)  # its end is known: the server is not asked again
            forwarded = {k: v for k, v in params.items() if k != "_meta"}
            forwarded["taskId"] = record.upstream_id
            answer = await self._forward(ctx, record, method, forwarded)
            if method == "tasks/get":
                return await self._status(ctx, task_id, record, answer)
            answer = await self._read_words(ctx, record.tool, answer)
            if method == "tasks/cancel" and record.unfinished:
                await self._end(ctx, record, CANCELLED, None, CANCELLED_BY_CLIENT, answer)
            return {k: v for k, v in answer.items() if k not in ("taskId", "_meta", "result")}

    async def _read(self, key: str, now: datetime) -> TaskRecord | None:
        try:
            return await self.book.get(key, now)
        except StoreError as exc:
            raise mcp_error(-32603, f"The gateway cannot read its tasks now: {exc}") from exc

    async def _forward(
        self, ctx: RequestContext, task: TaskRecord, method: str, params: dict[str, Any]
    ) -> dict[str, Any]:
        source = self._sources.get(task.server)
        if source is None:
            raise mcp_error(NOT_FOUND, f"Failed to retrieve task: its server {task.server!r} is no longer configured")
        if not isinstance(source, RunsTasks):
            raise mcp_error(NOT_FOUND, f"Failed to retrieve task: its server {task.server!r} no longer runs tasks")
        if task.replica != self.replica and not _outlives_its_gateway(source):
            # A stdio server is a child of each replica: only the one that started the task has it.
            raise mcp_error(
                NOT_FOUND,
                f"Failed to retrieve task: its server {task.server!r} runs as a child of the gateway replica "
                f"{task.replica!r}, which started it; ask that replica",
            )
        try:
            return await source.request(method, params, context=ClientCall(ctx))
        except UpstreamRequestError as exc:
            # The server's own JSON-RPC error reaches the client: its words are read like the call's result.
            read = await self._read_words(ctx, task.tool, {"error": {"message": exc.message, "data": exc.data}})
            said = read["error"] if isinstance(read["error"], Mapping) else {}
            message = said.get("message")
            if not isinstance(message, str):
                message = "the server's error was withheld"
            raise to_mcp_error(UpstreamRequestError(message, code=exc.code, data=said.get("data"))) from exc
        except UpstreamError as exc:
            raise to_mcp_error(exc) from exc

    async def _status(
        self, ctx: RequestContext, task_id: str, task: TaskRecord, answer: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A `tasks/get` answer for the client: its id, the server's words read, and once the task ended, the
        result as recorded. Input requests for a capability the client did not declare end the task, as an
        upstream's own such request fails its call (`ClientCall.refusal`)."""
        refused = _refused(ClientCall(ctx), answer) if answer.get("status") == "input_required" else None
        if refused is not None:
            local = self._local.get(task.key)
            self._spawn(
                self._cancel_upstream(task.server, task.upstream_id, local.caller if local else ClientCall(ctx))
            )
            answer = {"status": "failed", "statusMessage": refused, "error": {"code": UNDECLARED, "message": refused}}
        answer = await self._read_words(ctx, task.tool, {k: v for k, v in answer.items() if k != "_meta"})
        status = answer.get("status")
        shown = {k: v for k, v in answer.items() if k != "result"}
        shown["taskId"] = task_id
        if status not in TERMINAL:
            return shown
        kept = {COMPLETED: COMPLETED, "failed": FAILED}.get(str(status), CANCELLED)
        error = (
            None
            if status == "completed"
            else _failure(answer)
            if status == "failed"
            else (f"the task was cancelled by its server: {answer.get('statusMessage') or ''}")
        )
        result = answer.get("result") if status == "completed" else None
        ended = await self._end(ctx, task, kept, result if isinstance(result, Mapping) else {}, error, answer)
        now = datetime.now(UTC)
        if ended is None or ended.unfinished:
            # Another request (here or on another replica) is recording its end: the result is not ready yet.
            return {**shown, "status": "working"}
        return await self._as_kept(task_id, ended, now, shown)

    async def _as_kept(
        self, task_id: str, task: TaskRecord, now: datetime, shown: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """A `tasks/get` answer from the book for a task whose end is known; a completed one's result is served."""
        answer = dict(shown) if shown is not None else {**(task.answer or {}), "status": task.status}
        answer.pop("result", None)
        answer["taskId"] = task_id
        if task.status == WITHDRAWN:
            answer["status"] = "cancelled"
        if task.status == COMPLETED:
            if task.result is None:
                answer["result"] = tool_error(RESULT_DROPPED)
            else:
                answer["result"] = dict(task.result)
                await self._quietly(self.book.served(task.key, now), "note a task's result served")
        return answer

    async def _end(
        self,
        ctx: RequestContext | None,
        task: TaskRecord,
        status: str,
        result: Mapping[str, Any] | None,
        error: str | None,
        answer: Mapping[str, Any] | None,
    ) -> TaskRecord | None:
        """Record a task seen to end, once across replicas: its call's record completed, the book settled.

        Returns the task as the book then holds it (None if it is gone).
        """
        now = datetime.now(UTC)
        try:
            claimed = await self.book.claim(task.key, now)
        except StoreError as exc:
            logger.warning("could not record the end of a task of %s: %s", task.tool, exc)
            return None
        if not claimed:
            return await self._read(task.key, now)
        taken: Mapping[str, Any] | None = None
        try:
            taken, error = await self._record_end(ctx, task, result, error, now)
        finally:
            kept_answer = {k: v for k, v in (answer or {}).items() if k not in ("result", "taskId")}
            await self._quietly(
                self.book.settle(
                    task.key, status, datetime.now(UTC), taken if status == COMPLETED else None, kept_answer
                ),
                "record a task's end",
            )
        return await self._read(task.key, datetime.now(UTC))

    async def _record_end(
        self,
        ctx: RequestContext | None,
        task: TaskRecord,
        result: Mapping[str, Any] | None,
        error: str | None,
        now: datetime,
    ) -> tuple[Mapping[str, Any] | None, str | None]:
        """The result as the client gets it and the error on record; the call's record completed with them."""
        local = self._local.pop(task.key, None)
        findings: tuple[Any, ...] = ()
        action = None
        if local is not None:
            # The process that started it: the call ends as any call does (scanned, observers told).
            outcome = await local.finish(result, error)
            taken, error = outcome.result, outcome.error
            findings, action, duration_ms = outcome.result_findings, outcome.result_action, outcome.duration_ms
        else:
            taken = None
            if result is not None:
                entry = self._entry_of(task.tool)
                if entry is None or self._scan is None:
                    # Nothing to scan it as: it is withheld, never passed on unread.
                    taken = tool_error(
                        f"The result of {task.tool!r} was withheld: the tool is no longer listed by this gateway, "
                        "so its result could not be scanned."
                    )
                    error = "result withheld: the tool was no longer listed when its task ended"
                else:
                    taken, findings, action = await self._scan(ctx, entry, result)
            duration_ms = (now - task.started_at).total_seconds() * 1000
        recording = self._recording
        response = recording.redact.value(taken) if recording is not None and taken is not None else taken
        shown_error = recording.redact.text(error) if recording is not None and error is not None else error
        await self._quietly(
            self.book.complete(task.call_id, CallEnd(response, shown_error, duration_ms, findings, action)),
            "complete a task's call record",
        )
        return taken, error

    # -- a client that went away, a task that ran too long, a gateway that stopped -----------

    def session_started(self, session: ClientSession) -> None:
        """Nothing to do: a session holds no task until it makes a call that becomes one."""

    def session_ended(self, session: ClientSession) -> None:
        """Withdraw the unfinished tasks of a client that asked about none of them, on any replica, for as long."""
        if session.protocol_version in self._modern:
            self._spawn(self._withdraw_owner(owner_of(session), self._sessions.idle_timeout))

    async def _withdraw_owner(self, owner: str, idle: float) -> None:
        try:
            tasks = await self.book.unfinished_of(owner)
        except StoreError as exc:
            logger.warning("could not read a departed client's tasks: %s", exc)
            return
        now = datetime.now(UTC)
        for task in tasks:
            # Its client may poll it through another replica: only a task nobody asked about for as long goes.
            if now - task.touched_at >= timedelta(seconds=idle):
                await self._withdraw(task, WITHDRAWN_TASK)

    async def _withdraw(self, task: TaskRecord, reason: str) -> None:
        """Cancel an unfinished task upstream and record it withdrawn (once across replicas)."""
        now = datetime.now(UTC)
        try:
            if not await self.book.withdraw(task.key, now):
                return
        except StoreError as exc:
            logger.warning("could not withdraw a task of %s: %s", task.tool, exc)
            return
        local = self._local.get(task.key)
        await self._cancel_upstream(task.server, task.upstream_id, local.caller if local else ClientCall(None))
        await self._record_end(None, task, None, reason, now)

    async def sweep(self, every: float = _SWEEP_EVERY) -> None:
        """Withdraw, now and then, the tasks whose time ran out (runs until cancelled)."""
        while True:
            await asyncio.sleep(every)
            try:
                expired = await self.book.expired(datetime.now(UTC))
            except StoreError as exc:
                logger.warning("could not look for expired tasks: %s", exc)
                continue
            for task in expired:
                await self._withdraw(task, EXPIRED_TASK)

    async def cancel_left_behind(self, cancels: list[TaskRecord], wait: float) -> None:
        """Cancel upstream the tasks an earlier run left unfinished (withdrawn when the store opened)."""
        for task in cancels:
            source = self._sources.get(task.server)
            outcome = "its server is no longer configured"
            if source is not None:
                with contextlib.suppress(TimeoutError):
                    await source.wait_started(wait)
                outcome = await self._cancel_upstream(task.server, task.upstream_id, ClientCall(None))
            cancelled = getattr(self.book, "cancelled_upstream", None)
            if cancelled is not None:
                await self._quietly(cancelled(task.key, outcome), "note a task cancelled upstream")

    async def _cancel_upstream(self, server: str, upstream_id: str, caller: ClientCall) -> str:
        """Send `tasks/cancel` as the call's caller: a server with a login per person has the task on theirs."""
        source = self._sources.get(server)
        if source is None:
            return "its server is no longer configured"
        if not isinstance(source, RunsTasks):
            return "its server no longer runs tasks"
        try:
            async with asyncio.timeout(_CANCEL_WAIT):
                await source.request("tasks/cancel", {"taskId": upstream_id}, context=caller)
        except (UpstreamError, TimeoutError) as exc:
            logger.warning("%s: cancelling task %s upstream failed: %s", server, upstream_id, exc)
            return f"cancelling it failed: {exc}"
        return "cancelled"

    async def _quietly(self, work: Awaitable[object], doing: str) -> None:
        """Do a book's write whose failure must not fail the client's request: logged instead."""
        try:
            await work
        except StoreError as exc:
            logger.warning("could not %s: %s", doing, exc)

    def _spawn(self, work: Awaitable[object]) -> None:
        task = asyncio.ensure_future(work)
        self._withdrawals.add(task)
        task.add_done_callback(self._withdrawals.discard)

    async def aclose(self) -> None:
        """Withdraw the tasks this gateway's stopping ends; wait (bounded) for the cancellations sent upstream.

        A stdio server's tasks end with it; with no store, every task does (nobody could answer it later).
        A task of a server reached by URL, kept in the store, stays: another replica, or this one restarted,
        answers it.
        """
        for key in list(self._local):
            task = await self._read_quietly(key)
            if task is None or not task.unfinished:
                continue
            source = self._sources.get(task.server)
            if isinstance(self.book, MemoryTasks) or source is None or not _outlives_its_gateway(source):
                self._spawn(self._withdraw(task, WITHDRAWN_WITH_GATEWAY))
        if self._withdrawals:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(_CANCEL_WAIT):
                    await asyncio.gather(*self._withdrawals, return_exceptions=True)

    async def _read_quietly(self, key: str) -> TaskRecord | None:
        try:
            return await self.book.get(key, datetime.now(UTC))
        except StoreError:
            return None


def _outlives_its_gateway(source: Source) -> bool:
    """Whether a source's tasks outlive this gateway process: a server reached by URL, not a stdio child."""
    return isinstance(source, RunsTasks) and source.tasks_outlive_gateway
