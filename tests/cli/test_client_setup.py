"""Where `serve --stdio --dashboard` puts the API token and the one-time sign-in link.

Over stdio, stderr belongs to the MCP client that started the gateway, which
keeps it in a log file; the token and the link go there only when stderr is
a terminal, else to a file in the data directory only this user may read.
A real `hintgate serve` child, its stderr a pipe (a client's log) or a
pseudo-terminal.
"""

from __future__ import annotations

import os
import pty
import queue
import re
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx
from tests.processes import free_port

from hintgate.cli.client_setup import SETUP_FILE

BROWSER = {"Accept": "text/html,application/xhtml+xml"}


@contextmanager
def serving_stdio(data_dir: Path, port: int, *, stderr: int | IO[bytes]) -> Iterator[subprocess.Popen[bytes]]:
    """`hintgate serve --demo --no-record --dashboard 127.0.0.1:PORT` on stdio, until the block ends."""
    process = subprocess.Popen(
        [sys.executable, "-m", "hintgate", "serve", "--demo", "--no-record", "--dashboard", f"127.0.0.1:{port}"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        env={**os.environ, "HINTGATE_DATA_DIR": str(data_dir), "COLUMNS": "400", "PYTHONUNBUFFERED": "1"},
    )
    try:
        yield process
    finally:
        assert process.stdin is not None
        process.stdin.close()  # a stdio gateway ends when its client closes stdin
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        if process.stderr is not None:
            process.stderr.close()


def read_until(read_line: Callable[[], bytes], done: Callable[[str], bool], *, seconds: float = 60) -> str:
    """What the child wrote to stderr up to the first line `done` accepts (on a thread, bounded)."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        try:
            while line := read_line():
                lines.put(line.decode(errors="replace"))
        except (OSError, ValueError):  # the pseudo-terminal closes with the child, the pipe with the test
            pass
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    seen = ""
    while True:
        line = lines.get(timeout=seconds)
        assert line is not None, f"stderr ended before the line looked for:\n{seen}"
        seen += line
        if done(line):
            return seen


def test_with_stderr_not_a_terminal_the_token_and_sign_in_link_go_to_a_private_file_and_stderr_says_where(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    port = free_port()
    with serving_stdio(data_dir, port, stderr=subprocess.PIPE) as process:
        assert process.stderr is not None
        # The link itself on stderr ends the wait too: then the assertions below say what went wrong.
        kept = data_dir / SETUP_FILE
        said = read_until(process.stderr.readline, lambda line: str(kept) in line or "login?once=" in line)
        token = (data_dir / "api-token").read_text().strip()
        assert token not in said
        assert "login?once=" not in said
        text = kept.read_text()
        (link,) = re.findall(r"this link works once\): (\S+)", text)
        with httpx.Client(timeout=30) as first, httpx.Client(timeout=30) as second:
            signed = first.get(link, headers=BROWSER, follow_redirects=False)
            again = second.get(link, headers=BROWSER, follow_redirects=False)
    assert str(kept) in said
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert f"Authorization: Bearer {token}" in text
    assert link.startswith(f"http://127.0.0.1:{port}/login?once=")
    assert signed.status_code == 303
    assert again.status_code == 401


def test_with_stderr_a_terminal_the_sign_in_link_is_shown_there_and_no_file_is_written(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = free_port()
    terminal, child_side = pty.openpty()
    try:
        with serving_stdio(data_dir, port, stderr=child_side):
            os.close(child_side)
            child_side = -1
            with os.fdopen(terminal, "rb", buffering=0, closefd=False) as reader:
                said = read_until(reader.readline, lambda line: "this link works once" in line)
    finally:
        if child_side >= 0:
            os.close(child_side)
        os.close(terminal)
    token = (data_dir / "api-token").read_text().strip()
    assert f"http://127.0.0.1:{port}/login?once=" in said
    assert token in said
    assert not (data_dir / SETUP_FILE).exists()
