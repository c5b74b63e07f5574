"""Choosing a seat at a team table (games.services.lobby.join_game's `seat`): friends sit on
one team, a computer player in the chosen seat moves to another, and the table names your
partner."""

from datetime import timedelta

import pytest

from games import services
from games.models import Game

from .conftest import client_for, refused, table_url

pytestmark = pytest.mark.django_db


def _seats(game):
    return [(s.number, s.team, s.player.username if s.player else s.bot_level,
             s.bot_number) for s in game.seats.order_by("number")]


def test_a_friend_sits_as_your_partner_and_the_computer_moves(alice, bob, pairs, seeded):
    game = services.create_game(alice, pairs, players=4, bots=2, move_time=timedelta(hours=1))
    before = _seats(game)
    assert [team for _n, team, *_ in before] == [0, 1, 0, 1]
    assert before[1][2] == "" and before[2][2] and before[3][2]  # computers in seats 2 and 3
    game = services.join_game(game.pk, bob, seat=2)  # alice's partner's seat
    game.refresh_from_db()
    after = _seats(game)
    assert after[0][2] == "alice" and after[2][2] == "bob"  # one team: seats 0 and 2
    assert after[1][2] == before[2][2] and after[1][3] == 3  # the computer keeps its name
    assert after[3][2] == before[3][2]
    assert game.status == Game.Status.PLAYING  # the table was full, so it started


def test_a_seated_player_moves_to_an_empty_seat(alice, bob, pairs):
    game = services.create_game(alice, pairs, players=4, move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    assert game.seats.get(number=1).player == bob
    services.join_game(game.pk, bob, seat=2)
    game.refresh_from_db()
    assert game.seats.get(number=2).player == bob and game.seats.get(number=1).is_empty
    assert game.is_open


@pytest.mark.parametrize("seat", ["x", 4, -1, None])
def test_a_bad_seat_is_refused_and_changes_nothing(alice, bob, pairs, seat):
    game = services.create_game(alice, pairs, players=4, move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    kind = services.Conflict if seat is None else services.BadRequest  # None: already seated
    refused(game, lambda: services.join_game(game.pk, bob, seat=seat), kind)


def test_a_seat_a_person_holds_is_refused(alice, bob, carol, pairs):
    game = services.create_game(alice, pairs, players=4, move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    message = refused(game, lambda: services.join_game(game.pk, carol, seat=0),
                      services.Conflict)
    assert "Someone already sits there" in message
    message = refused(game, lambda: services.join_game(game.pk, bob, seat=1), services.Conflict)
    assert "You already sit there" in message


def test_the_waiting_room_offers_seats_and_names_the_partner(alice, bob, pairs, seeded):
    game = services.create_game(alice, pairs, players=4, bots=2, move_time=timedelta(hours=1))
    page = client_for(bob).get(table_url(game)).content.decode()
    assert page.count("Sit here") == 3  # the empty seat and both computers' seats
    response = client_for(bob).post(f"/games/{game.pk}/join/", {"seat": "2"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.seats.get(number=2).player == bob and game.is_playing
    table = client_for(alice).get(table_url(game)).content.decode()
    partner = table[table.index('class="role partner"') - 400:table.index('class="role partner"')]
    assert "bob" in partner  # the badge is on bob's seat
    assert table.count('class="role partner"') == 1


def test_the_table_says_when_the_defender_takes(alice, bob, classic, stacked):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    game = services.play(game.pk, bob, ["take"], game.version)
    page = client_for(alice).get(table_url(game)).content.decode()
    assert "bob takes the cards: throw in more for them to pick up, or pass." in page
    assert '<span class="role">taking</span>' in page


def test_a_co_attacker_waits_for_the_initiative(alice, bob, carol, classic, seeded):
    game = services.create_game(alice, classic, players=3, move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    game = services.join_game(game.pk, carol)
    deal = game.match().deal
    co_attacker = next(n for n in deal.eligible if n != deal.attacker)
    page = client_for(alice).get(table_url(game)).content.decode()
    assert '<span class="role">can throw in later</span>' in page  # the attacker leads first
    assert "may throw in" not in page
    while deal.to_act != co_attacker:  # lead, beat, and the attacker passes: now it may
        token = next(a.token() for a in deal.legal_actions(deal.to_act)
                     if a.token() != "take")
        user = game.seats.get(number=deal.to_act).player
        game = services.play(game.pk, user, [token], game.version)
        deal = game.match().deal
    page = client_for(alice).get(table_url(game)).content.decode()
    assert '<span class="role">may throw in</span>' in page
