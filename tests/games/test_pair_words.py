"""A beaten pair reads as one to a screen reader: "7 of spades, beaten by, 9 of spades"."""

import re

import pytest

from games import services
from games.engine import Attack, Defend
from tests.games.conftest import client_for, seat_user

pytestmark = pytest.mark.django_db


def test_a_beaten_pair_says_which_card_beat_which(alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    for _ in range(40):  # lead, then beat, until a pair on the table is beaten
        deal = game.match().deal
        if any(d is not None for _a, d in deal.view(0)["table"]):
            break
        seat = deal.to_act
        legal = deal.legal_actions(seat)
        pick = next((a for a in legal if isinstance(a, Defend)), None) or next(
            (a for a in legal if isinstance(a, Attack)), legal[0])
        game = services.play(game.pk, seat_user(game, seat), [pick.token()], game.version)
    else:
        pytest.fail("no pair was beaten")
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    pair = re.search(r'<li class="pair beaten">(.*?)</li>', page, re.S).group(1)
    words = re.findall(r'aria-label="([^"]+)"|<span class="visually-hidden">([^<]+)</span>', pair)
    said = [a or b for a, b in words]
    assert len(said) == 3 and said[1] == "beaten by", said
