"""What every change shares: the row lock, who may see or play, and saving a change
(next version, move log row, notify after the commit)."""

from __future__ import annotations

import hmac
import logging
import random
import time
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import notify
from ..engine import Match
from ..models import Game, Move, Seat
from .errors import BadRequest, Forbidden, NotFound
from .ratings import rate_game
from .reminders import REMINDER_MIN_MOVE_TIME as SLOW_TURN
from .reminders import first_reminder
from .results import finish_match
from .your_move import move_email_at

move_log = logging.getLogger("durak.move")  # one line per change of a game, after its commit


def lock_game(game_id) -> Game:
    """The game row, locked until the transaction ends; NotFound for a bad id."""
    try:
        pk = int(game_id)
    except (TypeError, ValueError):
        raise NotFound(_("There is no such game.")) from None
    try:
        # Lock the game row only (no joins: FOR UPDATE would lock the preset row too).
        game = Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise NotFound(_("There is no such game.")) from None
    game.locked_at = time.monotonic()  # for the move's log line (commit_change)
    return game


def seats_of(game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("number"))


def seat_of(game, user) -> Seat | None:
    """The user's seat at this game, or None."""
    if user is None or not user.is_authenticated:
        return None
    return game.seats.select_related("player").filter(player=user).first()


def can_view(game, user, invite_token=None) -> bool:
    """Private games are seen only by their players, the player challenged to one, holders
    of the invite link, and staff."""
    if not game.private:
        return True
    if user is not None and user.is_authenticated and (
        user.is_staff or game.challenged_id == user.pk
        or game.seats.filter(player=user).exists()
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


def bot_holds_initiative(game: Game, seats: list[Seat] | None = None) -> bool:
    """A computer player is to act and plays at once (a stand-in for an absent person
    waits for its time: the sweep wakes it, see set_turn). `seats` saves a query."""
    if seats is not None:
        if not game.is_playing or game.turn_seat is None:
            return False
        seat = seats[game.turn_seat]
        return seat.player_id is None and seat.bot_level != ""
    return (game.is_playing and game.turn_seat is not None
            and game.seats.filter(number=game.turn_seat, player__isnull=True)
            .exclude(bot_level="").exists())


def commit_change(game: Game, *, kind: str, seat=None, player=None, actions=(),
                  bot_plays_on=False, seats: list[Seat] | None = None,
                  fields: tuple[str, ...] | None = None) -> Game:
    """Save the game with the next version and log the change (tokens); after the commit,
    notify tells the table and, if a bot is to act, queues its turn.

    `bot_plays_on`: the caller is a bot loop that plays the next bot move itself, so no
    bot turn is queued for this version. `seats` (the game's, in order) saves queries;
    `fields`, the only columns the change touched, saves writing the rest.
    """
    game.version += 1
    game.save(update_fields=[*fields, "version"] if fields else None)
    rate_game(game)  # a rated game that has just finished moves its players' ratings, once
    Move.objects.create(game=game, seq=game.version, seat=seat, player=player,
                        actions=list(actions), kind=kind)
    bot_to_move = not bot_plays_on and bot_holds_initiative(game, seats)
    transaction.on_commit(
        partial(notify.game_changed, game.pk, game.version, bot_to_move=bot_to_move),
        robust=True)
    if seats is not None:
        people = [s.player_id for s in seats if s.player_id is not None]
    else:
        people = list(game.seats.filter(player__isnull=False).values_list("player_id", flat=True))
    if game.challenged_id is not None and game.challenged_id not in people:
        people.append(game.challenged_id)  # their count of open challenges (navigation)
    lobby = kind == Move.Kind.SYSTEM or not game.is_playing  # seats, start, end: the lobby
    transaction.on_commit(partial(notify.people_changed, people, lobby=lobby), robust=True)
    transaction.on_commit(partial(_log_move, game, kind, seat, getattr(game, "locked_at", None)))
    return game


def _log_move(game: Game, kind: str, seat, locked_at) -> None:
    """One line per change; with LOG_FORMAT=json each field is a key of the line."""
    took = round((time.monotonic() - locked_at) * 1000, 1) if locked_at is not None else None
    move_log.info("game %s v%s %s seat %s %s ms", game.pk, game.version, kind, seat, took,
                  extra={"game": game.pk, "version": game.version, "kind": kind, "seat": seat,
                         "status": game.status, "duration_ms": took})


def set_turn(game: Game, match: Match, now=None, seats: list[Seat] | None = None) -> None:
    """The seat to act, when its turn began and its deadline, or the end of the game.
    With a time bank the deadline is the seat's bank; `seats` saves a query."""
    now = now or timezone.now()
    if match.is_over:
        finish_match(game, match, now)
    else:
        game.turn_seat = match.deal.to_act
        game.turn_started = now
        game.deadline = now + turn_allowance(game, game.turn_seat, seats)
    game.reminders_sent = 0
    game.paused_at = game.next_reminder = game.move_email_at = None
    if game.deadline is None:
        return
    seat = _turn_seat(game, seats)
    if seat is not None and seat.stands_in:
        # A stand-in moves at a person's pace, within the seat's time (the sweep wakes it).
        game.deadline = now + (game.deadline - now) * STAND_IN_PACE.uniform(0.05, 0.25)
    elif game.deadline - now >= SLOW_TURN and seat is not None and on_vacation(seat.player, now):
        game.paused_at = now  # the player to act is on vacation: their clock stands still
    game.next_reminder = first_reminder(now, game.deadline)
    game.move_email_at = move_email_at(now, game.deadline)


def _turn_seat(game: Game, seats: list[Seat] | None) -> Seat | None:
    if seats is not None:
        return seats[game.turn_seat]
    return game.seats.select_related("player").filter(number=game.turn_seat).first()


STAND_IN_PACE = random.Random()  # tests may seed it


def on_vacation(player, now) -> bool:
    return player is not None and player.vacation_until is not None and player.vacation_until > now


def restart_clock(game: Game, now) -> None:
    """After a stop (vacation): the turn's times move on by the time the clock stood."""
    if game.paused_at is None:
        return
    stood = now - game.paused_at
    for name in ("turn_started", "deadline", "next_reminder", "move_email_at"):
        if getattr(game, name) is not None:
            setattr(game, name, getattr(game, name) + stood)
    game.paused_at = None


def turn_allowance(game: Game, number: int, seats: list[Seat] | None = None) -> timedelta:
    """The time seat `number` gets for its turn: the time per move, or its bank."""
    if not game.has_bank:
        return game.move_time
    if seats is None:
        bank = game.seats.filter(number=number).values_list("bank", flat=True).first()
    else:
        bank = seats[number].bank
    return bank if bank is not None else game.bank_time or game.move_time


def charge_clock(game: Game, seat: Seat, now) -> None:
    """With a time bank, the seat to act pays for the time it took and earns the increment,
    up to the bank it started with."""
    if not game.has_bank or game.turn_seat != seat.number or game.turn_started is None:
        return
    left = max(timedelta(0), (seat.bank or timedelta(0)) - (now - game.turn_started))
    seat.bank = min(game.bank_time, left + (game.increment or timedelta(0)))
    seat.save(update_fields=["bank"])


def record_deal(game: Game, match: Match, seats: list[Seat], *, forfeit_team=None) -> None:
    """Count a finished deal in every seated player's record (R21, R22, R31)."""
    rules, deal = match.rules, match.deal
    for seat in seats:
        if seat.player_id is None:
            continue
        if seat.stands_in and forfeit_team is None and not game.preset.stand_in_counts:
            continue  # a computer finished the deal: not on the absent player's record
        if forfeit_team is not None:
            lost, drawn = rules.team_of(seat.number) == forfeit_team, False
        elif deal.is_draw:
            lost, drawn = False, True
        else:
            lost, drawn = rules.team_of(seat.number) == deal.losing_team, False
        seat.player.record_deal(lost=lost, drawn=drawn)
