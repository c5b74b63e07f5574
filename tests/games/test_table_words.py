"""What a player reads and hears at the table, whole and once: "(you)" beside a name that
may be cut, and the last move of a finished deal."""

import re

import pytest

from games import services
from games.models import Game

from .conftest import client_for, table_url
from .playout import play_out

pytestmark = pytest.mark.django_db

LONG_NAME = "M" * 40  # Player.display_name's max_length


def test_your_seat_keeps_you_outside_the_name_a_phone_may_cut(alice, bob, classic, seeded):
    alice.display_name = LONG_NAME
    alice.save()
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    page = client_for(alice).get(table_url(game)).content.decode()
    # The name alone is the box cut with an ellipsis (site.css); "(you)" follows it.
    assert (f'<span class="name"><span class="own-name">{LONG_NAME}</span> '
            '<span class="you">(you)</span></span>') in page
    theirs = client_for(bob).get(table_url(game)).content.decode()
    assert f'<span class="name">{LONG_NAME}</span>' in theirs  # to bob, a plain name
    game = play_out(game)
    replay = client_for(alice).get(f"/games/{game.pk}/replay/?move=0").content.decode()
    assert f'<span class="own-name">{LONG_NAME}</span> <span class="you">(you)</span>' in replay


def test_the_last_move_of_a_finished_deal_is_shown_whole(duel, alice):
    page = client_for(alice).get(table_url(duel)).content.decode()
    assert '<p class="last-move">' not in page  # no move yet
    game = play_out(duel)
    assert game.status == Game.Status.FINISHED
    page = client_for(alice).get(table_url(game)).content.decode()
    # table-mode.css cuts the line to two on a phone only while a deal is on.
    line = re.search(r'<p class="last-move"( data-ended)?><span class="label">Last move:</span>'
                     r'([^<]+)</p>', page)
    assert line and line.group(1) == " data-ended", page
    assert "durak" in line.group(2)
