"""Personas and helpers for the site's game tests.

alice makes games (the seated player), bob is her opponent, carol is an outsider and
admin is staff. Games are made through services, as the site makes them.
"""


import pytest

from games.models import Game, RulePreset
from tests.conftest import PASSWORD
from tests.stacking import stack_new_matches


@pytest.fixture
def dave(django_user_model):
    return django_user_model.objects.create_user(username="dave", password=PASSWORD)


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_user(username="admin", password=PASSWORD,
                                                 is_staff=True, is_superuser=True)


def client_for(user):
    from django.test import Client

    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def alice_client(alice):
    return client_for(alice)


@pytest.fixture
def bob_client(bob):
    return client_for(bob)


@pytest.fixture
def carol_client(carol):
    return client_for(carol)


@pytest.fixture
def admin_client(admin):
    return client_for(admin)


@pytest.fixture
def classic(db):
    return RulePreset.objects.create(name="Test classic", min_players=2, max_players=6)


@pytest.fixture
def pairs(db):
    return RulePreset.objects.create(name="Test pairs", min_players=4, max_players=4, teams="2x2")


def seat_user(game, number):
    return game.seats.get(number=number).player


def to_act(game):
    game.refresh_from_db()
    return game.match().deal.to_act


def first_legal(game, seat=None):
    game.refresh_from_db()
    deal = game.match().deal
    seat = deal.to_act if seat is None else seat
    return deal.legal_actions(seat)[0].token()


def play_url(game):
    return f"/games/{game.pk}/play/"


def table_url(game):
    return f"/games/{game.pk}/"


def post_move(client, game, actions, version=None, htmx=True, **extra):
    """Post a move as the table's form does: one `action` field per token."""
    data = {"action": actions,
            "version": game.version if version is None else version, **extra}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(play_url(game), data, headers=headers)


def snapshot(game):
    game = Game.objects.get(pk=game.pk)
    return (game.version, game.state, game.status, game.deadline, game.moves.count(),
            list(game.seats.values_list("number", "player", "bot_level", "timeouts")))


def refused(game, call, error, status=None):
    before = snapshot(game)
    with pytest.raises(error) as info:
        call()
    assert snapshot(game) == before
    if status is not None:
        assert info.value.status == status
    return info.value.message


DECK = ["7S", "9S", "7C", "9C", "7D", "9D", "QS", "JS", "QC", "JC", "QD", "JD", "6H"]


@pytest.fixture
def stacked(monkeypatch):
    """Seat 0 holds 7S 7C 7D QS QC QD, seat 1 9S 9C 9D JS JC JD; hearts are trump; seat 0
    leads."""
    stack_new_matches(monkeypatch, DECK)
