"""Upstream processes started ahead of the gateway: taken once by exactly their definition, the rest stopped."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import anyio
import pytest

from hintgate.config.loading import parse_config
from hintgate.config.model import GatewayConfig, StdioTransport, child_environment
from hintgate.sources import build_sources, processes
from hintgate.sources.base import Source, SourceState
from hintgate.sources.handshake import CLIENT_CAPABILITIES, initialize_request
from hintgate.sources.processes import prestarting

pytestmark = pytest.mark.anyio

COUNTER = str(Path(__file__).parents[1] / "fixtures" / "launch_counter.py")
HEARD = str(Path(__file__).parents[1] / "fixtures" / "heard_server.py")
FIRST = initialize_request(CLIENT_CAPABILITIES)


def counted_config(launches: Path, time_cmd: list[str], **entry: object) -> GatewayConfig:
    """One stdio server (the time server) launched through the counter, which writes each launch's pid."""
    server = {"command": sys.executable, "args": [COUNTER, str(launches), *time_cmd], **entry}
    return parse_config({"mcpServers": {"time": server}}, source="test")


def transport_and_env(config: GatewayConfig) -> tuple[StdioTransport, dict[str, str]]:
    server = config.servers["time"]
    assert isinstance(server.transport, StdioTransport)
    return server.transport, child_environment(server, config, os.environ)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def launched(launches: Path) -> list[int]:
    """The pids the counter wrote, once it wrote one (bounded)."""
    with anyio.fail_after(30):
        while not launches.exists() or not launches.read_text():
            await anyio.sleep(0.01)
    return [int(line) for line in launches.read_text().split()]


