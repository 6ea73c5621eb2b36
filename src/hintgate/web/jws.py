"""A signed JWT in compact form (`HEADER.PAYLOAD.SIGNATURE`), read and its signature checked.

A person's first request to the gateway pays for one signature check. PyJWT's
general `jwt.decode` cost about twice the RSA verification itself (150 µs
against 36 µs on the shared 2-core machine): it checks every character of each
segment in a Python loop and merges its options on every call. Here the
segments are checked by one regular expression and decoded with `base64`; the
claims are left to the caller (`hintgate.web.identity`), which knows which it
requires. The issuer's keys are read from its JWKS by `hintgate.web.jwk`, once
per fetch.

RS256, RS384 and RS512 (RSASSA-PKCS1-v1_5, what nearly every issuer signs
with) are verified here with `pow` and `hashlib`, exactly as RFC 8017 §8.2.2
prescribes: the signature is raised to the public exponent and the result
compared, in constant time, with the one encoding the expected digest may
have. Nothing is parsed out of the decrypted block, so none of the forgeries
that lenient parsers let through (garbage after the digest, short padding, a
DigestInfo with extra fields) can verify. The `cryptography` package (8.7 MB
of a gateway's memory) is imported only for PS*, ES* and EdDSA, with the first
such token.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.web.jwk import RsaPublicKey

__all__ = ["CompactJws", "read_compact", "signature_verifies"]

_COMPACT = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")  # an unsigned token (alg none) ends in "."
_DIGEST_INFO = {
    "256": ("sha256", bytes.fromhex("3031300d060960864801650304020105000420")),
    "384": ("sha384", bytes.fromhex("3041300d060960864801650304020205000430")),
    "512": ("sha512", bytes.fromhex("3051300d060960864801650304020305000440")),
}
"""Each hash's name and the DER of its DigestInfo up to the digest (RFC 8017 §9.2, note 1)."""
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
    """Whether `key` made `jws`'s signature with `alg`.

    `key` is what `hintgate.web.jwk` reads: an `RsaPublicKey` for RSA, a
    `cryptography` public key for EC and OKP. False as well when the key does
    not fit the algorithm (an RSA key for ES256, a P-384 key for ES256) or the
    algorithm is not one of the public-key ones.
    """
    family, bits = alg[:2], alg[2:]
    if family == "RS" and bits in _DIGEST_INFO:
        return isinstance(key, RsaPublicKey) and _pkcs1_v15_verifies(key, jws.signing_input, jws.signature, bits)
    if (family in ("PS", "ES") and bits in _DIGEST_INFO) or alg == "EdDSA":
        return _verifies_with_cryptography(jws, family, bits, key)
    return False


def _pkcs1_v15_verifies(key: RsaPublicKey, message: bytes, signature: bytes, bits: str) -> bool:
    """RSASSA-PKCS1-V1_5-VERIFY (RFC 8017 §8.2.2), the encoded message built and compared, never parsed."""
    k = key.size
    if len(signature) != k:  # step 1
        return False
    s = int.from_bytes(signature, "big")  # OS2IP
    if s >= key.n:  # RSAVP1's range check
        return False
    em = pow(s, key.e, key.n).to_bytes(k, "big")  # I2OSP(m, k): m < n, so it fits
    name, digest_info = _DIGEST_INFO[bits]
    t = digest_info + hashlib.new(name, message).digest()  # EMSA-PKCS1-V1_5-ENCODE (§9.2)
    padding = k - len(t) - 3
    if padding < 8:  # "intended encoded message length too short"
        return False
    expected = b"\x00\x01" + b"\xff" * padding + b"\x00" + t
    return hmac.compare_digest(em, expected)


def _verifies_with_cryptography(jws: CompactJws, family: str, bits: str, key: Any) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    data, signature = jws.signing_input, jws.signature
    try:
        if family == "PS" and isinstance(key, RsaPublicKey):
            sha, pss = _hashes(bits)
            _rsa_key(key).verify(signature, data, pss, sha)
        elif family == "ES" and isinstance(key, ec.EllipticCurvePublicKey):
            if key.curve.name != _CURVES[bits]:
                return False
            size = (key.curve.key_size + 7) // 8
            if len(signature) != 2 * size:  # r and s, each the curve's size, big-endian (RFC 7518 §3.4)
                return False
            r, s = int.from_bytes(signature[:size], "big"), int.from_bytes(signature[size:], "big")
            key.verify(encode_dss_signature(r, s), data, ec.ECDSA(_hashes(bits)[0]))
        elif family == "Ed" and isinstance(key, ed25519.Ed25519PublicKey | ed448.Ed448PublicKey):
            key.verify(signature, data)
        else:
            return False
    except InvalidSignature:
        return False
    return True


@functools.cache
def _hashes(bits: str) -> tuple[Any, Any]:
    """SHA-`bits` as a `cryptography` hash, and PSS padding with it (salt the digest's length, RFC 7518 §3.5)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    sha: Any = {"256": hashes.SHA256(), "384": hashes.SHA384(), "512": hashes.SHA512()}[bits]
    return sha, padding.PSS(mgf=padding.MGF1(sha), salt_length=sha.digest_size)


@functools.lru_cache(maxsize=64)
def _rsa_key(key: RsaPublicKey) -> Any:
    """`key` as a `cryptography` public key, made once per key (PS* tokens)."""
    from cryptography.hazmat.primitives.asymmetric import rsa

    return rsa.RSAPublicNumbers(key.e, key.n).public_key()
