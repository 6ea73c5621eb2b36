"""Waiting in tests for something to come true, bounded: a poll, never a sleep to synchronise."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def until(
    condition: Callable[[], Any],
    what: str,
    *,
    within: float,
    meanwhile: Callable[[], object] = lambda: None,
    every: float = 0.05,
) -> Any:
    """Poll `condition` until it returns something truthy, and return that; fail after `within` seconds.

    `meanwhile` is called between tries (e.g. to keep another session busy); `what` names the wait in the failure.
    """
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if found := condition():
            return found
        meanwhile()
        time.sleep(every)
    raise AssertionError(f"not within {within:g} s: {what}")
