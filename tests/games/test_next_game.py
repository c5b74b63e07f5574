"""From a table that waits for someone else, "Next game waiting (N)" leads to the game
waiting for your move with the least time left; N is the navigation's live count."""

from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def _game(alice, bob, classic, *, alices_move, hours):
    game = services.create_game(alice, classic, players=2, move_time=timedelta(days=3))
    services.join_game(game.pk, bob)
    seat = game.seats.get(player=alice if alices_move else bob).number
    Game.objects.filter(pk=game.pk).update(
        turn_seat=seat, deadline=timezone.now() + timedelta(hours=hours))
    return Game.objects.get(pk=game.pk)


def test_it_leads_to_the_least_time_left(alice_client, alice, bob, classic, seeded):
    here = _game(alice, bob, classic, alices_move=False, hours=1)
    later = _game(alice, bob, classic, alices_move=True, hours=48)
    sooner = _game(alice, bob, classic, alices_move=True, hours=20)
    _game(alice, bob, classic, alices_move=False, hours=2)  # bob's move: not waiting for her
    r = alice_client.get(f"/games/next/?after={here.pk}")
    assert r.status_code == 302 and r.url == f"/games/{sooner.pk}/"
    assert alice_client.get(f"/games/next/?after={sooner.pk}").url == f"/games/{later.pk}/"
    Game.objects.filter(pk__in=[later.pk, sooner.pk]).update(status=Game.Status.FINISHED)
    assert alice_client.get(f"/games/next/?after={here.pk}").url == "/games/mine/"
    assert alice_client.get("/games/next/?after=nonsense").url == "/games/mine/"


def test_the_table_has_the_button_and_the_navigation_the_count(
        alice_client, alice, bob, classic, seeded):
    here = _game(alice, bob, classic, alices_move=False, hours=1)
    body = alice_client.get(here.get_absolute_url()).content.decode()
    assert f'id="next-game" class="button" hidden href="/games/next/?after={here.pk}"' in body
    assert 'data-format="Next game waiting ({})"' in body and "js/next.js" in body
    live = render_to_string("games/_live.html", {"nav": True, "waiting": 3, "moves": 2})
    assert 'data-waiting="3" data-moves="2"' in live