async def test_a_process_started_ahead_is_taken_once_by_exactly_its_definition(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    launches = tmp_path / "launches"
    config = counted_config(launches, time_cmd)
    spec, env = transport_and_env(config)
    other_args = StdioTransport(command=spec.command, args=(*spec.args, "--extra"), env=spec.env, cwd=spec.cwd)
    async with prestarting(config, os.environ) as prestarted:
        assert await prestarted.take(other_args, env, FIRST) is None
        assert await prestarted.take(spec, {**env, "EXTRA": "1"}, FIRST) is None
        assert await prestarted.take(spec, env, initialize_request({})) is None  # given another first request
        ahead = await prestarted.take(spec, env, FIRST)
        assert ahead is not None
        assert await prestarted.take(spec, env, FIRST) is None  # handed out once
        [pid] = await launched(launches)
        assert ahead.process.pid == pid
        await processes.stop(ahead.process)
    assert not alive(pid)


async def test_a_process_started_ahead_and_not_taken_is_stopped_once_the_sources_have_started(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    launches = tmp_path / "launches"
    async with prestarting(counted_config(launches, time_cmd), os.environ) as prestarted:
        [pid] = await launched(launches)
        assert alive(pid)
        await prestarted.discard()
        assert not alive(pid)


async def test_processes_started_ahead_and_never_taken_are_stopped_on_exit(tmp_path: Path, time_cmd: list[str]) -> None:
    launches = tmp_path / "launches"
    async with prestarting(counted_config(launches, time_cmd), os.environ):
        [pid] = await launched(launches)
    assert not alive(pid)


async def test_a_disabled_server_or_one_whose_command_is_missing_is_not_started_ahead(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    launches = tmp_path / "launches"
    disabled = counted_config(launches, time_cmd, enabled=False)
    missing = parse_config({"mcpServers": {"time": {"command": "no-such-command-here"}}}, source="test")
    async with prestarting(disabled, os.environ) as none, prestarting(missing, os.environ) as prestarted:
        spec, env = transport_and_env(missing)
        assert await prestarted.take(spec, env, FIRST) is None
        assert await none.take(*transport_and_env(disabled), FIRST) is None
    assert not launches.exists()


async def run_once(source: Source) -> None:
    """Start the source, see it up, stop it."""
    async with anyio.create_task_group() as group:
        group.start_soon(source.run)
        await source.wait_started(30)
        assert source.status.state is SourceState.UP, source.status.reason
        group.cancel_scope.cancel()


async def test_a_source_takes_the_process_started_ahead_only_when_it_is_handed_the_processes(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    launches = tmp_path / "launches"
    config = counted_config(launches, time_cmd)
    async with prestarting(config, os.environ) as prestarted:
        [ahead] = await launched(launches)
        await run_once(build_sources(config, environ=os.environ)["time"])
        assert len(launches.read_text().split()) == 2  # not handed them: it spawned its own
        assert alive(ahead)
        await run_once(build_sources(config, environ=os.environ, prestarted=prestarted)["time"])
        assert len(launches.read_text().split()) == 2  # handed them: it took the one started ahead
        assert not alive(ahead)  # and stopped it when it stopped


def heard_config(heard: Path, *args: str) -> GatewayConfig:
    """One stdio server (`heard_server.py`) that writes down each message it hears in `heard`."""
    server = {"command": sys.executable, "args": [HEARD, str(heard), *args]}
    return parse_config({"mcpServers": {"s": server}}, source="test")


async def heard_lines(heard: Path, count: int) -> list[str]:
    """What the server heard, once it heard `count` messages (bounded)."""
    with anyio.fail_after(30):
        while len(heard.read_text().split() if heard.exists() else []) < count:
            await anyio.sleep(0.01)
    return heard.read_text().split()


async def test_a_process_started_ahead_is_asked_to_initialize_before_any_source_exists(tmp_path: Path) -> None:
    heard = tmp_path / "heard"
    async with prestarting(heard_config(heard), os.environ):
        assert (await heard_lines(heard, 1))[0] == "initialize"


async def test_a_process_started_ahead_is_asked_for_its_tools_as_soon_as_it_answers_initialize(tmp_path: Path) -> None:
    heard = tmp_path / "heard"
    async with prestarting(heard_config(heard), os.environ):
        # No source exists: the handshake's end and the first listing were sent on the answer.
        assert await heard_lines(heard, 3) == ["initialize", "notifications/initialized", "tools/list"]


async def test_a_process_started_ahead_without_tools_is_told_the_handshake_ended_and_asked_nothing(
    tmp_path: Path,
) -> None:
    heard = tmp_path / "heard"
    async with prestarting(heard_config(heard, "--no-tools"), os.environ) as prestarted:
        assert await heard_lines(heard, 2) == ["initialize", "notifications/initialized"]
        source = build_sources(heard_config(heard, "--no-tools"), environ=os.environ, prestarted=prestarted)["s"]
        await run_once(source)
        assert source.tools == []
    assert heard.read_text().split() == ["initialize", "notifications/initialized"]


async def test_a_source_taking_a_process_started_ahead_does_not_initialize_it_twice(tmp_path: Path) -> None:
    heard = tmp_path / "heard"
    config = heard_config(heard)
    async with prestarting(config, os.environ) as prestarted:
        source = build_sources(config, environ=os.environ, prestarted=prestarted)["s"]
        await run_once(source)
        assert [tool["name"] for tool in source.tools] == ["noop"]
    assert heard.read_text().split() == ["initialize", "notifications/initialized", "tools/list"]


async def test_a_source_taking_a_process_that_listed_its_tools_ahead_reads_that_listing_and_sends_nothing_twice(
    tmp_path: Path,
) -> None:
    heard = tmp_path / "heard"
    config = heard_config(heard)
    async with prestarting(config, os.environ) as prestarted:
        await heard_lines(heard, 3)  # answered and listed before the source exists
        source = build_sources(config, environ=os.environ, prestarted=prestarted)["s"]
        await run_once(source)
        assert [tool["name"] for tool in source.tools] == ["noop"]
    assert heard.read_text().split() == ["initialize", "notifications/initialized", "tools/list"]


STUBBORN = (
    "import signal, sys, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "print('ready', flush=True)\n"
    "time.sleep(120)\n"
)
"""A child that outlives the closing of its stdin and ignores SIGTERM: only SIGKILL ends it."""


async def stubborn_child() -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", STUBBORN, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    with anyio.fail_after(30):
        assert await process.stdout.readline() == b"ready\n"  # its SIGTERM handler is in place
    return process


@pytest.fixture
def patient_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stops that would wait a minute at each step unless hurried; this process not hurried yet, nor after."""
    monkeypatch.setattr(processes, "STOP_PATIENCE", 60.0)
    monkeypatch.setattr(processes._STOPS, "hurried", False)


@pytest.mark.usefixtures("patient_stops")
async def test_a_stop_under_way_ends_its_wait_and_kills_the_child_once_the_gateway_is_told_to_hurry() -> None:
    process = await stubborn_child()
    stopping = asyncio.ensure_future(processes.stop(process))
    await asyncio.sleep(0)  # the stop has closed stdin and waits
    assert not stopping.done()
    processes.hurry()
    with anyio.fail_after(30):  # unhurried, the stop would wait 60 s after stdin and 60 s after SIGTERM
        await stopping
    assert process.returncode == -signal.SIGKILL


@pytest.mark.usefixtures("patient_stops")
async def test_a_stop_begun_after_the_gateway_was_told_to_hurry_is_hurried_from_its_start() -> None:
    processes.hurry()
    process = await stubborn_child()
    with anyio.fail_after(30):
        await processes.stop(process)
    assert process.returncode == -signal.SIGKILL
