"""The fixture server passes the official MCP conformance suite (server scenarios, protocol 2025-11-25).

hintgate's conformance runs put hintgate in front of fixture_server.py; this test pins the baseline that
the fixture itself is conformant, so any later failure is hintgate's.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.scripts import load_script

HERE = Path(__file__).resolve().parent


runner = load_script(HERE / "run.py", "hintgate_conformance_run")


@pytest.mark.timeout(600)
def test_fixture_server_passes_every_2025_11_25_server_scenario_except_the_documented_ones() -> None:
    if not (HERE / "node_modules").is_dir() and not os.environ.get("CI"):
        pytest.skip("tests/conformance/node_modules is absent: run `npm ci` in tests/conformance (scripts/test does)")
    try:
        runner.check_installed()
        scenarios = runner.list_scenarios()
        with runner.fixture_server() as url:
            results = runner.run_suite(url, scenarios)
    except runner.SetupError as error:
        pytest.fail(str(error))

    assert [r.scenario for r in results] == scenarios
    assert len(scenarios) >= 30, f"the suite lists only {scenarios}"
    assert all(r.ok for r in results), "\n" + runner.format_table(results)
