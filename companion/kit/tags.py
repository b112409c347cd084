"""Tag UIDs as the readers report them, made up for demos, tests and benchmarks."""

from __future__ import annotations

import random


def random_uid(rng: random.Random) -> str:
    """A 7-byte NTAG213-style UID (NXP manufacturer byte 0x04 first)."""
    return "04" + "".join(f"{rng.randrange(256):02x}" for _ in range(6))
