"""The poisoning scan off the event loop: worker processes, a bound on how many, a wall-clock deadline.

A tool's result or definition is someone else's text, and reading it costs
time linear in its length (`tests/scan/test_scan_cost.py`). Pure-Python
regex work holds the GIL for as long as one match runs, so a thread would
still hold up every other client: a result longer than `INLINE_CHARACTERS`
(its JSON; a definition longer than `DEFINITION_CHARACTERS`) is scanned in a
worker process instead, and the event loop only waits for the answer. At most `workers` texts are scanned at once (the
machine's cores, at most 2); more wait their turn. A scan that has not
answered within `deadline` seconds of wall-clock time is stopped (its worker
killed, a new one started for the next) and its text counts as unread, so as
flagged: a result is withheld (or, with `mark`, passed with
`_meta["hintgate/unscanned"]`), a definition is held. Shorter texts are
scanned on the loop, where the scan costs less than a trip to a worker.

Workers are `python -m hintgate.scan.workers`, started on first use; they read a
job (length-prefixed JSON) on stdin and write the high findings on stdout, and
exit when stdin closes. Nothing is shared with them but the text.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import struct
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hintgate.results import tool_error
from hintgate.scan.findings import UNSCANNED, Key, Level, Location, ScanFinding
from hintgate.scan.guard import GuardedResult, OnResultFinding, apply

# The scan itself (`hintgate.scan.poisoning`: its modules and patterns) is imported where a text is first scanned
# here, not with this module: a gateway relaunched on the scans its store keeps lists its tools without it.

__all__ = ["DEADLINE", "DEFINITION_CHARACTERS", "INLINE_CHARACTERS", "Scanner", "serve_worker"]

logger = logging.getLogger(__name__)

INLINE_CHARACTERS = 1024
"""A result (or the texts of `Scanner.strings`) whose job's JSON is at most this long is scanned on the event loop; a
longer one in a worker process. Real prose costs far more than synthetic (`bench/scan_shapes.py --real`, warm, at
load 1.6): 1,000 characters p50 0.22 ms, p95 1.3, max 1.5; 2,000 p50 1.3, p95 4.5, max 20; 8,000 (the earlier
bound) p50 8-16, p95 47-63, max 123-149: a result past this bound would stall every other client."""
DEFINITION_CHARACTERS = 8192
"""A definition whose JSON is at most this long is scanned on the loop (or the catalog's thread) by default."""
DEADLINE = 10.0
"""Seconds of wall-clock time a worker has to scan one text by default (`integrity.scanDeadline`)."""
_START_TIMEOUT = 60.0  # seconds a new worker has to import the scan and say it is ready
_MEMORY = 2 << 30  # bytes of address space a worker may use: a text that needs more stops that worker only
_HEADER = struct.Struct(">I")


class Scanner:
    """Runs the poisoning scan for the gateway: on the loop for short texts, in worker processes for long ones.

    Args:
        deadline: seconds of wall-clock time one scan in a worker may take.
        workers: how many worker processes at most (the machine's cores, at most 2, when not given).
        inline: the JSON length up to which a result is scanned on the loop (`INLINE_CHARACTERS`), and a definition
            too when `definitions` is not given.
        definitions: the JSON length up to which a definition is scanned on the loop (`DEFINITION_CHARACTERS`, or
            `inline` when that is given).
    """

    def __init__(
        self,
        *,
        deadline: float = DEADLINE,
        workers: int | None = None,
        inline: int | None = None,
        definitions: int | None = None,
    ):
        self.deadline = deadline
        self.inline = INLINE_CHARACTERS if inline is None else inline
        self._cleared: set[bytes] = set()  # the jobs of short results the scan found nothing in
        self._rests: dict[tuple[str | None, float], str] = {}  # a result job's JSON after its result, by tool
        self.definitions = (
            definitions if definitions is not None else inline if inline is not None else DEFINITION_CHARACTERS
        )
        count = workers if workers is not None else min(2, os.cpu_count() or 1)
        self._idle: asyncio.Queue[_Worker] | None = None
        self._count = max(1, count)
        self._all: list[_Worker] = []
        self.stopped = 0
        """Scans stopped at the deadline (or lost with their worker) since start."""
        self.started = 0
        """Worker processes started since start."""

    # -- what the gateway asks ------------------------------------------------

    async def guard(
        self, result: Mapping[str, Any], *, action: OnResultFinding, tool: str | None = None
    ) -> GuardedResult:
        """`result` as the client gets it (`scan.guard.apply`), scanned within the deadline or withheld."""
        # The job's JSON is the `_dumps` of {"kind", "result", "tool", "seconds"}, written around the result's own,
        # which the call's record keeps as it is when the result goes out unchanged (`GuardedResult.json`).
        written = _ENCODER.encode(result)
        seconds = self._seconds
        rest = self._rests.get((tool, seconds))
        if rest is None:  # the same few tools, the same budget: written once each, not twice a result
            if len(self._rests) >= _RESTS_KEPT:
                self._rests.clear()
            rest = f',"tool":{_ENCODER.encode(tool)},"seconds":{_ENCODER.encode(seconds)}}}'
            self._rests[(tool, seconds)] = rest
        payload = f'{{"kind":"result","result":{written}{rest}'.encode("utf-8", "surrogatepass")
        if len(payload) <= self.inline:
            # The scan's answer depends on the result and the tool alone: a short result it cleared before (a tool
            # polled for the same status, the same time within a second) is not read again.
            if payload in self._cleared:
                return _as_written(apply(result, (), action=action, tool=tool), result, written)
            findings = _scan_result()(result, tool=tool, warnings=False)
            if not findings and _plain_json(result):
                if len(self._cleared) >= _CLEARED_KEPT:
                    self._cleared.clear()
                self._cleared.add(payload)
            return _as_written(apply(result, findings, action=action, tool=tool), result, written)
        answer = await self._run(payload)
        if answer is None:
            return self._unread(result, action=action, tool=tool)
        findings = [_finding(f) for f in answer["findings"]]
        if not findings:
            return _as_written(apply(result, (), action=action, tool=tool), result, written)
        # A redaction may read parts of a long flagged span again (`scan.guard`): on a thread, not the loop.
        return await asyncio.to_thread(apply, result, findings, action=action, tool=tool)

    async def strings(
        self, texts: Sequence[tuple[Location, str]], *, tool: str | None = None
    ) -> list[ScanFinding] | None:
        """The high findings of texts someone else wrote (`scan.poisoning.scan_strings`, all the gateway acts on);
        None when the deadline passed."""
        payload = _dumps(
            {"kind": "strings", "texts": [[_location(p), t] for p, t in texts], "tool": tool, "seconds": self._seconds}
        )
        if len(payload) <= self.inline:
            from hintgate.scan.poisoning import scan_strings

            return scan_strings(texts, tool=tool, warnings=False)
        answer = await self._run(payload)
        return None if answer is None else [_finding(f) for f in answer["findings"]]

    async def tool(
        self, raw: Mapping[str, Any], *, long_only: bool = False
    ) -> tuple[list[ScanFinding], frozenset[str]] | None:
        """A definition's findings (`scan_tool`, no catalog) and the words that could name another server's tool
        (`named_words`); a high `UNSCANNED` finding when the deadline passed. With `long_only`, None for a
        definition short enough to be scanned on the loop (the caller's catalog scans it)."""
        payload = _dumps({"kind": "tool", "raw": raw})
        if len(payload) <= self.definitions:
            if long_only:
                return None
            from hintgate.scan.poisoning import named_words, scan_tool

            return scan_tool(raw), named_words(raw)
        answer = await self._run(payload)
        if answer is None:
            message = f"the definition was not scanned within {self.deadline:g} s: it is held until reviewed"
            return [ScanFinding(UNSCANNED, message, "", 0, 0, _name(raw), severity=Level.HIGH)], frozenset()
        return [_finding(f) for f in answer["findings"]], frozenset(answer["words"])

    @property
    def _seconds(self) -> float:
        # The CPU a worker spends on full readings before the texts left get the linear pass only: well inside
        # the deadline, so that a slow machine still answers in time.
        return min(_result_seconds(), self.deadline / 4)

    def _unread(self, result: Mapping[str, Any], *, action: OnResultFinding, tool: str | None) -> GuardedResult:
        """A result the scan could not read in time: every text of it is unread, so flagged."""
        why = f"the scan did not finish within {self.deadline:g} s"
        finding = ScanFinding(UNSCANNED, f"the result was not scanned: {why}", "", 0, 0, tool, severity=Level.HIGH)
        meta = {"hintgate/unscanned": [{"path": "", "start": 0, "end": 0, "why": why}]}
        if action is OnResultFinding.MARK:
            return GuardedResult({**{k: v for k, v in result.items() if k != "_meta"}, "_meta": meta}, (finding,))
        withheld = tool_error(
            f"hintgate withheld this result of {tool or 'the tool'}: {why}, and text it could not scan counts as "
            "flagged (HG605 not-scanned)."
        )
        withheld["_meta"] = meta
        return GuardedResult(withheld, (finding,))

    # -- the workers ----------------------------------------------------------

    async def _run(self, payload: bytes) -> dict[str, Any] | None:
        """A worker's answer to one job, or None when it did not come within the deadline (the worker is killed)."""
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self._count):
                worker = _Worker()
                self._all.append(worker)
                self._idle.put_nowait(worker)
        worker = await self._idle.get()
        try:
            return await worker.run(payload, self.deadline, self)
        finally:
            self._idle.put_nowait(worker)

    async def aclose(self) -> None:
        """Stop every worker."""
        for worker in self._all:
            await worker.stop()


