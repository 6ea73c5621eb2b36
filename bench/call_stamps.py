"""Where a stdio gateway's time per call goes: `hintgate serve` run with a clock stamp at each stage of a call.

Run by `gateway_latency.py --breakdown` as a target of its own::

    python bench/call_stamps.py STAMPS.json serve --config FILE [--db URL | --no-record]

It wraps, in this process only, the points a `tools/call` passes on stdio (the event loop woken by a pipe,
the JSON-RPC line parsed, the direct call, its decision, the forward and the upstream's pipe both ways, the
result guard, the recording, the answer written), runs hintgate's command line, and writes every stamp to
STAMPS.json when the gateway exits. `segments` splits them per call (the calls of the bench come one at a
time) into the stages `STAGES` names. Each wrapper costs about a microsecond, so this target's own total is
a little above the unstamped gateway's; the stages are read as shares of it, the total from the plain target.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

Stamp = tuple[str, float]

STAGES: tuple[tuple[str, str, str], ...] = (
    ("client line: loop woken to the line parsed", "wake:client", "parsed:client"),
    ("to the direct call's task", "parsed:client", "call>"),
    ("request context, session, listing look-up", "call>", "decide>"),
    ("decision", "decide>", "decide<"),
    ("attempt, to the forward", "decide<", "forward>"),
    ("forward: request built, encoded, written", "forward>", "write:upstream"),
    ("upstream round trip (its pipe both ways and its own work)", "write:upstream", "wake:upstream"),
    ("upstream line: read, parsed, the call's task woken", "wake:upstream", "forward<"),
    ("result guard (the scan)", "forward<", "guard<"),
    ("outcome built, to the recording", "guard<", "record>"),
    ("recording (durable: its commit)", "record>", "record<"),
    ("to the answer", "record<", "call<"),
    ("answer encoded and written", "call<", "write:client"),
)
"""(stage, from stamp, to stamp): each call's path through the gateway, in order."""

_STAMPS: list[Stamp] = []
_clock = time.perf_counter


def _stamp(name: str) -> None:
    _STAMPS.append((name, _clock()))


def _wrap_async(owner: Any, attribute: str, name: str, *, exit_name: str | None = None) -> None:
    original = getattr(owner, attribute)

    @functools.wraps(original)
    async def stamped(*args: Any, **kwargs: Any) -> Any:
        _stamp(f"{name}>")
        try:
            return await original(*args, **kwargs)
        finally:
            _stamp(exit_name or f"{name}<")

    setattr(owner, attribute, stamped)


def install() -> None:
    """Wrap the stages of a call (`STAGES`) in this process."""
    import asyncio.streams
    import asyncio.unix_events

    from hintgate import jsontext
    from hintgate.pipeline import deciding, forwarding, guarding, recording
    from hintgate.server import direct

    read_ready = asyncio.unix_events._UnixReadPipeTransport._read_ready  # type: ignore[attr-defined]

    def stamped_read_ready(self: Any) -> None:
        _stamp("wake")
        read_ready(self)

    asyncio.unix_events._UnixReadPipeTransport._read_ready = stamped_read_ready  # type: ignore[attr-defined]

    write = asyncio.streams.StreamWriter.write

    def stamped_write(self: Any, data: Any) -> None:
        write(self, data)
        _stamp("write")

    asyncio.streams.StreamWriter.write = stamped_write  # type: ignore[method-assign]

    loads = jsontext.loads

    def stamped_loads(data: bytes | str) -> Any:
        value = loads(data)
        if isinstance(value, dict) and value.get("method") == "tools/call":
            _stamp("parsed:client")
        return value

    jsontext.loads = stamped_loads  # type: ignore[assignment]

    _wrap_async(direct.DirectStdioCalls, "call", "call")
    _wrap_async(deciding.Deciding, "decide", "decide")
    _wrap_async(forwarding.Forwarding, "forward", "forward")
    _wrap_async(guarding.ResultGuard, "result", "guard")
    _wrap_async(recording.Recording, "record", "record")


def segments(stamps: Sequence[Stamp]) -> list[dict[str, float]]:
    """Each call's stages in ms (`STAGES`), from the stamps in order; a call missing a stamp is left out.

    A call starts at the client's line parsed (`parsed:client`); the pipes are told apart by order: the
    wake-up before it is the client's, the first write after the forward began is to the upstream, the first
    wake-up after that is the upstream's answer, the first write after the call ended is the answer.
    """
    calls: list[dict[str, float]] = []
    starts = [i for i, (name, _) in enumerate(stamps) if name == "parsed:client"]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(stamps)
        wake = next((stamps[i][1] for i in range(start - 1, -1, -1) if stamps[i][0] == "wake"), None)
        seen: dict[str, float] = {"wake:client": wake} if wake is not None else {}
        for stamped, at in stamps[start:end]:
            name = stamped
            if stamped == "write":
                name = "write:upstream" if "call<" not in seen else "write:client"
                if name == "write:upstream" and "forward>" not in seen:
                    continue
            elif stamped == "wake":
                if "write:upstream" not in seen:
                    continue
                name = "wake:upstream"
            seen.setdefault(name, at)
        if not all(a in seen and b in seen for _, a, b in STAGES):
            continue
        call = {stage: (seen[b] - seen[a]) * 1000 for stage, a, b in STAGES}
        call["total in the gateway"] = (seen["write:client"] - seen["wake:client"]) * 1000
        call["the gateway's own (total less the upstream's round trip)"] = (
            call["total in the gateway"] - call[STAGES[6][0]]
        )
        calls.append(call)
    return calls


def summary(calls: Sequence[dict[str, float]]) -> dict[str, float]:
    """The median of each stage over `calls` (ms)."""
    if not calls:
        return {}
    return {key: statistics.median(call[key] for call in calls) for key in calls[0]}


def main(argv: Sequence[str]) -> int:
    """Run hintgate's command line with the stamps installed; they are written to argv[0] at exit."""
    out, *rest = argv
    install()

    def dump() -> None:
        # Whole or not at all: a gateway stopped while it writes leaves no half file behind.
        text = json.dumps(list(_STAMPS))
        with open(f"{out}.part", "w") as file:
            file.write(text)
        os.replace(f"{out}.part", out)

    atexit.register(dump)
    sys.argv = ["hintgate", *rest]
    from hintgate.cli.entry import main as cli

    run: Callable[[], object] = cli
    run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
