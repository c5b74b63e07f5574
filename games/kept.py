"""The one cache helper: everything a process keeps between calls (docs/design.md, "One
cache helper").

A cache is bounded (the oldest out, or dropped after some seconds), named, and safe
across threads (views and sync consumers run in Daphne's threads): a dict, or cachetools'
TTLCache under a lock. Every cache made here is listed by name, so
that tests clear them all from one place (`forget_all`). A leaf of games: the engine and
bots use it too, and it imports nothing of the site or a framework (cachetools only for a
timed cache, which the engine never makes: the deal checker runs on the standard library).
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from cachetools import TTLCache

_every: weakref.WeakValueDictionary[str, Kept[Hashable, object]] = weakref.WeakValueDictionary()
_every_lock = threading.Lock()
_MISSING = object()


class Kept[K: Hashable, V]:
    """At most `maxsize` entries, the first put the first out; with `seconds`, an entry is
    gone that long after it was put (cachetools' TTLCache, least recently used out).
    `name` (unique per process) lists it for `forget_all`; `lasting`: what it keeps never
    changes in a process (a library's table), and only `forget_all(lasting=True)` empties
    it. Without `seconds` a read takes no lock (a dict's get is atomic): the felt's words
    and cards are read hundreds of times a move."""

    def __init__(self, maxsize: int = 1024, seconds: float | None = None, *, name: str,
                 lasting: bool = False) -> None:
        self.name, self.maxsize, self.seconds, self.lasting = name, maxsize, seconds, lasting
        self._items: dict[K, V] = {}
        self._timed: TTLCache[K, V] | None = None
        if seconds is not None:  # imported here: the engine, standard library only, never times
            from cachetools import TTLCache

            self._timed = TTLCache(maxsize, ttl=seconds)
        self._lock = threading.Lock()
        with _every_lock:
            if name in _every:
                raise ValueError(f"a cache named {name!r} exists already")
            _every[name] = cast("Kept[Hashable, object]", self)

    def get(self, key: K) -> V | None:
        """The value kept for `key`, or None."""
        if self._timed is None:
            return self._items.get(key)
        with self._lock:
            return self._timed.get(key)

    def put(self, key: K, value: V) -> None:
        """Keep `value` for `key`; when full, the oldest entry goes."""
        with self._lock:
            if self._timed is not None:
                self._timed[key] = value
                return
            items = self._items
            if key not in items and len(items) >= self.maxsize:
                del items[next(iter(items))]
            items[key] = value

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for `key`, made by `make` (outside the lock) and kept if absent."""
        if self._timed is None:
            found = self._items.get(key, _MISSING)
        else:
            with self._lock:
                found = self._timed.get(key, _MISSING)
        if found is _MISSING:
            made = make()
            self.put(key, made)
            return made
        return cast(V, found)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            if self._timed is not None:
                self._timed.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items) if self._timed is None else len(self._timed)


def memo[**P, R](name: str, maxsize: int = 1024, *,
                 lasting: bool = False) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """functools.lru_cache through a named `Kept`: a function of hashable arguments whose
    answer never changes within a process."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        kept: Kept[Hashable, R] = Kept(maxsize, name=name, lasting=lasting)

        @functools.wraps(function)
        def remembered(*args: P.args, **kwargs: P.kwargs) -> R:
            key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            return kept.get_or_make(key, lambda: function(*args, **kwargs))

        remembered.kept = kept  # type: ignore[attr-defined]  # for a test to look inside
        return remembered
    return decorate


def named() -> list[str]:
    """The names of every cache this process has made (and still holds)."""
    with _every_lock:
        return sorted(_every)


def forget_all(*, lasting: bool = False) -> None:
    """Empty every cache (tests: a game id comes back in a new test); the lasting ones
    too with `lasting`."""
    with _every_lock:
        caches = list(_every.values())
    for kept in caches:
        if lasting or not kept.lasting:
            kept.clear()
