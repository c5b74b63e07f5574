"""A deal's commitment (docs/fairness.md): before a deal's first card the table shows the
SHA-256 of the deal's seed with a secret salt; once the match is over the seed and the
salt are published, and anyone can recompute both the commitment and the pack.

>>> commitment(deal_seed("abc", 0), "salt")
'736f9da329e2f8ee235eedbf4c01ef275312fc406092cbca8befb50017c56806'
"""

from __future__ import annotations

import hashlib

# The bytes hashed: PREFIX, the salt, a newline, the deal's seed (UTF-8 each).
PREFIX = b"durak-deal-commitment/1\n"


def deal_seed(match_seed: int | float | str, index: int) -> str:
    """The seed of a match's deal `index` (0 for the first): what `random.Random` shuffles
    that deal's pack from (games.engine.match)."""
    return f"{match_seed}/{index}"


def commitment(seed: str, salt: str) -> str:
    """SHA-256 of PREFIX + salt + b"\\n" + seed, in lowercase hex (64 digits)."""
    return hashlib.sha256(PREFIX + salt.encode("utf-8") + b"\n" + seed.encode("utf-8")).hexdigest()
