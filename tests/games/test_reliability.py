"""Reliability: the share of a player's games finished in the last 90 days without a
timeout, on each profile; a table's maker may ask for a minimum, checked at the seat."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Seat
from games.services.reliability import Reliability, reliability

pytestmark = pytest.mark.django_db


def finished(player, classic, *, timeouts=0, days_ago=1, status=Game.Status.FINISHED):
    game = Game.objects.create(preset=classic, rules={}, players=2, status=status,
                               move_time=timedelta(days=1),
                               finished_at=timezone.now() - timedelta(days=days_ago))
    Seat.objects.create(game=game, number=0, team=0, player=player, timeouts_total=timeouts)
    Seat.objects.create(game=game, number=1, team=1, bot_level="easy")
    return game


def test_the_share_of_recent_games_finished_without_a_timeout(alice, classic, client):
    assert reliability(alice) is None
    for timeouts in (0, 0, 0, 2):
        finished(alice, classic, timeouts=timeouts)
    finished(alice, classic, timeouts=3, days_ago=100)  # too long ago
    finished(alice, classic, timeouts=1, status=Game.Status.ABORTED)  # not finished
    assert reliability(alice) == Reliability(percent=75, games=4)
    body = client.get(alice.get_absolute_url()).content.decode()
    assert "Reliability: <strong>75%</strong> of 4 games in the last 90 days" in body


def test_the_own_profile_shows_it_too(alice_client, alice, classic):
    finished(alice, classic)
    body = alice_client.get("/accounts/profile/").content.decode()
    assert "Reliability: <strong>100%</strong> of 1 game in the last 90 days" in body


def test_a_table_may_ask_for_a_minimum(alice, bob, classic, seeded, django_user_model):
    finished(bob, classic, timeouts=1)
    finished(bob, classic)  # 50%
    game = services.create_game(alice, classic, players=2, min_reliability=90)
    with pytest.raises(services.Forbidden, match="at least 90% of their games"):
        services.join_game(game.pk, bob)
    newcomer = django_user_model.objects.create_user("carol", "carol@example.org", "pw")
    services.join_game(game.pk, newcomer)  # no finished games yet: welcome
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_the_lobby_form_sets_the_minimum(alice_client, classic):
    alice_client.post("/games/new/", {
        "preset": classic.pk, "players": 2, "bots": 0, "bot_level": "medium",
        "match_kind": "deals", "count": 1, "min_reliability": "75"})
    assert Game.objects.get().min_reliability == 75
    with pytest.raises(services.BadRequest):
        services.create_game(Game.objects.get().created_by, classic, players=2,
                             min_reliability=101)
