"""A table as it is at one version, read once per process (issue 15).

After a move, every socket of the table (both seats, the mover's other tabs, logged-in
spectators) renders its own view of the same game row and seats: the first to need a
version reads them (one query each, the seats with their players' ratings), the others
reuse them. The POST that made the move reads the new version first, so its pushes
usually read nothing. A version is never changed once written (every change is a new
version, games.services.commit_change), so a kept snapshot cannot go stale.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.db.models import Prefetch

from .models import Game, Rating, Seat

MAX_KEPT = 512  # snapshots kept: the newest versions of many tables (least recently used out)

_kept: OrderedDict[tuple[int, int], tuple[Game, list[Seat]]] = OrderedDict()
_lock = threading.Lock()


def read(game_id: int) -> tuple[Game, list[Seat]] | None:
    """The game (with its preset, maker and finished deals) and its seats in order (with their players
    and the players' ratings), read now; kept for the others. None: no such game."""
    game = (Game.objects.select_related("preset", "created_by").filter(pk=game_id)
            .prefetch_related("deal_records").first())
    if game is None:
        return None
    seats = list(game.seats.select_related("player").order_by("number").prefetch_related(
        Prefetch("player__ratings", queryset=Rating.objects.all())))
    with _lock:
        _kept[(game.pk, game.version)] = (game, seats)
        while len(_kept) > MAX_KEPT:
            _kept.popitem(last=False)
    return game, seats


def at(game_id: int, version: int | None) -> tuple[Game, list[Seat]] | None:
    """The table at `version` if kept, else as it is now (`read`); version None: now."""
    if version is not None:
        with _lock:
            found = _kept.get((game_id, version))
        if found is not None:
            return found
    return read(game_id)


def forget() -> None:
    """Drop every kept snapshot (tests: ids come back in a new test)."""
    with _lock:
        _kept.clear()
