"""A table as it is at one version, read once per process.

After a move, every socket of the table (both seats, the mover's other tabs, logged-in
spectators) renders its own view of the same game row and seats: the first to need a
version reads them, the others reuse them. The POST that made the move keeps the new
version from the rows it has just written (`keep`), so its answer and the pushes in its
process read nothing; another process makes them from the group event, which carries the
rows as committed (games.services.carried), on top of the version before, which it keeps. A version is never changed once written (every change is a new
version, games.services.change.Change.save, a clock shift after an outage too), so a kept
snapshot cannot go stale.

What a change never touches is shared by a game's versions in this process instead of
being read again for each: the rule preset and the game's maker, the finished deals
(read again when a deal ends) and the players' ratings. The preset and ratings change
elsewhere (the admin, another game's end), so they are read again after SHARED_SECONDS.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, prefetch_related_objects

from ..models import DealRecord, Game, Rating, RulePreset, Seat
from ..services import carried as carried_rows
from ..services import rows
from ..services.access import seats_of
from .cache import Kept

if TYPE_CHECKING:
    from accounts.models import Player

MAX_KEPT = 512  # snapshots kept: the newest versions of many tables (least recently used out)
SHARED_SECONDS = 60.0  # the preset and the ratings are read again after this long


@dataclass
class Shared:
    """What a game's versions share: read once, re-read after SHARED_SECONDS."""

    read_at: float
    preset: RulePreset
    created_by: Player | None
    players: frozenset[int]  # whose ratings these are
    ratings: dict[int, list[Rating]]  # player id -> rating rows
    deals_key: tuple[object, ...]  # finished deals are read again when this changes
    records: list[DealRecord]


_kept: Kept[tuple[int, int], tuple[Game, list[Seat]]] = Kept(
    MAX_KEPT, name="present.snapshots.kept")
# by game; its own clock (SHARED_SECONDS)
_shared: Kept[int, Shared] = Kept(MAX_KEPT, name="present.snapshots.shared")


def read(game_id: int) -> tuple[Game, list[Seat]] | None:
    """The game and its seats in order (with their players) as they are now, with the
    shared parts (`keep`); kept for the others. None: no such game."""
    game = rows.game(game_id)
    if game is None:
        return None
    return keep(game, seats_of(game))


def keep(game: Game, seats: list[Seat]) -> tuple[Game, list[Seat]]:
    """Keep the table at `game.version` from its game row and its seats in order (with
    their players), read or just committed: completed with the preset, the maker, the
    finished deals and the ratings, for the table's renders (games.present.table, games.present.outcome).
    The caller no longer changes these objects."""
    _complete(game, seats)
    _kept.put((game.pk, game.version), (game, seats))
    return game, seats


def _deals_key(game: Game) -> tuple[object, ...]:
    """Changes whenever the game's finished deals do (games.services.results.keep_deal):
    a deal ends and the next begins (one more result), or the match ends, finished or
    given up (the status). Read from the saved match without its deal (Match.to_json
    keeps the deal as a string of its own)."""
    if not game.state:
        return (game.status,)
    saved = json.loads(game.state)
    return (game.status, len(saved["results"]), saved.get("resigned"))


def _complete(game: Game, seats: list[Seat]) -> None:
    players = [s.player for s in seats if s.player is not None]  # no query for an empty seat
    ids = frozenset(p.pk for p in players)
    deals_key = _deals_key(game)
    shared = _shared.get(game.pk)
    fresh = (shared is not None and time.monotonic() - shared.read_at < SHARED_SECONDS
             and shared.preset.pk == game.preset_id and shared.players == ids
             and getattr(shared.created_by, "pk", None) == game.created_by_id)
    if not fresh or shared is None:
        prefetch_related_objects(players, Prefetch("ratings", queryset=Rating.objects.all(),
                                                   to_attr="kept_ratings"))
        maker = next((p for p in players if p.pk == game.created_by_id), None)
        if maker is None and game.created_by_id is not None:
            maker = get_user_model().objects.filter(pk=game.created_by_id).first()
        shared = Shared(read_at=time.monotonic(),
                        preset=RulePreset.objects.get(pk=game.preset_id), created_by=maker,
                        players=ids, ratings={p.pk: p.kept_ratings for p in players},
                        deals_key=deals_key, records=list(game.deal_records.all()))
    elif shared.deals_key != deals_key:
        shared = Shared(read_at=shared.read_at, preset=shared.preset,
                        created_by=shared.created_by, players=ids, ratings=shared.ratings,
                        deals_key=deals_key, records=list(game.deal_records.all()))
    _shared.put(game.pk, shared)
    game.preset = shared.preset
    game.created_by = shared.created_by
    # Read without a query by games.present.outcome and the rating tag.
    game.kept_records = shared.records
    for player in players:
        player.kept_ratings = shared.ratings[player.pk]


def at(game_id: int, version: int | None,
       carried: object = None) -> tuple[Game, list[Seat]] | None:
    """The table at `version` if kept; else made from `carried` (the group event's rows,
    games.services.carried) and the previous version's players, when this process keeps
    that version; else as it is now (`read`); version None: now."""
    if version is not None:
        found = _kept.get((game_id, version))
        if found is not None:
            return found
        before = _kept.get((game_id, version - 1))
        made = carried_rows.restore(carried, before[1]) if before and carried else None
        if made is not None and made[0].pk == game_id and made[0].version == version:
            return keep(*made)
    return read(game_id)


def kept(game_id: int, version: int) -> tuple[Game, list[Seat]] | None:
    """The table at `version` if this process keeps it (no query), else None."""
    return _kept.get((game_id, version))


def forget() -> None:
    """Drop every kept snapshot (tests: ids come back in a new test)."""
    _kept.clear()
    _shared.clear()
