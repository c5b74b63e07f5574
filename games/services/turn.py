"""The turn clock: whose turn it is, when it began and its deadline (the time per move or
the seat's bank, a stand-in's pace, a vacation's stopped clock), the reminders' times,
whether a computer player is to act now, and how long it waits first."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone

from ..engine import Match
from ..models import Game, Move, Seat
from .reminders import REMINDER_MIN_MOVE_TIME as SLOW_TURN
from .reminders import first_reminder
from .results import finish_match
from .your_move import move_email_at

if TYPE_CHECKING:
    from accounts.models import Player

STAND_IN_PACE = random.Random()  # tests may seed it


def set_turn(game: Game, match: Match, now: datetime | None, seats: list[Seat]) -> None:
    """The seat to act, when its turn began and its deadline, or the end of the game.
    With a time bank the deadline is the seat's bank. `seats`: the game's, in order."""
    now = now or timezone.now()
    if match.is_over:
        finish_match(game, match, now)
    else:
        to_act = match.deal.to_act
        assert to_act is not None  # a match in play has a seat to act (R13)
        game.turn_seat = to_act
        game.turn_started = now
        game.deadline = now + turn_allowance(game, to_act, seats)
    game.reminders_sent = 0
    game.paused_at = game.next_reminder = game.move_email_at = None
    if game.deadline is None or game.turn_seat is None or game.lesson:
        return  # a lesson is played when its learner likes: no reminders, no mails
    seat = seats[game.turn_seat]
    if seat.stands_in:
        # A stand-in moves at a person's pace, within the seat's time (the sweep wakes it).
        game.deadline = now + (game.deadline - now) * STAND_IN_PACE.uniform(0.05, 0.25)
    elif game.deadline - now >= SLOW_TURN and on_vacation(seat.player, now):
        game.paused_at = now  # the player to act is on vacation: their clock stands still
    game.next_reminder = first_reminder(now, game.deadline)
    game.move_email_at = move_email_at(now, game.deadline)


def on_vacation(player: Player | None, now: datetime) -> bool:
    return player is not None and player.vacation_until is not None and player.vacation_until > now


def restart_clock(game: Game, now: datetime) -> None:
    """After a stop (vacation): the turn's times move on by the time the clock stood."""
    if game.paused_at is None:
        return
    stood = now - game.paused_at
    for name in ("turn_started", "deadline", "next_reminder", "move_email_at"):
        if getattr(game, name) is not None:
            setattr(game, name, getattr(game, name) + stood)
    game.paused_at = None


def turn_allowance(game: Game, number: int, seats: list[Seat]) -> timedelta:
    """The time seat `number` gets for its turn: the time per move, or its bank."""
    if not game.has_bank:
        return game.move_time
    bank = seats[number].bank
    return bank if bank is not None else game.bank_time or game.move_time


def charge_clock(game: Game, seat: Seat, now: datetime) -> None:
    """With a time bank, the seat to act pays for the time it took and earns the increment,
    up to the bank it started with."""
    if not game.has_bank or game.turn_seat != seat.number or game.turn_started is None:
        return
    assert game.bank_time is not None  # a game with a bank has one (services.lobby)
    left = max(timedelta(0), (seat.bank or timedelta(0)) - (now - game.turn_started))
    seat.bank = min(game.bank_time, left + (game.increment or timedelta(0)))
    seat.save(update_fields=["bank"])


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


def bot_pace(seats: list[Seat], kind: str) -> float:
    """Seconds a computer player waits before its move after a change of `kind`, so that
    the people at the table see each card land (settings.BOT_PACE_SECONDS); half as long
    after a person's own move, and none at a table of computers only."""
    if not any(seat.player_id is not None for seat in seats):
        return 0.0
    pace = float(settings.BOT_PACE_SECONDS)
    return pace / 2 if kind == Move.Kind.MOVE else pace
