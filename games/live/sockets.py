"""Live sockets counted per limit (WS_MAX_PER_GAME per table's watchers, WS_MAX_PER_ADDRESS per
anonymous client address, WS_MAX_PER_PLAYER per signed-in player; which socket counts where:
live/middleware.py).

Each open socket holds a slot in every limit it counts towards. A slot lasts
WS_SLOT_SECONDS; the process that holds the socket renews its slots in the background
every third of that, and frees them when the socket closes. So a crashed consumer or a
killed process holds a slot at most WS_SLOT_SECONDS, and a client cannot keep a slot
alive, or evade a limit, by what it sends. A refused socket holds nothing and renews
nothing. A Redis that lost its data (restarted) has the open sockets counted again by
their processes' next renewal.

With REDIS_URL the slots are in Redis, shared by every process: a sorted set per limit,
each member a socket, scored by when its slot runs out (Redis's own clock, so the
processes' clocks do not matter). Without it (the unit tests) they are in this process's
memory, with the same behaviour.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)
PREFIX = "durak:ws-slots:"


def game_key(game_id: int) -> str:
    return f"{PREFIX}game:{game_id}"


def address_key(address: str) -> str:
    return f"{PREFIX}address:{address}"


def player_key(player_id: int) -> str:
    return f"{PREFIX}player:{player_id}"


def slot_seconds() -> float:
    return max(1.0, float(settings.WS_SLOT_SECONDS))


# ----------------------------------------------------------------------------- stores
class LocalSlots:
    """The slots in this process's memory (no Redis): only this process's sockets."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._sets: dict[str, dict[str, float]] = {}

    def _live(self, key: str, now: float) -> dict[str, float]:
        slots = self._sets.get(key, {})
        for member in [m for m, until in slots.items() if until <= now]:
            del slots[member]
        if not slots:
            self._sets.pop(key, None)
        return slots

    def take(self, member: str, limits: list[tuple[str, int]], seconds: float) -> bool:
        with self._lock:
            now = self.clock()
            if any(len(self._live(key, now)) >= limit for key, limit in limits):
                return False
            for key, _limit in limits:
                self._sets.setdefault(key, {})[member] = now + seconds
            return True

    def renew(self, held: list[tuple[str, str]], seconds: float) -> None:
        with self._lock:
            now = self.clock()
            for key, member in held:
                self._sets.setdefault(key, {})[member] = now + seconds

    def release(self, member: str, keys: tuple[str, ...]) -> None:
        with self._lock:
            for key in keys:
                slots = self._sets.get(key, {})
                slots.pop(member, None)
                if not slots:
                    self._sets.pop(key, None)

    def count(self, key: str) -> int:
        with self._lock:
            return len(self._live(key, self.clock()))

    def counts(self, keys: list[str]) -> list[int]:
        with self._lock:
            now = self.clock()
            return [len(self._live(key, now)) for key in keys]


NOW_MS = """local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
TAKE = NOW_MS + """
-- KEYS: the limits' sets; ARGV: member, slot ms, then each limit
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then return 0 end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', key, tonumber(ARGV[2]))
end
return 1
"""
RENEW = NOW_MS + """
-- KEYS: sets; ARGV: slot ms, then the member for each key
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[1]), ARGV[i + 1])
  redis.call('PEXPIRE', key, tonumber(ARGV[1]))
