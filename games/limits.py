"""The site's rate limits, one module for all of them: each is named in settings.LIMITS
and counted here in one of three ways.

- Fixed windows: `allowed` uses per `seconds`, the window starting at the first use; in
  Django's cache (`hit`: the coach's hints and reviews), or in the rows of a model that a
  Redis restart does not forget (`KeptWindows`: the account limits).
- A sliding window over rows kept anyway (`rows_full`): the chat's own messages.
- A token bucket (`Bucket`): `burst` uses at once, refilled at `per_second` (the frames
  one socket sends).

Counting the live sockets (games.live.sockets) is another thing: connections open, not a rate.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Model, QuerySet
from django.utils import timezone


class Window(NamedTuple):
    """A fixed or sliding window's limit: at most `allowed` uses in `seconds`."""

    allowed: int
    seconds: int

    @property
    def length(self) -> timedelta:
        return timedelta(seconds=self.seconds)


class Rate(NamedTuple):
    """A token bucket's limit: `per_second` on average, `burst` at once."""

    per_second: float
    burst: int


def window(name: str) -> Window:
    """The named window limit, as settings.LIMITS has it now."""
    count, seconds = settings.LIMITS[name]
    return Window(int(count), int(seconds))


def rate(name: str) -> Rate:
    """The named bucket limit, as settings.LIMITS has it now."""
    per_second, burst = settings.LIMITS[name]
    return Rate(float(per_second), int(burst))


def key(name: str, ident: object) -> str:
    """The count's key: the limit's name and a digest of who is counted (a client address,
    an email address whatever its case, a player's id)."""
    digest = hashlib.sha256(str(ident).strip().casefold().encode()).hexdigest()[:32]
    return f"{name}:{digest}"


# ------------------------------------------------------------------ fixed windows, cached
def _cache_key(name: str, ident: object) -> str:
    return f"limit:{key(name, ident)}"


def hit(name: str, ident: object) -> bool:
    """Count one use of `name` by `ident` in the cache; False, counting nothing, when it
    would go over the limit."""
    count, seconds = window(name)
    cached = _cache_key(name, ident)
    cache.add(cached, 0, timeout=seconds)  # the window starts at the first use
    try:
        used = cache.incr(cached)
    except ValueError:  # the window ended between add and incr
        cache.add(cached, 0, timeout=seconds)
        used = cache.incr(cached)
    if used > count:
        cache.decr(cached)
        return False
    return True


def forget(name: str, ident: object) -> None:
    """End `ident`'s window of `name` in the cache now (as if its time had passed)."""
    cache.delete(_cache_key(name, ident))


# ------------------------------------------------------------------ fixed windows, kept
class KeptWindows:
    """Fixed windows kept in the database, in rows of `model` (fields key, count and
    expires): shared by every process, and a Redis restart forgets none of them."""

    def __init__(self, model: type[Model]):
        self.rows = model._default_manager  # `objects`, as a model has it

    def exhausted(self, name: str, ident: object) -> bool:
        """True when `ident` has used up `name`'s allowance (counts nothing)."""
        return bool(self.rows.filter(key=key(name, ident), expires__gt=timezone.now(),
                                     count__gte=window(name).allowed).exists())

    def hit(self, name: str, ident: object) -> bool:
        """Count one use; True if it is within the limit, False if it goes over."""
        count, seconds = window(name)
        counted, now = key(name, ident), timezone.now()
        live = self.rows.filter(key=counted, expires__gt=now)
        with transaction.atomic():
            # The UPDATE locks the row until the commit: no two processes read the same count.
            if not live.update(count=F("count") + 1):
                try:  # the window starts at the first use
                    with transaction.atomic():
                        self.rows.filter(expires__lte=now).delete()
                        self.rows.create(key=counted, count=1,
                                         expires=now + timedelta(seconds=seconds))
                    return True
                except IntegrityError:  # another process started it first
                    self.rows.filter(key=counted).update(count=F("count") + 1)
            used = self.rows.filter(key=counted).values_list("count", flat=True).get()
        return bool(used <= count)


# ------------------------------------------------------------------ sliding window, rows
def rows_full(name: str, rows: QuerySet[Any], field: str = "at") -> bool:
    """True when `rows` (the uses themselves, e.g. the messages one player wrote at one
    table) hold `name`'s allowed uses within its last `seconds` by their time `field`."""
    count, seconds = window(name)
    since = timezone.now() - timedelta(seconds=seconds)
    return bool(rows.filter(**{f"{field}__gte": since}).count() >= count)


# ------------------------------------------------------------------ token bucket
class Bucket:
    """A token bucket read on `clock` (seconds): full at first, one token a use, refilled
    at the named rate up to its burst."""

    def __init__(self, name: str, clock: Callable[[], float] = time.monotonic):
        self.per_second, self.burst = rate(name)
        self.clock = clock
        self.tokens = float(self.burst)
        self.refilled: float | None = None  # the bucket's last reading of its clock

    def allow(self) -> bool:
        """Take a token; False, taking none, when the bucket is empty."""
        now = self.clock()
        if self.refilled is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.per_second)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
