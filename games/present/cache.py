"""One cache helper for what a process keeps between requests and socket events.

A bounded cache, least recently used out, its entries optionally dropped after some
seconds, safe across threads (views and sync consumers run in Daphne's threads):
cachetools' LRUCache or TTLCache under a lock. Used for a table's renders
(games.present.render), a deal's log lines (games.present.table) and a table at one
version (games.present.snapshots).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable

from cachetools import Cache, LRUCache, TTLCache


class Kept[K: Hashable, V]:
    """At most `maxsize` entries; with `seconds`, an entry is gone that long after it was
    put. Without arguments: 1024 entries that never expire (a fresh process's memory)."""

    def __init__(self, maxsize: int = 1024, seconds: float | None = None) -> None:
        self.maxsize, self.seconds = maxsize, seconds
        self._items: Cache[K, V] = (LRUCache(maxsize) if seconds is None
                                    else TTLCache(maxsize, ttl=seconds))
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept for `key` (now the most recently used), or None."""
        with self._lock:
            return self._items.get(key)

    def put(self, key: K, value: V) -> None:
        """Keep `value` for `key`; the least recently used entry goes when full."""
        with self._lock:
            self._items[key] = value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
