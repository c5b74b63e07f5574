"""What a player reads and hears at the table, whole and once: "(you)" beside a name that
may be cut."""

import pytest

from games import services

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
