"""What every change shares: the row lock, who may see or play, and saving a change
(next version, move log row, notify after the commit)."""

from __future__ import annotations

import hmac
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import notify
from ..engine import Match
from ..models import Game, Move, Seat
from .errors import BadRequest, Forbidden, NotFound
from .results import finish_match


def lock_game(game_id) -> Game:
    """The game row, locked until the transaction ends; NotFound for a bad id."""
    try:
        pk = int(game_id)
    except (TypeError, ValueError):
        raise NotFound(_("There is no such game.")) from None
    try:
        # Lock the game row only (no joins: FOR UPDATE would lock the preset row too).
        return Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(_("There is no such game.")) from None


def seats_of(game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("number"))


def seat_of(game, user) -> Seat | None:
    """The user's seat at this game, or None."""
    if user is None or not user.is_authenticated:
        return None
    return game.seats.select_related("player").filter(player=user).first()


def can_view(game, user, invite_token=None) -> bool:
    """Private games are seen only by their players, holders of the invite link, and staff."""
    if not game.private:
        return True
    if user is not None and user.is_authenticated and (
        user.is_staff or game.seats.filter(player=user).exists()
    ):
        return True
    return bool(invite_token) and hmac.compare_digest(str(invite_token), game.invite_token)


def own_seat(game, user) -> Seat:
    """The user's seat at this game; NotFound if they may not even see it, else Forbidden."""
    seat = seat_of(game, user)
    if seat is None:
        if not can_view(game, user):
            raise NotFound(_("There is no such game."))
        raise Forbidden(_("You have no seat at this game."))
    return seat


def need_user(user) -> None:
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Log in to play."))


def parse_version(version) -> int:
    if isinstance(version, bool):
        raise BadRequest(_("The version must be a whole number."))
    try:
        return int(version)
    except (TypeError, ValueError):
        raise BadRequest(_("The version must be a whole number.")) from None


def bot_holds_initiative(game: Game) -> bool:
    """A computer player (a bot seat, or a bot standing in) is to act."""
    return (game.is_playing and game.turn_seat is not None
            and game.seats.filter(number=game.turn_seat).exclude(bot_level="").exists())


def commit_change(game: Game, *, kind: str, seat=None, player=None, actions=(),
                  bot_plays_on=False) -> Game:
    """Save the game with the next version and log the change (tokens); after the commit,
    notify tells the table and, if a bot is to act, queues its turn.

    `bot_plays_on`: the caller is a bot loop that plays the next bot move itself, so no
    bot turn is queued for this version.
    """
    game.version += 1
    game.save()
    Move.objects.create(game=game, seq=game.version, seat=seat, player=player,
                        actions=list(actions), kind=kind)
    bot_to_move = not bot_plays_on and bot_holds_initiative(game)
    transaction.on_commit(
        partial(notify.game_changed, game.pk, game.version, bot_to_move=bot_to_move),
        robust=True)
    return game


def set_turn(game: Game, match: Match, now=None) -> None:
    """The seat to act and its deadline, or the end of the game."""
    now = now or timezone.now()
    if match.is_over:
        finish_match(game, match, now)
    else:
        game.turn_seat = match.deal.to_act
        game.deadline = now + game.move_time
    game.reminders_sent = 0


def record_deal(game: Game, match: Match, seats: list[Seat], *, forfeit_team=None) -> None:
    """Count a finished deal in every seated player's record (R21, R22, R31)."""
    rules, deal = match.rules, match.deal
    for seat in seats:
        if seat.player_id is None:
            continue
        if forfeit_team is not None:
            lost, drawn = rules.team_of(seat.number) == forfeit_team, False
        elif deal.is_draw:
            lost, drawn = False, True
        else:
            lost, drawn = rules.team_of(seat.number) == deal.losing_team, False
        seat.player.record_deal(lost=lost, drawn=drawn)
