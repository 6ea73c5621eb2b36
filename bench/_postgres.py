"""A throwaway PostgreSQL server for the store's tests and benchmarks.

Uses the server binaries of Debian's `postgresql` package
(`/usr/lib/postgresql/*/bin`, else `initdb` and `pg_ctl` on PATH): `initdb`
into a temporary directory, trust authentication, listening on 127.0.0.1 on a
free port with its unix socket in that directory. PostgreSQL refuses to run as
root, so as root the directory is handed to the `postgres` user and the server
commands run through `runuser`. Every wait is bounded.

Imported by `tests/store/conftest.py` (which puts `bench/` on `sys.path`) and
by `bench/store_throughput.py`; it is test infrastructure, not part of the package.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["PostgresServer", "find_bin_dir", "running"]

TIMEOUT = 30
"""Seconds any server command may take."""


def find_bin_dir() -> Path | None:
    """The directory holding `initdb` and `pg_ctl`, newest version first; `None` when PostgreSQL is absent."""
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    for directory in candidates:
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PostgresServer:
    """One running server; `url()` gives a database on it."""

    def __init__(self, bin_dir: Path, root: Path, port: int, user: str | None) -> None:
        self.bin_dir = bin_dir
        self.root = root
        self.port = port
        self._user = user
        self._databases = 0

    @property
    def data(self) -> Path:
        return self.root / "data"

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        argv = [str(self.bin_dir / command[0]), *command[1:]]
        if self._user is not None:
            argv = ["runuser", "-u", self._user, "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT + 10, check=False)

    def _check(self, result: subprocess.CompletedProcess[str], what: str) -> None:
        if result.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{what} failed ({result.returncode}): {result.stderr.strip()}\n{tail}")

    def start(self, *, durable: bool) -> None:
        """initdb, then start the server and wait until it accepts connections."""
        self._check(
            self._run(
                "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                "-E", "UTF8", "--no-locale", "--no-sync",
            ),
            "initdb",
        )  # fmt: skip
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root}"
        if not durable:  # tests only: a crashed test server is thrown away anyway
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._check(
            self._run(
                "pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"),
                "-o", options, "-w", "-t", str(TIMEOUT), "start",
            ),
            "pg_ctl start",
        )  # fmt: skip

    def stop(self) -> None:
        """Stop the server (fast shutdown), waiting at most `TIMEOUT` seconds."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", str(TIMEOUT), "stop")

    def url(self, database: str = "postgres") -> str:
        """A `postgresql://` URL for `database` on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "hintgate") -> str:
        """Create a fresh, empty database and return its URL."""
        self._databases += 1
        name = f"{prefix}_{self._databases}"
        result = subprocess.run(
            [str(self.bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        self._check(result, f"createdb {name}")
        return self.url(name)


@contextmanager
def running(bin_dir: Path, *, durable: bool = False) -> Iterator[PostgresServer]:
    """A server running for the duration of the block, then stopped and deleted.

    Args:
        bin_dir: from `find_bin_dir`.
        durable: keep fsync on (benchmarks); tests turn it off for speed.
    """
    # Under /tmp with mode 0755 so that the postgres user can reach it when we are root.
    root = Path(tempfile.mkdtemp(prefix="hintgate-pg-", dir="/tmp"))
    root.chmod(0o755)
    user = None
    if os.geteuid() == 0:
        user = "postgres"
        shutil.chown(root, user, user)
    server = PostgresServer(bin_dir, root, _free_port(), user)
    try:
        server.start(durable=durable)
        yield server
    finally:
        server.stop()
        _remove_later(root)


def _remove_later(root: Path) -> None:
    """Delete the server's files in a detached `rm`, so that whoever stopped the server need not wait.

    A test session creates a database per test: hundreds of directories of a few hundred files each.
    Deleting them took over 100 s on a loaded machine, inside the last test's teardown (and its timeout).
    """
    # The shell puts `rm` in the background and exits at once: nothing is left for this process to reap.
    subprocess.run(
        ["sh", "-c", 'rm -rf -- "$1" &', "sh", str(root)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        timeout=TIMEOUT,
        check=False,
    )
