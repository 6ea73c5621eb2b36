"""Compact JWS signatures checked against tokens PyJWT and `cryptography` sign, `cryptography` the oracle for RS*."""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import random
from typing import Any

import jwt
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

from hintgate.web.jwk import RsaPublicKey
from hintgate.web.jws import CompactJws, read_compact, signature_verifies

CLAIMS = {"iss": "https://issuer.example", "aud": "https://gw.example/mcp", "sub": "alice", "exp": 2_000_000_000}

RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
P256 = ec.generate_private_key(ec.SECP256R1())
P384 = ec.generate_private_key(ec.SECP384R1())
ED = ed25519.Ed25519PrivateKey.generate()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public(key: Any) -> Any:
    """What `hintgate.web.jwk` reads for `key`'s public half: an RSA key as its numbers, any other as it is."""
    if isinstance(key, rsa.RSAPrivateKey):
        numbers = key.public_key().public_numbers()
        return RsaPublicKey(numbers.n, numbers.e)
    return key.public_key()


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
    assert signature_verifies(jws, alg, public(key))
    other = {RSA_KEY: rsa.generate_private_key(public_exponent=65537, key_size=2048)}.get(key, P256)
    if other is key:
        other = P384
    assert not signature_verifies(jws, alg, public(other))


def test_an_altered_payload_or_signature_does_not_verify() -> None:
    token = jwt.encode(CLAIMS, RSA_KEY, algorithm="RS256")
    head, _, signature = token.split(".")
    altered = read_compact(f"{head}.{b64(json.dumps({**CLAIMS, 'sub': 'mallory'}).encode())}.{signature}")
    flipped = read_compact(f"{token[:-2]}{'A' if token[-2] != 'A' else 'B'}{token[-1]}")
    assert altered is not None
    assert flipped is not None
    assert not signature_verifies(altered, "RS256", public(RSA_KEY))
    assert not signature_verifies(flipped, "RS256", public(RSA_KEY))


def test_a_key_of_the_wrong_kind_or_curve_for_the_algorithm_refuses_the_signature() -> None:
    es384 = read_compact(jwt.encode(CLAIMS, P384, algorithm="ES384"))
    rs = read_compact(jwt.encode(CLAIMS, RSA_KEY, algorithm="RS256"))
    assert es384 is not None
    assert rs is not None
    # An ES256 header on a P-384 signature: the algorithm fixes the curve.
    assert not signature_verifies(es384, "ES256", P384.public_key())
    assert not signature_verifies(rs, "ES256", public(RSA_KEY))
    assert not signature_verifies(rs, "HS256", public(RSA_KEY))
    assert not signature_verifies(rs, "none", public(RSA_KEY))


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


# RSASSA-PKCS1-v1_5 (RS256/384/512), verified without `cryptography`: `cryptography` signs and is the oracle.

HASHES = {"RS256": hashes.SHA256(), "RS384": hashes.SHA384(), "RS512": hashes.SHA512()}
DIGEST_INFO = {  # RFC 8017 §9.2 note 1, written out again here so that a typo in the source cannot hide
    "RS256": ("sha256", "3031300d060960864801650304020105000420"),
    "RS384": ("sha384", "3041300d060960864801650304020205000430"),
    "RS512": ("sha512", "3051300d060960864801650304020305000440"),
}


@functools.cache
def rsa_key(bits: int, exponent: int = 65537) -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=exponent, key_size=bits)


def signed(key: rsa.RSAPrivateKey, alg: str, claims: dict[str, Any] | None = None) -> CompactJws:
    head = b64(json.dumps({"alg": alg, "typ": "at+jwt", "kid": "k1"}).encode())
    body = b64(json.dumps(claims or CLAIMS).encode())
    signature = key.sign(f"{head}.{body}".encode(), padding.PKCS1v15(), HASHES[alg])
    jws = read_compact(f"{head}.{body}.{b64(signature)}")
    assert jws is not None
    return jws


def with_signature(jws: CompactJws, signature: bytes) -> CompactJws:
    return CompactJws(jws.header, jws.claims, jws.signing_input, signature)


def oracle(jws: CompactJws, alg: str, key: rsa.RSAPrivateKey) -> bool:
    """Whether `cryptography` verifies `jws` as `alg` with `key`'s public half."""
    try:
        key.public_key().verify(jws.signature, jws.signing_input, padding.PKCS1v15(), HASHES[alg])
    except InvalidSignature:
        return False
    return True


