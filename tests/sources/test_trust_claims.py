"""The trust-annotations extension's claims on a result: read as a union, written with the gateway's account."""

from __future__ import annotations

import hashlib

from hintgate.sources.trust_annotations import EVIDENCE_TYPE, TRUST, Claims, annotated, claims, jcs_digest


def test_a_blocks_claim_strengthens_the_results_and_only_true_is_a_claim() -> None:
    # The shape of the draft's worked case A5: no result-level claim, one block sensitive.
    result = {
        "content": [
            {"type": "text", "text": "public advisory"},
            {"type": "text", "text": "draft advisory", "_meta": {TRUST: {"sensitive": True}}},
        ],
        "_meta": {TRUST: {"untrusted": False}},
    }
    assert claims(result) == Claims(untrusted=False, sensitive=True)
    assert claims({"content": [], "_meta": {TRUST: {"untrusted": "yes"}}}) == Claims()


def test_the_gateways_annotation_keeps_the_upstreams_claims_and_never_weakens_them() -> None:
    out = annotated({"content": []}, untrusted=False, upstream=Claims(sensitive=True))
    assert out["_meta"][TRUST] == {"sensitive": True}
    assert annotated({"content": []}, untrusted=False, upstream=Claims()) == {"content": []}


def test_findings_are_evidence_whose_digest_is_the_jcs_sha256_of_the_findings() -> None:
    findings = [{"code": "HG611", "span": {"path": "content[0].text", "start": 0, "end": 5}, "tool": None}]
    out = annotated({"content": [], "_meta": {"x": 1}}, untrusted=False, upstream=Claims(), findings=findings)
    annotation = out["_meta"][TRUST]
    assert annotation["untrusted"] is True
    assert annotation["evidenceRef"]["type"] == EVIDENCE_TYPE
    assert out["_meta"]["x"] == 1
    # RFC 8785: keys sorted, no whitespace.
    canonical = b'[{"code":"HG611","span":{"end":5,"path":"content[0].text","start":0},"tool":null}]'
    assert annotation["evidenceRef"]["digest"] == "sha256:" + hashlib.sha256(canonical).hexdigest()
    assert jcs_digest(findings) == annotation["evidenceRef"]["digest"]
