"""Friends and blocks (docs/design.md, "Friends and blocks"): adding a friend from a
profile, a finished table or the friends page; the one-tap challenge; friends' open tables
first in the lobby; "play again" (the rematch); and each thing a blocked player can no
longer do, refused with a clear message and changing nothing."""

from datetime import timedelta
from html import unescape

import pytest

from accounts.models import Block, Friend
from games import services
from games.models import ChatMessage, Game, RulePreset
from games.present import render

from .conftest import client_for, refused, table_url
from .matchplay import play_on

pytestmark = pytest.mark.django_db


def befriend(client, name, do="add", next_url=""):
    return client.post(f"/friends/{name}/", {"do": do, "next": next_url})


@pytest.fixture
def finished_duel(alice, bob, classic, seeded):
    """alice and bob have finished a one-deal public match, an hour a move."""
    game = services.create_game(alice, classic, players=2, move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    return play_on(game)


# ----------------------------------------------------------------------------- friends
def test_a_friend_is_added_from_their_profile(alice, bob):
    client = client_for(alice)
    page = client.get("/accounts/u/bob/").content.decode()
    assert "Add bob as a friend" in page and "Block bob" in page
    # A block is asked once more: its button is inside a disclosure that says what it does.
    confirm = page.split('<details class="block-confirm">')[1].split("</details>")[0]
    assert "<summary>Block bob…</summary>" in confirm and "are cancelled" in confirm
    assert 'value="block"' in confirm and 'value="block"' not in page.replace(confirm, "")
    r = befriend(client, "bob", next_url="/accounts/u/bob/")
    assert r.status_code == 302 and r["Location"] == "/accounts/u/bob/"
    assert Friend.objects.filter(player=alice, friend=bob).exists()
    assert not Friend.objects.filter(player=bob, friend=alice).exists()  # one way
    page = client.get("/accounts/u/bob/").content.decode()
    assert "bob is now one of your friends." in page and "Remove bob from friends" in page
    assert befriend(client, "bob", do="remove").status_code == 302
    assert not Friend.objects.exists()


def test_the_friends_page_names_who_added_you_and_adds_them_back(alice, bob, carol):
    befriend(client_for(bob), "alice")
    befriend(client_for(carol), "alice")
    client_for(alice).post("/friends/carol/", {"do": "block"})
    page = client_for(alice).get("/friends/").content.decode()
    added = page.split('id="added-title"')[1].split("</section>")[0]
    assert "Add bob as a friend" in added and "carol" not in added  # a block keeps apart
    befriend(client_for(alice), "bob")
    page = client_for(alice).get("/friends/").content.decode()
    assert 'id="added-title"' not in page  # added back: a friend both ways
    assert Friend.objects.filter(player=alice, friend=bob).exists()


def test_bad_friend_requests_are_refused_and_change_nothing(alice, bob):
    client = client_for(alice)
    r = befriend(client, "bob", do="marry")
    assert r.status_code == 400
    assert "Add, remove, block or unblock the player." in r.content.decode()
    r = befriend(client, "nobody")
    assert r.status_code == 404 and "There is no player called nobody." in r.content.decode()
    r = befriend(client, "alice")
    assert r.status_code == 400 and "That is you." in r.content.decode()
    r = befriend(client, "bob", next_url="https://evil.example/")  # not followed off the site
    assert r.status_code == 302 and r["Location"] == "/friends/"
    assert Friend.objects.count() == 1 and not Block.objects.exists()
    assert client.get("/friends/bob/").status_code == 405
    r = client.post("/friends/nobody/challenge/")
    assert r.status_code == 404 and "There is no player called nobody." in r.content.decode()
    r = client.post("/friends/alice/challenge/")
    assert r.status_code == 400 and "You can't challenge yourself." in unescape(
        r.content.decode())
    assert not Game.objects.exists()


def test_a_friend_is_added_from_a_finished_table(finished_duel, alice, bob):
    client = client_for(alice)
    page = client.get(table_url(finished_duel)).content.decode()
    assert "Add bob as a friend" in page and "Add alice as a friend" not in page
    r = befriend(client, "bob", next_url=table_url(finished_duel))
    assert r["Location"] == table_url(finished_duel)
    page = client.get(table_url(finished_duel)).content.decode()
    assert "Add bob as a friend" not in page  # a friend already
    assert Friend.objects.filter(player=alice, friend=bob).exists()


def test_the_friends_page_lists_friends_and_who_added_you_back(alice, bob, carol):
    services.friends.add_friend(alice, bob)
    services.friends.add_friend(alice, carol)
    services.friends.add_friend(bob, alice)
    page = client_for(alice).get("/friends/").content.decode()
    assert "bob" in page and "carol" in page
    assert page.count("has not added you") == 1  # carol has not; bob has
    assert 'id="friends-online"' in page  # filled in by the navigation socket


def test_challenge_a_friend_in_one_tap(finished_duel, alice, bob, classic):
    """The rules, clock and rating of the last game the two had: one tap, no form."""
    services.friends.add_friend(alice, bob)
    r = client_for(alice).post("/friends/bob/challenge/")
    game = Game.objects.get(challenged=bob)
    assert r.status_code == 302 and r["Location"] == table_url(game)
    assert (game.preset, game.move_time, game.rated, game.status) == (
        classic, timedelta(hours=1), finished_duel.rated, Game.Status.OPEN)
    assert services.open_challenges(bob).get() == game


def test_one_tap_without_a_game_together_takes_the_first_preset_for_two(alice, bob, pairs):
    first = RulePreset.objects.filter(active=True, min_players__lte=2).order_by(
        "position", "pk").first()
    pairs.position = 0  # first, but for four: passed over
    pairs.save()
    client_for(alice).post("/friends/bob/challenge/")
    game = Game.objects.get(challenged=bob)
    assert game.preset == first and game.move_time == first.move_time


def test_friends_open_tables_come_first_in_the_lobby(alice, bob, carol, classic):
    friends_table = services.create_game(bob, classic, players=3)
    newer = services.create_game(carol, classic, players=3)
    assert newer.created_at >= friends_table.created_at
    services.friends.add_friend(alice, bob)
    page = client_for(alice).get("/").content.decode()
    assert page.index(f"/games/{friends_table.pk}/") < page.index(f"/games/{newer.pk}/")
    assert "a friend</span>" in page
    page = client_for(carol).get("/").content.decode()  # no friends: newest first
    assert page.index(f"/games/{newer.pk}/") < page.index(f"/games/{friends_table.pk}/")


def test_play_again_with_the_same_people(finished_duel, alice, bob):
    """"Play again" from a finished table is the rematch (services/rematch.py)."""
    services.accept_rematch(finished_duel.pk, alice)
    game = services.accept_rematch(finished_duel.pk, bob)
    again = game.rematch
    assert again is not None and again.status == Game.Status.PLAYING
    assert {s.player for s in again.seats.all()} == {alice, bob}


# ----------------------------------------------------------------------------- blocks
def test_blocking_ends_the_friendship_both_ways(alice, bob):
    services.friends.add_friend(alice, bob)
    services.friends.add_friend(bob, alice)
    r = befriend(client_for(alice), "bob", do="block")
    assert r.status_code == 302 and not Friend.objects.exists()
    assert Block.objects.filter(player=alice, blocked=bob).exists()
    r = befriend(client_for(bob), "alice")
    assert r.status_code == 403
    assert "You can't add a player you have blocked, or who has blocked you." in unescape(
        r.content.decode())
    assert not Friend.objects.exists()
    assert befriend(client_for(alice), "bob", do="unblock").status_code == 302
    assert not Block.objects.exists()


def test_a_blocked_player_cannot_challenge(alice, bob, classic):
    services.friends.block(alice, bob)
    client = client_for(bob)
    r = client.post("/games/challenge/", {"opponent": "alice", "preset": classic.pk,
                                          "time_control": "move", "move_time": 86400,
                                          "once": "c1"})
    assert r.status_code == 403 and "alice does not take challenges from you." in (
        r.content.decode())
    r = client.post("/friends/alice/challenge/")
    assert r.status_code == 403 and "alice does not take challenges from you." in (
        r.content.decode())
    r = client_for(alice).post("/friends/bob/challenge/")  # nor the one who blocked
    assert r.status_code == 403
    assert "You have blocked bob: unblock them first to challenge them." in r.content.decode()
    assert not Game.objects.exists()


def test_a_challenge_made_before_the_block_cannot_be_accepted(alice, bob, classic):
    game = services.challenge(bob, alice, classic)
    services.friends.block(alice, bob)
    message = refused(game, lambda: services.accept_challenge(game.pk, alice),
                      services.Forbidden, 403)
    assert message == "You have blocked a player at this table: unblock them first to play with them."


def test_a_blocked_player_cannot_sit_at_your_table_nor_use_its_invitation(alice, bob, classic):
    public = services.create_game(alice, classic, players=3)
    private = services.create_game(alice, classic, players=3, private=True)
    services.friends.block(alice, bob)
    client = client_for(bob)
    r = client.post(f"/games/{public.pk}/join/")
    assert r.status_code == 403
    assert "A player at this table does not want to play with you." in r.content.decode()
    message = refused(private, lambda: services.join_game(
        private.pk, bob, invite_token=private.invite_token), services.Forbidden, 403)
    assert message == "A player at this table does not want to play with you."
    assert not Game.objects.filter(seats__player=bob).exists()
    page = client.get("/").content.decode()  # nor is it offered in their lobby
    assert f"/games/{public.pk}/" not in page


def test_quick_match_never_pairs_a_blocked_player(alice, bob, carol, classic):
    waiting = services.quick_match(alice, classic)
    services.friends.block(bob, alice)  # either way keeps them apart
    elsewhere = services.quick_match(bob, classic)
    assert elsewhere.pk != waiting.pk
    assert {s.player_id for s in elsewhere.seats.all()} == {bob.pk, None}
    paired = services.quick_match(carol, classic)  # carol is paired as before
    assert paired.pk == waiting.pk


def test_their_chat_is_hidden_from_you(trio, alice, bob, carol):
    services.chat.post(trio.pk, bob, text="from bob")
    services.chat.post(trio.pk, carol, text="from carol")
    services.friends.block(alice, bob)
    page = client_for(alice).get(table_url(trio)).content.decode()
    assert "from carol" in page and "from bob" not in page
    assert "from bob" in client_for(carol).get(table_url(trio)).content.decode()
    frames, _ = render.chat_lines_after(trio.pk, alice, after=0)  # the socket's frames
    assert len(frames) == 1 and "from carol" in frames[0]
    bob_line = services.chat.post(trio.pk, bob, text="again")
    assert not services.chat.readable_by(bob_line, alice)
    assert services.chat.readable_by(bob_line, carol)


def test_a_player_everyone_blocked_cannot_write(duel, alice, bob):
    services.friends.block(alice, bob)
    r = client_for(bob).post(f"/games/{duel.pk}/chat/", {"text": "hello?"})
    assert r.status_code == 403
    assert ("The other players at this table have blocked you, so they would not read "
            "your messages.") in r.content.decode()
    assert not ChatMessage.objects.exists()


def test_no_rematch_across_a_block(finished_duel, alice, bob):
    services.friends.block(bob, alice)
    message = refused(finished_duel, lambda: services.accept_rematch(finished_duel.pk, alice),
                      services.Forbidden, 403)
    assert message == "A player at this table does not want to play with you."
    assert "Add bob as a friend" not in client_for(alice).get(
        table_url(finished_duel)).content.decode()
