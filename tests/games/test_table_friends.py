"""Adding a friend from a table in play (docs/design.md, "Friends and blocks"): the table's
menu offers each other person at the table (no computer, no guest, not yourself, nobody
with a block either way) to a seated player, never to a spectator; its button posts to
friend_change and comes back to the table. The menu is the page's alone: a move's answer
leaves it out (the move and push query counts: test_move_cost.py, test_fragments.py)."""

import re
from html import unescape

import pytest

from accounts import guests
from accounts.models import Block, Friend
from games import services

from .conftest import client_for, post_move, table_url

pytestmark = pytest.mark.django_db

MENU = re.compile(r'<details class="table-friends">(.*?)</details>', re.S)


def menu(client, game) -> str | None:
    """The table's "Friends" in its menu as `client` sees it (None: not there)."""
    response = client.get(table_url(game))
    assert response.status_code == 200
    found = MENU.search(response.content.decode())
    return unescape(found.group(1)) if found else None


def test_a_player_adds_an_opponent_from_the_table_s_menu_and_comes_back(duel, alice, bob):
    client = client_for(alice)
    friends = menu(client, duel)
    assert friends is not None and "Add bob as a friend" in friends
    assert "alice" not in friends  # not yourself
    form = re.search(r'<form method="post" action="([^"]+)".*?name="next" value="([^"]+)"',
                     friends, re.S)
    assert form is not None and form.groups() == ("/friends/bob/", table_url(duel))
    response = client.post(form.group(1), {"do": "add", "next": form.group(2)})
    assert response.status_code == 302 and response["Location"] == table_url(duel)
    assert Friend.objects.filter(player=alice, friend=bob).exists()
    page = client.get(table_url(duel)).content.decode()
    assert "bob is now one of your friends." in page  # the confirmation, at the table
    friends = menu(client, duel)
    assert friends is not None
    assert "bob is your friend" in friends and "Add bob as a friend" not in friends


def test_the_menu_offers_no_computer_player(alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=3, bots=1)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    assert game.is_playing and game.seats.filter(bot_level__gt="").count() == 1
    friends = menu(client_for(alice), game)
    assert friends is not None and "Add bob as a friend" in friends
    assert friends.count("<form") == 1  # bob alone: the computer has no button
    only_bots = services.create_game(alice, classic, players=2, bots=1)
    assert only_bots.is_playing and menu(client_for(alice), only_bots) is None


def test_the_menu_offers_no_guest(alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=3, private=True)
    services.join_game(game.pk, bob, invite_token=game.invite_token)
    mum = guests.make_guest("Mum")
    services.join_game(game.pk, mum, invite_token=game.invite_token)
    game.refresh_from_db()
    assert game.is_playing
    friends = menu(client_for(alice), game)
    assert friends is not None and "Add bob as a friend" in friends and "Mum" not in friends


def test_a_friend_already_is_said_so_and_not_offered(trio, alice, bob):
    services.friends.add_friend(alice, bob)
    friends = menu(client_for(alice), trio)
    assert friends is not None
    assert "bob is your friend" in friends and "Add bob as a friend" not in friends
    assert "Add carol as a friend" in friends
    assert "Add alice as a friend" in (menu(client_for(bob), trio) or "")  # one way


def test_a_spectator_sees_no_friends_in_the_menu(duel, alice, carol):
    assert menu(client_for(alice), duel) is not None
    assert menu(client_for(carol), duel) is None
    assert "Add bob as a friend" not in client_for(carol).get(table_url(duel)).content.decode()


@pytest.mark.parametrize("who_blocks", ["alice", "bob"])
def test_a_blocked_pair_sees_nothing_of_each_other(trio, alice, bob, who_blocks):
    # A block made while the game is in play: it goes on (services.apart ends open tables).
    blocker, blocked = (alice, bob) if who_blocks == "alice" else (bob, alice)
    Block.objects.create(player=blocker, blocked=blocked)
    for reader, other in ((alice, "bob"), (bob, "alice")):
        friends = menu(client_for(reader), trio)
        assert friends is not None and "Add carol as a friend" in friends
        assert other not in friends


def test_a_move_s_answer_leaves_the_menu_out(duel, alice, bob):
    """The friends are the page's: an htmx answer, a move's or the poll's, has none."""
    duel.refresh_from_db()
    deal = duel.match().deal
    mover = alice if deal.to_act == 0 else bob
    client = client_for(mover)
    assert menu(client, duel) is not None
    answer = post_move(client, duel, [deal.legal_actions(deal.to_act)[0].token()])
    assert answer.status_code == 200 and "table-friends" not in answer.content.decode()
    polled = client.get(table_url(duel), headers={"HX-Request": "true"})
    assert polled.status_code == 200 and "table-friends" not in polled.content.decode()
