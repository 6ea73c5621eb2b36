"""Many HTTP sessions on one gateway: memory per idle session, 100 of them active, idle ones reclaimed.

`hintgate serve --http` (recording on, SQLite in a temporary directory,
`mcp-server-time` upstream over stdio, `timeouts.sessionIdle` set to
`--idle` seconds) is driven by one pooled `httpx.AsyncClient` sending raw
JSON-RPC (a bounded pool of `--pool` connections, so the client stays small).
For each protocol era:

- **handshake** (2025-11-25): a session is `initialize` plus
  `notifications/initialized`; it has an `Mcp-Session-Id`, and the SDK's
  session manager keeps a transport and a server task for it.
- **modern** (2026-07-28): no handshake; a session is the requests of one
  declared client name and version, so each of the N sessions is one
  `tools/list` from a client of its own name.

Phases: the gateway's RSS (VmRSS from /proc) after one warm-up session;
`--sessions` (1000) sessions opened, then RSS again: the difference over N
is the memory an idle session holds. Then `--active` (100) of them (the ones
opened last) call `get_current_time` in a loop for `--seconds`: calls/s and
RSS. Then every session is left alone until the gateway has reclaimed them
(an old handshake-era id answers 404; `/api/sessions?status=active` is
empty), bounded by twice the idle timeout plus a minute: the time it took
and RSS. Last, a second wave of N sessions is opened: RSS after it shows
whether the memory of the reclaimed sessions is reused (bounded) or held
(growing). VmHWM is the process's peak.

Usage::

    python bench/http_sessions.py [--sessions 1000] [--active 100] [--seconds 5] [--idle 60]
                                  [--era handshake modern] [--format json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from _procs import stop

HANDSHAKE = "2025-11-25"
MODERN = "2026-07-28"
ACCEPT = "application/json, text/event-stream"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def memory_mb(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM of a process, in MB."""
    out: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) / 1024
    return out


def answer(response: httpx.Response) -> dict[str, Any]:
    """The JSON-RPC message of a response, sent as JSON or as an SSE event."""
    response.raise_for_status()
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
        return dict(json.loads(next(d for d in data if d)))
    return dict(response.json())


class Era:
    """How one protocol era opens a session and sends a request in it."""

    def __init__(self, name: str, client: httpx.AsyncClient, url: str) -> None:
        self.name, self.client, self.url = name, client, url

    async def open(self, label: str) -> dict[str, str]:
        """Open a session; returns what its later requests carry (headers, or the client's name)."""
        if self.name == "modern":
            answer(await self.request({"client": label}, "tools/list", {}))
            return {"client": label}
        init = {"protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": {"name": label, "version": "1"}}
        message = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}
        response = await self.client.post(self.url, json=message, headers={"accept": ACCEPT})
        answer(response)
        headers = {"accept": ACCEPT, "mcp-session-id": response.headers["mcp-session-id"]}
        headers["mcp-protocol-version"] = HANDSHAKE
        note = await self.client.post(
            self.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers
        )
        note.raise_for_status()
        return headers

    async def request(self, session: dict[str, str], method: str, params: dict[str, Any]) -> httpx.Response:
        """One request in a session (not raising on an HTTP error status)."""
        if self.name == "modern":
            meta = {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientInfo": {"name": session["client"], "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {},
            }
            params = {**params, "_meta": meta}
            headers = {"accept": ACCEPT, "mcp-protocol-version": MODERN, "mcp-method": method}
            if "name" in params:
                headers["mcp-name"] = params["name"]
        else:
            headers = session
        message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        return await self.client.post(self.url, json=message, headers=headers)


