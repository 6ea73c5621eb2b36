"""An issuer's published signing key (a JWK, RFC 7517), read.

The identity section reads the keys an OpenID issuer publishes in its JWKS.
Only public signing keys of the families a token may be signed with are read:
RSA (RFC 7518 §6.3.1), EC on P-256, P-384 and P-521 (§6.2.1, the point checked
to lie on its curve by `cryptography`), and OKP Ed25519, or Ed448 named `EdDSA` (RFC 8037). A
key with private parameters, a shared secret (`oct`), another type or curve, a
named algorithm of another family, or a malformed value is not read: its
tokens are refused. PyJWT's `PyJWK` read these before; it imports PyJWT's
whole set of algorithms with X.509 and the SSH key format (1.4 MB of a
gateway's memory) for what these few lines do.

An RSA key is kept as its two numbers (`RsaPublicKey`): RS256, the algorithm
nearly every issuer signs with, is checked by `hintgate.web.jws` with
`hashlib` and `pow`, so a gateway whose issuer signs with RSA never imports
`cryptography` (8.7 MB of its memory). An RSA key of fewer than 2048 bits is
not read (RFC 7518 §3.3 requires 2048), nor one of more than 16384 (what
OpenSSL verifies), nor a public exponent that is even, below 3 or over 64
bits. EC and OKP keys are read with `cryptography`, imported with the first
such key.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["FAMILY", "PublicJwk", "RsaPublicKey", "read_public_jwk"]

FAMILY = {
    **dict.fromkeys(("RS256", "RS384", "RS512", "PS256", "PS384", "PS512"), "RSA"),
    **dict.fromkeys(("ES256", "ES384", "ES512"), "EC"),
    "EdDSA": "OKP",
}
"""The key type (`kty`) each accepted signing algorithm signs with."""
_CURVES = {"P-256": ("SECP256R1", 32), "P-384": ("SECP384R1", 48), "P-521": ("SECP521R1", 66)}
"""An EC key's curve (its `cryptography` class) and the length of each coordinate in bytes (RFC 7518 §6.2.1.2)."""
_EDWARDS = ("Ed25519", "Ed448")
_RSA_BITS = (2048, 16384)
"""The sizes of RSA modulus read: RFC 7518 §3.3's least, and the most OpenSSL verifies with."""
_RSA_EXPONENT_BITS = 64
"""The longest public exponent read (OpenSSL's bound for large moduli): `pow` costs in proportion to it."""
_PRIVATE = ("d", "p", "q", "dp", "dq", "qi", "oth", "k")
"""Parameters only a private or a symmetric key has: a published key holding one is not read."""


@dataclass(frozen=True, slots=True)
class RsaPublicKey:
    """An RSA public key's numbers (RFC 8017 §3.1), checked as `read_public_jwk` reads them.

    Attributes:
        n: the modulus: odd, of 2048 to 16384 bits.
        e: the public exponent: odd, at least 3, at most 64 bits.
    """

    n: int
    e: int

    @property
    def size(self) -> int:
        """The modulus's length in bytes (`k` in RFC 8017): the length of each signature."""
        return (self.n.bit_length() + 7) // 8


@dataclass(frozen=True, slots=True)
class PublicJwk:
    """A published key, read.

    Attributes:
        key_type: its `kty`: `RSA`, `EC` or `OKP`.
        key: an `RsaPublicKey` for RSA; the `cryptography` public key for EC and OKP.
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
            return _rsa(_number(entry.get("n")), _number(entry.get("e")))
        if kty == "EC":
            name, size = _CURVES[str(entry.get("crv"))]
            from cryptography.hazmat.primitives.asymmetric import ec

            x, y = _bytes(entry.get("x")), _bytes(entry.get("y"))
            if len(x) != size or len(y) != size:
                return None
            numbers = ec.EllipticCurvePublicNumbers(
                int.from_bytes(x, "big"), int.from_bytes(y, "big"), getattr(ec, name)()
            )
            return PublicJwk("EC", numbers.public_key())
        if kty == "OKP":
            crv = entry.get("crv")
            if crv not in _EDWARDS or (crv == "Ed448" and alg is None):
                return None  # as PyJWT read keys: unnamed, an OKP key is taken for Ed25519 only
            from cryptography.hazmat.primitives.asymmetric import ed448, ed25519

            edwards: Any = ed25519.Ed25519PublicKey if crv == "Ed25519" else ed448.Ed448PublicKey
            return PublicJwk("OKP", edwards.from_public_bytes(_bytes(entry.get("x"))))
    except (KeyError, TypeError, ValueError):
        return None
    return None


def _rsa(n: int, e: int) -> PublicJwk | None:
    low, high = _RSA_BITS
    if not low <= n.bit_length() <= high or n % 2 == 0:
        return None  # too short to trust, too long to check, or no RSA modulus (a product of two odd primes)
    if e < 3 or e % 2 == 0 or e.bit_length() > _RSA_EXPONENT_BITS or e >= n:
        return None  # what `cryptography` refused too (e odd, 3 <= e < n), and an exponent too long to raise to
    return PublicJwk("RSA", RsaPublicKey(n, e))
