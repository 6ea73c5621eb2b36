"""hintgate in front of the fixture passes the official MCP conformance suite (server scenarios, 2025-11-25).

What is tested is that hintgate passes everything through faithfully: tools, content of every kind,
errors, logging, progress, sampling and elicitation relayed during a call, resources and their
subscriptions, prompts, completion, sessions and concurrent SSE streams, DNS-rebinding protection.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_fixture_conformance import runner

HERE = Path(__file__).resolve().parent


@pytest.mark.timeout(600)
@pytest.mark.parametrize("upstream", ["stdio", "http"])
def test_hintgate_passes_every_2025_11_25_server_scenario_in_front_of_the_fixture(upstream: str) -> None:
    if not (HERE / "node_modules").is_dir() and not os.environ.get("CI"):
        pytest.skip("tests/conformance/node_modules is absent: run `npm ci` in tests/conformance (scripts/test does)")
    try:
        runner.check_installed()
        scenarios = runner.list_scenarios()
        with runner.gateway_server(upstream) as url:
            results = runner.run_suite(url, scenarios)
    except runner.SetupError as error:
        pytest.fail(str(error))

    assert [r.scenario for r in results] == scenarios
    assert all(r.ok for r in results), "\n" + runner.format_table(results)
