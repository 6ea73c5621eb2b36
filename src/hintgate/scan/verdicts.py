"""A definition's scan kept beyond the process: its key, the version of the rules that made it, its stored form.

A gateway keeps the scan of every tool definition it listed in its store (`hintgate.store.scan_verdicts`), keyed
by the SHA-256 of the definition exactly as it was listed (`definition_key`) and by the version of the scan's
rules (`rules_version`). A relaunched gateway whose upstreams list what they listed before takes their scans from
there: it neither scans those definitions nor builds the scan's patterns before its first listing (0.2-0.3 s of
CPU that a client launching it waits for on a busy machine).

What makes a kept verdict safe to serve as scanned:

- the key is the definition's whole JSON text as listed, keys in their order and every member (`_meta` too), not
  the pins' canonical form: whatever the scan reads of it, an equal key is the same input;
- the rules' version is a hash of everything the verdict depends on: the source of the scan's modules and of the
  modules they import (`RULES_FILES`; a test holds the list to what importing and running the scan loads), the
  RE2 binding's files, Python's version and its Unicode database. Any change to them is another version, and the
  verdicts of every other version are not read (the store deletes them as it writes new ones);
- a scan that did not finish (`UNSCANNED`: a deadline, a failure, a schema too deep) is no verdict and is never
  kept: the definition is scanned again at the next start;
- only the scan without the other servers' names is kept, with the words that could name one (`named_words`); a
  definition that names another server's tool is scanned again with them, as before.

Nothing here imports the scan (`hintgate.scan.findings` is its vocabulary alone): the stored state is read before
the gateway's modules load.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import sys
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from hintgate.scan.findings import SCAN_RULES, UNSCANNED, Level, ScanFinding

__all__ = [
    "KEPT_AT_MOST",
    "RULES_FILES",
    "VERDICT_CHARS_AT_MOST",
    "definition_key",
    "read_verdict",
    "rules_files",
    "rules_version",
    "verdict_text",
]

KEPT_AT_MOST = 20_000
"""How many definitions' scans are kept, in the store and in the gateway's memory: an upstream that lists new
definitions without end has the oldest kept scans replaced, never the table or the process grown."""

VERDICT_CHARS_AT_MOST = 65_536
"""The longest stored form of a scan that is kept; a longer one (a definition with a great many findings or words
that could name a tool) is not kept, and the definition is scanned again at the next start."""

_PACKAGE = Path(__file__).resolve().parent.parent  # hintgate/

RULES_FILES = (
    "__init__.py",
    "errors.py",
    "jsontext.py",
    "results.py",
    "hints/__init__.py",
    "hints/annotations.py",
    "hints/names.py",
    "hints/trust.py",
    "hints/inference",
    "scan",
)
"""What the scan's findings are made by, relative to the `hintgate` package (a directory: its `.py` and `.toml`
files): the scan's own modules and data, and every module of hintgate's that they import."""


def rules_files() -> list[Path]:
    """The files of `RULES_FILES`, each once, in a fixed order."""
    found: list[Path] = []
    for name in RULES_FILES:
        path = _PACKAGE / name
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts)
        else:
            found.append(path)
    return found


def _binding_files() -> Iterator[str]:
    """The RE2 binding's files by name, size and modification time (hashing its library would cost more)."""
    spec = importlib.util.find_spec("re2")
    if spec is None or spec.origin is None:
        yield "no re2"
        return
    for path in sorted(Path(spec.origin).parent.iterdir()):
        if path.is_file():
            stat = path.stat()
            yield f"{path.name} {stat.st_size} {stat.st_mtime_ns}"


@functools.cache
def rules_version() -> str:
    """The version of the scan's rules: the SHA-256 of the scan's sources, the RE2 binding, Python and Unicode.

    Raises:
        OSError: a file of the scan's cannot be read (the caller keeps no verdicts then).
    """
    digest = hashlib.sha256()
    digest.update(f"{sys.version}\0{unicodedata.unidata_version}\0".encode())
    for line in _binding_files():
        digest.update(f"{line}\0".encode())
    for path in rules_files():
        content = path.read_bytes()
        digest.update(f"{path.relative_to(_PACKAGE).as_posix()}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


def definition_key(raw: Mapping[str, Any]) -> str | None:
    """The SHA-256 of a definition's JSON text as it was listed (keys in their order); None when it is no JSON."""
    try:
        text = json.dumps(raw, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def verdict_text(findings: Iterable[ScanFinding], words: Iterable[str]) -> str | None:
    """The stored form of `scan_tool(raw)` and `named_words(raw)`; None when the scan did not finish (`UNSCANNED`),
    a finding is not a definition's (it has a location in a JSON value) or the form is longer than
    `VERDICT_CHARS_AT_MOST`."""
    kept = []
    for finding in findings:
        if finding.code == UNSCANNED or finding.location is not None:
            return None
        kept.append(
            {
                "code": finding.code,
                "message": finding.message,
                "path": finding.path,
                "start": finding.start,
                "end": finding.end,
                "tool": finding.tool,
                "severity": None if finding.severity is None else finding.severity.value,
                "decoded": finding.decoded,
                "phrase": finding.phrase,
            }
        )
    text = json.dumps({"findings": kept, "words": sorted(words)}, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= VERDICT_CHARS_AT_MOST else None


def read_verdict(text: str) -> tuple[list[ScanFinding], frozenset[str]] | None:
    """The findings and named words of a stored verdict (`verdict_text`); None when it does not read as one."""

    try:
        value = json.loads(text)
        findings = []
        for item in value["findings"]:
            code, severity = item["code"], item["severity"]
            if code not in SCAN_RULES or code == UNSCANNED:
                return None
            fields = (item["message"], item["path"], item["start"], item["end"], item["tool"])
            if not (isinstance(fields[0], str) and isinstance(fields[1], str)):
                return None
            if not (type(fields[2]) is int and type(fields[3]) is int and isinstance(fields[4], str | None)):
                return None
            findings.append(
                ScanFinding(
                    code,
                    *fields,
                    severity=None if severity is None else Level(severity),
                    decoded=_text_or_none(item["decoded"]),
                    phrase=_text_or_none(item["phrase"]),
                )
            )
        words = value["words"]
        if not (isinstance(words, list) and all(isinstance(word, str) for word in words)):
            return None
        return findings, frozenset(words)
    except (ValueError, TypeError, KeyError):
        return None


def _text_or_none(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"not a text: {value!r}")
