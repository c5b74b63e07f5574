"""A field of players, a short preset (24 cards: quick deals) and helpers that play a
tournament's tables to their end through the services."""

from datetime import UTC, datetime

import pytest
import time_machine

from games import services
from games.models import RulePreset
from tests.games.playout import play_out

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def field(django_user_model):
    def make(n, prefix="p"):
        return [django_user_model.objects.create_user(username=f"{prefix}{i:02d}",
                                                      password="x-" * 8)
                for i in range(1, n + 1)]
    return make


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(username="director", password="x-" * 8,
                                                 is_staff=True)


@pytest.fixture
def short(db):
    """24 cards, hands of 5: a deal of two to four players is over in a few dozen moves."""
    return RulePreset.objects.create(name="Short", min_players=2, max_players=4,
                                     deck_size=24, hand_size=5)


@pytest.fixture
def seed_prefix():
    return "tour"


@pytest.fixture
def frozen():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def play_round(tournament, seed=0):
    """Play every table of the current round to its end, then close the round."""
    rnd = tournament.round_set.get(number=tournament.current_round)
    for k, table in enumerate(rnd.tables.select_related("game")):
        play_out(table.game, seed=seed * 100 + k)
    assert services.tournament.advance(tournament.pk)
    tournament.refresh_from_db()
    return rnd
