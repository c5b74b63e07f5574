"""After a match: a rematch (the same players and rules, seats rotated) that opens once
every person at the table has accepted (computer players accept at once), and the
lobby form's answers for a new game with these rules."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from .. import notify
from ..models import Game, Move, Seat
from .access import Someone, need_user
from .change import locked, new_change
from .errors import Conflict
from .friends import check_may_sit_with
from .lobby import start_match


def accept_rematch(game_id: int | str, user: Someone) -> Game:
    """The user accepts a rematch of their finished game; the last acceptance opens it.
    Accepting twice changes nothing."""
    with locked(game_id, user, seated=True) as change:
        game, mine = change.game, change.my_seat
        if game.status != Game.Status.FINISHED:
            raise Conflict(_("A rematch can be agreed once the game is over."))
        if game.rematch_id is not None:
            raise Conflict(_("The rematch has already begun."))
        if game.tournament_round_id is not None:
            raise Conflict(_("A tournament table has no rematch: the next round pairs the players."))
        if mine.wants_rematch:
            return game
        check_may_sit_with(need_user(user).pk, [s.player_id for s in change.seats])
        mine.wants_rematch = True
        mine.save(update_fields=["wants_rematch"])
        seats = change.seats
        if all(seat.wants_rematch for seat in seats if seat.player_id is not None):
            game.rematch = _open_rematch(game, seats)
        else:  # the others hear of the offer on their devices (games.services.push)
            transaction.on_commit(partial(notify.queue_push, "rematch", game.pk, mine.player_id),
                                  robust=True)
        return change.save(Move.Kind.SYSTEM, ["rematch"], seat=mine.number)


def _open_rematch(game: Game, seats: list[Seat]) -> Game:
    """The same players and rules at a new table, everyone one seat on; it starts at once."""
    rules = game.get_rules()
    new = Game.objects.create(
        preset=game.preset, rules=game.rules, players=game.players, deals=game.deals,
        loss_limit=game.loss_limit, time_control=game.time_control, move_time=game.move_time,
        bank_time=game.bank_time, increment=game.increment, rated=game.rated,
        fill_bot_level=game.fill_bot_level, private=game.private, created_by=game.created_by)
    rotated: list[Seat] = []
    for seat in seats:
        number = (seat.number + 1) % game.players
        bot = "" if seat.player_id is not None else seat.bot_level  # a person plays again
        rotated.append(Seat(game=new, number=number, team=rules.team_of(number),
                            player_id=seat.player_id, bot_level=bot,
                            bot_number=(seat.bot_number or seat.number + 1) if bot else None,
                            **Seat.facts_of(new)))
    Seat.objects.bulk_create(rotated)
    change = new_change(new)
    start_match(new, change.seats)
    return change.save(Move.Kind.SYSTEM, ["rematch"])


def new_game_answers(game: Game) -> dict[str, Any]:
    """The lobby form's answers for a new game with this game's rules and settings."""
    seats = list(game.seats.all())
    return {
        "preset": game.preset_id,
        "players": game.players,
        "bots": sum(1 for seat in seats if seat.player_id is None),
        "bot_level": game.fill_bot_level,
        "match_kind": "deals" if game.deals else "losses",
        "count": game.deals or game.loss_limit,
        "time_control": game.time_control,
        "move_time": int(game.move_time.total_seconds()),
        "bank_time": int(game.bank_time.total_seconds()) if game.bank_time else "",
        "increment": int(game.increment.total_seconds()) if game.increment else "",
        "private": game.private,
        "rated": "rated" if game.rated else "casual",
    }
