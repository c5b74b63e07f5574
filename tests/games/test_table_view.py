"""GET /games/<id>/: who sees what, full pages and partials, polling, lazy timeouts."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engine import Attack
from games.models import Game

from .conftest import client_for, table_url
from .leaks import assert_no_leak

pytestmark = pytest.mark.django_db


def test_the_seated_player_sees_their_hand_and_nobody_elses(duel, alice_client):
    body = alice_client.get(table_url(duel)).content.decode()
    deal = duel.match().deal
    assert "Your hand" in body
    for card in deal.hand(0):
        assert f'data-card="{card.code}"' in body
    assert_no_leak(body, deal, 0)
    assert "<html" in body and 'id="table"' in body


def test_the_opponent_sees_their_own_hand(duel, bob_client):
    body = bob_client.get(table_url(duel)).content.decode()
    deal = duel.match().deal
    for card in deal.hand(1):
        assert f'data-card="{card.code}"' in body
    assert_no_leak(body, deal, 1)


@pytest.mark.parametrize("persona", ["carol_client", "admin_client", "client"])
def test_spectators_see_no_hand_at_all(duel, persona, request):
    client = request.getfixturevalue(persona)
    r = client.get(table_url(duel))
    assert r.status_code == 200
    body = r.content.decode()
    assert "Your hand" not in body
    assert "sound-toggle" not in body  # a spectator has no turn
    assert_no_leak(body, duel.match().deal, None)


def test_the_table_shows_seats_roles_trump_and_counts(duel, alice_client):
    body = alice_client.get(table_url(duel)).content.decode()
    deal = duel.match().deal
    view = deal.view(0)
    assert '<span class="own-name">alice</span> <span class="you">(you)</span>' in body
    assert "bob" in body
    assert "attacker" in body and "defender" in body
    assert "to act" in body
    assert f"Talon: <strong>{view['talon_size']}</strong>" in body
    assert "Discard pile: <strong>0</strong>" in body
    assert view["trump_suit_name"] in body
    if view["trump_card"]:
        assert f'data-card="{view["trump_card"]}"' in body
    assert "Deal 1 of 1" in body and "Move by" in body
    assert "The trump card is" in body  # the deal's log in words


def test_the_table_marks_where_cards_are_for_its_motion(duel, alice_client):
    """static/js/motion.js compares two tables by these marks: each seat's card count, the
    talon's and the discard pile's, and the deal's number."""
    body = alice_client.get(table_url(duel)).content.decode()
    view = duel.match().deal.view(0)
    for n, size in enumerate(view["hand_sizes"]):
        assert f'data-seat="{n}" data-cards="{size}"' in body
    assert f'data-pile="talon" data-count="{view["talon_size"]}" data-trump="{view["trump"]}"' in body
    assert 'data-pile="discard" data-count="0"' in body
    assert 'data-deal="1"' in body and "data-ended" not in body


def test_the_seat_to_act_gets_its_legal_moves_as_controls(duel):
    from .conftest import client_for, to_act

    seat = to_act(duel)
    body = client_for(duel.seats.get(number=seat).player).get(table_url(duel)).content.decode()
    for action in duel.match().deal.legal_actions(seat):
        if isinstance(action, Attack):
            assert f'value="{action.token()}"' in body
    assert "Play selected" in body
    other = client_for(duel.seats.get(number=1 - seat).player).get(table_url(duel))
    assert "Play selected" not in other.content.decode()


def test_private_games_are_hidden_from_outsiders(alice, bob, classic, carol_client,
                                                 admin_client, alice_client):
    game = services.create_game(alice, classic, players=2, private=True)
    assert carol_client.get(table_url(game)).status_code == 404
    assert carol_client.get(table_url(game) + "?invite=nope").status_code == 404
    r = carol_client.get(table_url(game) + f"?invite={game.invite_token}")
    assert r.status_code == 200 and "Take a seat" in r.content.decode()
    assert admin_client.get(table_url(game)).status_code == 200
    body = alice_client.get(table_url(game)).content.decode()
    assert game.invite_url in body  # the invite link for seated players
    assert b"Open games" in carol_client.get("/").content
    assert table_url(game).encode() not in carol_client.get("/").content


def test_a_logged_out_player_of_a_private_game_is_asked_to_log_in(alice, classic, client):
    """Logged out (maybe in another tab): their own table sends them to the login and back,
    the page and its poll alike, rather than saying the game is not there."""
    game = services.create_game(alice, classic, players=2, private=True)
    r = client.get(table_url(game))
    assert r.status_code == 302 and r.url == f"/accounts/login/?next=%2Fgames%2F{game.pk}%2F"
    r = client.get(table_url(game) + f"?since={game.version}", headers={"HX-Request": "true"})
    assert r.headers["HX-Redirect"] == f"/accounts/login/?next=%2Fgames%2F{game.pk}%2F"
    assert client.get("/games/12345/").status_code == 404  # no such game: still not found
    r = client.get(table_url(game) + f"?invite={game.invite_token}")
    assert r.status_code == 200  # the invite link shows it


def test_an_unknown_game_is_404(alice_client):
    assert alice_client.get("/games/12345/").status_code == 404
    assert alice_client.get("/games/abc/").status_code == 404


