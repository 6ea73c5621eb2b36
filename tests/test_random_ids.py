"""Random identifiers are version 4 UUIDs written as `uuid` writes them, each new."""

from __future__ import annotations

import uuid

from hintgate.random_ids import random_hex, random_id


def test_a_random_id_is_a_version_4_uuid_in_its_canonical_form() -> None:
    text = random_id()
    parsed = uuid.UUID(text)
    assert str(parsed) == text
    assert (parsed.version, parsed.variant) == (4, uuid.RFC_4122)


def test_a_random_hex_is_a_version_4_uuid_in_32_digits() -> None:
    text = random_hex()
    parsed = uuid.UUID(hex=text)
    assert parsed.hex == text
    assert (parsed.version, parsed.variant) == (4, uuid.RFC_4122)


def test_each_identifier_is_new() -> None:
    assert len({random_id() for _ in range(1_000)}) == 1_000
    assert len({random_hex() for _ in range(1_000)}) == 1_000
