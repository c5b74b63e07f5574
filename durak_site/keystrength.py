"""An estimate of a secret key's entropy in bits, to refuse keys a person made up.

The key is read left to right: a stretch that repeats earlier text costs only where it
points, a character one step from the one before ("abc", "321") costs log2(3), and any
other character costs log2 of the alphabet it seems to be drawn from: the character
classes it uses (lower case, upper case, digits, punctuation), or fewer when the key
shows fewer distinct characters than random draws from those classes would.
"""

import math
import string

CLASSES = (string.ascii_lowercase, string.ascii_uppercase, string.digits, string.punctuation)
READ = 256  # characters looked at: a longer key is judged by its start


def _alphabet(key: str) -> float:
    """The size of the alphabet `key` looks drawn from."""
    pool = sum(len(chars) for chars in CLASSES if any(c in chars for c in key))
    pool += len({c for c in key if not any(c in chars for chars in CLASSES)})
    n, distinct = len(key), len(set(key))
    if distinct >= n:
        return pool
    # n uniform draws from A characters show about A * (1 - e^(-n/A)) distinct ones.
    low, high = float(distinct), float(max(pool, distinct))
    for _ in range(50):
        mid = (low + high) / 2
        if mid * (1 - math.exp(-n / mid)) < distinct:
            low = mid
        else:
            high = mid
    return min(pool, low)


def entropy_bits(key: str) -> float:
    key = key[:READ]
    per_char = math.log2(max(2.0, _alphabet(key)))
    bits, i = 0.0, 0
    while i < len(key):
        # The longest stretch from i that also starts earlier (overlaps allowed).
        length = 0
        while i + length < len(key) and key.find(key[i:i + length + 1], 0, i + length) != -1:
            length += 1
        if length >= 3:
            bits += math.log2(i) + math.log2(length) + 1
            i += length
            continue
        step = abs(ord(key[i]) - ord(key[i - 1])) if i else None
        bits += math.log2(3) if step == 1 else per_char
        i += 1
    return bits
