"""Throughput over streamable HTTP: hintgate `serve --http`, FastMCP's proxy, and the direct server.

Every target serves `get_current_time` over HTTP on 127.0.0.1 and is driven by
the same client: raw JSON-RPC written on N keep-alive HTTP/1.1 connections
with asyncio streams (one per session, each initialised once, protocol
2025-11-25) calling concurrently, so the client's own CPU stays small next to
the server's (it is reported too; an `httpx` client cost more per call than
the servers measured).

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

Usage: python bench/http_throughput.py [--peers-python PATH] [--calls N] [--sessions 16 64] [--passes 2] [--identity]
                                     [--baseline CHECKOUT] [--format text|json]

`--baseline CHECKOUT` runs every hintgate target a second time from CHECKOUT's `src` (labelled `base:`),
in the same passes: a change measured against the code before it, back to back.

`--identity` adds hintgate+identity: the same gateway with an `identity` section naming the tests' real
OpenID provider (npm `oidc-provider`), every session with its own person's bearer token; and
hintgate+identity+record, the same recording to SQLite (durable), as a deployment runs.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
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
from typing import Any

from _procs import stop

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
    issuer: str | None = None
    """With `--identity`: the OpenID issuer each session gets its own person's token from."""


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


class _Connection:
    """One keep-alive HTTP/1.1 connection speaking just enough HTTP for JSON-RPC POSTs."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        if self._streams is None:
            self._streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self._streams
        data = json.dumps(body).encode()
        head = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nContent-Type: application/json\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        writer.write(f"{head}Content-Length: {len(data)}\r\n\r\n".encode() + data)
        status = int((await reader.readline()).split()[1])
        answer_headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            answer_headers[name.strip().lower()] = value.strip()
        if "content-length" in answer_headers:
            return status, answer_headers, await reader.readexactly(int(answer_headers["content-length"]))
        chunks = []
        while size := int((await reader.readline()).strip(), 16):  # chunked
            chunks.append(await reader.readexactly(size))
            await reader.readline()
        await reader.readline()
        return status, answer_headers, b"".join(chunks)

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


def _answer(headers: dict[str, str], body: bytes, request_id: int) -> dict[str, Any]:
    if headers.get("content-type", "").startswith("text/event-stream"):
        for line in body.decode().splitlines():
            if line.startswith("data:"):
                message = json.loads(line[5:])
                if message.get("id") == request_id:
                    return dict(message)
        raise RuntimeError(f"no answer to request {request_id} in the event stream: {body[:200]!r}")
    return dict(json.loads(body))


def _token(issuer: str, port: int) -> dict[str, str]:
    """A fresh access token for alice from the issuer, for the gateway on `port`, as a header."""
    import urllib.parse
    import urllib.request

    form = urllib.parse.urlencode({"grant_type": "client_credentials", "resource": f"http://127.0.0.1:{port}/mcp"})
    request = urllib.request.Request(f"{issuer}/token", data=form.encode(), method="POST")
    request.add_header("Authorization", "Basic " + base64.b64encode(b"alice:alice-secret").decode())
    with urllib.request.urlopen(request, timeout=30) as answer:
        return {"Authorization": f"Bearer {json.loads(answer.read())['access_token']}"}


async def _session(connection: _Connection, extra: dict[str, str] | None = None) -> dict[str, str]:
    init = {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "http-throughput", "version": "1"}}
    body = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}
    status, headers, answer = await connection.post(body, {**HEADERS, **(extra or {})})
    if status != 200:
        raise RuntimeError(f"initialize answered {status}: {answer[:200]!r}")
    _answer(headers, answer, 0)
    session = {**HEADERS, **(extra or {})}
    if "mcp-session-id" in headers:
        session["Mcp-Session-Id"] = headers["mcp-session-id"]
    status, _, answer = await connection.post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    if status >= 300:
        raise RuntimeError(f"notifications/initialized answered {status}: {answer[:200]!r}")
    return session


async def _wait_ready(port: int, proc: subprocess.Popen[bytes], extra: dict[str, str] | None = None) -> None:
    async with asyncio.timeout(120):
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"port {port}: the server exited with {proc.returncode}")
            probe = _Connection(port)
            try:
                await _session(probe, extra)
                return
            except (OSError, RuntimeError, ValueError, IndexError):
                await asyncio.sleep(0.1)
            finally:
                probe.close()


async def _drive(target: Target, sessions: int, calls: int) -> Result:
    log = Path(target.env["HINTGATE_DATA_DIR"]) / f"{target.label}.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(target.argv, env=target.env, stdout=subprocess.DEVNULL, stderr=sink)
    connections = [_Connection(target.port) for _ in range(sessions)]
    try:
        # Every session its own person's token: each is verified once, then remembered until it expires.
        tokens = [_token(target.issuer, target.port) if target.issuer else {} for _ in range(sessions + 1)]
        try:
            await _wait_ready(target.port, proc, tokens[-1])
        except RuntimeError as exc:
            raise RuntimeError(f"{target.label}: {exc}; its stderr ends: {log.read_text()[-1500:]}") from None
        all_headers = [await _session(c, t) for c, t in zip(connections, tokens, strict=False)]
        counter = iter(range(1, 10**9))
        latencies: list[float] = []
        remaining = [calls]
        errors = [0]

        async def worker(connection: _Connection, headers: dict[str, str]) -> None:
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
                    _, answer_headers, answer_body = await connection.post(body, headers)
                except (OSError, ValueError, IndexError, asyncio.IncompleteReadError):
                    errors[0] += 1  # counted and shown: a dropped connection is a failed call
                    connection.close()
                    continue
                answer = _answer(answer_headers, answer_body, request_id)
                latencies.append(time.perf_counter() - started)
                if "result" not in answer or answer["result"].get("isError"):
                    raise RuntimeError(f"{target.label}: call failed: {answer}")

        # Warm up, then measure.
        remaining[0] = sessions * 5
        await asyncio.gather(*(worker(c, h) for c, h in zip(connections, all_headers, strict=True)))
        latencies.clear()
        errors[0] = 0
        remaining[0] = calls
        server_before, client_before = _proc_cpu(proc.pid), time.process_time()
        started = time.perf_counter()
        async with asyncio.timeout(600):
            await asyncio.gather(*(worker(c, h) for c, h in zip(connections, all_headers, strict=True)))
        seconds = time.perf_counter() - started
        server_cpu = _proc_cpu(proc.pid) - server_before
        client_cpu = time.process_time() - client_before
        peak = _peak_rss_mb(proc.pid)
    finally:
        for connection in connections:
            connection.close()
        stop(proc)
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
        ("hintgate-sdk-path", ["--no-record"]),
        ("hintgate+record", ["--db", f"sqlite:///{work}/durable.db"]),
        ("hintgate+record-fast", ["--db", f"sqlite:///{work}/fast.db"]),
    ):
        port = _free_port()
        env = dict(base, HINTGATE_COMMIT="fast") if label.endswith("fast") else base
        if label == "hintgate-sdk-path":
            env = dict(base, HINTGATE_HTTP_FAST="0")  # every request through the MCP SDK's own HTTP path
        argv = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--http", f"127.0.0.1:{port}"]
        argv.append("--no-require-token")  # the peers take no token either: like for like
        targets.append(Target(label, [*argv, *extra], env, port))
    if opts.identity:
        port = _free_port()
        with_identity = work / "hintgate-identity.json"
        with_identity.write_text(json.dumps({
            "mcpServers": {"time": {**time_server, "prefix": "", "trust": "trusted"}},
            "identity": {"issuer": opts.identity, "audience": f"http://127.0.0.1:{port}/mcp"},
        }))  # fmt: skip
        argv = [sys.executable, "-m", "hintgate", "serve", "--config", str(with_identity)]
        argv += ["--http", f"127.0.0.1:{port}"]
        targets.append(Target("hintgate+identity", [*argv, "--no-record"], base, port, issuer=opts.identity))
        # Everything a deployment has on at once: identity, the result scan (always on) and durable recording.
        port = _free_port()
        with_all = work / "hintgate-identity-record.json"
        with_all.write_text(json.dumps({
            "mcpServers": {"time": {**time_server, "prefix": "", "trust": "trusted"}},
            "identity": {"issuer": opts.identity, "audience": f"http://127.0.0.1:{port}/mcp"},
        }))  # fmt: skip
        argv = [sys.executable, "-m", "hintgate", "serve", "--config", str(with_all), "--http", f"127.0.0.1:{port}"]
        argv += ["--db", f"sqlite:///{work}/identity.db"]
        targets.append(Target("hintgate+identity+record", argv, base, port, issuer=opts.identity))
    if opts.baseline:
        # The same hintgate targets run from another checkout's `src` (on the same ports: targets run one at a
        # time), in the same passes, each recording to a database of its own.
        source = str(Path(opts.baseline).resolve() / "src")
        targets += [
            Target(
                f"base:{t.label}",
                [a.replace(f"sqlite:///{work}/", f"sqlite:///{work}/base-") for a in t.argv],
                dict(t.env, PYTHONPATH=source),
                t.port,
                t.tool,
                t.issuer,
            )
            for t in targets
            if t.label.startswith("hintgate")
        ]
    if opts.peers_python:
        peers = work / "fastmcp.json"
        peers.write_text(json.dumps({"mcpServers": {"time": time_server}}))  # the same upstream as hintgate's
        port = _free_port()
        env = dict(
            base, FASTMCP_SHOW_SERVER_BANNER="false", FASTMCP_CHECK_FOR_UPDATES="off", FASTMCP_LOG_LEVEL="WARNING"
        )
        argv = [opts.peers_python, __file__, "--serve-fastmcp", str(peers), str(port)]
        targets.append(Target("fastmcp", argv, env, port))
    if opts.only:
        targets = [t for t in targets if t.label in opts.only]
    return targets


def summary(results: list[Result]) -> list[dict[str, Any]]:
    """One row per target and concurrency: medians over passes, the range of calls/s, ratios to FastMCP."""
    rows: list[dict[str, Any]] = []
    for sessions in sorted({r.sessions for r in results}):
        group = [r for r in results if r.sessions == sessions]
        labels = list(dict.fromkeys(r.label for r in group))
        reference = [r for r in group if r.label == "fastmcp"]
        ref_rate = statistics.median(r.rate for r in reference) if reference else None
        direct = [lat for r in group if r.label == "direct" for lat in r.latencies]
        direct_p50 = statistics.median(direct) * 1000 if direct else None
        for label in labels:
            runs = [r for r in group if r.label == label]
            rate = statistics.median(r.rate for r in runs)
            latencies = [lat for r in runs for lat in r.latencies]
            p50 = statistics.median(latencies) * 1000
            rows.append(
                {
                    "target": label,
                    "sessions": sessions,
                    "calls_per_s": rate,
                    "calls_per_s_min": min(r.rate for r in runs),
                    "calls_per_s_max": max(r.rate for r in runs),
                    "p50_ms": p50,
                    "added_p50_ms": p50 - direct_p50 if direct_p50 is not None else None,
                    "p90_ms": sorted(latencies)[int(0.9 * len(latencies))] * 1000,
                    "cpu_per_call_ms": sum(r.server_cpu for r in runs) / sum(r.calls for r in runs) * 1000,
                    "client_cpu_per_call_ms": sum(r.client_cpu for r in runs) / sum(r.calls for r in runs) * 1000,
                    "peak_rss_mb": max(r.peak_rss_mb for r in runs),
                    "rate_to_fastmcp": rate / ref_rate if ref_rate else None,
                    "errors": sum(r.errors for r in runs),
                }
            )
    return rows


def _report(rows: list[dict[str, Any]]) -> None:
    """The rows of `summary` as a table."""
    columns = ("sessions", "calls/s", "range", "p50 ms", "+p50 ms", "p90 ms", "cpu/call", "client", "RSS MB")
    print(f"{'target':20} " + " ".join(f"{c:>9}" for c in (*columns, "x fastmcp", "errors")))
    for row in rows:
        added, ratio = row["added_p50_ms"], row["rate_to_fastmcp"]
        cells = (
            row["sessions"],
            f"{row['calls_per_s']:.0f}",
            f"{row['calls_per_s_min']:.0f}-{row['calls_per_s_max']:.0f}",
            f"{row['p50_ms']:.1f}",
            f"{added:+.1f}" if added is not None else "-",
            f"{row['p90_ms']:.1f}",
            f"{row['cpu_per_call_ms']:.2f}ms",
            f"{row['client_cpu_per_call_ms']:.2f}ms",
            row["peak_rss_mb"],
            f"{ratio:.2f}" if ratio else "-",
            row["errors"],
        )
        print(f"{row['target']:20} " + " ".join(f"{c:>9}" for c in cells))


async def _main(opts: argparse.Namespace) -> int:
    issuer = _start_issuer() if opts.identity else None
    try:
        if issuer is not None:
            opts.identity = issuer[1]
        return await _measure(opts)
    finally:
        if issuer is not None:
            stop(issuer[0])


def _start_issuer() -> tuple[subprocess.Popen[bytes], str]:
    """The tests' real OpenID provider (npm `oidc-provider`, tests/peers/oidc_issuer.mjs) on a free port."""
    peers = Path(__file__).resolve().parent.parent / "tests" / "peers"
    port = _free_port()
    proc = subprocess.Popen(
        ["node", str(peers / "oidc_issuer.mjs"), str(port)],
        cwd=peers,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != b"ready":
        raise SystemExit("the OpenID provider did not start: scripts/test installs oidc-provider in tests/peers")
    return proc, f"http://127.0.0.1:{port}"


async def _measure(opts: argparse.Namespace) -> int:
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
        rows = summary(results)
        if opts.format == "json":
            print(json.dumps({"load_average": os.getloadavg(), "rows": rows}, indent=2))
        else:
            _report(rows)
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
    parser.add_argument(
        "--baseline", metavar="CHECKOUT", help="also run every hintgate target from CHECKOUT's src (before/after)"
    )
    parser.add_argument("--only", nargs="+", metavar="TARGET", help="run only these targets (labels as printed)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--identity",
        action="store_true",
        help="also hintgate+identity: an identity section naming a real OpenID provider (npm oidc-provider, "
        "tests/peers), every session with its own person's bearer token",
    )
    return asyncio.run(_main(parser.parse_args(args)))


if __name__ == "__main__":
    sys.exit(main())
