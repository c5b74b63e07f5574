"""POST /games/<id>/play/: every bad input gets a 4xx message and changes nothing."""

import html
import json

import pytest

from games.models import Game

from .conftest import client_for, first_legal, play_url, post_move, to_act

pytestmark = pytest.mark.django_db


def state(game):
    g = Game.objects.get(pk=game.pk)
    return g.version, g.state, g.moves.count()


@pytest.fixture
def mover(duel):
    """(client of the seat to act, client of the other seat)."""
    seat = to_act(duel)
    users = {s.number: s.player for s in duel.seats.all()}
    return client_for(users[seat]), client_for(users[1 - seat])


def test_it_plays_a_legal_move(duel, mover):
    r = post_move(mover[0], duel, [first_legal(duel)])
    assert r.status_code == 200
    body = r.content.decode()
    assert body.lstrip().startswith('<section id="table"')  # the partial, not a page
    assert state(duel)[0] == duel.version + 1


def test_without_htmx_it_redirects_to_the_table(duel, mover):
    r = post_move(mover[0], duel, [first_legal(duel)], htmx=False)
    assert r.status_code == 302 and r.url == f"/games/{duel.pk}/"


def test_it_accepts_form_tokens_and_a_json_body(duel, mover):
    action = first_legal(duel)
    r = mover[0].post(play_url(duel), {"version": duel.version, "action": action})
    assert r.status_code == 302
    duel.refresh_from_db()
    action = first_legal(duel)
    client = client_for(duel.seats.get(number=to_act(duel)).player)
    r = client.post(play_url(duel), json.dumps({"actions": [action], "version": duel.version}),
                    content_type="application/json", headers={"HX-Request": "true"})
    assert r.status_code == 200
    assert duel.moves.get(seq=duel.version + 1).actions == [action]
    assert state(duel)[0] == duel.version + 1


def assert_refused(r, duel, status, words):
    before = (duel.version, duel.state, duel.moves.count())
    assert r.status_code == status, r.content.decode()[:300]
    body = r.content.decode()
    assert words in html.unescape(body)  # said in the player's words, escaped either way
    assert 'role="alert"' in body
    assert state(duel) == before


def test_a_stale_version_gets_409_and_the_current_table(duel, mover):
    r = post_move(mover[0], duel, [first_legal(duel)], version=duel.version - 1)
    assert_refused(r, duel, 409, "The game has moved on; here is the current table.")
    assert f'name="version" value="{duel.version}"' in r.content.decode()


def test_the_same_request_twice_applies_once(duel, mover):
    action, version = first_legal(duel), duel.version
    assert post_move(mover[0], duel, [action], version=version).status_code == 200
    duel.refresh_from_db()
    r = post_move(mover[0], duel, [action], version=version)
    assert_refused(r, duel, 409, "The game has moved on")


def test_a_move_out_of_turn_gets_409(duel, mover):
    r = post_move(mover[1], duel, ["take"])
    assert_refused(r, duel, 409, "It is not your turn")


def test_another_players_seat_gets_403(duel, mover):
    r = post_move(mover[1], duel, [first_legal(duel)], seat=to_act(duel))
    assert_refused(r, duel, 403, "That is not your seat.")


def test_an_illegal_card_gets_400(duel, mover):
    seat = to_act(duel)
    theirs = duel.match().deal.hand(1 - seat)[0].code
    r = post_move(mover[0], duel, [f"attack:{theirs}"])
    assert_refused(r, duel, 400, "You don't hold the")
    assert f'data-card="{theirs}"' not in r.content.decode()


def test_an_outsider_gets_403(duel, carol_client):
    r = post_move(carol_client, duel, [first_legal(duel)])
    assert_refused(r, duel, 403, "You have no seat at this game.")
    assert "Your hand" not in r.content.decode()


def test_a_private_game_is_404_to_outsiders(duel, carol_client):
    Game.objects.filter(pk=duel.pk).update(private=True)
    r = post_move(carol_client, duel, [first_legal(duel)])
    assert r.status_code == 404
    assert state(duel)[0] == duel.version


def test_an_unknown_game_is_404(alice_client):
    r = alice_client.post("/games/9999/play/", {"version": 1, "action": "take"})
    assert r.status_code == 404


def test_anonymous_posts_go_to_login(client, duel):
    r = client.post(play_url(duel), {"version": duel.version, "action": "take"})
    assert r.status_code == 302 and "/accounts/login/" in r.url


def test_get_is_not_allowed(duel, mover):
    assert mover[0].get(play_url(duel)).status_code == 405


@pytest.mark.parametrize("data, words", [
    ({"actions": "{not json"}, "“{not json” is not a move."),
    ({"action": "fold"}, "“fold” is not a move."),
    ({"action": "attack"}, "“attack” is not a move."),
    ({"action": "attack:XX"}, "“attack:XX” is not a move."),
    ({"action": "defend:6H"}, "“defend:6H” is not a move."),
    ({"action": "shuffle:6H"}, "“shuffle:6H” is not a move."),
    ({"action": ["take"] * 25}, "more than one move can hold"),
    ({}, "You lead this bout: play a card first."),
    ({"action": "take", "version": "seven"}, "whole number"),
])
def test_malformed_requests_get_400(duel, mover, data, words):
    data = {"version": duel.version, **data}
    r = mover[0].post(play_url(duel), data, headers={"HX-Request": "true"})
    assert_refused(r, duel, 400, words)


def test_an_empty_move_says_what_this_player_may_do(duel, mover):
    """Nothing chosen: the leader is asked for a card, the defender to beat or take, an
    attacker after a beat to throw in or pass, anyone else whose turn it is."""
    empty = {"version": duel.version}
    assert_refused(mover[1].post(play_url(duel), empty, headers={"HX-Request": "true"}),
                   duel, 400, "It is not your turn")
    lead = next(t for t in duel.match().deal.legal_actions(to_act(duel)) if t.token().startswith("attack"))
    assert post_move(mover[0], duel, [lead.token()]).status_code == 200
    duel.refresh_from_db()
    empty = {"version": duel.version}
    r = mover[1].post(play_url(duel), empty, headers={"HX-Request": "true"})
    assert_refused(r, duel, 400, "You are defending: beat the cards, or take them.")
    beat = next((a for a in duel.match().deal.legal_actions(to_act(duel))
                 if a.token().startswith("defend")), None)
    if beat is None:  # this deal's lead can't be beaten: nothing more to see
        return
    assert post_move(mover[1], duel, [beat.token()]).status_code == 200
    duel.refresh_from_db()
    r = mover[0].post(play_url(duel), {"version": duel.version}, headers={"HX-Request": "true"})
    assert_refused(r, duel, 400, "Choose a card to throw in first, or pass.")


def test_a_malformed_json_body_gets_400(duel, mover):
    r = mover[0].post(play_url(duel), "[1, 2", content_type="application/json")
    assert r.status_code == 400
    r = mover[0].post(play_url(duel), "[1, 2]", content_type="application/json")
    assert r.status_code == 400
    r = mover[0].post(play_url(duel), json.dumps({"actions": [{"type": "take"}],
                                                  "version": duel.version}),
                      content_type="application/json", headers={"HX-Request": "true"})
    assert r.status_code == 400 and "That is not a move." in r.content.decode()
    assert state(duel)[0] == duel.version


def test_a_full_page_refusal_is_a_whole_page(duel, mover):
    r = post_move(mover[1], duel, ["take"], htmx=False)
    assert r.status_code == 409
    assert "<html" in r.content.decode() and "It is not your turn" in r.content.decode()
