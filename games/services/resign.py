"""Resigning during a game. In individual play the resigner loses the match (and is the
durak of the deal in play); in team play the team plays on with a computer player in the
resigner's seat."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Game, Move
from .core import commit_change, lock_game, need_user, own_seat, record_deal, seats_of, set_turn
from .errors import Conflict
from .results import keep_deal


def resign(game_id, user) -> Game:
    need_user(user)
    with transaction.atomic():
        game = lock_game(game_id)
        mine = own_seat(game, user)
        if not game.is_playing:
            raise Conflict(_("The game is not being played."))
        if mine.resigned_deal is not None:
            raise Conflict(_("You have already resigned."))
        match = game.match()
        mine.resigned_deal = match.deal_number
        mine.resigned_event = len(match.deal.history)
        if match.rules.teams:  # the team plays on: a computer player takes the seat
            mine.bot_level = game.fill_bot_level
            mine.save(update_fields=["resigned_deal", "resigned_event", "bot_level"])
        else:
            mine.save(update_fields=["resigned_deal", "resigned_event"])
            record_deal(game, match, seats_of(game), forfeit_team=mine.number)
            keep_deal(game, match, resigned=mine.number)
            match.resign(mine.number)
            game.state = match.to_json()
            set_turn(game, match)  # the match is over: results.finish_match
        return commit_change(game, kind=Move.Kind.SYSTEM, seat=mine.number, player=user,
                             actions=["resign"])
