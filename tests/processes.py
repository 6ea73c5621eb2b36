"""The tests' child processes: a free loopback port for one, waiting until one is ready, stopping one for sure."""

from __future__ import annotations

import socket
import subprocess
import threading
from typing import Any


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def stop(process: subprocess.Popen[Any], *, within: float = 10) -> None:
    """Terminate `process` and wait for it; kill it when it has not exited within `within` seconds."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=within)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=within)


def wait_ready(process: subprocess.Popen[str], what: str, *, within: float = 30) -> None:
    """Wait for the child to print `ready` as its first line; stop it and fail, naming `what`, when it does not."""
    ready = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        if process.stdout.readline().strip() == "ready":
            ready.set()

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(within):
        stop(process)
        if process.stdout is not None:
            process.stdout.close()  # else its pipe is collected, unclosed, in whichever test runs next
        raise RuntimeError(f"{what} did not start within {within:g} s (exit status {process.returncode})")
