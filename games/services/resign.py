"""Resigning during a game. In individual play the resigner loses the match (and is the
durak of the deal in play); in team play the team plays on with a computer player in the
resigner's seat."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..models import Game, Move
from .access import Someone
from .change import locked
from .errors import Conflict
from .results import finish_match


def resign(game_id: int | str, user: Someone) -> Game:
    with locked(game_id, user, seated=True, playing=True) as change:
        game, mine = change.game, change.my_seat
        if mine.resigned_deal is not None:
            raise Conflict(_("You have already resigned."))
        match = game.match_in_play()
        mine.resigned_deal = match.deal_number
        mine.resigned_event = len(match.deal.history)
        if match.rules.teams:  # the team plays on: a computer player takes the seat
            mine.bot_level = game.fill_bot_level
            mine.save(update_fields=["resigned_deal", "resigned_event", "bot_level"])
        else:
            mine.save(update_fields=["resigned_deal", "resigned_event"])
            match.resign(mine.number)  # R24: the deal in play counts as lost by them
            finish_match(game, match, seats=change.seats)
        return change.save(Move.Kind.SYSTEM, ["resign"], seat=mine.number)
