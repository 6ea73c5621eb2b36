"""Prometheus metrics: scraped from a real gateway after real calls, parsed with prometheus-client's parser."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from types import SimpleNamespace

import anyio
import httpx
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from prometheus_client.parser import text_string_to_metric_families
from tests.configs import config_file, entry

from hintgate.config.loading import parse_config
from hintgate.config.model import Trust
from hintgate.observers.metrics import Metrics
from hintgate.server.gateway import Gateway
from hintgate.testing import FakeSource, in_memory_gateway, running_gateway
from hintgate.web.app import create_app

pytestmark = pytest.mark.anyio

TOKEN = "metrics-test-token-0123456789abcdef"

NOTES_TOOLS = [
    {"name": "read", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
    {"name": "wipe", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": True}},
]


def samples(text: str, name: str) -> list[tuple[dict[str, str], float]]:
    """The samples of one metric in a scrape, as (labels, value)."""
    found = []
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found.append((dict(sample.labels), sample.value))
    return found


async def test_metrics_of_a_served_gateway_count_real_calls_by_verdict(tmp_path: Path, demo_cmd: list[str]) -> None:
    config = config_file(
        tmp_path,
        {"demo": entry(demo_cmd, trust="trusted")},
        {"rules": [{"deny": {"tool": "demo_delete_note"}}]},
    )
    with running_gateway("--config", str(config), "--no-record") as gateway:
        with anyio.fail_after(60):
            async with Client(gateway.mcp_transport(), mode="legacy") as client:
                for query in ("a", "b"):
                    assert (await client.call_tool("demo_search_notes", {"query": query})).is_error is False
                denied = await client.call_tool("demo_delete_note", {"note_id": 1})
                assert denied.is_error is True
            async with httpx.AsyncClient(headers=gateway.headers) as http:
                scrape = await http.get(f"{gateway.base_url}/metrics")
    assert scrape.status_code == 200
    assert scrape.headers["content-type"].startswith("text/plain")
    calls = samples(scrape.text, "hintgate_calls_total")
    by_verdict: dict[str, float] = {}
    for labels, value in calls:
        assert labels["server"] == "demo"
        by_verdict[labels["verdict"]] = by_verdict.get(labels["verdict"], 0) + value
    assert by_verdict == {"allow": 2.0, "deny": 1.0}
    [(allowed, _)] = [(labels, v) for labels, v in calls if labels["verdict"] == "allow"]
    assert (allowed["tier"], allowed["outcome"]) == ("read-only", "ok")
    [(denied_labels, _)] = [(labels, v) for labels, v in calls if labels["verdict"] == "deny"]
    assert (denied_labels["tier"], denied_labels["outcome"]) == ("destructive", "tool_error")
    # Denied calls never reach the upstream: two upstream latencies, three call latencies.
    assert samples(scrape.text, "hintgate_upstream_duration_seconds_count") == [({"server": "demo"}, 2.0)]
    assert samples(scrape.text, "hintgate_call_duration_seconds_count") == [({"server": "demo"}, 3.0)]
    states = {labels["state"]: value for labels, value in samples(scrape.text, "hintgate_upstream_state")}
    assert states["up"] == 1.0
    assert sum(states.values()) == 1.0
    assert samples(scrape.text, "hintgate_pending_approvals") == [({}, 0.0)]


async def test_metrics_need_the_api_token_when_the_app_has_one() -> None:
    source = FakeSource("a", tools=NOTES_TOOLS, handlers={"read": lambda _: "ok"})
    gateway = Gateway(parse_config({"mcpServers": {}}), sources={"a": source})
    async with gateway:
        app = create_app(gateway, None, token=TOKEN)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gateway.example:8765") as http:
            refused = await http.get("/metrics")
            allowed = await http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert refused.status_code == 401
    assert allowed.status_code == 200
    assert samples(allowed.text, "hintgate_pending_approvals") == [({}, 0.0)]


async def test_a_stdio_gateway_serves_metrics_on_the_address_given(tmp_path: Path, demo_cmd: list[str]) -> None:
    demo = entry(demo_cmd, trust="trusted")
    config = config_file(tmp_path, {"demo": demo}, {})
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config), "--no-record", "--metrics", f"127.0.0.1:{port}"],
        env={"HINTGATE_DATA_DIR": os.environ["HINTGATE_DATA_DIR"]},
    )
    with anyio.fail_after(90):
        async with Client(params, mode="legacy") as client:
            await client.call_tool("demo_search_notes", {"query": "x"})
            async with httpx.AsyncClient() as http:
                scrape = None
                for _ in range(100):  # the metrics listener starts beside stdio; bounded
                    try:
                        # The token is kept before the listener serves: once it answers, the file is there.
                        token_file = Path(os.environ["HINTGATE_DATA_DIR"]) / "api-token"
                        token = token_file.read_text().strip() if token_file.exists() else ""
                        auth = {"Authorization": f"Bearer {token}"}
                        scrape = await http.get(f"http://127.0.0.1:{port}/metrics", headers=auth)
                        break
                    except httpx.ConnectError:
                        await anyio.sleep(0.05)
    assert scrape is not None
    assert scrape.status_code == 200
    calls = samples(scrape.text, "hintgate_calls_total")
    assert [(labels["verdict"], value) for labels, value in calls] == [("allow", 1.0)]


async def test_two_gateways_in_one_process_keep_their_own_counts() -> None:
    first = FakeSource("a", tools=NOTES_TOOLS, handlers={"read": lambda _: "ok"}, trust=Trust.TRUSTED)
    second = FakeSource("b")
    async with in_memory_gateway(first) as (one, client):
        await client.call_tool("a_read", {})
        async with in_memory_gateway(second) as (two, _):
            assert samples(two.metrics.render().decode(), "hintgate_calls_total") == []
        assert [v for _, v in samples(one.metrics.render().decode(), "hintgate_calls_total")] == [1.0]


async def test_pending_approvals_and_recorder_gauges_are_read_when_scraped() -> None:
    class Recorder:
        pending = 3
        dropped = 2

    class Queue:
        def __len__(self) -> int:
            return 5

    metrics = Metrics({}, Queue, Recorder())  # type: ignore[arg-type,return-value]
    text = metrics.render().decode()
    assert samples(text, "hintgate_pending_approvals") == [({}, 5.0)]
    assert samples(text, "hintgate_recorder_queue_length") == [({}, 3.0)]
    assert samples(text, "hintgate_recorder_dropped_records") == [({}, 2.0)]


def _prometheus_clients_own(observed: list[tuple[str, str, str, str, float, float | None]]) -> str:
    """The scrape prometheus_client's own Counter and Histograms give for the same calls."""
    from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

    registry = CollectorRegistry(auto_describe=False)
    buckets = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
    calls = Counter(
        "hintgate_calls",
        "Tool calls answered, by server, tool tier, final verdict and outcome.",
        ["server", "tier", "verdict", "outcome"],
        registry=registry,
    )
    duration = Histogram(
        "hintgate_call_duration_seconds",
        "Time from a call's arrival to its answer, questions to people included.",
        ["server"],
        buckets=buckets,
        registry=registry,
    )
    upstream = Histogram(
        "hintgate_upstream_duration_seconds",
        "Time the upstream took to answer a forwarded call.",
        ["server"],
        buckets=buckets,
        registry=registry,
    )
    for server, tier, verdict, outcome, took, upstream_took in observed:
        calls.labels(server, tier, verdict, outcome).inc()
        duration.labels(server).observe(took)
        upstream_child = upstream.labels(server)
        if upstream_took is not None:
            upstream_child.observe(upstream_took)
    return generate_latest(registry).decode()