class _Worker:
    """One worker process, started when first needed and again after it was stopped."""

    def __init__(self) -> None:
        self._process: asyncio.subprocess.Process | None = None

    async def _started(self, scanner: Scanner) -> asyncio.subprocess.Process:
        process = self._process
        if process is not None and process.returncode is None:
            return process
        scanner.started += 1
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "hintgate.scan.workers",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        self._process = process
        try:
            assert process.stdout is not None
            async with asyncio.timeout(_START_TIMEOUT):
                await _read(process.stdout)  # it says it is ready
        except BaseException:
            await self.stop()
            raise
        return process

    async def run(self, payload: bytes, deadline: float, scanner: Scanner) -> dict[str, Any] | None:
        try:
            process = await self._started(scanner)
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as exc:
            logger.error("hintgate: a scan worker did not start (%s): the text counts as unread", exc)
            return None
        assert process.stdin is not None
        assert process.stdout is not None
        began = time.monotonic()
        try:
            process.stdin.write(_HEADER.pack(len(payload)) + payload)
            await process.stdin.drain()
            async with asyncio.timeout(deadline):
                answer = await _read(process.stdout)
        except asyncio.CancelledError:
            # The call went away mid-scan: its answer must not be read as the next job's, so the worker goes.
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            self._process = None
            raise
        except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
            scanner.stopped += 1
            took = time.monotonic() - began
            logger.warning(
                "hintgate: a scan stopped after %.1f s (%s): its text counts as unread", took, type(exc).__name__
            )
            await self.stop()
            return None
        decoded: dict[str, Any] = json.loads(answer)
        if "error" in decoded:  # the scan failed in the worker (a bug, or out of memory): unread, so flagged
            logger.error("hintgate: a scan failed in its worker (%s): its text counts as unread", decoded["error"])
            return None
        return decoded

    async def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await process.wait()