def test_htmx_gets_the_partial_and_polling_gets_204_when_nothing_changed(duel, alice_client):
    hx = {"HX-Request": "true"}
    r = alice_client.get(table_url(duel), headers=hx)
    body = r.content.decode()
    assert r.status_code == 200 and "<html" not in body and body.lstrip().startswith("<section")
    assert f"?since={duel.version}" in body
    r = alice_client.get(table_url(duel) + f"?since={duel.version}", headers=hx)
    assert r.status_code == 204
    r = alice_client.get(table_url(duel) + f"?since={duel.version - 1}", headers=hx)
    assert r.status_code == 200


def test_an_overdue_table_is_shown_as_it_is_when_looked_at(duel, carol_client):
    """Only the sweep and a move charge a timeout (docs/design.md, "Clocks")."""
    late = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=duel.pk).update(deadline=late)
    assert carol_client.get(table_url(duel)).status_code == 200
    duel.refresh_from_db()
    assert duel.version == 2 and duel.moves.last().kind != "timeout"
    assert duel.deadline == late


# ---------------------------------------------------------------------------- waiting room
def test_join_leave_start_through_the_views(alice, classic, alice_client, bob_client,
                                            carol_client):
    game = services.create_game(alice, classic, players=3)
    body = bob_client.get(table_url(game)).content.decode()
    assert "Take a seat" in body and "Start now" not in body
    r = bob_client.post(f"/games/{game.pk}/join/", headers={"HX-Request": "true"})
    assert r.status_code == 200 and ">Leave<" in r.content.decode()
    assert game.seats.filter(player__username="bob").exists()
    r = bob_client.post(f"/games/{game.pk}/join/", headers={"HX-Request": "true"})
    assert r.status_code == 409 and "already have a seat" in r.content.decode()
    r = bob_client.post(f"/games/{game.pk}/start/")
    assert r.status_code == 403
    assert bob_client.post(f"/games/{game.pk}/leave/").status_code == 302
    assert not game.seats.filter(player__username="bob").exists()
    assert carol_client.post(f"/games/{game.pk}/leave/").status_code == 403
    body = alice_client.get(table_url(game)).content.decode()
    assert "Start now" in body and "Cancel the game" in body
    assert alice_client.post(f"/games/{game.pk}/start/").status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert alice_client.post(f"/games/{game.pk}/start/").status_code == 409


def test_only_staff_abort_a_started_game(duel, alice_client, admin_client):
    assert alice_client.post(f"/games/{duel.pk}/abort/").status_code == 403
    assert "Abort this game" in admin_client.get(table_url(duel)).content.decode()
    assert admin_client.post(f"/games/{duel.pk}/abort/").status_code == 302
    duel.refresh_from_db()
    assert duel.status == Game.Status.ABORTED
    body = alice_client.get(table_url(duel)).content.decode()
    assert "aborted" in body and "Play selected" not in body


def test_an_htmx_history_restore_gets_the_whole_page(duel, alice_client):
    r = alice_client.get(table_url(duel), headers={"HX-Request": "true",
                                                   "HX-History-Restore-Request": "true"})
    assert "<html" in r.content.decode()


def test_a_newcomer_with_the_invite_may_log_in_or_sign_up_and_come_back(alice, classic, client):
    game = services.create_game(alice, classic, players=2, private=True)
    body = client.get(table_url(game) + f"?invite={game.invite_token}").content.decode()
    back = f"%2Fgames%2F{game.pk}%2F%3Finvite%3D{game.invite_token}"
    assert f'href="/accounts/login/?next={back}"' in body
    assert f'href="/accounts/signup/?next={back}"' in body


def test_the_hand_says_when_a_click_or_tap_plays_a_card(alice, bob, classic, stacked):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    legend = re.compile(r"Your hand — ([^<]+)</legend>")
    page = client_for(alice).get(table_url(game)).content.decode()
    assert legend.search(page).group(1) == "choose a card to play it"  # a lead is one card (R7)
    assert "tap-plays" in page  # its "Play selected" is for pages without scripts
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    game = services.play(game.pk, bob, ["defend:7S:9S"], game.version)
    page = client_for(alice).get(table_url(game)).content.decode()
    assert legend.search(page).group(1) == "choose the cards to play"  # throw-ins go together
    assert "tap-plays" not in page


def test_russian_cards_carry_russian_letters(alice, bob, classic, stacked):
    from django.utils import translation

    from games import describe

    with translation.override("ru"):
        assert [describe.label(c) for c in ("JS", "QH", "KD", "AC", "TS")] == [
            "В♠", "Д♥", "К♦", "Т♣", "10♠"]
    assert describe.label("QH") == "Q♥"
    game = services.create_game(alice, classic, players=2)
    services.join_game(game.pk, bob)
    reader = client_for(alice)
    reader.cookies["django_language"] = "ru"
    page = reader.get(table_url(game)).content.decode()
    assert '<span class="corner">Д<br>♠</span>' in page  # alice holds the Q♠


def test_the_trump_cards_rank_is_written_beside_the_talon(alice, bob, classic, stacked):
    # The face-up trump lies under the talon, its corner hidden: the words give its rank.
    game = services.create_game(alice, classic, players=2)
    services.join_game(game.pk, bob)
    page = client_for(alice).get(table_url(game)).content.decode()
    assert 'Trump: <span class="suit red">6♥ hearts</span>' in page


def test_a_name_ending_in_a_period_gets_no_second_one(duel, alice, bob):
    from .conftest import seat_user

    to_act = seat_user(duel, duel.turn_seat)
    to_act.display_name = "Aino K."
    to_act.save()
    reader = client_for(bob if to_act == alice else alice)
    page = reader.get(table_url(duel), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Ждём Aino K." in page and "Aino K.." not in page
