"""Compact JWS signatures checked with `cryptography` directly, against tokens PyJWT signs."""

from __future__ import annotations

import base64
import json
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from hintgate.web.jws import read_compact, signature_verifies

CLAIMS = {"iss": "https://issuer.example", "aud": "https://gw.example/mcp", "sub": "alice", "exp": 2_000_000_000}

RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
P256 = ec.generate_private_key(ec.SECP256R1())
P384 = ec.generate_private_key(ec.SECP384R1())
ED = ed25519.Ed25519PrivateKey.generate()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.mark.parametrize(
    ("alg", "key"),
    [("RS256", RSA_KEY), ("RS512", RSA_KEY), ("PS256", RSA_KEY), ("PS384", RSA_KEY), ("ES256", P256),
     ("ES384", P384), ("EdDSA", ED)],
)  # fmt: skip
def test_a_token_signed_with_each_public_key_algorithm_verifies_with_its_key_and_no_other(alg: str, key: Any) -> None:
    token = jwt.encode(CLAIMS, key, algorithm=alg)
    jws = read_compact(token)
    assert jws is not None
    assert jws.claims == CLAIMS
    assert signature_verifies(jws, alg, key.public_key())
    other = {RSA_KEY: rsa.generate_private_key(public_exponent=65537, key_size=2048)}.get(key, P256)
    if other is key:
        other = P384
    assert not signature_verifies(jws, alg, other.public_key())


def test_an_altered_payload_or_signature_does_not_verify() -> None:
    token = jwt.encode(CLAIMS, RSA_KEY, algorithm="RS256")
    head, _, signature = token.split(".")
    altered = read_compact(f"{head}.{b64(json.dumps({**CLAIMS, 'sub': 'mallory'}).encode())}.{signature}")
    flipped = read_compact(f"{token[:-2]}{'A' if token[-2] != 'A' else 'B'}{token[-1]}")
    assert altered is not None
    assert flipped is not None
    assert not signature_verifies(altered, "RS256", RSA_KEY.public_key())
    assert not signature_verifies(flipped, "RS256", RSA_KEY.public_key())


def test_a_key_of_the_wrong_kind_or_curve_for_the_algorithm_refuses_the_signature() -> None:
    es384 = read_compact(jwt.encode(CLAIMS, P384, algorithm="ES384"))
    rs = read_compact(jwt.encode(CLAIMS, RSA_KEY, algorithm="RS256"))
    assert es384 is not None
    assert rs is not None
    # An ES256 header on a P-384 signature: the algorithm fixes the curve.
    assert not signature_verifies(es384, "ES256", P384.public_key())
    assert not signature_verifies(rs, "ES256", RSA_KEY.public_key())
    assert not signature_verifies(rs, "HS256", RSA_KEY.public_key())
    assert not signature_verifies(rs, "none", RSA_KEY.public_key())


def test_an_ecdsa_signature_of_the_wrong_length_is_refused_not_read_as_der() -> None:
    es = read_compact(jwt.encode(CLAIMS, P256, algorithm="ES256"))
    assert es is not None
    head, body = es.signing_input.decode().split(".")
    der = P256.sign(es.signing_input, ec.ECDSA(hashes.SHA256()))  # valid DER, not the JWS form (r || s)
    as_der = read_compact(f"{head}.{body}.{b64(der)}")
    assert as_der is not None
    assert not signature_verifies(as_der, "ES256", P256.public_key())


@pytest.mark.parametrize(
    "token",
    ["", "a.b.c", "a.b", "a.b.c.d", "e30..", ".e30.", "e30.W10.AAAA", "W10.e30.AAAA", "eyJ.e30.AAAA", "e30 .e30.AAAA",
     "e30.e30.AA=A", "e30.e30.A"],
)  # fmt: skip
def test_what_is_not_a_compact_jws_with_two_json_objects_is_not_read(token: str) -> None:
    assert read_compact(token) is None
