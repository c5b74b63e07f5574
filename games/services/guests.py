"""Unclaimed guests are removed (docs/design.md, "Guests from a link"): a guest away for
accounts.guests.GUEST_DAYS leaves the tables and tournaments still waiting for players,
and is then deleted if nothing of theirs is kept, else anonymised and deactivated, so that
their seats in finished games read "a guest" and replays and exports still work."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.guests import GUEST_DAYS

from ..models import ChatMute, Entry, Game, Move, PushSubscription, Seat, Tournament
from .errors import GameError
from .lobby import leave_game
from .tournament import leave_tournament

if TYPE_CHECKING:
    from accounts.models import Player

log = logging.getLogger("durak.guests")


def remove_old_guests(now: datetime | None = None) -> int:
    """Remove every unclaimed guest last seen GUEST_DAYS ago or more, but those seated at
    a game in play or entered in a tournament in play (they wait for its end); the number
    removed."""
    Player = get_user_model()
    now = now or timezone.now()
    away = Q(is_guest=True, is_active=True, away_since__lte=now - timedelta(days=GUEST_DAYS))
    old = Player.objects.annotate(away_since=Coalesce("last_seen", "date_joined")).filter(away)
    busy = (Q(seats__game__status=Game.Status.PLAYING)
            | Q(entries__tournament__status=Tournament.Status.PLAYING))
    removed = 0
    for guest in old.exclude(busy).distinct():
        for game_id in Seat.objects.filter(
                player=guest, game__status=Game.Status.OPEN).values_list("game_id", flat=True):
            _try(leave_game, game_id, guest)
        for tournament_id in Entry.objects.filter(
                player=guest, tournament__status=Tournament.Status.OPEN).values_list(
                "tournament_id", flat=True):
            _try(leave_tournament, tournament_id, guest)
        still = old.filter(pk=guest.pk)  # a claim meanwhile makes them a player: kept
        PushSubscription.objects.filter(player=guest).delete()
        ChatMute.objects.filter(Q(user=guest) | Q(muted=guest)).delete()
        kept = (Seat.objects.filter(player=guest).exists()
                or Entry.objects.filter(player=guest).exists()
                or Move.objects.filter(player=guest).exists())
        if kept:
            done = still.update(is_active=False, display_name="", display_name_skeleton="",
                                email="", time_zone="")
        else:
            done, _rows = still.delete()
        removed += bool(done)
    return removed


def _try(change: Callable[[int, Player], object], object_id: int, guest: Player) -> None:
    try:
        change(object_id, guest)
    except GameError as exc:  # it started meanwhile: the seat stays, anonymised
        log.info("guest %s stays at %s: %s", guest.pk, object_id, exc.message)