async def _read(stream: asyncio.StreamReader) -> bytes:
    (size,) = _HEADER.unpack(await stream.readexactly(_HEADER.size))
    return await stream.readexactly(size)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str)


@functools.cache
def _result_seconds() -> float:
    """`scan.poisoning.RESULT_SECONDS`, imported on first use (the scan's patterns load with it), then kept: every
    result the gateway guards asks for it."""
    from hintgate.scan.poisoning import RESULT_SECONDS

    return RESULT_SECONDS


@functools.cache
def _scan_result() -> Callable[..., list[ScanFinding]]:
    """`scan.poisoning.scan_result`, imported on first use, then kept: every short result is scanned with it on the
    loop, and an import statement run at each call costs more than the lookup."""
    from hintgate.scan.poisoning import scan_result

    return scan_result


def _as_written(guarded: GuardedResult, result: Mapping[str, Any], written: str) -> GuardedResult:
    """`guarded` with `written` (`result`'s JSON) as its own, when it is: nothing found, nothing taken out."""
    if guarded.findings or "_meta" in result:
        return guarded
    return GuardedResult(guarded.result, (), written)


def _dumps(value: Any) -> bytes:
    text = _ENCODER.encode(value)
    return text.encode("utf-8", "surrogatepass")


_RESTS_KEPT = 1024
"""The ends of result jobs remembered (`Scanner.guard`), at most; all forgotten at once when full."""
_CLEARED_KEPT = 256
"""Short results remembered as cleared by the scan, at most (all forgotten at once when full): about 256 KB."""
_DEPTH = 64
"""Containers nested deeper than this are not checked (such a result is not remembered)."""


