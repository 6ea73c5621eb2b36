"""Reloading a running gateway's config file: on SIGHUP, and on change with `serve --watch`.

The file is read and validated whole first; a file with problems is reported
(each as `FILE:LINE:COL: key.path: ...`, as `hintgate config check` prints
them) and the servers keep running as they were. A good file is applied as a
difference, with the runtime changes laid over it again: unchanged servers
keep their process and connection (`hintgate.server.live`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from hintgate.config.loading import load_config
from hintgate.errors import ConfigError

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["ConfigReloader", "reloading"]

logger = logging.getLogger("hintgate")

WATCH_INTERVAL = 1.0
"""Seconds between two looks at the config file's modification time and size with `--watch`."""


def _fingerprint(path: Path) -> str | None:
    """The SHA-256 of the file's bytes, or None when it cannot be read (moved away mid-save)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


class ConfigReloader:
    """Reloads one gateway's config file and applies the difference."""

    def __init__(self, gateway: Gateway, path: Path) -> None:
        self.gateway = gateway
        self.path = path
        self.seen = _fingerprint(path)  # the content last read: a save that changes nothing is not a reload
        self._stamp = _stamp(path)

    async def reload(self, why: str) -> bool:
        """Read the file and run it; False when it has problems (logged) and nothing changed."""
        self.seen = _fingerprint(self.path)
        try:
            config = load_config(self.path)
        except ConfigError as exc:
            logger.error("%s: the config file has problems; the servers keep running as they were:\n%s", why, exc)
            return False
        try:
            diff = await self.gateway.server_set.reload_file(config)
        except Exception:
            logger.exception("%s: applying the config file failed", why)
            return False
        for warning in config.warnings:
            logger.warning("%s", warning)
        logger.info("%s: config reloaded from %s: %s", why, self.path, diff.describe())
        return True

    async def watch(self, interval: float = WATCH_INTERVAL) -> None:
        """Reload whenever the file's content changes (its mtime or size moved and its hash differs)."""
        while True:
            await asyncio.sleep(interval)
            stamp = _stamp(self.path)
            if stamp is None or stamp == self._stamp:
                continue
            self._stamp = stamp
            if _fingerprint(self.path) != self.seen:
                await self.reload("the config file changed")


@contextlib.asynccontextmanager
async def reloading(gateway: Gateway, *, watch: bool = False) -> AsyncIterator[ConfigReloader | None]:
    """While inside: SIGHUP reloads the gateway's config file, and with `watch` so does any change to it."""
    path = gateway.server_set.layered.file.source
    if path is None:  # --demo, --python: there is no file to reload
        yield None
        return
    reloader = ConfigReloader(gateway, Path(path))
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[object]] = set()

    def hangup() -> None:
        task: asyncio.Task[object] = loop.create_task(reloader.reload("SIGHUP"))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    signals = False
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError, AttributeError):  # Windows: no SIGHUP
        loop.add_signal_handler(signal.SIGHUP, hangup)
        signals = True
    if watch:
        watcher: asyncio.Task[object] = loop.create_task(reloader.watch())
        tasks.add(watcher)
    try:
        yield reloader
    finally:
        if signals:
            loop.remove_signal_handler(signal.SIGHUP)
        for task in list(tasks):
            task.cancel()
        for task in list(tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
