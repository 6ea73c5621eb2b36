"""What `/metrics` shows, in prometheus_client's own terms; loaded by the first scrape.

`hintgate.observers.counts` holds what the call path counts in plain numbers;
this module turns them, and the values read at scrape time (approvals waiting,
each upstream's state, the recorder's queue and drops), into the families,
series and samples prometheus_client's Counter, Histogram and Gauge would
expose.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client import metrics as prometheus_metrics
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from hintgate.observers.counts import BOUNDS, CALLS_HELP, LATENCIES, CallCounts, Latency, RecorderGauges
from hintgate.sources.base import Source, SourceState

if TYPE_CHECKING:
    from hintgate.policy.approvals import ApprovalQueue

__all__ = ["generate_latest", "registry"]

_LE = {bound: floatToGoString(bound) for bound in BOUNDS}  # type: ignore[no-untyped-call]


def registry(
    calls: CallCounts,
    sources: Mapping[str, Source],
    approvals: Callable[[], ApprovalQueue],
    recorder: RecorderGauges | None,
) -> CollectorRegistry:
    """A registry of its own (not the library's global one) over a gateway's counts and live values."""
    made = CollectorRegistry(auto_describe=False)
    made.register(_Calls(calls))
    made.register(_Scraped(sources, approvals, recorder))
    return made


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
    """The call counter and the two latency histograms, from the plain counts."""

    def __init__(self, counts: CallCounts) -> None:
        self._counts = counts

    def collect(self) -> Iterator[Metric]:
        created = getattr(prometheus_metrics, "_use_created", True)
        calls = Metric("hintgate_calls", CALLS_HELP, "counter")
        names = self._counts.labels
        for key, (count, since) in list(self._counts.counts.items()):
            labels = dict(zip(names, key, strict=True))
            calls.add_sample("hintgate_calls_total", labels, count)
            if created:
                calls.add_sample("hintgate_calls_created", dict(labels), since)
        yield calls
        servers = list(self._counts.per_server.items())
        for index, (name, help_text) in enumerate(LATENCIES):
            family = Metric(name, help_text, "histogram")
            for server, latencies in servers:
                _samples(latencies[index], family, name, server, created=created)
            yield family


def _samples(latency: Latency, family: Metric, name: str, server: str, *, created: bool) -> None:
    total = 0.0
    for bound, count in zip(BOUNDS, latency.buckets, strict=True):
        total += count
        family.add_sample(name + "_bucket", {"server": server, "le": _LE[bound]}, total)
    family.add_sample(name + "_count", {"server": server}, total)
    family.add_sample(name + "_sum", {"server": server}, latency.sum)
    if created:
        family.add_sample(name + "_created", {"server": server}, latency.created)
