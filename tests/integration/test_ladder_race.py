"""The computer players' ladder on PostgreSQL (docs/ladder.md): two rated games against the
same bot level that end at the same moment both move the level's one row, neither update
lost (its row is locked, after the people's, in one order)."""

from datetime import timedelta
from functools import partial

import pytest

from games import services
from games.models import BotRating, Game, RatingChange
from games.services.ratings import BOT_RATINGS, BOT_SIGMA

from .helpers import fresh, race, split

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def one_move_from_the_end(game):
    """Play the first legal actions until the next one ends the game; that move's args."""
    for _ in range(3000):
        game = fresh(game)
        deal = game.match().deal
        seat = deal.to_act
        action = deal.legal_actions(seat)[0]
        after = deal.copy()
        after.apply(seat, action)
        if after.is_over:
            return game.pk, seat, [action.token()], game.version
        services.play_seat(game.pk, seat, [action.token()], game.version)
    raise AssertionError("the game did not near its end")


ROUNDS = 4


def test_two_games_against_one_level_ending_at_once_both_count(real_services, alice, bob,
                                                               classic, seeded):
    BotRating.objects.create(level="hard", pool="individual", mu=BOT_RATINGS["hard"],
                             sigma=BOT_SIGMA)  # there already: the games race to update it
    for round_ in range(ROUNDS):
        games = [services.create_game(player, classic, players=2, bots=["hard"],
                                      move_time=timedelta(hours=1)) for player in (alice, bob)]
        last_moves = [one_move_from_the_end(game) for game in games]
        done, failed = split(race(*(partial(services.play_seat, *move) for move in last_moves)))
        assert not failed, failed
        for game in games:
            assert fresh(game).status == Game.Status.FINISHED
            assert RatingChange.objects.filter(game=game).count() == 1
        row = BotRating.objects.get(level="hard", pool="individual")
        assert row.games == 2 * (round_ + 1)  # one game's update lost would count one
