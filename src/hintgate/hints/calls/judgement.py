"""What one call does, judged from its arguments: a read, an additive write or a destructive one, and why.

Pure. A `Judgement` is the verdict of one argument judge (SQL, a shell
command, a program's argv, an HTTP method, an action's value, a flag) on one
call: its act, the four hints that act implies, a sentence a person reads
("2 statements: DELETE FROM users WHERE …; destructive") and the rule that
judged (`sql`, `shell`, `argv.git`, `http.method`, `action`, `flag.force`).
Several judgements of one call combine into the riskiest.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hintgate.hints.annotations import Hint

__all__ = ["Act", "Judgement", "riskiest", "shorten"]


class Act(enum.IntEnum):
    """What a call does to its environment, from safest to riskiest (the MCP spec's definitions)."""

    READ = 0
    """Modifies nothing (readOnlyHint true)."""
    ADDITIVE = 1
    """Only adds: inserts, creates, appends (readOnlyHint false, destructiveHint false)."""
    DESTRUCTIVE = 2
    """Updates, deletes, overwrites, runs what it cannot see into, or could not be read (destructiveHint true)."""

    @classmethod
    def of(cls, *, read_only: bool, destructive: bool) -> Act:
        """The act of a call with these hints (read-only wins; then destructive or not)."""
        if read_only:
            return cls.READ
        return cls.DESTRUCTIVE if destructive else cls.ADDITIVE

    @property
    def label(self) -> str:
        """The word people read: read-only, additive, destructive."""
        return _LABELS[self]


_LABELS = {Act.READ: "read-only", Act.ADDITIVE: "additive", Act.DESTRUCTIVE: "destructive"}


@dataclass(frozen=True, slots=True)
class Judgement:
    """One judge's verdict on one call.

    Attributes:
        act: what the call does.
        what: what the call does, in a phrase for people ("DELETE FROM users WHERE …").
        rule: the judge that decided (`sql`, `shell`, `argv.git`, `http.method`, `action`, `flag.force`...).
        idempotent: whether repeating the call has no further effect, when the judge can tell
            (a read always; `None`: not known, which counts as not idempotent).
        open_world: whether the call reaches beyond the gateway's host (a URL, a remote, the network),
            when the judge can tell (`None`: the tool's static hint stands).
    """

    act: Act
    what: str
    rule: str
    idempotent: bool | None = None
    open_world: bool | None = None

    @property
    def reason(self) -> str:
        """What the call does and what that makes it: "DELETE FROM users WHERE …; destructive"."""
        return f"{self.what}; {self.act.label}"

    def hints(self) -> Mapping[Hint, bool]:
        """The hints this act implies; openWorld only when the judge could tell."""
        read = self.act is Act.READ
        values = {
            Hint.READ_ONLY: read,
            Hint.DESTRUCTIVE: self.act is Act.DESTRUCTIVE,
            Hint.IDEMPOTENT: True if read else bool(self.idempotent),
        }
        if self.open_world is not None:
            values[Hint.OPEN_WORLD] = self.open_world
        return values


def riskiest(judgements: Iterable[Judgement], *, what: str | None = None, rule: str | None = None) -> Judgement:
    """Several judgements of one call as one: the riskiest act, idempotent only if all are, open if any is.

    Args:
        judgements: at least one judgement.
        what: the phrase of the whole (default: the phrases of the riskiest parts, joined).
        rule: the rule of the whole (default: the riskiest part's).

    Raises:
        ValueError: when `judgements` is empty.
    """
    parts = list(judgements)
    if not parts:
        raise ValueError("riskiest() needs at least one judgement")
    worst = max(parts, key=lambda j: j.act)
    idempotent: bool | None = True
    open_world: bool | None = None
    for part in parts:
        if part.act is not Act.READ and part.idempotent is not True:
            idempotent = None if idempotent is None or part.idempotent is None else False
        if part.open_world:
            open_world = True
        elif part.open_world is False and open_world is None:
            open_world = False
    if what is None:
        shown = [p.what for p in parts if p.act is worst.act]
        what = "; ".join(dict.fromkeys(shown))
    return Judgement(worst.act, what, rule or worst.rule, idempotent, open_world)


def shorten(text: str, limit: int = 80) -> str:
    """One line of at most `limit` characters: whitespace folded, an ellipsis where it was cut."""
    folded = " ".join(text.split())
    return folded if len(folded) <= limit else folded[: limit - 1].rstrip() + "…"
