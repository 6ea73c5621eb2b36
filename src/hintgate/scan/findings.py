"""What the poisoning scan reports: its rules, a finding with its level, and where a text is in a JSON value.

The vocabulary of `scan.poisoning`, without the scan: what holds, records, shows or acts on findings (the catalog's
quarantine, the result guard, the recorder, the store's kept scans) imports it from here, and the scan's modules and
patterns load only where a text is scanned.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["SCAN_RULES", "UNSCANNED", "Key", "Level", "Location", "ScanFinding", "ScanRule", "high_findings"]


class Level(enum.StrEnum):
    """How bad a scan finding is: `high` quarantines a tool in the gateway."""

    HIGH = "high"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class ScanRule:
    """A scan check: stable code, short id, level, one-line summary."""

    code: str
    id: str
    level: Level
    summary: str


SCAN_RULES: Mapping[str, ScanRule] = {
    rule.code: rule
    for rule in (
        ScanRule(
            "HG404",
            "confusable-name",
            Level.HIGH,
            "The tool name has letters drawn like Latin ones but from another script (Cyrillic, Greek).",
        ),
        ScanRule(
            "HG601",
            "invisible-characters",
            Level.HIGH,
            "Text the model reads carries invisible characters (zero-width, Unicode tags, stray variation selectors).",
        ),
        ScanRule(
            "HG602",
            "bidi-control",
            Level.HIGH,
            "Text the model reads carries bidirectional controls that make it display differently from what it says.",
        ),
        ScanRule(
            "HG603",
            "mixed-script-word",
            Level.WARNING,
            "A word mixes Latin letters with Cyrillic or Greek look-alikes.",
        ),
        ScanRule(
            "HG604",
            "disguised-text",
            Level.HIGH,
            "An order or a reach for secrets is hidden from people (encoded, in a comment, look-alike letters).",
        ),
        ScanRule(
            "HG605",
            "not-scanned",
            Level.HIGH,
            "Part of a text the model reads was not scanned (time, size or nesting past the scan's limits):"
            " it is treated as flagged.",
        ),
        ScanRule(
            "HG611",
            "model-instruction",
            Level.HIGH,
            "The text gives the model orders (ignore previous instructions, hide this from the user, do this first);"
            " high when they reach beyond the tool's job.",
        ),
        ScanRule(
            "HG612",
            "instruction-tag",
            Level.HIGH,
            "The text wraps content in a tag or role marker addressed to the model (<IMPORTANT>, SYSTEM:);"
            " high when it reaches beyond the tool's job.",
        ),
        ScanRule(
            "HG613",
            "secret-file-reference",
            Level.HIGH,
            "The text names a file that holds secrets (~/.ssh, id_rsa, ~/.aws, .netrc, an MCP client's config);"
            " high when the model is told to read or send it.",
        ),
        ScanRule(
            "HG614",
            "env-file-reference",
            Level.WARNING,
            "The text names a dotenv or credentials file (.env, credentials.json): fine in setup tools, odd elsewhere.",
        ),
        ScanRule(
            "HG615",
            "other-server-tool",
            Level.HIGH,
            "The text names a tool of another server in the catalog (shadowing: it tells the model how to use it).",
        ),
        ScanRule(
            "HG616",
            "covert-parameter",
            Level.HIGH,
            "A parameter is described as hidden, or is a free-text note that asks for other data.",
        ),
        ScanRule(
            "HG617",
            "exfiltration",
            Level.HIGH,
            "The text asks for secrets or the conversation, or for data sent to an outside address;"
            " high when it addresses the model.",
        ),
        ScanRule(
            "HG619",
            "order-to-model",
            Level.HIGH,
            "A sentence addresses the model (or its reader) and asks for something beyond the tool's job: another"
            " tool, a secret, the conversation, an outside address, what the user is told, or the approval flow.",
        ),
        ScanRule(
            "HG618",
            "other-tool-steering",
            Level.HIGH,
            "The text steers other tools (call or avoid them, change their arguments);"
            " high when it addresses the model.",
        ),
    )
}


@dataclass(frozen=True, slots=True)
class ScanFinding:
    """One hit: the code, what was found, and where (`path` into the tool, `start`:`end` in that text)."""

    code: str
    message: str
    path: str
    start: int
    end: int
    tool: str | None = None
    severity: Level | None = None
    """This finding's level when the text around it decides it (a secret path alone is a warning); else the rule's."""
    decoded: str | None = None
    """The text as the model reads it, when a disguise was undone (base64, rot13, look-alike letters, ...)."""
    phrase: str | None = None
    """The key of the phrase that matched (`scan.phrases`), for findings of a phrase."""
    location: Location | None = None
    """Where the text is in the JSON value scanned (`scan_result`, `scan_strings`), as steps; None for a tool's."""

    @property
    def key(self) -> str:
        """What found it: the phrase's key, else the code (what `scan_tool(without=...)` leaves out)."""
        return self.phrase if self.phrase is not None else self.code

    @property
    def rule(self) -> ScanRule:
        """The rule this finding is an instance of."""
        return SCAN_RULES[self.code]

    @property
    def level(self) -> Level:
        """The finding's level: `severity` when set, else the rule's."""
        return self.severity if self.severity is not None else self.rule.level

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out: dict[str, Any] = {
            "code": self.code,
            "rule": self.rule.id,
            "level": self.level.value,
            "tool": self.tool,
            "message": self.message,
            "span": {"path": self.path, "start": self.start, "end": self.end},
        }
        if self.decoded is not None:
            out["decoded"] = self.decoded
        return out


def high_findings(findings: Iterable[ScanFinding]) -> list[ScanFinding]:
    """The findings that quarantine a tool."""
    return [f for f in findings if f.level is Level.HIGH]


UNSCANNED = "HG605"
"""The code of a finding that marks text the scan did not read (`Level.HIGH`: it counts as flagged)."""


@dataclass(frozen=True, slots=True)
class Key:
    """A step of a `Location` naming a mapping's key itself: the key's text is read too (and replaced by redaction)."""

    name: str


Location = tuple["str | int | Key", ...]
"""Where a text is in a JSON value: its keys and indexes from the top, as they are (never rebuilt from a string)."""