def raw_signature(key: rsa.RSAPrivateKey, em: bytes) -> bytes:
    """`em` raised to the private exponent: a signature whose decryption is exactly `em`, well formed or not."""
    numbers = key.private_numbers()
    n = numbers.public_numbers.n
    k = (n.bit_length() + 7) // 8
    assert len(em) == k
    return pow(int.from_bytes(em, "big"), numbers.d, n).to_bytes(k, "big")


def t_of(alg: str, message: bytes) -> bytes:
    name, prefix = DIGEST_INFO[alg]
    return bytes.fromhex(prefix) + hashlib.new(name, message).digest()


@pytest.mark.parametrize("bits", [2048, 3072, 4096])
@pytest.mark.parametrize("alg", ["RS256", "RS384", "RS512"])
def test_an_rs_token_verifies_without_cryptography_with_its_key_of_each_size_and_no_other(bits: int, alg: str) -> None:
    jws = signed(rsa_key(bits), alg)
    assert oracle(jws, alg, rsa_key(bits))
    assert signature_verifies(jws, alg, public(rsa_key(bits)))
    assert not signature_verifies(jws, alg, public(rsa_key(2048 if bits != 2048 else 3072)))
    assert not signature_verifies(jws, alg, public(rsa.generate_private_key(public_exponent=65537, key_size=bits)))
    for other in {"RS256", "RS384", "RS512"} - {alg}:  # a signature over the same bytes with another hash
        assert not signature_verifies(jws, other, public(rsa_key(bits)))


def test_an_rs_token_altered_anywhere_or_its_signature_out_of_range_is_refused() -> None:
    key = rsa_key(2048)
    jws = signed(key, "RS256")
    head, body = jws.signing_input.decode().split(".")
    n = key.public_key().public_numbers().n
    other_header = b64(json.dumps({"alg": "RS256", "typ": "at+jwt", "kid": "k2"}).encode())
    flipped = bytearray(jws.signature)
    flipped[100] ^= 0x10
    refused = {
        "payload": read_compact(
            f"{head}.{b64(json.dumps({**CLAIMS, 'sub': 'mallory'}).encode())}.{b64(jws.signature)}"
        ),
        "header": read_compact(f"{other_header}.{body}.{b64(jws.signature)}"),
        "a flipped bit": with_signature(jws, bytes(flipped)),
        "a byte short": with_signature(jws, jws.signature[1:]),
        "a leading zero byte more": with_signature(jws, b"\x00" + jws.signature),
        "empty": with_signature(jws, b""),
        "s = n": with_signature(jws, n.to_bytes(256, "big")),
        "all ones": with_signature(jws, b"\xff" * 256),
    }
    if (same_residue := int.from_bytes(jws.signature, "big") + n) < 256**256:
        refused["s + n (the same residue mod n)"] = with_signature(jws, same_residue.to_bytes(256, "big"))
    assert signature_verifies(jws, "RS256", public(key))
    for name, altered in refused.items():
        assert altered is not None, name
        assert (name, signature_verifies(altered, "RS256", public(key))) == (name, False)
        assert (name, oracle(altered, "RS256", key)) == (name, False)


