"""Stopping the server processes a bench started: asked first, killed if it lingers. Every wait is bounded."""

from __future__ import annotations

import subprocess
from typing import Any

__all__ = ["stop"]


def stop(proc: subprocess.Popen[Any], timeout: float = 15) -> None:
    """Terminate `proc` (if still running) and wait for it; kill it after `timeout` seconds."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout)
