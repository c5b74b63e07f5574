"""Friends online, live (docs/design.md, "Friends and blocks"): the navigation socket of a
page that shows "Friends online" (the lobby, the friends page) hears a mutual friend come
online, sit down at a table and go, and a blocked player's chat never reaches a table's
socket of the player who blocked them."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from durak_site.asgi import application
from games import services
from games.live import middleware
from tests.games.test_live import connect, session_headers

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.asyncio]

FRIENDS = 'id="friends-online" class="panel friends-online"'


async def me(user, page="friends"):
    headers = await sync_to_async(session_headers)(user)
    comm = WebsocketCommunicator(application, f"/ws/me/?page={page}", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    return comm


async def friends_frame(comm, timeout=3):
    """The next "Friends online" frame (the navigation's own frames passed over)."""
    while True:
        html = await comm.receive_from(timeout=timeout)
        if FRIENDS in html:
            return html


@sync_to_async
def befriend(one, other):
    services.friends.add_friend(one, other)
    services.friends.add_friend(other, one)


@pytest.fixture
def short_grace(monkeypatch):
    monkeypatch.setattr(middleware, "OFFLINE_GRACE", 0.2)


async def test_a_friend_coming_online_sitting_down_and_leaving_is_seen_live(
        alice, bob, classic, short_grace):
    await befriend(alice, bob)
    alices = await me(alice)
    html = await friends_frame(alices)
    assert "None of your friends is online" in html and "bob" not in html

    bobs = await me(bob, page="")  # bob opens any page of the site
    html = await friends_frame(alices)
    assert ">bob</a>" in html and 'action="/friends/bob/challenge/"' in html

    game = await sync_to_async(services.create_game)(bob, classic, players=3)
    html = await friends_frame(alices)
    assert f'href="/games/{game.pk}/"' in html and "waiting at a table of Test classic" in html

    await bobs.disconnect()  # his last socket: gone
    html = await friends_frame(alices)
    assert "bob" not in html and "None of your friends is online" in html
    await alices.disconnect()


async def test_a_friend_going_to_another_page_is_not_seen_leaving(alice, bob, monkeypatch):
    monkeypatch.setattr(middleware, "OFFLINE_GRACE", 1.0)
    await befriend(alice, bob)
    bobs = await me(bob, page="")
    alices = await me(alice)
    assert ">bob</a>" in await friends_frame(alices)
    await bobs.disconnect()  # his page goes; the next one opens its socket at once
    bobs = await me(bob, page="lobby")
    assert await alices.receive_nothing(timeout=1.5)  # no flicker: gone and back
    await bobs.disconnect()
    assert "bob" not in await friends_frame(alices)  # gone for good, after the grace
    await alices.disconnect()


async def test_only_a_mutual_friend_is_seen(alice, bob, carol):
    await sync_to_async(services.friends.add_friend)(alice, carol)  # carol has not added alice
    await befriend(alice, bob)
    alices = await me(alice, page="lobby")
    await friends_frame(alices)
    carols = await me(carol, page="")
    assert await alices.receive_nothing(timeout=0.5)  # nothing alice may see changed
    bobs = await me(bob, page="")
    html = await friends_frame(alices)
    assert ">bob</a>" in html and "carol" not in html
    for comm in (alices, bobs, carols):
        await comm.disconnect()


async def test_a_block_takes_a_friend_off_the_list_at_once(alice, bob):
    await befriend(alice, bob)
    bobs = await me(bob, page="")
    alices = await me(alice)
    assert ">bob</a>" in await friends_frame(alices)
    await sync_to_async(services.friends.block)(bob, alice)
    assert "bob" not in await friends_frame(alices)
    await bobs.disconnect()
    await alices.disconnect()


async def test_a_blocked_players_chat_is_not_sent_to_you(alice, bob, carol, classic):
    game = await sync_to_async(services.create_game)(alice, classic, players=3)
    for player in (bob, carol):
        await sync_to_async(services.join_game)(game.pk, player)
    await sync_to_async(services.friends.block)(alice, bob)
    alices, connected, _ = await connect(game, alice)
    assert connected
    await sync_to_async(services.chat.post)(game.pk, bob, text="from bob")
    await sync_to_async(services.chat.post)(game.pk, carol, text="from carol")
    frames = []  # the table on connect, then the chat lines alice may read
    while not frames or "from carol" not in frames[-1]:
        frames.append(await alices.receive_from(timeout=3))
    assert not any("from bob" in frame for frame in frames)
    assert await alices.receive_nothing(timeout=0.5)
    await alices.disconnect()
