"""Play a game to its end through the services, every seat (people and bots alike) making
a random legal move from a fixed seed, as bots' turns would."""

import random

from games import services
from games.engine import ExchangeTrump
from games.models import Game


def play_out(game: Game, seed=0, max_moves=5000) -> Game:
    rng = random.Random(seed)
    for _ in range(max_moves):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        deal = game.match().deal
        seat = deal.to_act
        legal = [a for a in deal.legal_actions(seat) if not isinstance(a, ExchangeTrump)]
        action = rng.choice(legal or deal.legal_actions(seat))
        services.play_seat(game.pk, seat, [action.token()], game.version)
    raise AssertionError("the game did not finish")
