"""One-time form tokens: the same form sent twice (a double click) makes one thing.

The first request with a token claims it in the cache (an atomic add, shared by every
process through Redis) and records what it made; a repeat gets that instead.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from django.core.cache import cache

KEEP = 24 * 3600  # seconds a token is remembered
PENDING = "pending"
WAIT_STEPS, WAIT_STEP = 50, 0.1  # how long a repeat waits for the first one to finish


class Busy(Exception):
    """A repeat came while the first request with its token was still at work."""


def new_token() -> str:
    return secrets.token_urlsafe(16)


def _key(kind: str, user_pk, token: str) -> str:
    return f"once:{kind}:{user_pk}:{token}"


def claim(kind: str, user_pk, token: str) -> int | None:
    """None when this request is the first with `token` (it must then call `made` or
    `release`); else the id of what the first one made, or 0 if it is still at work."""
    key = _key(kind, user_pk, token)
    for _ in range(WAIT_STEPS):
        if cache.add(key, PENDING, KEEP):
            return None
        value = cache.get(key)
        if value not in (None, PENDING):
            return int(value)
        time.sleep(WAIT_STEP)
    return 0


def made(kind: str, user_pk, token: str, pk: int) -> None:
    cache.set(_key(kind, user_pk, token), pk, KEEP)


def release(kind: str, user_pk, token: str) -> None:
    """The first request failed: the same form may be sent again."""
    cache.delete(_key(kind, user_pk, token))


def run(kind: str, user_pk, token: str, make: Callable[[], int]) -> int:
    """`make()` (which returns an id) the first time `token` comes, or the id it made then.
    Without a token, just `make()`. An exception from `make` lets the token go again."""
    if not token:
        return make()
    earlier = claim(kind, user_pk, token)
    if earlier:
        return earlier
    if earlier == 0:
        raise Busy
    try:
        pk = make()
    except BaseException:
        release(kind, user_pk, token)
        raise
    made(kind, user_pk, token, pk)
    return pk
