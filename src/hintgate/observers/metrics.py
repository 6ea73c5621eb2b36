"""Prometheus metrics of a gateway: calls, latencies, approvals waiting, upstreams, the recorder.

Counted as calls finish (a `CallObserver`): calls by server, tool tier,
verdict and outcome (and person, with `metrics.byUser`); call and upstream latency histograms by server. Read
when scraped (a collector, nothing on the call path): approvals waiting, each
upstream's state, the recorder's queue length and records dropped.

Each gateway has its own `CollectorRegistry`, so tests and several gateways
in one process do not collide in the library's global one. prometheus_client
is loaded by the first scrape (`hintgate.observers.exposition`): a gateway
nobody scrapes does not carry it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from hintgate.observers.counts import CallCounts, Latency, RecorderGauges
from hintgate.outcome import CallOutcome
from hintgate.sources.base import Source

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

    from hintgate.policy.approvals import ApprovalQueue

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The Prometheus text exposition format's media type."""


class Metrics:
    """A gateway's metrics: a call observer, and what `/metrics` serves.

    Args:
        sources: the gateway's sources by name (read when scraped).
        approvals: returns the approval queue (read when scraped).
        recorder: the store, for its queue length and drops (None without a store).
        by_user: count calls by person too (a `user` label: the caller's name, empty for a call
            without a person); off by default, for a series per person is a series per person.
    """

    def __init__(
        self,
        sources: Mapping[str, Source],
        approvals: Callable[[], ApprovalQueue],
        recorder: RecorderGauges | None = None,
        *,
        by_user: bool = False,
    ) -> None:
        self._calls = CallCounts(by_user=by_user)
        self._by_user = by_user
        self._sources = sources
        self._approvals = approvals
        self._recorder = recorder
        self._registry: CollectorRegistry | None = None

    def attach_recorder(self, recorder: RecorderGauges) -> None:
        """Report `recorder`'s queue (a store opened after the gateway started); before the first scrape only."""
        if self._registry is None:
            self._recorder = recorder

    def call_finished(self, outcome: CallOutcome) -> None:
        """Count one call and observe its latencies."""
        entry = outcome.entry
        server = entry.server
        key: tuple[str, ...] = (server, outcome.tier, outcome.verdict, outcome.outcome)
        if self._by_user:
            key = (*key, outcome.user or "")
        counted = self._calls.counts.get(key)
        if counted is None:
            counted = self._calls.counts[key] = [0.0, time.time()]
        counted[0] += 1.0
        latencies = self._calls.per_server.get(server)
        if latencies is None:
            latencies = self._calls.per_server[server] = (Latency(), Latency())
        latencies[0].observe(outcome.duration_ms / 1000)
        if outcome.upstream_ms is not None:
            latencies[1].observe(outcome.upstream_ms / 1000)

    def render(self) -> bytes:
        """The metrics in Prometheus text format."""
        from hintgate.observers.exposition import generate_latest, registry

        if self._registry is None:
            self._registry = registry(self._calls, self._sources, self._approvals, self._recorder)
        return generate_latest(self._registry)
