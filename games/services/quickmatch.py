"""Quick match: a seat at the first open public table with the chosen rules and clock, or
a new 2-player table (no bots, public) for the next player who asks for the same."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from ..models import Game, Move, RulePreset, TimeControl
from . import offers
from .access import Someone, casual_only, need_user
from .errors import BadRequest, Conflict
from .friends import kept_apart
from .lobby import _time_control, create_game, join_game

if TYPE_CHECKING:
    from accounts.models import Player

QUICK_PLAYERS = offers.TWO
QUICK_DEALS = 1


def _same_kind(preset: RulePreset, clock: dict[str, Any], status: str) -> QuerySet[Game]:
    """Public tables with this preset and exactly this clock, rated, of one deal (as the
    table a quick match opens). With a time bank, the bank and the increment are the clock
    (not move_time)."""
    tables = Game.objects.filter(status=status, private=False, preset=preset,
                                 time_control=clock["time_control"], rated=True,
                                 deals=QUICK_DEALS, loss_limit__isnull=True)
    if clock["time_control"] == TimeControl.BANK:
        return tables.filter(bank_time=clock["bank_time"], increment=clock["increment"])
    return tables.filter(move_time=clock["move_time"])


def _fitting(preset: RulePreset, clock: dict[str, Any]) -> QuerySet[Game]:
    """Open fitting tables with a free seat, oldest first."""
    free = Count("seats", filter=Q(seats__player__isnull=True, seats__bot_level=""))
    return (_same_kind(preset, clock, Game.Status.OPEN).annotate(free=free)
            .filter(free__gt=0).order_by("created_at", "pk"))


def _just_started(user: Player, preset: RulePreset, clock: dict[str, Any]) -> QuerySet[Game]:
    """The user's fitting tables that have started but where nobody has moved yet: what
    another tab's quick match has just made of their click."""
    moved = Move.objects.filter(game=OuterRef("pk")).exclude(kind=Move.Kind.SYSTEM)
    return (_same_kind(preset, clock, Game.Status.PLAYING).filter(seats__player=user)
            .exclude(Exists(moved)).order_by("started_at", "pk"))


def quick_match(user: Someone, preset: object, *, time_control: str | None = None,
                move_time: timedelta | None = None, bank_time: timedelta | None = None,
                increment: timedelta | None = None) -> Game:
    """Seat `user` at the first fitting open table (not one they sit at already), or open
    one. A table of their own that fits and still waits, or has just started with nobody
    having moved, is given back, not a second one (quick match from several tabs).

    Two quick matches for the same preset take turns: each locks the preset's row first,
    so the second sees the table the first opened and joins it (no two lonely tables)."""
    player = need_user(user)
    casual_only(player, rated=True)  # quick match tables are rated
    if not isinstance(preset, RulePreset) or not preset.active:
        raise BadRequest(_("That rule preset is not offered."))
    if not offers.for_two(preset):
        raise BadRequest(_("A quick match is for two players: %(preset)s is played by "
                           "%(players)s.") % {
            "preset": preset.label, "players": offers.players_words(preset)})
    clock = _time_control(preset, time_control, move_time, bank_time, increment)
    with transaction.atomic():
        list(RulePreset.objects.select_for_update().filter(pk=preset.pk))  # the turn lock
        apart = kept_apart(player.pk)  # never paired with a block either way
        tables = list(_fitting(preset, clock).exclude(seats__player_id__in=apart))
        mine = [game for game in tables if game.seats.filter(player=player).exists()]
        if mine:
            return mine[0]
        started = _just_started(player, preset, clock).first()
        if started is not None:
            return started
        for game in tables:
            try:  # a table filled from its own page meanwhile: try the next
                return join_game(game.pk, user)
            except Conflict:
                continue
        return create_game(user, preset, players=QUICK_PLAYERS, bots=0, private=False,
                           deals=QUICK_DEALS, rated=True, **clock)
