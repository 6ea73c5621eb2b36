"""The poisoning scans of tool definitions the gateway keeps in its store, for its next start.

A relaunched gateway whose upstreams list what they listed before takes their definitions' scans from its store
(`hintgate.scan.verdicts` says what makes one safe to take): it neither scans them nor builds the scan's patterns
before its first listing. The scans it makes are written back as they are made, off the catalog's path, and a
failure to write one costs only a scan at the next start.

Once a start has listed (`prune`, after the first listing is out), the store's verdicts of other rules versions
are deleted, and, when every server listed, those of the definitions none of them listed this time: a server
that changed its tools leaves no verdicts behind that only the bound (`KEPT_AT_MOST`) would end. Deleting one
costs a scan at most, never a verdict served that should not be.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from hintgate.scan.verdicts import KEPT_AT_MOST, read_verdict, rules_version, verdict_text
from hintgate.server.flushes import BackgroundFlushes

if TYPE_CHECKING:
    from hintgate.scan.findings import ScanFinding
    from hintgate.store import Store

__all__ = ["KeptScans"]

logger = logging.getLogger(__name__)


class KeptScans:
    """The stored scans under the current rules, by definition key, and the new ones not yet written.

    Args:
        store: where they are kept; None keeps nothing (every start scans).
    """

    def __init__(self, store: Store | None) -> None:
        self._store = store
        self._store_coming = False  # read ahead of the store: new scans wait for it (`attach`)
        self._stored: dict[str, str] = {}
        self._pending: dict[str, str] = {}
        self._listed: set[str] = set()  # the definitions asked for since the start (`prune` keeps theirs)
        self._flushes = BackgroundFlushes(self.flush)
        self._lock = asyncio.Lock()
        self._rules = _current_rules() if store is not None else None

    def load_rows(self, rows: Mapping[str, str], *, store_coming: bool = False) -> None:
        """Take the verdicts read ahead of the store (`hintgate.stored_state`), made under the current rules.

        With `store_coming` the scans made from now on wait for the store `attach` gives later.
        """
        self._rules = self._rules or _current_rules()
        self._stored = dict(rows) if self._rules is not None else {}
        self._store_coming = store_coming

    async def load(self) -> None:
        """Read the verdicts made under the current rules from the store (a failure: none are taken)."""
        if self._store is None or self._rules is None:
            return
        try:
            self._stored = await self._store.scan_verdicts.under(self._rules)
        except Exception as exc:
            logger.warning("reading scan verdicts from the store failed (the definitions are scanned): %s", exc)

    def get(self, key: str | None) -> tuple[list[ScanFinding], frozenset[str]] | None:
        """The scan stored for the definition of `key`, under the current rules; None: it must be scanned."""
        if key is None:
            return None
        self._listed.add(key)
        text = self._stored.get(key)
        return read_verdict(text) if text is not None else None

    def put(self, key: str | None, findings: Iterable[ScanFinding], words: Iterable[str]) -> None:
        """Keep a scan just made of the definition of `key` (`scan_tool(raw)`, `named_words(raw)`); one that did not
        finish is not kept."""
        if key is None or self._rules is None or (self._store is None and not self._store_coming):
            return
        self._listed.add(key)
        text = verdict_text(findings, words)
        if text is None or self._stored.get(key) == text:
            return
        self._stored.pop(key, None)  # a key kept again is the newest
        self._stored[key] = text
        while len(self._stored) > KEPT_AT_MOST:  # the oldest go first, as in the store
            del self._stored[next(iter(self._stored))]
        self._pending[key] = text
        while len(self._pending) > KEPT_AT_MOST:
            del self._pending[next(iter(self._pending))]
        if self._store is None:
            return
        self._flushes.start()

    async def attach(self, store: Store) -> None:
        """Keep the scans in `store` from now on; those made meanwhile are written now."""
        self._store, self._store_coming = store, False
        self._rules = self._rules or _current_rules()
        await self.flush()

    async def flush(self) -> None:
        """Write the scans not yet written; a failure is logged and they are kept for the next try."""
        if self._store is None or self._rules is None:
            return
        async with self._lock:
            if not self._pending:
                return
            pending, self._pending = self._pending, {}
            try:
                await self._store.scan_verdicts.save(self._rules, pending, at_most=KEPT_AT_MOST)
            except Exception as exc:
                logger.warning("writing scan verdicts to the store failed (retried at the next scan): %s", exc)
                self._pending = {**pending, **self._pending}

    async def prune(self, *, every_server_listed: bool) -> None:
        """Delete the stored verdicts of other rules versions and, when `every_server_listed`, those of the
        definitions not listed since the start (in the store and here); a failure is logged, nothing else."""
        if self._store is None or self._rules is None:
            return
        async with self._lock:  # not between a flush's choice of what to write and its writing
            listed = frozenset(self._listed) if every_server_listed else None
            try:
                deleted = await self._store.scan_verdicts.prune(self._rules, listed)
            except Exception as exc:
                logger.warning("pruning the scan verdicts kept in the store failed (they stay): %s", exc)
                return
            if listed is not None:
                self._stored = {key: text for key, text in self._stored.items() if key in listed}
        if deleted:
            logger.info("%d scan verdicts no longer needed deleted from the store", deleted)

    async def close(self) -> None:
        """Write what is pending."""
        await self._flushes.close()


def _current_rules() -> str | None:
    """The scan's rules version; None (nothing taken, nothing kept) when its files cannot be read."""
    try:
        return rules_version()
    except OSError as exc:
        logger.warning("scan verdicts are not kept: the version of the scan's rules cannot be read: %s", exc)
        return None