async def open_many(era: Era, count: int, prefix: str, concurrency: int) -> list[dict[str, str]]:
    sessions: list[dict[str, str] | None] = [None] * count
    next_index = iter(range(count))

    async def opener() -> None:
        for i in next_index:
            for attempt in range(3):
                try:
                    sessions[i] = await era.open(f"{prefix}-{i:05d}")
                    break
                except httpx.TransportError:  # a pooled connection the server closed while it sat idle
                    if attempt == 2:
                        raise

    await asyncio.gather(*(opener() for _ in range(concurrency)))
    return [s for s in sessions if s is not None]


async def active_phase(era: Era, sessions: list[dict[str, str]], seconds: float) -> tuple[int, int, float]:
    """Each session calls get_current_time in a loop; returns (calls, errors, elapsed seconds)."""
    calls, errors = [0], [0]
    deadline = time.perf_counter() + seconds
    params = {"name": "get_current_time", "arguments": {"timezone": "Europe/Paris"}}

    async def loop(session: dict[str, str]) -> None:
        while time.perf_counter() < deadline:
            try:
                reply = answer(await era.request(session, "tools/call", params))
            except (httpx.HTTPError, ValueError, StopIteration):
                errors[0] += 1
                continue
            if "result" in reply and not reply["result"].get("isError"):
                calls[0] += 1
            else:
                errors[0] += 1

    started = time.perf_counter()
    await asyncio.gather(*(loop(s) for s in sessions))
    return calls[0], errors[0], time.perf_counter() - started


async def active_count(client: httpx.AsyncClient, base: str) -> int:
    rows = (await client.get(f"{base}/api/sessions", params={"status": "active", "limit": 1000})).json()
    return len(rows)


async def reclaimed(era: Era, base: str, sample: list[dict[str, str]], wait: float) -> float | None:
    """Seconds until no session is recorded active, or None past `wait`.

    Then (handshake era) a sample of the old ids must answer 404; probing
    earlier would keep those sessions alive.
    """
    started = time.perf_counter()
    while time.perf_counter() - started < wait:
        if await active_count(era.client, base) == 0:
            took = time.perf_counter() - started
            if era.name == "handshake":
                statuses = [(await era.request(s, "ping", {})).status_code for s in sample]
                if any(status != 404 for status in statuses):
                    raise RuntimeError(f"recorded closed, but old session ids still answer: {statuses}")
            return took
        await asyncio.sleep(1.0)
    return None


async def run_era(name: str, opts: argparse.Namespace, work: Path) -> dict[str, Any]:
    port = free_port()
    config = work / f"{name}.json"
    time_server = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
    config.write_text(
        json.dumps(
            {
                "mcpServers": {"time": {**time_server, "prefix": "", "trust": "trusted"}},
                "timeouts": {"sessionIdle": opts.idle},
            }
        )
    )
    env = {**os.environ, "HOME": str(work), "HINTGATE_DATA_DIR": str(work / name), "PYTHONUNBUFFERED": "1"}
    argv = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--http", f"127.0.0.1:{port}"]
    argv.append("--no-require-token")  # measures sessions, not sign-in
    argv += ["--db", f"sqlite:///{work}/{name}.db"]
    log = work / f"{name}.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=sink)
    base, out = f"http://127.0.0.1:{port}", {"era": name, "sessions": opts.sessions}
    limits = httpx.Limits(max_connections=opts.pool, max_keepalive_connections=opts.pool)
    try:
        async with httpx.AsyncClient(timeout=120, limits=limits) as client:
            era = Era(name, client, f"{base}/mcp")
            async with asyncio.timeout(180):
                while True:
                    if proc.poll() is not None:
                        raise RuntimeError(f"the gateway exited: {log.read_text()[-1500:]}")
                    try:
                        warm = await era.open("warm-up")
                        break
                    except (httpx.TransportError, httpx.HTTPStatusError):
                        await asyncio.sleep(0.2)
            await active_phase(era, [warm], 1.0)
            base_rss = memory_mb(proc.pid)["VmRSS"]
            started = time.perf_counter()
            sessions = await open_many(era, opts.sessions, f"idle-{uuid.uuid4().hex[:6]}", opts.pool)
            out["open_s"] = time.perf_counter() - started
            await asyncio.sleep(1.0)  # let the recorder write the new sessions
            held = memory_mb(proc.pid)["VmRSS"]
            out.update(
                rss_base_mb=base_rss, rss_idle_mb=held, bytes_per_session=(held - base_rss) * 2**20 / opts.sessions
            )
            out["active_recorded"] = await active_count(client, base)
            calls, errors, seconds = await active_phase(era, sessions[-opts.active :], opts.seconds)
            out.update(active=opts.active, calls_per_s=calls / seconds, call_errors=errors)
            out["rss_active_mb"] = memory_mb(proc.pid)["VmRSS"]
            took = await reclaimed(era, base, sessions[:10], opts.idle * 2 + 60)
            out["reclaimed_after_s"] = took
            out["rss_reclaimed_mb"] = memory_mb(proc.pid)["VmRSS"]
            await open_many(era, opts.sessions, f"again-{uuid.uuid4().hex[:6]}", opts.pool)
            await asyncio.sleep(1.0)
            mem = memory_mb(proc.pid)
            out.update(rss_second_wave_mb=mem["VmRSS"], hwm_mb=mem["VmHWM"])
    finally:
        stop(proc, 30)
    return out


