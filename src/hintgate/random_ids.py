"""Random identifiers (sessions, approvals, calls, a handshake's tag): version 4 UUIDs, as text.

Written as `str(uuid.uuid4())` and `uuid.uuid4().hex` write them, from the same 16 random bytes of the operating
system, without importing `uuid`: on Linux it imports `platform` to ask the system's name (about 2 ms of CPU once
the rest of a start is imported, 10-12 ms in a bare interpreter), before a stdio start's first listing, for
identifiers the start makes there (its opening's tag, the client's session).
"""

from __future__ import annotations

import os

__all__ = ["random_hex", "random_id"]


def random_hex() -> str:
    """A random version 4 UUID as 32 hexadecimal digits (`uuid.uuid4().hex`)."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # the RFC 4122 variant
    return raw.hex()


def random_id() -> str:
    """A random version 4 UUID in its canonical form (`str(uuid.uuid4())`)."""
    digits = random_hex()
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"
