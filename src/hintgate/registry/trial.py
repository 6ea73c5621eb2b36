"""A registry server's package started in a scratch directory, to list its tools before anything is added.

The package runs as the entry that would be added runs it, with three
differences that keep what is not yet judged away from what the user has:

- its environment is the allow-list a stdio server gets (`DEFAULT_ENV_ALLOW`:
  HOME, PATH, locale...) plus the entry's own variables, whose `${VAR}`
  references are filled only from values given for the trial (`given`), never
  from the user's environment, where its secrets are;
- it runs in a scratch directory, removed afterwards;
- nothing is installed by a script the package ships: an npm package runs
  through `npx --yes` with `npm_config_ignore_scripts`, and a PyPI package is
  installed from wheels only (`pip install --only-binary :all:`) into a venv
  of its own in the scratch directory, then its command is run from there.

Installing and starting are bounded in time, and what an installer prints is
kept to its last lines. A directory of npm packages already installed (a
project's `node_modules`) can stand in for the download when it holds the
package at the exact version asked.

This is not a sandbox: the package's code runs as the user, and a process it
starts that outlives it is not hunted down.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hintgate.config.model import DEFAULT_ENV_ALLOW, ServerConfig, StdioTransport
from hintgate.errors import PackageInstallError
from hintgate.registry.serverjson import Package, shown_text

__all__ = ["Trial", "runs_here", "tried"]

_OUTPUT_KEPT = 4000  # characters of an installer's output kept for its error message
# pip's own configuration passes to pip (where packages come from, certificates, its cache), never to the server.
_PIP_SETTINGS: tuple[str, ...] = (
    "PIP_INDEX_URL",
    "PIP_EXTRA_INDEX_URL",
    "PIP_FIND_LINKS",
    "PIP_CERT",
    "PIP_CLIENT_CERT",
    "PIP_TRUSTED_HOST",
    "PIP_DEFAULT_TIMEOUT",
    "PIP_CACHE_DIR",
    "PIP_RETRIES",
    "PIP_PROXY",
    "PIP_CONFIG_FILE",
    "PIP_CONSTRAINT",
    "PIP_NO_CACHE_DIR",
)


@dataclass(frozen=True, slots=True)
class Trial:
    """What a package listed when it was tried.

    Attributes:
        tools: its tools, as it listed them.
        server: the name and version it gave itself in `initialize`.
        command: the command line it was started with, for people (its values as given).
    """

    tools: list[dict[str, Any]]
    server: str | None
    command: str


def runs_here(package: Package, environ: Mapping[str, str]) -> str | None:
    """Why `package` cannot be tried on this machine (`npx` missing...), or None when it can."""
    if package.registry_type == "npm":
        if shutil.which("npx", path=environ.get("PATH")) is None:
            return "npx is not on PATH: install Node.js (npm) to try npm packages"
        return None
    if package.registry_type == "pypi":
        return None  # a venv of this interpreter's
    return f"hintgate tries npm and PyPI packages, not {shown_text(package.registry_type, 32)} ones"


def _allowed(environ: Mapping[str, str]) -> dict[str, str]:
    # A value starting "()" is an exported bash function: code, not data (as for the gateway's children).
    return {k: environ[k] for k in DEFAULT_ENV_ALLOW if k in environ and not environ[k].startswith("()")}


async def _run(command: list[str], *, env: Mapping[str, str], cwd: Path, timeout: float, what: str) -> None:
    """Run an installer step to its end within `timeout` seconds; its output goes into the error when it fails."""
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=dict(env),
            cwd=str(cwd),
            start_new_session=True,
        )
    except OSError as exc:
        raise PackageInstallError(f"{what}: cannot run {command[0]}: {exc.strerror or exc}") from exc
    kept = ""
    assert process.stdout is not None
    try:
        async with asyncio.timeout(timeout):
            while chunk := await process.stdout.read(65536):
                kept = (kept + chunk.decode("utf-8", "replace"))[-_OUTPUT_KEPT:]
            await process.wait()
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        raise PackageInstallError(f"{what}: did not finish within {timeout:g} s") from None
    finally:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
    if process.returncode != 0:
        tail = "\n".join(line for line in kept.splitlines()[-15:] if line.strip())
        raise PackageInstallError(f"{what}: {command[0]} exited with {process.returncode}:\n{shown_multiline(tail)}")


def shown_multiline(text: str) -> str:
    """An installer's output safe to show: each line through `shown_text`."""
    return "\n".join(shown_text(line, 300) for line in text.splitlines())


