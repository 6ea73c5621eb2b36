"""The numbers `/metrics` shows, counted in plain Python on the call path (`hintgate.observers.metrics`).

Kept apart from prometheus_client, which only the scrape loads
(`hintgate.observers.exposition`).
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from typing import Protocol

__all__ = ["BOUNDS", "CALLS_HELP", "CALL_LABELS", "LATENCIES", "CallCounts", "Latency", "RecorderGauges"]

_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
"""Seconds: a gateway adds well under a millisecond; tools take from milliseconds to a minute."""


class RecorderGauges(Protocol):
    """What the metrics read of the store's recorder (`hintgate.store.Store`)."""

    @property
    def pending(self) -> int:
        """Records queued and not yet committed."""

    @property
    def dropped(self) -> int:
        """Records lost so far."""


class CallCounts:
    """Calls by label set and their latencies, as prometheus_client's Counter and Histograms expose them.

    Counted in plain numbers by the event loop that runs the calls: the call path takes no lock
    and walks no bucket list (prometheus_client's own metrics do both on every observation).
    The scrape shows the same families, series, samples and order as those metrics would.
    """

    __slots__ = ("counts", "labels", "per_server")

    def __init__(self, *, by_user: bool = False) -> None:
        self.labels = (*CALL_LABELS, "user") if by_user else CALL_LABELS
        """The labels of `hintgate_calls_total`, in the order of `counts`' keys."""
        self.counts: dict[tuple[str, ...], list[float]] = {}  # labels -> [count, created]
        self.per_server: dict[str, tuple[Latency, Latency]] = {}  # server -> (call, upstream)


class Latency:
    """One histogram series: counts per bucket (not cumulative), their sum, when it began."""

    __slots__ = ("buckets", "created", "sum")

    def __init__(self) -> None:
        self.buckets = [0.0] * len(BOUNDS)
        self.sum = 0.0
        self.created = time.time()

    def observe(self, amount: float) -> None:
        self.sum += amount
        index = bisect_left(BOUNDS, amount)
        if index < len(BOUNDS) and amount <= BOUNDS[index]:  # NaN lands in no bucket, as there
            self.buckets[index] += 1.0


BOUNDS = (*_LATENCY_BUCKETS, math.inf)
"""The latency histograms' upper bounds, +Inf last."""
CALL_LABELS = ("server", "tier", "verdict", "outcome")
"""The labels of `hintgate_calls_total`, in the order of `CallCounts.counts`' keys; `user` after them when
calls are counted by person (`metrics.byUser`)."""
CALLS_HELP = "Tool calls answered, by server, tool tier, final verdict and outcome."
"""The help text of `hintgate_calls`."""
LATENCIES = (
    ("hintgate_call_duration_seconds", "Time from a call's arrival to its answer, questions to people included."),
    ("hintgate_upstream_duration_seconds", "Time the upstream took to answer a forwarded call."),
)
"""The latency histograms (name, help), in the order of `CallCounts.per_server`'s pairs."""
