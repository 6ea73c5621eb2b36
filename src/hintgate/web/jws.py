"""A signed JWT in compact form (`HEADER.PAYLOAD.SIGNATURE`), read and its signature checked with `cryptography`.

A person's first request to the gateway pays for one signature check. PyJWT's
general `jwt.decode` cost about twice the RSA verification itself (150 µs
against 36 µs on the shared 2-core machine): it checks every character of each
segment in a Python loop and merges its options on every call. Here the
segments are checked by one regular expression, decoded with `base64`, and
the signature goes to the key's own `verify` with padding and hash objects
made once; the claims are left to the caller (`hintgate.web.identity`), which
knows which it requires. The issuer's keys are still read from its JWKS by
`hintgate.web.jwk`, once per fetch.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

__all__ = ["CompactJws", "read_compact", "signature_verifies"]

_COMPACT = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")  # an unsigned token (alg none) ends in "."
_SHA = {"256": hashes.SHA256(), "384": hashes.SHA384(), "512": hashes.SHA512()}
_PKCS1 = padding.PKCS1v15()
_PSS = {bits: padding.PSS(mgf=padding.MGF1(h), salt_length=h.digest_size) for bits, h in _SHA.items()}
_ECDSA = {bits: ec.ECDSA(h) for bits, h in _SHA.items()}
_CURVES = {"256": "secp256r1", "384": "secp384r1", "512": "secp521r1"}
"""The curve each ES algorithm is defined on (RFC 7518 §3.4): ES256 on another curve is refused."""


@dataclass(frozen=True, slots=True)
class CompactJws:
    """A token's parts, decoded; nothing about it is verified yet.

    Attributes:
        header: the protected header (a JSON object).
        claims: the payload (a JSON object: the JWT's claims).
        signing_input: `HEADER.PAYLOAD` as sent: what the signature covers.
        signature: the signature's bytes.
    """

    header: Mapping[str, Any]
    claims: Mapping[str, Any]
    signing_input: bytes
    signature: bytes


def _decoded(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def read_compact(token: str) -> CompactJws | None:
    """A compact JWS's decoded parts, or None when `token` is not one (or its header or payload is no JSON object)."""
    if not _COMPACT.fullmatch(token):
        return None
    head, body, signature = token.split(".")
    try:
        header = json.loads(_decoded(head))
        claims = json.loads(_decoded(body))
        signed = _decoded(signature)
    except (binascii.Error, ValueError):  # a segment of impossible length, or bytes that are not JSON
        return None
    if not isinstance(header, dict) or not isinstance(claims, dict):
        return None
    return CompactJws(header, claims, f"{head}.{body}".encode("ascii"), signed)


def signature_verifies(jws: CompactJws, alg: str, key: Any) -> bool:
    """Whether `key` (a `cryptography` public key) made `jws`'s signature with `alg`.

    False as well when the key does not fit the algorithm (an RSA key for ES256,
    a P-384 key for ES256) or the algorithm is not one of the public-key ones.
    """
    family, bits = alg[:2], alg[2:]
    data, signature = jws.signing_input, jws.signature
    try:
        if family in ("RS", "PS") and bits in _SHA and isinstance(key, rsa.RSAPublicKey):
            key.verify(signature, data, _PKCS1 if family == "RS" else _PSS[bits], _SHA[bits])
        elif family == "ES" and bits in _SHA and isinstance(key, ec.EllipticCurvePublicKey):
            if key.curve.name != _CURVES[bits]:
                return False
            size = (key.curve.key_size + 7) // 8
            if len(signature) != 2 * size:  # r and s, each the curve's size, big-endian (RFC 7518 §3.4)
                return False
            r, s = int.from_bytes(signature[:size], "big"), int.from_bytes(signature[size:], "big")
            key.verify(encode_dss_signature(r, s), data, _ECDSA[bits])
        elif alg == "EdDSA" and isinstance(key, ed25519.Ed25519PublicKey | ed448.Ed448PublicKey):
            key.verify(signature, data)
        else:
            return False
    except InvalidSignature:
        return False
    return True