def report(results: list[dict[str, Any]], load: tuple[float, float, float]) -> None:
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} cores")
    rows = [
        ("open N sessions, s", "open_s", "{:.1f}"),
        ("RSS after warm-up, MB", "rss_base_mb", "{:.0f}"),
        ("RSS with N idle sessions, MB", "rss_idle_mb", "{:.0f}"),
        ("per idle session, KB", "bytes_per_session", "{:.1f}"),
        ("recorded active (max 1000 shown)", "active_recorded", "{}"),
        ("active sessions calling", "active", "{}"),
        ("calls/s while active", "calls_per_s", "{:.0f}"),
        ("failed calls", "call_errors", "{}"),
        ("RSS while active, MB", "rss_active_mb", "{:.0f}"),
        ("all reclaimed after, s", "reclaimed_after_s", "{:.0f}"),
        ("RSS once reclaimed, MB", "rss_reclaimed_mb", "{:.0f}"),
        ("RSS after a 2nd wave of N, MB", "rss_second_wave_mb", "{:.0f}"),
        ("peak RSS (VmHWM), MB", "hwm_mb", "{:.0f}"),
    ]
    print(f"{'N = ' + str(results[0]['sessions']):<36}" + "".join(f"{r['era']:>14}" for r in results))
    for label, key, fmt in rows:
        cells = []
        for r in results:
            value = r.get(key)
            if key == "bytes_per_session" and value is not None:
                value = value / 1024
            cells.append("never" if value is None else fmt.format(value))
        print(f"{label:<36}" + "".join(f"{c:>14}" for c in cells))


async def main_async(opts: argparse.Namespace) -> int:
    results = []
    with tempfile.TemporaryDirectory(prefix="hintgate-sessions-") as work:
        for era in opts.era:
            results.append(await run_era(era, opts, Path(work)))
    load = os.getloadavg()
    if opts.format == "json":
        print(json.dumps({"load_average": load, "results": results}, indent=2))
    else:
        report(results, load)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sessions", type=int, default=1000, help="idle sessions to open (default 1000)")
    parser.add_argument("--active", type=int, default=100, help="of those, how many call in a loop (default 100)")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long they call (default 5)")
    parser.add_argument("--idle", type=float, default=60.0, help="the gateway's timeouts.sessionIdle (default 60)")
    parser.add_argument("--pool", type=int, default=32, help="HTTP connections in the client's pool (default 32)")
    parser.add_argument("--era", nargs="+", choices=("handshake", "modern"), default=["handshake", "modern"])
    parser.add_argument("--format", choices=("table", "json"), default="table")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