def _installed_version(node_modules: Path, package: Package) -> str | None:
    try:
        manifest = json.loads((node_modules / package.identifier / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = manifest.get("version") if isinstance(manifest, dict) else None
    return version if isinstance(version, str) else None


def _command_of(bin_dir: Path, package: Package, before: set[str]) -> Path:
    """The command a PyPI package installed: the one named like it (as uvx runs it), else its only new one."""
    wanted = {package.identifier, package.identifier.lower(), package.identifier.lower().replace("_", "-")}
    for name in wanted:
        if (bin_dir / name).is_file():
            return bin_dir / name
    added = sorted(p.name for p in bin_dir.iterdir() if p.name not in before)
    if len(added) == 1:
        return bin_dir / added[0]
    listed = ", ".join(added[:8]) or "none"
    raise PackageInstallError(
        f"{package.spec} installs no command named {package.identifier} (it installs: {listed}); "
        "uvx would not start it either"
    )


@asynccontextmanager
async def _scratch() -> AsyncIterator[Path]:
    with tempfile.TemporaryDirectory(prefix="hintgate-trial-") as name:
        yield Path(name)


async def tried(
    package: Package,
    config: ServerConfig,
    *,
    environ: Mapping[str, str],
    node_modules: Path | None = None,
    install_timeout: float = 300.0,
    start_timeout: float = 60.0,
    step: Callable[[str], None] | None = None,
) -> Trial:
    """Install and start `package` in a scratch directory as `config` (its entry, read) says, and list its tools.

    Args:
        package: the package (npm or PyPI).
        config: its entry as the config reader read it, `${VAR}` filled from the values given for the trial.
        environ: the user's environment, of which only the allow-list passes.
        node_modules: npm packages already installed, used when one is `package` at its version.
        install_timeout: seconds installing may take (for npm, the start includes it).
        start_timeout: seconds starting and listing may take once installed.
        step: told what is being done, for progress.

    Raises:
        PackageInstallError: the package could not be installed, or its runtime is missing.
        UpstreamError: it did not start, or did not list its tools.
    """
    from hintgate.sources.connection import connect

    step = step or (lambda _: None)

    transport = config.transport
    assert isinstance(transport, StdioTransport)
    if (why := runs_here(package, environ)) is not None:
        raise PackageInstallError(why)
    async with _scratch() as scratch:
        env = {**_allowed(environ), **transport.env}
        words = list(transport.args)
        spec_at = words.index(package.spec)  # the runner's words, the spec, then the package's own arguments
        arguments = words[spec_at + 1 :]
        if package.registry_type == "npm":
            if node_modules is not None and _installed_version(node_modules, package) == package.version:
                # npx runs a package the project in its working directory has at the version asked: no download.
                (scratch / "node_modules").symlink_to(node_modules.resolve(), target_is_directory=True)
            env |= {
                "npm_config_ignore_scripts": "true",
                "npm_config_yes": "true",
                "npm_config_update_notifier": "false",
                "npm_config_fund": "false",
                "npm_config_audit": "false",
            }
            npx = shutil.which("npx", path=environ.get("PATH"))
            assert npx is not None
            command, args = npx, ["--yes", package.spec, *arguments]
            timeout = install_timeout + start_timeout
            step(f"starting {package.spec} with npx (installing it first if needed)")
        else:
            venv = scratch / "venv"
            step(f"creating a temporary venv for {package.spec}")
            await _run(
                [sys.executable, "-m", "venv", str(venv)], env=_allowed(environ), cwd=scratch, timeout=120, what="venv"
            )
            bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
            before = {p.name for p in bin_dir.iterdir()}
            step(f"installing {package.spec} from wheels into it")
            pip_env = {**_allowed(environ), **{k: environ[k] for k in _PIP_SETTINGS if k in environ}}
            await _run(
                [
                    str(bin_dir / "python"),
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--no-input",
                    "--disable-pip-version-check",
                    "--only-binary",
                    ":all:",
                    package.spec,
                ],
                env=pip_env,
                cwd=scratch,
                timeout=install_timeout,
                what=f"pip install {package.spec}",
            )
            command, args = str(_command_of(bin_dir, package, before)), arguments
            timeout = start_timeout
            step(f"starting {package.spec}")
        spec = StdioTransport(command=command, args=tuple(args), env={}, cwd=str(scratch))
        async with connect(spec, server=config.name, env=env, startup_timeout=timeout) as connection:
            step(f"listing the tools of {package.spec}")
            tools = await connection.list_all("tools/list", "tools", timeout=start_timeout)
            info = connection.info
    label = f"{info.name} {info.version}".strip() if info else None
    shown = " ".join([Path(command).name if package.registry_type == "pypi" else "npx", *args])
    return Trial(tools=tools, server=label, command=shown)