def test_the_call_metrics_scrape_as_prometheus_clients_own_counter_and_histograms_would() -> None:
    observed: list[tuple[str, str, str, str, float, float | None]] = [
        ("a", "read-only", "allow", "ok", 0.0004, 0.0003),
        ("a", "read-only", "allow", "ok", 0.001, None),
        ("b", "destructive", "denied", "error", 0.0, None),
        ("a", "additive", "approved", "ok", 75.0, 60.0),
        ("b", "destructive", "denied", "error", 2.5, 0.1 + 0.2),
        ("a", "read-only", "allow", "ok", 0.0123456789, 0.0100000001),
    ]
    metrics = Metrics({}, lambda: [])  # type: ignore[arg-type,return-value]
    for server, tier, verdict, outcome, took, upstream_took in observed:
        entry = SimpleNamespace(server=server, tier=SimpleNamespace(value=tier))
        metrics.call_finished(
            SimpleNamespace(  # type: ignore[arg-type]
                entry=entry,
                tier=tier,
                verdict=verdict,
                outcome=outcome,
                duration_ms=took * 1000,
                upstream_ms=None if upstream_took is None else upstream_took * 1000,
            )
        )
    ours = metrics.render().decode().split("# HELP hintgate_pending_approvals")[0]
    # As the gateway gives them: milliseconds, turned back into seconds.
    theirs = _prometheus_clients_own(
        [(s, t, v, o, d * 1000 / 1000, None if u is None else u * 1000 / 1000) for s, t, v, o, d, u in observed]
    )

    def without_creation_times(text: str) -> list[str]:
        return [line.rsplit(" ", 1)[0] if "_created{" in line else line for line in text.splitlines()]

    assert without_creation_times(ours) == without_creation_times(theirs)
    assert "hintgate_calls_created" in ours


@pytest.mark.parametrize("by_user", [True, False])
async def test_calls_are_counted_by_person_only_when_metrics_by_user_is_on(
    tmp_path: Path, demo_cmd: list[str], by_user: bool
) -> None:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client
    from tests.processes import free_port

    from oidc_peer import OidcIssuer

    issuer = OidcIssuer()
    try:
        port = free_port()
        identity = {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp"}
        demo = entry(demo_cmd, trust="trusted")
        config = config_file(tmp_path, {"demo": demo}, identity=identity, metrics={"byUser": by_user})
        with running_gateway("--config", str(config), "--no-record", bind=f"127.0.0.1:{port}") as gateway:
            tokens = {person: issuer.token(person, gateway.mcp_url) for person in ("alice", "bob")}
            with anyio.fail_after(60):
                for person, calls in (("alice", 2), ("bob", 1)):
                    headers = {"Authorization": f"Bearer {tokens[person]}"}
                    async with (
                        httpx2.AsyncClient(headers=headers, timeout=30) as http,
                        Client(streamable_http_client(gateway.mcp_url, http_client=http)) as client,  # type: ignore[arg-type]
                    ):
                        for _ in range(calls):
                            assert not (await client.call_tool("demo_search_notes", {"query": "a"})).is_error
                # Prometheus scrapes with the API token: metrics describe the whole gateway, not one person's calls.
                async with httpx.AsyncClient(headers=gateway.headers) as scraper:
                    scrape = await scraper.get(f"{gateway.base_url}/metrics")
    finally:
        issuer.stop()
    assert scrape.status_code == 200, scrape.text
    calls = samples(scrape.text, "hintgate_calls_total")
    if by_user:
        assert sorted((labels["user"], value) for labels, value in calls) == [
            ("alice@example.com", 2.0),
            ("bob@example.com", 1.0),
        ]
    else:
        assert [("user" in labels, value) for labels, value in calls] == [(False, 3.0)]
