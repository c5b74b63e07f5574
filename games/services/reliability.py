"""Reliability as a player sees it (BGA's karma is the model): the share of their games
finished in the last 90 days in which they never ran out of time; a table's maker may ask
for a minimum (Game.min_reliability), checked when a player takes a seat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db.models import Count, Q
from django.utils import timezone

from ..models import Game, Seat

if TYPE_CHECKING:
    from accounts.models import Player

RELIABILITY_DAYS = 90
MIN_RELIABILITY_CHOICES = (50, 75, 90, 95)  # the lobby form's minimums, in percent


@dataclass(frozen=True)
class Reliability:
    percent: int  # games finished without a timeout, of `games`, rounded down
    games: int


def reliability(player: Player, now: datetime | None = None) -> Reliability | None:
    """The player's figure, or None before their first finished game in the window."""
    since = (now or timezone.now()) - timedelta(days=RELIABILITY_DAYS)
    counts = Seat.objects.filter(
        player=player, game_status=Game.Status.FINISHED, game_finished_at__gte=since,
    ).aggregate(games=Count("pk"), clean=Count("pk", filter=Q(timeouts_total=0)))
    if not counts["games"]:
        return None
    return Reliability(percent=100 * counts["clean"] // counts["games"], games=counts["games"])


def meets(player: Player, minimum: int | None, now: datetime | None = None) -> bool:
    """Whether `player` may sit at a table asking for `minimum` percent: a player without
    finished games yet is given the benefit of the doubt."""
    if not minimum:
        return True
    figure = reliability(player, now)
    return figure is None or figure.percent >= minimum
