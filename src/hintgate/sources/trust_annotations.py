"""The trust-annotations extension (`io.modelcontextprotocol/trust-annotations`) on a tool's result.

Pure. The draft extension of the MCP Tool Annotations interest group lets a
result say what its content is: `untrusted` (someone else's words, which may
speak to the model) and `sensitive` (data not for every reader), two booleans
under `_meta[TRUST]` of the result and of any content block, with an
`evidenceRef` (`type`, `digest`, `canonicalization`, optional `schema`, `ref`)
that points at a record kept elsewhere. Absence is "no claim", never "false";
the claims are a union: a block may make the result's claim stronger, never
weaker, and once `true` a claim stays `true`.

- `claims` reads what an upstream says of its own result (every block and the
  result, united);
- `annotated` writes the gateway's account for a client that declared the
  extension: the upstream's claims kept, `untrusted: true` when the gateway
  takes the content as someone else's words (its source is untrusted or its
  tool reaches the open world, or the poisoning scan flagged it), and the scan's
  findings as evidence: an `evidenceRef` of type `hintgate/scan-findings.v1`
  whose digest is SHA-256 over the findings as they stand under
  `_meta["hintgate/findings"]`, canonicalized as RFC 8785 (JCS) says (the
  findings hold only strings, non-negative integers and null, where JCS is
  sorted keys and no whitespace), so a client can re-derive it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["EVIDENCE_TYPE", "TRUST", "Claims", "annotated", "claims", "jcs_digest"]

TRUST = "io.modelcontextprotocol/trust-annotations"
"""The extension's identifier: its capability key and the `_meta` key of its claims."""

EVIDENCE_TYPE = "hintgate/scan-findings.v1"
"""The `evidenceRef.type` of the poisoning scan's findings."""


@dataclass(frozen=True, slots=True)
class Claims:
    """What a result says of its content: true claims only (absence is no claim)."""

    untrusted: bool = False
    sensitive: bool = False

    def __or__(self, other: Claims) -> Claims:
        return Claims(self.untrusted or other.untrusted, self.sensitive or other.sensitive)

    def __bool__(self) -> bool:
        return self.untrusted or self.sensitive

    def said(self) -> str:
        """The claims in a phrase ("untrusted and sensitive")."""
        return " and ".join(
            name for name, value in (("untrusted", self.untrusted), ("sensitive", self.sensitive)) if value
        )


_NO_CLAIMS = Claims()


def _claims_of(meta: Any) -> Claims:
    if meta is None:  # most results and blocks have no `_meta`: no check against the Mapping ABC
        return _NO_CLAIMS
    annotation = meta.get(TRUST) if isinstance(meta, Mapping) else None
    if not isinstance(annotation, Mapping):
        return _NO_CLAIMS
    # Only `true` is a claim; anything else (false, a string, absent) claims nothing.
    return Claims(annotation.get("untrusted") is True, annotation.get("sensitive") is True)


def claims(result: Mapping[str, Any]) -> Claims:
    """What a result claims of itself: the union of its own `_meta[TRUST]` and every content block's."""
    found = _claims_of(result.get("_meta"))
    content = result.get("content")
    if isinstance(content, Sequence) and not isinstance(content, str):
        for block in content:
            if isinstance(block, Mapping) and (meta := block.get("_meta")) is not None:
                found = found | _claims_of(meta)
    return found


def jcs_digest(record: Any) -> str:
    """`sha256:` and the hex digest of `record` canonicalized as RFC 8785 says, for JSON without floats."""
    canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def annotated(
    result: Mapping[str, Any], *, untrusted: bool, upstream: Claims, findings: Sequence[Mapping[str, Any]] = ()
) -> dict[str, Any]:
    """`result` with the gateway's claims under `_meta[TRUST]`: the upstream's kept, `untrusted` added when the
    gateway takes the content as someone else's words, the findings as evidence. Unchanged with nothing to say."""
    united = upstream | Claims(untrusted=untrusted or bool(findings))
    if not united:
        return dict(result)
    annotation: dict[str, Any] = {}
    if united.untrusted:
        annotation["untrusted"] = True
    if united.sensitive:
        annotation["sensitive"] = True
    if findings:
        annotation["evidenceRef"] = {
            "type": EVIDENCE_TYPE,
            "digest": jcs_digest(list(findings)),
            "canonicalization": "jcs/rfc8785",
        }
    meta = result.get("_meta")
    return {**result, "_meta": {**(meta if isinstance(meta, Mapping) else {}), TRUST: annotation}}
