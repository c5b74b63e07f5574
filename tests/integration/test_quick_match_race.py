"""Quick match from many tabs at once, on PostgreSQL: real threads, each with its own
connection, released together by a barrier. Two players with three tabs each must end at
one started table, with no second table left open or started."""

from datetime import timedelta
from functools import partial

import pytest

from games import services
from games.models import Game

from .helpers import race, split

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = 4
HOUR = timedelta(hours=1)


def test_six_tabs_of_two_players_make_one_started_table(real_services, alice, bob, classic,
                                                         seeded):
    for round_ in range(ROUNDS):
        Game.objects.all().delete()
        quick = partial(services.quick_match, preset=classic, time_control="move",
                        move_time=HOUR)
        outcomes = race(*[partial(quick, user) for user in (alice, bob) * 3])
        games, errors = split(outcomes)
        assert not errors, errors
        assert len({game.pk for game in games}) == 1, (round_, [g.pk for g in games])
        tables = list(Game.objects.values_list("status", flat=True))
        assert tables == [Game.Status.PLAYING], (round_, tables)
        game = Game.objects.get()
        assert sorted(game.seats.values_list("player", flat=True)) == sorted([alice.pk, bob.pk])


def test_a_player_with_a_started_quick_match_may_still_open_another_once_they_played(
        real_services, alice, bob, classic, seeded):
    """Only a table where nobody has moved yet is given back: after a move, a new click
    is a new table."""
    first = services.quick_match(alice, classic, time_control="move", move_time=HOUR)
    services.quick_match(bob, classic, time_control="move", move_time=HOUR)
    first.refresh_from_db()
    deal = first.match().deal
    seat = deal.to_act
    mover = first.seats.get(number=seat).player
    action = services.timeout_action(deal, seat).token()
    services.play(first.pk, mover, [action], first.version)
    again = services.quick_match(alice, classic, time_control="move", move_time=HOUR)
    assert again.pk != first.pk and again.status == Game.Status.OPEN
