"""Play a game to its end through the services, every seat (people and bots alike) making
a random legal move from a fixed seed (now and then two actions in one move, as the
table's form sends them)."""

import random
from datetime import timedelta

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
        tokens = [action.token()]
        after = deal.copy()
        after.apply(seat, action)
        if not after.is_over and after.to_act == seat and rng.random() < 0.3:
            tokens.append(rng.choice(after.legal_actions(seat)).token())  # one move, two actions
        services.play_seat(game.pk, seat, tokens, game.version)
    raise AssertionError("the game did not finish")


HOUR = timedelta(hours=1)


def table(creator, preset, others, **options):
    game = services.create_game(creator, preset, players=1 + len(others) + len(
        options.get("bots", ())), move_time=HOUR, **options)
    for user in others:
        services.join_game(game.pk, user, invite_token=game.invite_token)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    return game


def finish(game, seed=0) -> Game:
    game = play_out(game, seed)
    assert game.status == Game.Status.FINISHED
    return game
