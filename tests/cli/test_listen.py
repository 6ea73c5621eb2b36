"""`hintgate serve` on a busy port: one line, exit code 4, and no upstream started."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from hintgate.cli.failing import EXIT_LISTEN
from hintgate.cli.serve import bind_listener, url_host

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "cli"


def marker_config(tmp_path: Path, marker: Path) -> Path:
    """A config whose one upstream writes `marker` the moment it is started."""
    script = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('started')"
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({"mcpServers": {"marker": {"command": sys.executable, "args": ["-c", script]}}}))
    return config


@pytest.mark.parametrize("flag", ["--http", "--dashboard"])
def test_serve_on_a_busy_port_says_so_in_one_line_and_starts_no_upstream(tmp_path: Path, flag: str) -> None:
    marker = tmp_path / "upstream-started"
    config = marker_config(tmp_path, marker)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "hintgate", "serve", "--config", str(config), flag, f"127.0.0.1:{port}"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path), "COLUMNS": "80"},
            check=False,
        )
    assert done.stderr.strip() == f"error: cannot listen on 127.0.0.1:{port}: address already in use"
    assert done.returncode == EXIT_LISTEN
    assert not marker.exists()
    if flag == "--http":
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        command = f"$ hintgate serve --config hintgate.json --http 127.0.0.1:{port}\n"
        (ARTIFACTS / "port-in-use.txt").write_text(f"{command}{done.stderr}exit code {done.returncode}\n")


def test_the_upstream_of_the_busy_port_test_does_write_its_marker_when_started(tmp_path: Path) -> None:
    """The check above means something: this config's upstream leaves its marker when it runs."""
    marker = tmp_path / "upstream-started"
    config = marker_config(tmp_path, marker)
    subprocess.run(
        [sys.executable, "-m", "hintgate", "tools", "--config", str(config), "--format", "json"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        env={**os.environ, "HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)},
        check=False,
    )
    assert marker.exists()


@pytest.mark.parametrize(
    ("bind", "shown"),
    [
        ("0.0.0.0", "127.0.0.1"),
        ("::", "[::1]"),
        ("127.0.0.1", "127.0.0.1"),
        ("::1", "[::1]"),
        ("localhost", "localhost"),
    ],
)
def test_the_start_line_names_an_address_a_browser_can_open(bind: str, shown: str) -> None:
    assert url_host(bind) == shown


@pytest.mark.anyio
async def test_connections_accepted_on_the_listener_send_without_waiting_for_acks() -> None:
    """Nagle's algorithm is off on accepted connections, so a response written in two parts is not held back."""
    sock = bind_listener("127.0.0.1", 0)
    accepted: asyncio.Queue[int] = asyncio.Queue()

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raw = writer.get_extra_info("socket")
        await accepted.put(raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        writer.close()

    server = await asyncio.start_server(on_connect, sock=sock)
    async with server:
        _, writer = await asyncio.open_connection("127.0.0.1", sock.getsockname()[1])
        try:
            async with asyncio.timeout(10):
                nodelay = await accepted.get()
        finally:
            writer.close()
    assert nodelay != 0
