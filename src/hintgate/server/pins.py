"""The gateway's tool pins: held in memory, kept in the store, shared by replicas and restarts.

`PinKeeper.observe` compares a catalog's tools with the pins (synchronously,
as the catalog is rebuilt) and queues what changed; `flush` writes it. Another
replica's or the CLI's writes are noticed through the store's `pins` counter
(`changed_elsewhere`). Without a store the pins live as long as the process.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from hintgate.hints.pins import ChangeKind, Pin, PinState, Reconciled, canonical_json, pin_hash, reconcile
from hintgate.server.flushes import BackgroundFlushes
from hintgate.sources.capabilities import ServesPrompts

if TYPE_CHECKING:
    from hintgate.sources.base import Source
    from hintgate.store import Store
    from hintgate.store.pins import Pins

__all__ = ["PinKeeper", "source_texts"]

logger = logging.getLogger("hintgate.server.pins")


class PinKeeper:
    """Every tool's pin by (server, tool), and the writes not yet in the store.

    Args:
        store: where pins are kept; None keeps them in memory only.
        manual: the servers whose new tools wait for an operator (`pin: manual`).
    """

    def __init__(self, store: Store | None, *, manual: frozenset[str] = frozenset()) -> None:
        self._store = store
        self.manual = manual
        self.launches: dict[str, str] = {}
        """Server → how the config in force starts it (`ServerConfig.launch`), set before each `observe`."""
        self.by_key: dict[tuple[str, str], Pin] = {}
        self._pending: list[Reconciled] = []
        self._touched: set[str] = set()
        self._version = 0
        self._store_coming = False  # read ahead of the store: changes are queued for it (`attach`)
        self._lock = asyncio.Lock()
        self._flushes = BackgroundFlushes(self.flush)
        self.fingerprints: dict[str, str] = {}
        """Public name → SHA-256 of the canonical form of the tool listed under it (as last observed)."""
        # Canonical forms by the definition object a source listed, kept from one listing to the next.
        self._forms: dict[int, tuple[Mapping[str, Any], str, str]] = {}
        self._next_forms: dict[int, tuple[Mapping[str, Any], str, str]] = {}

    async def load(self) -> None:
        """Read every pin from the store."""
        if self._store is None:
            return
        self.load_pins(await self._store.pins.all(), await self._store.pins.version())

    def load_pins(self, pins: Iterable[Pin], version: int, *, store_coming: bool = False) -> None:
        """Take the pins from the store's rows (read by the store, or ahead of it: `hintgate.stored_state`).

        With `store_coming` the changes seen from now on are queued for the store `attach` gives later.
        """
        self._version = version
        self.by_key = {p.key: p for p in pins}
        self._store_coming = store_coming

    async def attach(self, store: Store) -> bool:
        """Keep the pins in `store` from now on; the changes queued meanwhile are written at the next flush.

        Returns whether the store's pins changed since they were read ahead (another gateway or the CLI wrote
        them): they are then read again and the queued changes dropped, for they were judged against the
        pins read ahead; the caller rebuilds, which judges the listings again against the pins read now.
        """
        async with self._lock:  # no flush meanwhile: the queued changes are written, or dropped, after this
            current = await store.pins.version()
            self._store = store
            self._store_coming = False
            if current == self._version:
                return False
            self._pending.clear()
            await self.load()
        return True

    def all(self) -> list[Pin]:
        """Every tool's pin, by server and tool."""
        return sorted(self.by_key.values(), key=lambda p: p.key)

    def get(self, server: str, tool: str) -> Pin | None:
        """The pin of a server's tool (by the name the server lists it under), None when it has none."""
        return self.by_key.get((server, tool))

    async def seed(self, entries: Sequence[tuple[str, str, str]], *, actor: str) -> int:
        """Accept the definitions of a pins file (server, tool, canonical form); returns how many pins changed."""
        if self._store is not None:
            written = await self._store.pins.import_definitions(entries, actor=actor)
            await self.load()
            return len(written)
        now = datetime.now(UTC)
        count = 0
        for server, tool, definition in entries:
            pin = self.by_key.get((server, tool)) or Pin.unseen(server, tool, definition, at=now)
            imported = pin.with_accepted(definition, actor=actor, at=now)
            if not imported.same_as(pin):
                self.by_key[(server, tool)] = imported
                count += 1
        return count

    def fingerprint(self, raw: Mapping[str, Any]) -> str:
        """The SHA-256 of a listed definition's canonical form (kept by the object from one listing to the next)."""
        return self._form(raw)[1]

    def _form(self, raw: Mapping[str, Any]) -> tuple[str, str]:
        kept = self._forms.get(id(raw)) or self._next_forms.get(id(raw))
        if kept is None or kept[0] is not raw:  # the object is held, so an equal id is the same object
            definition = canonical_json(raw)
            kept = (raw, definition, pin_hash(definition))
        self._next_forms[id(raw)] = kept
        return kept[1], kept[2]

    def observe(
        self,
        listings: Mapping[str, Sequence[tuple[str, Mapping[str, Any]]]],
        *,
        flagged: Mapping[tuple[str, str], str] | None = None,
    ) -> Reconciled:
        """Compare running servers' tools with the pins; apply and queue the changes (see `reconcile`).

        `flagged`: (server, tool) → what the poisoning scan finds in the definition listed now.
        """
        touch = frozenset(listings) - self._touched
        found = reconcile(
            self.by_key,
            listings,
            now=datetime.now(UTC),
            manual=self.manual,
            touch=touch,
            form=self._form,
            flagged=flagged,
            launches=self.launches,
        )
        self.fingerprints = {public: self._form(raw)[1] for tools in listings.values() for public, raw in tools}
        self._forms, self._next_forms = self._next_forms, {}
        self._touched.update(listings)
        self._apply(found)
        return found

    def bound(self, servers: Collection[str]) -> dict[tuple[str, str], str]:
        """(server, tool) → the public name bound to it, for the pins of `servers` (whatever their state)."""
        return {key: p.name for key, p in self.by_key.items() if key[0] in servers}

    def bound_names(self) -> dict[str, tuple[str, str]]:
        """Public name → the (server, tool) it is bound to (it is given to that tool only)."""
        return {p.name: key for key, p in self.by_key.items()}

    def reviewed(self) -> dict[str, str]:
        """Public name → fingerprint of the definition an operator reviewed (and accepted, as it is)."""
        return {p.name: p.accepted_sha256 for p in self.by_key.values() if p.reviewed and p.accepted_sha256}

    def _apply(self, found: Reconciled) -> None:
        if not found.pins and not found.events:
            return
        for pin in found.pins:
            self.by_key[pin.key] = pin
        for event in found.events:
            if event.kind in (ChangeKind.CHANGED, ChangeKind.NEW):
                # The gateway logs the held tool once, with how to accept it (`CatalogKeeper.held_line`).
                logger.debug("%s: tool %r quarantined: %s", event.server, event.tool, event.detail)
            elif event.kind in (ChangeKind.RISKIER, ChangeKind.REMOVED):
                logger.warning("%s: tool %r %s: %s", event.server, event.tool, event.kind.value, event.detail or "")
            elif event.kind is ChangeKind.COSMETIC:  # accepted as it is: nothing to look at
                logger.info("%s: tool %r %s: %s", event.server, event.tool, event.kind.value, event.detail or "")
        if self._store is None and not self._store_coming:
            return
        self._pending.append(found)
        self._flushes.start()

    async def flush(self) -> None:
        """Write the queued changes, in order; a failure is logged and the changes kept for the next try."""
        if self._store is None:
            return
        async with self._lock:
            while self._pending:
                found = self._pending[0]
                try:
                    await self._store.pins.save(found.pins, found.events)
                except Exception as exc:
                    logger.warning("writing tool pins to the store failed (retried at the next change): %s", exc)
                    return
                self._pending.pop(0)
                self._version = await self._store.pins.version()

    async def changed_elsewhere(self) -> bool:
        """Whether another replica or the CLI wrote pins since the last read (one counter read); reloads if so."""
        if self._store is None or self._pending:
            return False
        async with self._lock:
            if await self._store.pins.version() == self._version:
                return False
            await self.load()
        return True

    async def accept(self, choose: Callable[[Pin], bool], *, actor: str, review: bool = True) -> list[Pin]:
        """Accept the definition last seen of the chosen pins that are held (and, with `review`, not yet reviewed)."""
        accepted = await self._decide(
            lambda pins: pins.accept(choose, actor=actor, review=review),
            lambda now: [
                p.accept(actor=actor, at=now)
                for p in self.by_key.values()
                if choose(p)
                and (p.state is PinState.QUARANTINED or p.accepted_sha256 != p.sha256 or (review and not p.reviewed))
            ],
        )
        for pin in accepted:
            # An operator's decision, routine: WARNING is kept for what needs one (a held tool, a riskier one).
            logger.info("%s: tool %r accepted by %s (%s)", pin.server, pin.tool, actor, pin.sha256[:16])
        return accepted

    async def block(self, choose: Callable[[Pin], bool], *, actor: str, reason: str = "") -> list[Pin]:
        """Keep the chosen quarantined pins blocked (an operator's recorded decision); they stay held."""
        blocked = await self._decide(
            lambda pins: pins.block(choose, actor=actor, reason=reason),
            lambda now: [
                p.block(actor=actor, at=now, reason=reason)
                for p in self.by_key.values()
                if choose(p) and p.state is PinState.QUARANTINED
            ],
        )
        for pin in blocked:
            logger.info("%s: tool %r kept blocked by %s (%s)", pin.server, pin.tool, actor, pin.sha256[:16])
        return blocked

    async def _decide(
        self, in_store: Callable[[Pins], Awaitable[list[Pin]]], in_memory: Callable[[datetime], list[Pin]]
    ) -> list[Pin]:
        """Take an operator's decision on pins: in the store when there is one (after what is queued is written),
        else on the pins held here as of now; the pins it changed replace the ones held."""
        await self.flush()
        if self._store is not None:
            async with self._lock:
                decided = await in_store(self._store.pins)
                self._version = await self._store.pins.version()
        else:
            decided = in_memory(datetime.now(UTC))
        for pin in decided:
            self.by_key[pin.key] = pin
        return decided

    def quarantined(self) -> dict[str, tuple[str, Callable[[], str]]]:
        """Public name → (reason, what makes its diff) of every quarantined pin (the diff when it is read)."""
        return {
            p.name: (p.reason or "quarantined", functools.partial(_diff_of, p))
            for p in self.by_key.values()
            if p.state is PinState.QUARANTINED
        }

    async def close(self) -> None:
        """Write what is queued."""
        await self._flushes.close()


def source_texts(source: Source) -> list[tuple[str, str]]:
    """What a source tells the model besides its tools: `instructions`, prompt and resource descriptions."""
    texts: list[tuple[str, str]] = []
    if not isinstance(source, ServesPrompts):
        return texts
    instructions = source.instructions
    if isinstance(instructions, str) and instructions:
        texts.append(("instructions", instructions))
    for kind, key in (("prompts", "name"), ("resources", "uri")):
        for item in source.prompts if kind == "prompts" else source.resources:
            if not isinstance(item, Mapping):
                continue
            where = f"{kind}.{item.get(key)}"
            if isinstance(item.get("description"), str):
                texts.append((f"{where}.description", item["description"]))
            for argument in item.get("arguments") or ():
                if isinstance(argument, Mapping) and isinstance(argument.get("description"), str):
                    texts.append((f"{where}.arguments.{argument.get('name')}.description", argument["description"]))
    return texts


def _diff_of(pin: Pin) -> str:
    return pin.diff
