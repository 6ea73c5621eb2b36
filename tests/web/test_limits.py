"""Bounds on what the web app reads and echoes: request bodies and validation errors, over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from hintgate.testing import RunningGateway, running_gateway

WRITE = {"X-Hintgate-Request": "1"}
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def served() -> Iterator[RunningGateway]:
    with running_gateway("--demo", "--no-record") as gateway:
        yield gateway


def test_a_body_over_one_mib_is_refused_with_413_before_it_is_read(served: RunningGateway) -> None:
    with httpx.Client(base_url=served.base_url, headers=served.headers, timeout=60) as client:
        sized = client.patch("/api/policy", json={"mode": "x" * (2 * MIB)}, headers=WRITE)
        chunked = client.patch(
            "/api/policy",
            content=(b"x" * (64 * 1024) for _ in range(40)),  # no Content-Length: counted as it arrives
            headers={**WRITE, "Content-Type": "application/json"},
        )
        small = client.patch("/api/policy", json={"mode": "default"}, headers=WRITE)
    for response in (sized, chunked):
        assert response.status_code == 413, response.text[:300]
        assert response.json()["detail"] == "the request body is over the limit of 1048576 bytes (1 MiB)"
    assert small.status_code == 200


def test_a_validation_error_does_not_echo_a_large_input(served: RunningGateway) -> None:
    with httpx.Client(base_url=served.base_url, headers=served.headers, timeout=60) as client:
        large = client.patch("/api/policy", json={"mode": "x" * 900_000}, headers=WRITE)
        short = client.patch("/api/policy", json={"mode": "nope"}, headers=WRITE)
        long_key = client.patch("/api/policy", json={"k" * 900_000: 1}, headers=WRITE)
    assert large.status_code == short.status_code == long_key.status_code == 422
    assert len(long_key.content) < 2000, "an unknown key is part of the location: it is cut too"
    assert "900000 characters" in long_key.json()["detail"]
    assert len(large.content) < 2000, "the 422 must not send the 900 kB input back"
    assert "mode" in large.json()["detail"]
    [error] = large.json()["errors"]
    assert "input" not in error
    assert error["loc"] == ["body", "mode"]
    [error] = short.json()["errors"]
    assert error["input"] == "nope", "a short input is still shown: it says what was wrong"
