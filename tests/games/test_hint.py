"""The coach's hint: casual games only, your own seat only, from your seat's view."""

import re
from datetime import timedelta

import pytest

from games import limits, services
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

HINT = re.compile(r'data-hint="([^"]+)"')


def _casual(alice, classic, **kwargs):
    game = services.create_game(alice, classic, players=2, bots=["medium"], rated=False,
                                move_time=timedelta(hours=1), **kwargs)
    game.refresh_from_db()
    return game


def _my_turn(game):
    """Until alice (seat 0) may act: the bot moves (eager Celery) after each of hers."""
    game.refresh_from_db()
    assert game.match().deal.legal_actions(0), "alice has nothing to do"
    return game


def test_a_player_gets_a_hint_for_their_own_move(alice_client, alice, classic, seeded):
    game = _my_turn(_casual(alice, classic))
    response = alice_client.post(f"/games/{game.pk}/hint/", headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200 and "Coach:" in body, body
    token = HINT.search(body).group(1)
    assert token in [a.token() for a in game.match().deal.legal_actions(0)]
    assert "not being the durak after it: about" in body
    # Collected again later by version: the same hint, from the cache.
    again = alice_client.get(f"/games/{game.pk}/hint/?version={game.version}").content.decode()
    assert HINT.search(again).group(1) == token


def test_no_hint_in_a_rated_game(alice_client, alice, classic, seeded):
    game = services.create_game(alice, classic, players=2, bots=["medium"], rated=True)
    response = alice_client.post(f"/games/{game.pk}/hint/")
    assert response.status_code == 403 and "casual games" in response.content.decode()


def test_no_hint_for_a_seat_that_is_not_yours(client, alice, bob, classic, seeded):
    game = _casual(alice, classic)
    client.force_login(bob)
    response = client.post(f"/games/{game.pk}/hint/")
    assert response.status_code == 403 and "no seat" in response.content.decode()
    assert 'data-hint="' not in client.get(
        f"/games/{game.pk}/hint/?version={game.version}").content.decode()
    private = _casual(alice, classic, private=True)
    assert client.post(f"/games/{private.pk}/hint/").status_code == 404


def test_bad_requests_change_nothing(alice_client, alice, classic, seeded):
    game = _casual(alice, classic)
    version = Game.objects.get(pk=game.pk).version
    assert alice_client.get(f"/games/{game.pk}/hint/?version=x").status_code == 400
    assert alice_client.post("/games/999/hint/").status_code == 404
    assert alice_client.put(f"/games/{game.pk}/hint/").status_code == 405
    assert Game.objects.get(pk=game.pk).version == version


def test_the_hint_speaks_the_players_language(alice_client, alice, classic, seeded):
    game = _my_turn(_casual(alice, classic))
    alice.language = "ru"
    alice.save()
    body = alice_client.post(f"/games/{game.pk}/hint/").content.decode()
    assert "Тренер:" in body


def test_the_table_offers_the_coach_only_in_casual_games(alice_client, alice, classic, seeded):
    casual = _my_turn(_casual(alice, classic))
    assert "Ask the coach for a hint" in alice_client.get(f"/games/{casual.pk}/").content.decode()
    rated = services.create_game(alice, classic, players=2, bots=["medium"], rated=True)
    assert "Ask the coach" not in alice_client.get(f"/games/{rated.pk}/").content.decode()


@pytest.fixture
def queued_hints(monkeypatch):
    """The coach's queue, as a list: its worker is busy elsewhere."""
    queued = []
    monkeypatch.setattr("games.notify.queue_hint", lambda *args: queued.append(args))
    return queued


def test_60_requests_at_one_version_queue_one_hint(alice_client, alice, classic, seeded,
                                                    queued_hints):
    game = _my_turn(_casual(alice, classic))
    statuses = {alice_client.post(f"/games/{game.pk}/hint/").status_code for _ in range(60)}
    assert statuses == {200}
    assert queued_hints == [(game.pk, game.version, 0)]


def test_a_player_over_the_hint_limit_is_refused_and_nothing_is_queued(
        alice_client, alice, classic, seeded, queued_hints, settings):
    settings.LIMITS = {**settings.LIMITS, "hint": (3, 60)}
    games = [_my_turn(_casual(alice, classic)) for _ in range(4)]
    for game in games[:3]:
        assert alice_client.post(f"/games/{game.pk}/hint/").status_code == 200
    refused = alice_client.post(f"/games/{games[3].pk}/hint/")
    assert refused.status_code == 429
    assert "many hints" in refused.content.decode()
    assert [args[0] for args in queued_hints] == [g.pk for g in games[:3]]
    # Asking again where a hint is on its way costs nothing and is not refused.
    assert alice_client.post(f"/games/{games[0].pk}/hint/").status_code == 200
    assert len(queued_hints) == 3
    # The refusal changed nothing: once the window has passed, that hint is queued.
    limits.forget("hint", alice.pk)
    assert alice_client.post(f"/games/{games[3].pk}/hint/").status_code == 200
    assert queued_hints[-1] == (games[3].pk, games[3].version, 0)
