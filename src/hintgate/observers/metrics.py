"""Prometheus metrics of a gateway: calls, latencies, approvals waiting, upstreams, the recorder.

Counted as calls finish (a `CallObserver`): calls by server, tool tier,
verdict and outcome; call and upstream latency histograms by server. Read
when scraped (a collector, nothing on the call path): approvals waiting, each
upstream's state, the recorder's queue length and records dropped.

Each gateway has its own `CollectorRegistry`, so tests and several gateways
in one process do not collide in the library's global one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from hintgate.outcome import CallOutcome
from hintgate.sources.base import Source, SourceState

if TYPE_CHECKING:
    from hintgate.policy.approvals import ApprovalQueue

__all__ = ["CONTENT_TYPE", "Metrics", "RecorderGauges"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The Prometheus text exposition format's media type."""

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


class _Scraped(Collector):
    """The values read when scraped: approvals waiting, upstream states, the recorder."""

    def __init__(
        self,
        sources: Mapping[str, Source],
        approvals: Callable[[], ApprovalQueue],
        recorder: RecorderGauges | None,
    ) -> None:
        self._sources = sources
        self._approvals = approvals
        self._recorder = recorder

    def collect(self) -> Iterator[Metric]:
        pending = GaugeMetricFamily("hintgate_pending_approvals", "Calls waiting in the approval queue for a person.")
        pending.add_metric([], len(self._approvals()))
        yield pending
        states = GaugeMetricFamily(
            "hintgate_upstream_state",
            "1 for the state each upstream is in, 0 for the others.",
            labels=["server", "state"],
        )
        for name, source in self._sources.items():
            current = source.status.state
            for state in SourceState:
                states.add_metric([name, state.value], 1.0 if state is current else 0.0)
        yield states
        if self._recorder is not None:
            queue = GaugeMetricFamily("hintgate_recorder_queue_length", "Records queued and not yet committed.")
            queue.add_metric([], self._recorder.pending)
            yield queue
            # A counter read from the recorder's own count, not incremented here.
            dropped = GaugeMetricFamily(
                "hintgate_recorder_dropped_records", "Records lost so far (queue full, or refused by the database)."
            )
            dropped.add_metric([], self._recorder.dropped)
            yield dropped


class Metrics:
    """A gateway's metrics: a call observer, and the registry `/metrics` serves.

    Args:
        sources: the gateway's sources by name (read when scraped).
        approvals: returns the approval queue (read when scraped).
        recorder: the store, for its queue length and drops (None without a store).
    """

    def __init__(
        self,
        sources: Mapping[str, Source],
        approvals: Callable[[], ApprovalQueue],
        recorder: RecorderGauges | None = None,
    ) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self._calls = Counter(
            "hintgate_calls",
            "Tool calls answered, by server, tool tier, final verdict and outcome.",
            ["server", "tier", "verdict", "outcome"],
            registry=self.registry,
        )
        self._duration = Histogram(
            "hintgate_call_duration_seconds",
            "Time from a call's arrival to its answer, questions to people included.",
            ["server"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self._upstream = Histogram(
            "hintgate_upstream_duration_seconds",
            "Time the upstream took to answer a forwarded call.",
            ["server"],
            buckets=_LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_Scraped(sources, approvals, recorder))
        # Label lookups cost more than the increments: each label set is resolved once.
        self._children: dict[tuple[str, str, str, str], Any] = {}
        self._per_server: dict[str, tuple[Any, Any]] = {}

    def call_finished(self, outcome: CallOutcome) -> None:
        """Count one call and observe its latencies."""
        entry = outcome.entry
        server = entry.server
        key = (server, entry.tier.value, outcome.verdict, outcome.outcome)
        counter = self._children.get(key)
        if counter is None:
            counter = self._children[key] = self._calls.labels(*key)
        counter.inc()
        histograms = self._per_server.get(server)
        if histograms is None:
            histograms = self._per_server[server] = (self._duration.labels(server), self._upstream.labels(server))
        histograms[0].observe(outcome.duration_ms / 1000)
        if outcome.upstream_ms is not None:
            histograms[1].observe(outcome.upstream_ms / 1000)

    def render(self) -> bytes:
        """The metrics in Prometheus text format."""
        return generate_latest(self.registry)