end
return #KEYS
"""
COUNT = NOW_MS + """
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
"""


class RedisSlots:
    """The slots in Redis, shared by every process of the site."""

    def __init__(self, url: str):
        import redis

        # A Redis that is gone fails a connect at once, never hangs it.
        self.client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
        self._take = self.client.register_script(TAKE)
        self._renew = self.client.register_script(RENEW)
        self._count = self.client.register_script(COUNT)

    def take(self, member: str, limits: list[tuple[str, int]], seconds: float) -> bool:
        keys = [key for key, _limit in limits]
        ms = int(seconds * 1000)
        return bool(self._take(keys=keys, args=[member, ms, *[limit for _k, limit in limits]]))

    def renew(self, held: list[tuple[str, str]], seconds: float) -> None:
        ms = int(seconds * 1000)
        for start in range(0, len(held), 500):
            part = held[start:start + 500]
            self._renew(keys=[key for key, _m in part], args=[ms, *[m for _k, m in part]])

    def release(self, member: str, keys: tuple[str, ...]) -> None:
        with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(key, member)
            pipe.execute()

    def count(self, key: str) -> int:
        return int(self._count(keys=[key]))

    def counts(self, keys: list[str]) -> list[int]:
        """Each limit's count, in one round trip (a pipeline of the count script)."""
        with self.client.pipeline(transaction=False) as pipe:
            for key in keys:
                self._count(keys=[key], client=pipe)
            return [int(n) for n in pipe.execute()]


_stores: dict[tuple[int, str], LocalSlots | RedisSlots] = {}


def store() -> LocalSlots | RedisSlots:
    """This process's store: Redis when the site has it."""
    url = settings.REDIS_URL
    key = (os.getpid(), url)  # a forked process makes its own connections
    if key not in _stores:
        _stores[key] = RedisSlots(url) if url else LocalSlots()
    return _stores[key]


# ----------------------------------------------------------------------------- the held
_held: dict[str, tuple[str, ...]] = {}  # this process's sockets: member -> its limits' keys
_lock = threading.Lock()  # a release waits for a renewal under way, so it is not undone
_renewer: list[Any] = [None, None]  # (pid, thread)


def take(member: str, limits: list[tuple[str, int]]) -> bool:
    """Hold a slot for the socket `member` in each of `limits` ((key, most at once));
    False, holding and renewing nothing, when one is full. When the store cannot be
    reached the socket is let in: its slots are written by the next renewal that can."""
    keys = tuple(key for key, _limit in limits)
    if not keys:
        return True
    try:
        if not store().take(member, limits, slot_seconds()):
            return False
    except Exception:  # Redis is down: let the socket in, counted once Redis answers
        logger.warning("could not count socket %s", member, exc_info=True)
    with _lock:
        _held[member] = keys
    _start_renewer()
    return True


def release(member: str) -> None:
    """Free the socket's slots (once; a second call does nothing)."""
    with _lock:
        keys = _held.pop(member, None)
    if keys:
        try:
            store().release(member, keys)
        except Exception:  # Redis is down: the slots run out by themselves
            logger.warning("could not free socket %s's slots", member, exc_info=True)


def held() -> int:
    """Sockets this process holds slots for."""
    return len(_held)


def count(key: str) -> int:
    """Slots held in this limit now, by every process."""
    return store().count(key)


def online(player_ids: list[int]) -> set[int]:
    """Which of these players hold a socket now, in any process (their own count, which
    every signed-in socket is one of): the friends' presence (docs/design.md, "Friends
    and blocks"). One round trip to Redis for them all."""
    if not player_ids:
        return set()
    found = store().counts([player_key(pk) for pk in player_ids])
    return {pk for pk, n in zip(player_ids, found) if n > 0}


def renew() -> None:
    """Renew the slots of every socket this process holds (the renewer's job)."""
    with _lock:
        entries = [(key, member) for member, keys in _held.items() for key in keys]
        if entries:
            store().renew(entries, slot_seconds())


def _renew_forever() -> None:
    while True:
        time.sleep(slot_seconds() / 3)
        try:
            renew()
        except Exception:  # Redis is down: try again next time
            logger.warning("could not renew the socket slots", exc_info=True)


def _start_renewer() -> None:
    pid = os.getpid()
    if _renewer[0] == pid and _renewer[1].is_alive():
        return
    with _lock:
        if _renewer[0] == pid and _renewer[1].is_alive():
            return
        thread = threading.Thread(target=_renew_forever, name="socket-slots", daemon=True)
        thread.start()
        _renewer[:] = [pid, thread]
