"""Shared fixtures: where the real MCP servers and the shared corpus live."""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from oauth_peer import OAuthPeer
from real_servers import demo_server, npm_server, python_server

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"

# The tests and every process they start (npx, pip, browsers, gateways) see a home of their own, made for this
# run and removed after it: nothing lands in the home of whoever runs pytest. (scripts/test also checks that
# nothing was written under the HOME it gave, which catches a write that does not follow $HOME.)
_HOME = tempfile.mkdtemp(prefix="hintgate-tests-home-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
os.environ["HOME"] = _HOME
for _variable in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):  # each then defaults to under HOME
    os.environ.pop(_variable, None)

sys.path.insert(0, str(ROOT / "bench"))

import _postgres  # noqa: E402  (lives in bench/, put on sys.path just above)

# CI runs every property test on the same examples (derived from the test, not drawn at random), so a run
# that passes is repeatable and a failure shows on every run; a developer's run draws new ones each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True, scope="session")
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Gateways the tests start keep their database and token here, never in the user's data directory."""
    os.environ["HINTGATE_DATA_DIR"] = str(tmp_path_factory.mktemp("hintgate-data"))


@pytest.fixture(autouse=True)
def _data_dir_per_test(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's gateways get a fresh data directory, so the tool pins (and overrides) one test's gateways
    keep never hold a tool of the next test's. Module-scoped fixtures, set up first, share the session's."""
    monkeypatch.setenv("HINTGATE_DATA_DIR", str(tmp_path_factory.mktemp("hintgate-data")))


@pytest.fixture(autouse=True)
def _hintgate_logger_as_found() -> Iterator[None]:
    """A command run in-process (serve, lint) sets the level of the "hintgate" logger and adds its stderr
    handler; put both back, so a later test's caplog sees every record whatever ran before it."""
    logger = logging.getLogger("hintgate")
    level, handlers, propagate = logger.level, list(logger.handlers), logger.propagate
    yield
    logger.setLevel(level)
    logger.handlers[:] = handlers
    logger.propagate = propagate


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[_postgres.PostgresServer]:
    """A real PostgreSQL server for the test session (Debian's binaries); each test makes its own database."""
    bin_dir = _postgres.find_bin_dir()
    if bin_dir is None:
        message = "PostgreSQL server binaries (initdb, pg_ctl) not found: install Debian's postgresql package"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with _postgres.running(bin_dir) as server:
        yield server


@pytest.fixture
def demo_cmd() -> list[str]:
    return demo_server()


@pytest.fixture
def time_cmd() -> list[str]:
    return [*python_server("mcp-server-time"), "--local-timezone", "UTC"]


@pytest.fixture
def fetch_cmd() -> list[str]:
    return python_server("mcp-server-fetch")


@pytest.fixture
def git_cmd(tmp_path: Path) -> list[str]:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=30)
    return [*python_server("mcp-server-git"), "--repository", str(repo)]


@pytest.fixture
def filesystem_cmd(tmp_path: Path) -> list[str]:
    root = tmp_path / "files"
    root.mkdir()
    return [*npm_server("mcp-server-filesystem"), str(root)]


@pytest.fixture
def memory_cmd(tmp_path: Path) -> list[str]:
    return npm_server("mcp-server-memory")


@pytest.fixture
def everything_cmd() -> list[str]:
    return [*npm_server("mcp-server-everything"), "stdio"]


@pytest.fixture
def corpus() -> Path:
    path = SHARED / "corpus"
    if not path.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: CI has shared/ beside the clone")
        pytest.skip("../shared/corpus is not beside this checkout")
    return path


@pytest.fixture
def oauth_peer() -> Iterator[OAuthPeer]:
    """An MCP server behind a real OAuth authorization server (long-lived access tokens)."""
    peer = OAuthPeer()
    yield peer
    peer.stop()