@pytest.mark.parametrize("exponent", [3, 65537])
def test_an_encoded_message_not_exactly_the_expected_one_is_refused_though_its_digest_is_right(exponent: int) -> None:
    key = rsa_key(2048, exponent)
    jws = signed(key, "RS256")
    t = t_of("RS256", jws.signing_input)
    k = 256
    wrong_hash = bytes.fromhex(DIGEST_INFO["RS384"][1]) + hashlib.sha384(jws.signing_input).digest()
    shapes = {
        "garbage after the digest": b"\x00\x01" + b"\xff" * 8 + b"\x00" + t + b"\x42" * (k - 11 - len(t)),
        "short padding, garbage after": b"\x00\x01\xff\x00" + t + b"\x00" * (k - 4 - len(t)),
        "no padding at all": b"\x00\x01\x00" + t + b"\x00" * (k - 3 - len(t)),
        "garbage in the padding": b"\x00\x01" + b"\xff" * 100 + b"\x7f" + b"\xff" * (k - 104 - len(t)) + b"\x00" + t,
        "block type 2": b"\x00\x02" + b"\xff" * (k - 3 - len(t)) + b"\x00" + t,
        "no leading zero": b"\x01" + b"\xff" * (k - 2 - len(t)) + b"\x00" + t,
        "the digest alone": b"\x00\x01" + b"\xff" * (k - 35) + b"\x00" + t[-32:],
        "a DigestInfo without NULL": b"\x00\x01" + b"\xff" * (k - 3 - len(t) + 2) + b"\x00"
        + bytes.fromhex("302f300b0609608648016503040201") + b"\x04\x20" + t[-32:],
        "SHA-384's DigestInfo as RS256": b"\x00\x01" + b"\xff" * (k - 3 - len(wrong_hash)) + b"\x00" + wrong_hash,
    }  # fmt: skip
    genuine = b"\x00\x01" + b"\xff" * (k - 3 - len(t)) + b"\x00" + t
    assert raw_signature(key, genuine) == jws.signature  # PKCS #1 v1.5 is deterministic: the same EM, signed
    assert signature_verifies(with_signature(jws, raw_signature(key, genuine)), "RS256", public(key))
    for name, em in shapes.items():
        assert len(em) == k, name
        forged = with_signature(jws, raw_signature(key, em))
        assert (name, signature_verifies(forged, "RS256", public(key))) == (name, False)


def test_the_e3_cube_root_forgery_that_fools_a_parser_is_refused() -> None:
    """Bleichenbacher's forgery (2006): with e = 3, an integer cube root of `00 01 FF.. 00 DigestInfo H garbage`
    needs no private key; a verifier that reads the digest out of the block and ignores what follows accepts it."""
    key = rsa_key(2048, 3)
    jws = signed(key, "RS256")
    t = t_of("RS256", jws.signing_input)
    for padding_length in (8, 1):
        prefix = b"\x00\x01" + b"\xff" * padding_length + b"\x00" + t
        garbage = 256 - len(prefix)
        target = int.from_bytes(prefix, "big") * 256**garbage + 256**garbage - 1
        root = _integer_cube_root(target)
        em = (root**3).to_bytes(256, "big")
        assert em.startswith(prefix)  # the forgery is well made: a lenient parser would find the right digest
        forged = with_signature(jws, root.to_bytes(256, "big"))
        assert not signature_verifies(forged, "RS256", public(key))
        assert not oracle(forged, "RS256", key)


def _integer_cube_root(x: int) -> int:
    low, high = 0, 1 << (x.bit_length() // 3 + 2)
    while low < high:
        mid = (low + high + 1) // 2
        if mid**3 <= x:
            low = mid
        else:
            high = mid - 1
    return low


def test_the_rs_verifier_agrees_with_cryptography_on_random_tamperings() -> None:
    chance = random.Random(8017)
    keys = [rsa_key(2048), rsa_key(3072), rsa_key(2048, 3)]
    disagreements, verified = [], 0
    for round_ in range(300):
        key = chance.choice(keys)
        alg = chance.choice(list(HASHES))
        jws = signed(key, alg, {**CLAIMS, "jti": str(round_)})
        signature, data = bytearray(jws.signature), bytearray(jws.signing_input)
        how = chance.randrange(6)
        if how == 0:
            signature[chance.randrange(len(signature))] ^= 1 << chance.randrange(8)
        elif how == 1:
            data[chance.randrange(len(data))] ^= 1 << chance.randrange(8)
        elif how == 2:
            del signature[chance.randrange(len(signature))]
        elif how == 3:
            signature.insert(chance.randrange(len(signature) + 1), chance.randrange(256))
        elif how == 4:
            signature = bytearray(chance.randbytes(len(signature)))
        # how == 5: untouched
        tampered = CompactJws(jws.header, jws.claims, bytes(data), bytes(signature))
        checked_as = alg if chance.random() < 0.9 else chance.choice(list(HASHES))
        ours, theirs = signature_verifies(tampered, checked_as, public(key)), oracle(tampered, checked_as, key)
        verified += ours
        if ours != theirs:
            disagreements.append((round_, how, checked_as, ours, theirs))
    assert disagreements == []
    assert 20 < verified < 100  # both outcomes were exercised
