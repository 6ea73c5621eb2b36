"""Prometheus metrics of a gateway: calls, latencies, approvals waiting, upstreams, the recorder.

Counted as calls finish (a `CallObserver`): calls by server, tool tier,
verdict and outcome; call and upstream latency histograms by server. Read
when scraped (a collector, nothing on the call path): approvals waiting, each
upstream's state, the recorder's queue length and records dropped.

Each gateway has its own `CollectorRegistry`, so tests and several gateways
in one process do not collide in the library's global one.
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Protocol

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client import metrics as prometheus_metrics
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

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


class _Calls(Collector):
    """Calls by label set and their latencies, as prometheus_client's Counter and Histograms expose them.

    Counted in plain numbers by the event loop that runs the calls: the call path takes no lock
    and walks no bucket list (prometheus_client's own metrics do both on every observation).
    The scrape shows the same families, series, samples and order as those metrics would.
    """

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str, str, str], list[float]] = {}  # labels -> [count, created]
        self.per_server: dict[str, tuple[_Latency, _Latency]] = {}  # server -> (call, upstream)

    def collect(self) -> Iterator[Metric]:
        created = getattr(prometheus_metrics, "_use_created", True)
        calls = Metric("hintgate_calls", _CALLS_HELP, "counter")
        for key, (count, since) in list(self.counts.items()):
            labels = dict(zip(_CALL_LABELS, key, strict=True))
            calls.add_sample("hintgate_calls_total", labels, count)
            if created:
                calls.add_sample("hintgate_calls_created", dict(labels), since)
        yield calls
        servers = list(self.per_server.items())
        for index, (name, help_text) in enumerate(_LATENCIES):
            family = Metric(name, help_text, "histogram")
            for server, latencies in servers:
                latencies[index].samples(family, name, server, created=created)
            yield family


class _Latency:
    """One histogram series: counts per bucket (not cumulative), their sum, when it began."""

    __slots__ = ("buckets", "created", "sum")

    def __init__(self) -> None:
        self.buckets = [0.0] * len(_BOUNDS)
        self.sum = 0.0
        self.created = time.time()

    def observe(self, amount: float) -> None:
        self.sum += amount
        index = bisect_left(_BOUNDS, amount)
        if index < len(_BOUNDS) and amount <= _BOUNDS[index]:  # NaN lands in no bucket, as there
            self.buckets[index] += 1.0

    def samples(self, family: Metric, name: str, server: str, *, created: bool) -> None:
        total = 0.0
        for bound, count in zip(_BOUNDS, self.buckets, strict=True):
            total += count
            family.add_sample(name + "_bucket", {"server": server, "le": _LE[bound]}, total)
        family.add_sample(name + "_count", {"server": server}, total)
        family.add_sample(name + "_sum", {"server": server}, self.sum)
        if created:
            family.add_sample(name + "_created", {"server": server}, self.created)


_BOUNDS = (*_LATENCY_BUCKETS, math.inf)
_LE = {bound: floatToGoString(bound) for bound in _BOUNDS}  # type: ignore[no-untyped-call]
_CALL_LABELS = ("server", "tier", "verdict", "outcome")
_CALLS_HELP = "Tool calls answered, by server, tool tier, final verdict and outcome."
_LATENCIES = (
    ("hintgate_call_duration_seconds", "Time from a call's arrival to its answer, questions to people included."),
    ("hintgate_upstream_duration_seconds", "Time the upstream took to answer a forwarded call."),
)


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
        self._calls = _Calls()
        self.registry.register(self._calls)
        self.registry.register(_Scraped(sources, approvals, recorder))

    def call_finished(self, outcome: CallOutcome) -> None:
        """Count one call and observe its latencies."""
        entry = outcome.entry
        server = entry.server
        key = (server, entry.tier.value, outcome.verdict, outcome.outcome)
        counted = self._calls.counts.get(key)
        if counted is None:
            counted = self._calls.counts[key] = [0.0, time.time()]
        counted[0] += 1.0
        latencies = self._calls.per_server.get(server)
        if latencies is None:
            latencies = self._calls.per_server[server] = (_Latency(), _Latency())
        latencies[0].observe(outcome.duration_ms / 1000)
        if outcome.upstream_ms is not None:
            latencies[1].observe(outcome.upstream_ms / 1000)

    def render(self) -> bytes:
        """The metrics in Prometheus text format."""
        return generate_latest(self.registry)
