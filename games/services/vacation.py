"""Vacation: a player stops the clocks of all their slow games (an hour or more per move)
for up to VACATION_DAYS_PER_YEAR days a year; the clocks restart when they come back or
when the vacation runs out."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Game, Move, Seat
from .access import Someone, need_user
from .change import locked
from .errors import BadRequest, Conflict
from .reminders import REMINDER_MIN_MOVE_TIME as SLOW_TURN
from .turn import on_vacation, restart_clock

if TYPE_CHECKING:
    from accounts.models import Player

DAY = timedelta(days=1)
# A day of vacation counts as used once more than this of it has passed: one called off a
# few seconds (or minutes) after it began, or a few minutes into a new day, costs no day.
GRACE = timedelta(hours=1)


def days_left(player: Player, now: datetime | None = None) -> int:
    """Vacation days the player may still take this year."""
    return player.vacation_days_left(now)


def start_vacation(user: Someone, days: object, now: datetime | None = None) -> Player:
    """Stop the clocks of the user's slow games for `days` days."""
    me = need_user(user)
    now = now or timezone.now()
    if isinstance(days, bool) or not isinstance(days, int):
        raise BadRequest(_("Say how many days, as a whole number."))
    with transaction.atomic():
        player = get_user_model().objects.select_for_update().get(pk=me.pk)
        if on_vacation(player, now):
            raise Conflict(_("You are already on vacation."))
        left = days_left(player, now)
        if not 1 <= days <= left:
            raise BadRequest(ngettext(
                "You can take between 1 and %(n)s day of vacation this year.",
                "You can take between 1 and %(n)s days of vacation this year.", left)
                % {"n": left} if left else _("You have no vacation days left this year."))
        player.vacation_until = now + days * DAY
        taken = dict(player.vacation_days or {})
        taken[str(now.year)] = taken.get(str(now.year), 0) + days
        player.vacation_days = taken
        player.save(update_fields=["vacation_until", "vacation_days"])
        for game_id in _my_turns(player):
            with locked(game_id) as change:
                game = change.game
                if (game.turn_time is not None and game.turn_time >= SLOW_TURN
                        and not game.paused_at):
                    game.paused_at = now
                    change.save(Move.Kind.SYSTEM, ["vacation"], player=player)
    me.vacation_until = player.vacation_until
    return player


def end_vacation(user: Someone, now: datetime | None = None) -> Player:
    """Back early (or the vacation ran out): the days not used are given back (a day counts
    once more than GRACE of it has passed), and the clocks of the player's games run again."""
    me = need_user(user)
    now = now or timezone.now()
    with transaction.atomic():
        player = get_user_model().objects.select_for_update().get(pk=me.pk)
        if player.vacation_until is None:
            raise Conflict(_("You are not on vacation."))
        unused = math.floor((max(timedelta(0), player.vacation_until - now) + GRACE) / DAY)
        if unused:
            taken = dict(player.vacation_days or {})
            year = str(now.year)
            taken[year] = max(0, taken.get(year, 0) - unused)
            player.vacation_days = taken
        player.vacation_until = None
        player.save(update_fields=["vacation_until", "vacation_days"])
        for game_id in _my_turns(player):
            with locked(game_id) as change:
                if change.game.paused_at is not None:
                    restart_clock(change.game, now)
                    change.save(Move.Kind.SYSTEM, ["back"], player=player)
    me.vacation_until = None
    return player


def end_vacations(now: datetime | None = None) -> int:
    """Beat: restart the clocks of players whose vacation ran out."""
    now = now or timezone.now()
    ended = 0
    for player in get_user_model().objects.filter(vacation_until__lte=now):
        try:
            end_vacation(player, now)
            ended += 1
        except Conflict:
            continue  # they came back first
    return ended


def _my_turns(player: Player) -> list[int]:
    return list(Seat.objects.filter(
        player=player, bot_level="", game__status=Game.Status.PLAYING,
        game__turn_seat=F("number")).values_list("game_id", flat=True))
