"""The REST API's own OpenAPI document, fuzzed with schemathesis against a real `hintgate serve`.

No request may get a 5xx, and no response may fall outside the document.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance, status_code_conformance

from hintgate.testing import RunningGateway, running_gateway


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningGateway]:
    data = tmp_path_factory.mktemp("fuzz")
    with running_gateway("--demo", env={"HINTGATE_DATA_DIR": str(data)}) as gateway:
        yield gateway


def test_no_request_gets_a_server_error_or_an_undocumented_response(served: RunningGateway) -> None:
    # schemathesis's own pytest plugin does not run under this pytest; drive hypothesis directly.
    schema = schemathesis.openapi.from_url(f"{served.base_url}/api/openapi.json", headers=served.headers)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 12
    for operation in operations:

        @settings(
            max_examples=20,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def check(case: schemathesis.Case) -> None:
            case.call_and_validate(
                base_url=served.base_url,
                headers={"X-Hintgate-Request": "1", **served.headers},
                timeout=30,
                checks=[not_a_server_error, response_schema_conformance, status_code_conformance],
            )

        check()


def test_the_document_lists_every_endpoint(served: RunningGateway) -> None:
    import httpx

    paths = set(httpx.get(f"{served.base_url}/api/openapi.json", headers=served.headers, timeout=10).json()["paths"])
    assert {
        "/api/health",
        "/api/servers",
        "/api/tools",
        "/api/tools/{name}",
        "/api/tools/{name}/overrides",
        "/api/sessions",
        "/api/sessions/{session_id}",
        "/api/calls",
        "/api/calls/{call_id}",
        "/api/approvals",
        "/api/approvals/{approval_id}",
        "/api/policy",
    } <= paths
    assert Path(__file__).name
