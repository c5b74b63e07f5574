"""Computer players at the table: a bot turn plays bot moves while a bot holds the
initiative, at most BOT_MOVES_PER_TASK of them; the last one's commit queues the next turn.
With people at the table a turn plays one move, and its commit queues the next after the
pace (turn.bot_pace), so that each card shows on its own. A person's standing order that
fits (games.services.orders) is played in a turn too, as a bot's move."""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils import timezone

from ..bots import choose_action
from ..engine import View
from ..models import Game, Move
from .clocks import timeout_action
from .errors import GameError, StaleVersion
from .moves import play_order, play_seat
from .orders import standing_action
from .turn import bot_pace

logger = logging.getLogger(__name__)

# Bounded, so that one task never holds a worker for a whole all-bot game, and so that with
# eager Celery (the fast test tier) the queued turns nest only moves/100 deep.
BOT_MOVES_PER_TASK = 100


def _bot_budget() -> float | None:
    """Seconds a bot may think (None: its level's default)."""
    return settings.BOT_MOVE_BUDGET


def bot_action(level: str, view: View) -> str | None:
    """The bot's choice as a token (None if the bot failed); bots see only
    deal.view(seat)."""
    try:
        return choose_action(level, view, budget=_bot_budget()).token()
    except Exception:  # a broken bot must not stop the table
        logger.exception("bot %s failed", level)
        return None


def run_bots(game_id: int, *, version: int | None = None, max_moves: int | None = None) -> int:
    """Play bot moves while a bot holds the initiative; returns how many were played.

    Each move goes through play_seat (its own transaction and lock). Every move but the
    last tells the commit that this loop plays on; the last one's commit queues a new bot
    turn if a bot is still to act. With `version`, a game that has moved on since (a stale
    task) is left alone; a change landing mid-loop ends it (its maker queued what follows).
    With a person at the table (a pace to keep) it plays one move; its commit queues the
    next turn after the pace.
    """
    max_moves = BOT_MOVES_PER_TASK if max_moves is None else max_moves
    moves = 0
    while moves < max_moves:
        game = Game.objects.filter(pk=game_id).first()
        if game is None or not game.is_playing:
            break
        if version is not None and moves == 0 and game.version != version:
            break
        match = game.match_in_play()
        number = match.deal.to_act
        if number is None:
            break
        seats = list(game.seats.order_by("number"))
        seat = seats[number] if number < len(seats) else None
        if seat is None:
            break
        paced = bot_pace(seats, Move.Kind.BOT) > 0
        plays_on = moves + 1 < max_moves and not paced
        if not seat.is_bot:  # a person: only a standing order of theirs plays for them
            if standing_action(match.deal, seat) is None:
                break
            try:
                play_order(game_id, number, game.version, bot_plays_on=plays_on)
            except GameError:
                break  # a newer change, or the order was changed meanwhile
            moves += 1
            if paced:
                break  # the commit queued the next turn, after the pace
            continue
        if seat.stands_in and game.deadline and game.deadline > timezone.now():
            break  # a stand-in keeps a person's pace: the sweep wakes it at its time
        view = match.deal.view(number)
        # A failed or refused bot move falls back to the timeout move (section 10).
        fallback = timeout_action(match.deal, number).token()
        token = bot_action(seat.bot_level, view) or fallback
        try:
            play_seat(game_id, number, [token], game.version, by_bot=True,
                      bot_plays_on=plays_on)
        except StaleVersion:
            break  # another change landed first; whoever made it queued what follows
        except GameError as exc:
            logger.error("bot move %s refused (%s); playing %s", token, exc, fallback)
            try:
                play_seat(game_id, number, [fallback], game.version, by_bot=True,
                          bot_plays_on=plays_on)
            except StaleVersion:
                break
        moves += 1
        if paced:
            break  # the commit queued the next turn, after the pace
    return moves
