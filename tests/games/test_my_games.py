"""My games: challenges for you, your move (least time left first), the others' moves with
whose move it is, finished games with who lost; cancelled tables are left out."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)


def _playing(alice, opponent, classic, *, to_act, left):
    """A started game of alice and `opponent` with `to_act` (a player) to move, `left`
    before the deadline."""
    game = services.create_game(alice, classic, players=2, bots=0, move_time=timedelta(days=3))
    services.join_game(game.pk, opponent)
    seat = game.seats.get(player=to_act).number
    Game.objects.filter(pk=game.pk).update(turn_seat=seat, deadline=timezone.now() + left)
    return game


def _order(page, *ids):
    """The positions of these games' rows on the page."""
    return [page.index(f'data-game="{pk}"') for pk in ids]


def test_your_move_first_by_least_time_left_then_others_then_finished(
        alice, bob, carol, alice_client, classic, seeded):
    later = _playing(alice, bob, classic, to_act=alice, left=20 * HOUR)
    sooner = _playing(alice, carol, classic, to_act=alice, left=2 * HOUR)
    theirs = _playing(alice, bob, classic, to_act=bob, left=HOUR)
    done = _playing(alice, carol, classic, to_act=alice, left=HOUR)
    services.resign(done.pk, alice)
    waiting = services.create_game(alice, classic, players=2, bots=0)
    page = alice_client.get("/games/mine/").content.decode()
    positions = _order(page, sooner.pk, later.pk, theirs.pk, waiting.pk, done.pk)
    assert positions == sorted(positions)
    assert page.index("Your move") < positions[0]
    their_row = page[positions[2]:positions[3]]
    assert "bob to move" in their_row
    finished_row = page[positions[4]:]
    assert "alice resigned and loses the match." in finished_row


def test_who_lost_is_shown_for_the_winner_too(alice, bob, classic, seeded, client):
    game = _playing(alice, bob, classic, to_act=alice, left=HOUR)
    services.resign(game.pk, bob)
    client.force_login(alice)
    page = client.get("/games/mine/").content.decode()
    assert "bob resigned and loses the match." in page


def test_cancelled_tables_are_hidden(alice, bob, alice_client, classic,
                                     django_capture_on_commit_callbacks):
    kept = services.create_game(alice, classic, players=2, bots=0)
    gone = services.create_game(alice, classic, players=2, bots=0)
    services.abort_game(gone.pk, alice)
    declined = services.challenge(alice, bob, classic)
    services.decline_challenge(declined.pk, bob)
    page = alice_client.get("/games/mine/").content.decode()
    assert f'data-game="{kept.pk}"' in page
    assert f'data-game="{gone.pk}"' not in page
    assert f'data-game="{declined.pk}"' not in page


def test_a_challenge_sent_says_to_whom_and_one_received_offers_answers(
        alice, bob, alice_client, bob_client, classic):
    game = services.challenge(alice, bob, classic)
    mine = alice_client.get("/games/mine/").content.decode()
    assert "challenge sent to bob" in mine and "Challenges for you" not in mine
    theirs = bob_client.get("/games/mine/").content.decode()
    assert "Challenges for you" in theirs and "alice challenges you" in theirs
    assert 'name="answer" value="accept"' in theirs and 'value="decline"' in theirs
    assert f'data-game="{game.pk}"' not in theirs  # not seated yet


def test_an_empty_page_sends_you_to_the_lobby(alice_client):
    page = alice_client.get("/games/mine/").content.decode()
    assert "You are not in any game yet." in page


def test_a_bad_answer_is_refused_with_a_message(alice, bob, bob_client, classic):
    game = services.challenge(alice, bob, classic)
    response = bob_client.post(f"/games/{game.pk}/challenge/", {"answer": "maybe"})
    assert response.status_code == 400
    assert "Accept or decline the challenge." in response.content.decode()
    assert Game.objects.get(pk=game.pk).is_open
