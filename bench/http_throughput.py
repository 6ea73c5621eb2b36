"""Throughput over streamable HTTP: hintgate `serve --http`, FastMCP's proxy, and the direct server.

Every target serves `get_current_time` over HTTP on 127.0.0.1 and is driven by
the same client: raw JSON-RPC over one pooled `httpx.AsyncClient`, N sessions
(each initialised once, protocol 2025-11-25) calling concurrently, so the
client's own CPU stays small next to the server's (it is reported too).

- direct: the MCP SDK's own HTTP server (`MCPServer`) with a `get_current_time`
  tool calling `mcp_server_time`'s own `TimeServer`.
- hintgate: `hintgate serve --http` with `mcp-server-time` upstream over stdio,
  recording off, durable (the default) and fast (`HINTGATE_COMMIT=fast`).
- fastmcp: `fastmcp.server.create_proxy` of the same `mcpServers` config, served
  with `transport="http"`, run from another virtualenv (`--peers-python`, where
  `bench/requirements-peers.txt` went), with the same upstream.

For each concurrency (16 and 64 by default) and each of two passes, the order
of targets rotates. Printed per run: calls/s, p50/p90 latency, server CPU per
call and peak RSS of the server process (from /proc; hintgate's and FastMCP's
upstream child is not included), the client's CPU per call, and calls/s
relative to FastMCP's, and calls that failed on a dropped connection. Numbers only; nothing here asserts timings.

Usage: python bench/http_throughput.py [--peers-python PATH] [--calls N] [--sessions 16 64] [--passes 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING or "--serve-fastmcp" not in sys.argv:
    # The FastMCP server runs this file in the peers' environment, which has no client library.
    import httpx

REPO = Path(__file__).resolve().parent.parent
PROTOCOL = "2025-11-25"
HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": PROTOCOL}
TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Target:
    """One server to drive: its command line and environment."""

    label: str
    argv: list[str]
    env: dict[str, str]
    port: int
    tool: str = "get_current_time"


@dataclass
class Result:
    """One run of one target at one concurrency."""

    label: str
    sessions: int
    calls: int
    seconds: float
    latencies: list[float]
    server_cpu: float
    client_cpu: float
    peak_rss_mb: int
    errors: int = 0

    @property
    def rate(self) -> float:
        return self.calls / self.seconds


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _peak_rss_mb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM"):
            return int(line.split()[1]) // 1024
    return 0


def _answer(response: httpx.Response, request_id: int) -> dict[str, Any]:
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        for line in response.text.splitlines():
            if line.startswith("data:"):
                message = json.loads(line[5:])
                if message.get("id") == request_id:
                    return dict(message)
        raise RuntimeError(f"no answer to request {request_id} in the event stream: {response.text[:200]}")
    return dict(response.json())


async def _session(client: httpx.AsyncClient, url: str) -> dict[str, str]:
    init = {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "http-throughput", "version": "1"}}
    response = await client.post(
        url, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}, headers=HEADERS
    )
    response.raise_for_status()
    _answer(response, 0)
    headers = dict(HEADERS)
    if "mcp-session-id" in response.headers:
        headers["Mcp-Session-Id"] = response.headers["mcp-session-id"]
    note = await client.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    note.raise_for_status()
    return headers


async def _wait_ready(client: httpx.AsyncClient, url: str, proc: subprocess.Popen[bytes]) -> None:
    async with asyncio.timeout(120):
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{url}: the server exited with {proc.returncode}")
            try:
                await _session(client, url)
                return
            except (httpx.TransportError, httpx.HTTPStatusError):
                await asyncio.sleep(0.1)


async def _drive(target: Target, sessions: int, calls: int) -> Result:
    url = f"http://127.0.0.1:{target.port}/mcp"
    log = Path(target.env["HINTGATE_DATA_DIR"]) / f"{target.label}.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(target.argv, env=target.env, stdout=subprocess.DEVNULL, stderr=sink)
    limits = httpx.Limits(max_connections=sessions, max_keepalive_connections=sessions)
    try:
        async with httpx.AsyncClient(timeout=60, limits=limits) as client:
            try:
                await _wait_ready(client, url, proc)
            except RuntimeError as exc:
                raise RuntimeError(f"{target.label}: {exc}; its stderr ends: {log.read_text()[-1500:]}") from None
            all_headers = [await _session(client, url) for _ in range(sessions)]
            counter = iter(range(1, 10**9))
            latencies: list[float] = []
            remaining = [calls]
            errors = [0]

            async def worker(headers: dict[str, str]) -> None:
                while remaining[0] > 0:
                    remaining[0] -= 1
                    request_id = next(counter)
                    body = {
                        "jsonrpc": "2.0",
                        "id": request_id,
                        "method": "tools/call",
                        "params": {"name": target.tool, "arguments": {"timezone": "Europe/Paris"}},
                    }
                    started = time.perf_counter()
                    try:
                        response = await client.post(url, json=body, headers=headers)
                    except httpx.TransportError:  # counted and shown: a dropped connection is a failed call
                        errors[0] += 1
                        continue
                    answer = _answer(response, request_id)
                    latencies.append(time.perf_counter() - started)
                    if "result" not in answer or answer["result"].get("isError"):
                        raise RuntimeError(f"{target.label}: call failed: {answer}")

            # Warm up, then measure.
            remaining[0] = sessions * 5
            await asyncio.gather(*(worker(h) for h in all_headers))
            latencies.clear()
            errors[0] = 0
            remaining[0] = calls
            server_before, client_before = _proc_cpu(proc.pid), time.process_time()
            started = time.perf_counter()
            async with asyncio.timeout(600):
                await asyncio.gather(*(worker(h) for h in all_headers))
            seconds = time.perf_counter() - started
            server_cpu = _proc_cpu(proc.pid) - server_before
            client_cpu = time.process_time() - client_before
            peak = _peak_rss_mb(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(15)
    return Result(target.label, sessions, len(latencies), seconds, latencies, server_cpu, client_cpu, peak, errors[0])


def _targets(opts: argparse.Namespace, work: Path) -> list[Target]:
    time_server = {"command": sys.executable, "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]}
    config = work / "hintgate.json"
    config.write_text(json.dumps({"mcpServers": {"time": {**time_server, "prefix": "", "trust": "trusted"}}}))
    base = dict(os.environ, HOME=str(work), HINTGATE_DATA_DIR=str(work), PYTHONUNBUFFERED="1")
    targets = []
    port = _free_port()
    targets.append(Target("direct", [sys.executable, __file__, "--serve-direct", str(port)], base, port))
    for label, extra in (
        ("hintgate", ["--no-record"]),
        ("hintgate+record", ["--db", f"sqlite:///{work}/durable.db"]),
        ("hintgate+record-fast", ["--db", f"sqlite:///{work}/fast.db"]),
    ):
        port = _free_port()
        env = dict(base, HINTGATE_COMMIT="fast") if label.endswith("fast") else base
        argv = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--http", f"127.0.0.1:{port}"]
        targets.append(Target(label, [*argv, *extra], env, port))
    if opts.peers_python:
        peers = work / "fastmcp.json"
        peers.write_text(json.dumps({"mcpServers": {"time": time_server}}))  # the same upstream as hintgate's
        port = _free_port()
        env = dict(
            base, FASTMCP_SHOW_SERVER_BANNER="false", FASTMCP_CHECK_FOR_UPDATES="off", FASTMCP_LOG_LEVEL="WARNING"
        )
        argv = [opts.peers_python, __file__, "--serve-fastmcp", str(peers), str(port)]
        targets.append(Target("fastmcp", argv, env, port))
    return targets


def _report(results: list[Result]) -> None:
    columns = ("sessions", "calls/s", "p50 ms", "p90 ms", "cpu/call", "client", "RSS MB", "x fastmcp", "errors")
    print(f"{'target':22} " + " ".join(f"{c:>9}" for c in columns))
    for sessions in sorted({r.sessions for r in results}):
        group = [r for r in results if r.sessions == sessions]
        labels = list(dict.fromkeys(r.label for r in group))
        reference = [r for r in group if r.label == "fastmcp"]
        ref_rate = statistics.median(r.rate for r in reference) if reference else None
        for label in labels:
            runs = [r for r in group if r.label == label]
            rate = statistics.median(r.rate for r in runs)
            latencies = [lat for r in runs for lat in r.latencies]
            p50 = statistics.median(latencies) * 1000
            p90 = sorted(latencies)[int(0.9 * len(latencies))] * 1000
            cpu = sum(r.server_cpu for r in runs) / sum(r.calls for r in runs) * 1000
            client = sum(r.client_cpu for r in runs) / sum(r.calls for r in runs) * 1000
            peak = max(r.peak_rss_mb for r in runs)
            ratio = f"{rate / ref_rate:.2f}" if ref_rate else "-"
            cells = (
                sessions,
                f"{rate:.0f}",
                f"{p50:.1f}",
                f"{p90:.1f}",
                f"{cpu:.2f}ms",
                f"{client:.2f}ms",
                peak,
                ratio,
            )
            print(f"{label:22} " + " ".join(f"{c:>9}" for c in cells))


async def _main(opts: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="http-throughput-") as tmp:
        targets = _targets(opts, Path(tmp))
        results = []
        for sessions in opts.sessions:
            for run in range(opts.passes):
                shift = run % len(targets)
                for target in targets[shift:] + targets[:shift]:
                    result = await _drive(target, sessions, opts.calls)
                    print(f"  pass {run + 1} {target.label} x{sessions}: {result.rate:.0f} calls/s", file=sys.stderr)
                    results.append(result)
        _report(results)
    return 0


def _serve_direct(port: int) -> int:
    """The SDK's own HTTP server with `mcp_server_time`'s get_current_time (hintgate's environment)."""
    from mcp.server.mcpserver import MCPServer
    from mcp_server_time.server import TimeServer

    server: Any = MCPServer("direct-time")
    time_server = TimeServer()

    @server.tool(name="get_current_time")
    def get_current_time(timezone: str) -> str:
        return time_server.get_current_time(timezone).model_dump_json(indent=2)

    asyncio.run(server.run_streamable_http_async(host="127.0.0.1", port=port))
    return 0


def _serve_fastmcp(config_path: str, port: int) -> int:
    """FastMCP's proxy of an `mcpServers` config over HTTP (in the peers' environment)."""
    import importlib

    fastmcp_server: Any = importlib.import_module("fastmcp.server")  # only in the peers' environment
    proxy = fastmcp_server.create_proxy(json.loads(Path(config_path).read_text()), name="fastmcp-proxy")
    proxy.run(transport="http", host="127.0.0.1", port=port, show_banner=False)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bench, or one of the servers it starts."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--serve-direct"]:
        return _serve_direct(int(args[1]))
    if args[:1] == ["--serve-fastmcp"]:
        return _serve_fastmcp(args[1], int(args[2]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--peers-python", help="python of a virtualenv with fastmcp and mcp-server-time")
    parser.add_argument("--calls", type=int, default=2000, help="measured calls per run")
    parser.add_argument("--sessions", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--passes", type=int, default=2)
    return asyncio.run(_main(parser.parse_args(args)))


if __name__ == "__main__":
    sys.exit(main())
