"""An issuer's published keys read (RSA as its numbers, others as `cryptography` keys): what PyJWT read, and nothing it
should not."""

from __future__ import annotations

import base64
import json
import signal
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import jwt.algorithms
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa, x25519
from tests.cli.test_serve_imports import SERVE_AND_LIST_MODULES, loaded
from tests.processes import free_port

from hintgate.testing import running_gateway
from hintgate.web.jwk import RsaPublicKey, read_public_jwk
from oidc_peer import OidcIssuer

SPKI = (serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def published(public_key: Any) -> dict[str, Any]:
    """The JWK an issuer publishes for `public_key` (written by PyJWT)."""
    if isinstance(public_key, rsa.RSAPublicKey):
        return jwt.algorithms.RSAAlgorithm.to_jwk(public_key, as_dict=True)
    if isinstance(public_key, ec.EllipticCurvePublicKey):
        return jwt.algorithms.ECAlgorithm.to_jwk(public_key, as_dict=True)
    return jwt.algorithms.OKPAlgorithm.to_jwk(public_key, as_dict=True)


PUBLIC_KEYS = {
    "RSA": rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key(),
    "EC P-256": ec.generate_private_key(ec.SECP256R1()).public_key(),
    "EC P-384": ec.generate_private_key(ec.SECP384R1()).public_key(),
    "EC P-521": ec.generate_private_key(ec.SECP521R1()).public_key(),
    "Ed25519": ed25519.Ed25519PrivateKey.generate().public_key(),
    "Ed448": ed448.Ed448PrivateKey.generate().public_key(),
}


@pytest.mark.parametrize("kind", PUBLIC_KEYS)
def test_a_published_public_signing_key_reads_as_the_same_key_pyjwt_reads(kind: str) -> None:
    public_key = PUBLIC_KEYS[kind]
    entry = {**published(public_key), "kid": "k1", "use": "sig"}
    if kind == "Ed448":
        entry["alg"] = "EdDSA"  # unnamed, PyJWT took an OKP key for Ed25519 only
    read = read_public_jwk(entry)
    assert read is not None
    assert read.key_type == entry["kty"] == jwt.PyJWK(entry).key_type
    pyjwt_read = jwt.PyJWK(entry).key
    if kind == "RSA":
        numbers = public_key.public_numbers()
        assert read.key == RsaPublicKey(numbers.n, numbers.e)
        assert pyjwt_read.public_numbers() == numbers
    else:
        assert read.key.public_bytes(*SPKI) == public_key.public_bytes(*SPKI) == pyjwt_read.public_bytes(*SPKI)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _rsa_numbers(n: int, e: int) -> dict[str, Any]:
    return {"kty": "RSA", "n": _b64(n.to_bytes((n.bit_length() + 7) // 8, "big")), "e": _b64(e.to_bytes(9, "big"))}


def _not_read() -> dict[str, dict[str, Any]]:
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_public = published(rsa_key.public_key())
    n = rsa_key.public_key().public_numbers().n
    p256 = published(ec.generate_private_key(ec.SECP256R1()).public_key())
    x = int.from_bytes(base64.urlsafe_b64decode(p256["x"] + "=="), "big")
    return {
        "a private RSA key": jwt.algorithms.RSAAlgorithm.to_jwk(rsa_key, as_dict=True),
        "a private EC key": jwt.algorithms.ECAlgorithm.to_jwk(ec.generate_private_key(ec.SECP256R1()), as_dict=True),
        "a shared secret": {"kty": "oct", "k": _b64(b"s" * 32)},
        "an RSA key named for ES256": {**rsa_public, "alg": "ES256"},
        "an RSA key named for HS256": {**rsa_public, "alg": "HS256"},
        "an RSA key named for encryption": {**rsa_public, "alg": "RSA-OAEP"},
        "an algorithm that is not a name": {**rsa_public, "alg": ["RS256"]},
        "an RSA key without its modulus": {"kty": "RSA", "e": rsa_public["e"]},
        "an RSA exponent that is a number": {**rsa_public, "e": 65537},
        "a modulus that is not base64url": {**rsa_public, "n": "%%%"},
        "an RSA key of 1024 bits": published(
            rsa.generate_private_key(public_exponent=65537, key_size=1024).public_key()
        ),
        "an RSA key of 2047 bits": _rsa_numbers(n >> 1 | 1, 65537),
        "an even RSA modulus": _rsa_numbers(n + 1, 65537),
        "an even RSA exponent": _rsa_numbers(n, 65536),
        "an RSA exponent of 1": _rsa_numbers(n, 1),
        "an RSA exponent over 64 bits": _rsa_numbers(n, 2**64 + 1),
        "an EC point off its curve": {**p256, "x": _b64((x ^ 1).to_bytes(32, "big"))},
        "an EC coordinate of the wrong length": {**p256, "x": _b64(b"\x00" + x.to_bytes(32, "big"))},
        "an EC key on secp256k1": {**p256, "crv": "secp256k1"},
        "an EC curve that is not a name": {**p256, "crv": ["P-256"]},
        "an X25519 key (key agreement, not signing)": {
            "kty": "OKP",
            "crv": "X25519",
            "x": _b64(x25519.X25519PrivateKey.generate().public_key().public_bytes_raw()),
        },
        "an Ed448 key not named EdDSA": published(ed448.Ed448PrivateKey.generate().public_key()),
        "an Ed25519 key of the wrong length": {"kty": "OKP", "crv": "Ed25519", "x": _b64(b"\x01" * 31)},
        "no key type": {"n": rsa_public["n"], "e": rsa_public["e"]},
        "another key type": {"kty": "DSA", "y": _b64(b"\x01" * 32)},
    }


def test_private_symmetric_foreign_and_malformed_keys_are_not_read() -> None:
    assert {name: read_public_jwk(entry) for name, entry in _not_read().items()} == dict.fromkeys(_not_read())


@pytest.mark.anyio
async def test_a_gateway_with_identity_lets_a_person_in_with_an_rs256_token_without_importing_pyjwt_nor_cryptography(
    issuer: OidcIssuer, tmp_path: Path, time_cmd: list[str]
) -> None:
    port = free_port()
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({
        "mcpServers": {"time": {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}},
        "identity": {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp"},
    }))  # fmt: skip
    launcher = [sys.executable, "-c", SERVE_AND_LIST_MODULES, str(tmp_path / "modules.json")]
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{port}", launcher=launcher) as gateway:
        token = issuer.token("alice", gateway.mcp_url)
        init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        with anyio.fail_after(60):
            async with httpx2.AsyncClient(timeout=30) as http:
                answered = await http.post(
                    gateway.mcp_url,
                    headers={"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"},
                    json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
                )
        gateway.process.send_signal(signal.SIGTERM)
        assert gateway.process.wait(timeout=30) == 0
    modules = set(json.loads((tmp_path / "modules.json").read_text()))
    assert answered.status_code == 200, answered.text
    assert "hintgate.web.jws" in modules  # the person's token was verified here, with the key jwk.py read
    assert loaded(modules, ["jwt", "cryptography"]) == []  # RS256 needs neither: 8.7 MB of the gateway's memory