def _plain_json(value: Any) -> bool:
    """Whether `value` is made of JSON's own types only (dict with string keys, list, str, int, float, bool, None),
    so that its JSON text stands for it alone: a tuple or another object would be written as a list or a string
    the scan reads differently (`scan.poisoning.result_strings` reads lists and mappings only)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        kind = item.__class__
        if kind is dict:
            if depth >= _DEPTH:
                return False
            for key, inner in item.items():
                if key.__class__ is not str:
                    return False
                stack.append((inner, depth + 1))
        elif kind is list:
            if depth >= _DEPTH:
                return False
            stack.extend((inner, depth + 1) for inner in item)
        elif not (kind is str or kind is bool or kind is int or kind is float or item is None):
            return False
    return True


def _name(raw: Mapping[str, Any]) -> str | None:
    name = raw.get("name")
    return name if isinstance(name, str) else None


def _location(location: Location | None) -> list[Any] | None:
    if location is None:
        return None
    return [{"key": step.name} if isinstance(step, Key) else step for step in location]


def _located(steps: list[Any] | None) -> Location | None:
    if steps is None:
        return None
    return tuple(Key(step["key"]) if isinstance(step, dict) else step for step in steps)


def _finding_json(finding: ScanFinding) -> list[Any]:
    return [
        finding.code,
        finding.message,
        finding.path,
        finding.start,
        finding.end,
        finding.tool,
        finding.severity.value if finding.severity is not None else None,
        finding.decoded,
        finding.phrase,
        _location(finding.location),
    ]


def _finding(row: list[Any]) -> ScanFinding:
    code, message, path, start, end, tool, severity, decoded, phrase, location = row
    return ScanFinding(
        code,
        message,
        path,
        start,
        end,
        tool,
        Level(severity) if severity is not None else None,
        decoded,
        phrase,
        _located(location),
    )


def _answer(job: dict[str, Any]) -> dict[str, Any]:
    """A worker's answer to one job."""
    from hintgate.scan.poisoning import named_words, result_strings, scan_strings, scan_tool

    kind = job["kind"]
    if kind == "tool":
        raw = job["raw"]
        return {"findings": [_finding_json(f) for f in scan_tool(raw)], "words": sorted(named_words(raw))}
    seconds = float(job["seconds"])
    if kind == "result":
        texts, deep = result_strings(job["result"])
    else:
        texts, deep = [(_located(p) or (), t) for p, t in job["texts"]], []
    found = scan_strings(texts, deep, tool=job.get("tool"), seconds=seconds, warnings=False)
    return {"findings": [_finding_json(f) for f in found]}


def widen_engines() -> None:
    """Give the engines built from now on a worker's budgets (`cues.WORKER_UTF8_MEMORY`, `cues.WORKER_ASCII_MEMORY`,
    `prefilter.WORKER_WIDE_MEMORY`): room for the states long prose needs, in a process whose address space is
    bounded (`serve_worker`); the gateway's own process, which reads only short texts, keeps the small ones."""
    from hintgate.scan import cues, prefilter

    cues.UTF8_MEMORY = cues.WORKER_UTF8_MEMORY
    cues.ASCII_MEMORY = cues.WORKER_ASCII_MEMORY
    prefilter.WIDE_MEMORY = prefilter.WORKER_WIDE_MEMORY


def serve_worker() -> None:
    """A worker's loop: jobs on stdin, answers on stdout, until stdin closes."""
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (_MEMORY, _MEMORY))
    widen_engines()
    from hintgate.scan import screens
    from hintgate.scan.poisoning import scan_tool
    from hintgate.scan.prefilter import prepare
    from hintgate.scan.reading import ROT13_WORDS

    prepare(ROT13_WORDS)
    screens.prepare()
    scan_tool({"name": "warm", "description": "Warms the scan's tables."})
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    sink.write(_HEADER.pack(2) + b"{}")
    sink.flush()
    while True:
        header = source.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return
        (size,) = _HEADER.unpack(header)
        try:
            answer = _dumps(_answer(json.loads(source.read(size))))
        except Exception as exc:  # any failure is answered: the text then counts as unread
            answer = _dumps({"error": f"{type(exc).__name__}: {exc}"})
        sink.write(_HEADER.pack(len(answer)) + answer)
        sink.flush()


if __name__ == "__main__":
    serve_worker()
