"""An issuer's published signing key (a JWK, RFC 7517), read into a `cryptography` public key.

The identity section reads the keys an OpenID issuer publishes in its JWKS.
Only public signing keys of the families a token may be signed with are read:
RSA (RFC 7518 §6.3.1), EC on P-256, P-384 and P-521 (§6.2.1, the point checked
to lie on its curve by `cryptography`), and OKP Ed25519, or Ed448 named `EdDSA` (RFC 8037). A
key with private parameters, a shared secret (`oct`), another type or curve, a
named algorithm of another family, or a malformed value is not read: its
tokens are refused. PyJWT's `PyJWK` read these before; it imports PyJWT's
whole set of algorithms with X.509 and the SSH key format (1.4 MB of a
gateway's memory) for what these few lines do.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa

__all__ = ["FAMILY", "PublicJwk", "read_public_jwk"]

FAMILY = {
    **dict.fromkeys(("RS256", "RS384", "RS512", "PS256", "PS384", "PS512"), "RSA"),
    **dict.fromkeys(("ES256", "ES384", "ES512"), "EC"),
    "EdDSA": "OKP",
}
"""The key type (`kty`) each accepted signing algorithm signs with."""
_CURVES = {"P-256": (ec.SECP256R1, 32), "P-384": (ec.SECP384R1, 48), "P-521": (ec.SECP521R1, 66)}
"""An EC key's curve and the length of each of its coordinates in bytes (RFC 7518 §6.2.1.2)."""
_EDWARDS = {"Ed25519": ed25519.Ed25519PublicKey, "Ed448": ed448.Ed448PublicKey}
_PRIVATE = ("d", "p", "q", "dp", "dq", "qi", "oth", "k")
"""Parameters only a private or a symmetric key has: a published key holding one is not read."""


@dataclass(frozen=True, slots=True)
class PublicJwk:
    """A published key, read.

    Attributes:
        key_type: its `kty`: `RSA`, `EC` or `OKP`.
        key: the `cryptography` public key.
    """

    key_type: str
    key: Any


def _bytes(value: Any) -> bytes:
    if not isinstance(value, str) or not value:
        raise ValueError("not a base64url string")
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except binascii.Error as exc:
        raise ValueError("not base64url") from exc


def _number(value: Any) -> int:
    return int.from_bytes(_bytes(value), "big")


def read_public_jwk(entry: Mapping[str, Any]) -> PublicJwk | None:
    """The public signing key `entry` (one JWK of a key set) describes, or None when it is not one this reads."""
    kty = entry.get("kty")
    alg = entry.get("alg")
    if alg is not None and (not isinstance(alg, str) or FAMILY.get(alg) != kty):
        return None  # an algorithm of another family, or none a token may be signed with
    if any(name in entry for name in _PRIVATE):
        return None
    try:
        if kty == "RSA":
            return PublicJwk("RSA", rsa.RSAPublicNumbers(_number(entry.get("e")), _number(entry.get("n"))).public_key())
        if kty == "EC":
            curve, size = _CURVES[str(entry.get("crv"))]
            x, y = _bytes(entry.get("x")), _bytes(entry.get("y"))
            if len(x) != size or len(y) != size:
                return None
            numbers = ec.EllipticCurvePublicNumbers(int.from_bytes(x, "big"), int.from_bytes(y, "big"), curve())
            return PublicJwk("EC", numbers.public_key())
        if kty == "OKP":
            if entry.get("crv") == "Ed448" and alg is None:
                return None  # as PyJWT read keys: unnamed, an OKP key is taken for Ed25519 only
            edwards: Any = _EDWARDS[str(entry.get("crv"))]
            return PublicJwk("OKP", edwards.from_public_bytes(_bytes(entry.get("x"))))
    except (KeyError, TypeError, ValueError):
        return None
    return None
