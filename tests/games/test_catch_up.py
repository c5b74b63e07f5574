"""Catching up: a table socket that missed group events (the channel layer lost Redis, so
they were never delivered) gets the newer table and the chat lines it lacks when the layer
is back, when the page asks (its socket's sync on every open), when a later chat line
comes, and through the table's poll; the channel layer tells its group members once Redis
answers again (durak_site.channel_layer, around Channels' in-memory layer)."""

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from redis.exceptions import ConnectionError as RedisConnectionError

from durak_site import channel_layer
from games import services
from games.models import ChatMessage
from games.notify import LOBBY_GROUP, group_name, nav_group

from .conftest import client_for, table_url
from .test_live import connect, receive_table
from .test_navigation import me, waiting

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True)]

LINE = re.compile(r'data-chat-id="(\d+)"')


@pytest.fixture
def unheard(monkeypatch):
    """While `on`, changes are saved but their group events are lost, as when the channel
    layer has lost Redis."""
    state = {"on": False}
    layer = get_channel_layer()
    real = layer.group_send

    async def group_send(group, event):
        if not state["on"]:
            await real(group, event)

    monkeypatch.setattr(layer, "group_send", group_send)
    return state


@sync_to_async
def move(game):
    """The seat to act plays a legal move; returns the new version."""
    game.refresh_from_db()
    seat = game.match().deal.to_act
    action = game.match().deal.legal_actions(seat)[0].token()
    player = game.seats.get(number=seat).player
    return services.play(game.pk, player, [action], game.version).version


@sync_to_async
def say(game, user, text):
    return services.chat.post(game.pk, user, text=text).pk


@sync_to_async
def last_line_id(game):
    return ChatMessage.objects.filter(game=game).order_by("-pk").values_list("pk", flat=True).first() or 0


async def chat_lines(comm, count, timeout=3):
    """The next `count` frames, each one chat line: their texts' frames in order."""
    frames = [await comm.receive_from(timeout=timeout) for _ in range(count)]
    assert all(f.startswith('<ol hx-swap-oob="beforeend:#chat-lines">') for f in frames), frames
    return frames


@pytest.mark.asyncio
async def test_sockets_that_missed_a_move_and_a_chat_line_get_them_when_the_layer_is_back(
        duel, alice, bob, unheard):
    alices, *_ = await connect(duel, alice)
    bobs, *_ = await connect(duel, bob)
    _html, version = await receive_table(alices)
    await receive_table(bobs)

    unheard["on"] = True
    new_version = await move(duel)
    await say(duel, alice, "said while nobody heard")
    unheard["on"] = False
    assert new_version > version
    for comm in (alices, bobs):
        assert await comm.receive_nothing(timeout=0.2)

    # The layer tells every socket in a group once it is back (durak_site.channel_layer).
    await get_channel_layer().group_send(group_name(duel.pk), {"type": "layer.reconnected"})
    for comm in (alices, bobs):
        _html, seen = await receive_table(comm)
        assert seen == new_version
        [line] = await chat_lines(comm, 1)
        assert "said while nobody heard" in line
        assert await comm.receive_nothing(timeout=0.2)  # nothing twice

    # Told again with nothing new: nothing is sent.
    await get_channel_layer().group_send(group_name(duel.pk), {"type": "layer.reconnected"})
    for comm in (alices, bobs):
        assert await comm.receive_nothing(timeout=0.3)
        await comm.disconnect()


@pytest.mark.asyncio
async def test_the_pages_sync_brings_what_it_lacks_and_nothing_more(duel, alice, bob, unheard):
    before = await last_line_id(duel)
    bobs, *_ = await connect(duel, bob)
    _html, version = await receive_table(bobs)

    unheard["on"] = True
    await say(duel, alice, "first")
    await say(duel, alice, "second")
    unheard["on"] = False
    await bobs.send_to(text_data=json.dumps({"type": "sync", "version": version,
                                             "chat_after": before}))
    first, second = await chat_lines(bobs, 2)
    assert "first" in first and "second" in second
    assert await bobs.receive_nothing(timeout=0.2)  # the table has not changed

    # A page that opens its socket again says what it shows: only what is newer comes.
    unheard["on"] = True
    new_version = await move(duel)
    unheard["on"] = False
    shown = int(LINE.search(second).group(1))
    await bobs.send_to(text_data=json.dumps({"type": "sync", "version": version,
                                             "chat_after": shown}))
    _html, seen = await receive_table(bobs)
    assert seen == new_version
    assert await bobs.receive_nothing(timeout=0.2)
    await bobs.send_to(text_data=json.dumps({"type": "sync", "version": new_version,
                                             "chat_after": shown}))
    assert await bobs.receive_nothing(timeout=0.3)

    # The plain sync still brings the whole table.
    await bobs.send_to(text_data=json.dumps({"sync": True}))
    _html, seen = await receive_table(bobs)
    assert seen == new_version
    await bobs.disconnect()


@pytest.mark.asyncio
async def test_a_chat_line_brings_the_lines_missed_before_it(duel, alice, bob, unheard):
    bobs, *_ = await connect(duel, bob)
    await receive_table(bobs)
    unheard["on"] = True
    await say(duel, alice, "lost on the way")
    unheard["on"] = False
    await say(duel, alice, "heard")
    lost, heard = await chat_lines(bobs, 2)
    assert "lost on the way" in lost and "heard" in heard
    assert await bobs.receive_nothing(timeout=0.2)
    await bobs.disconnect()


@pytest.mark.asyncio
async def test_catching_up_leaves_out_the_lines_of_muted_players(duel, alice, bob, unheard):
    await sync_to_async(services.chat.set_mute)(bob, duel.pk, alice.pk, True)
    bobs, *_ = await connect(duel, bob)
    _html, version = await receive_table(bobs)
    unheard["on"] = True
    await say(duel, alice, "bob has muted me")
    unheard["on"] = False
    await bobs.send_to(text_data=json.dumps({"type": "sync", "version": version,
                                             "chat_after": 0}))
    assert await bobs.receive_nothing(timeout=0.3)
    await bobs.disconnect()


@pytest.mark.asyncio
@pytest.mark.parametrize("sync", [
    {"type": "sync", "version": "7", "chat_after": -1},
    {"type": "sync", "version": True, "chat_after": [1]},
    {"type": "sync", "version": None, "chat_after": {"x": 1}},
    {"type": "sync", "version": -3, "chat_after": 10**30},
])
async def test_a_sync_with_bad_numbers_gets_the_whole_table_and_no_chat(duel, alice, sync):
    await say(duel, alice, "hello")
    alices, *_ = await connect(duel, alice)
    _html, version = await receive_table(alices)
    await alices.send_to(text_data=json.dumps(sync))
    _html, again = await receive_table(alices)
    assert again == version
    assert await alices.receive_nothing(timeout=0.2)
    await alices.disconnect()


@pytest.mark.asyncio
async def test_the_navigation_and_the_lobby_catch_up_when_the_layer_is_back(duel, alice, bob,
                                                                           unheard):
    first = await sync_to_async(lambda: duel.seats.get(number=duel.turn_seat).player)()
    other = bob if first == alice else alice
    navigation, _ = await me(other)
    assert (await waiting(navigation))[0] == 0
    lobby, _ = await me(page="lobby")
    unheard["on"] = True
    await move(duel)  # now it is `other`'s move
    unheard["on"] = False
    assert await navigation.receive_nothing(timeout=0.2)
    layer = get_channel_layer()
    await layer.group_send(nav_group(other.pk), {"type": "layer.reconnected"})
    assert (await waiting(navigation))[0] == 1
    await layer.group_send(LOBBY_GROUP, {"type": "layer.reconnected"})
    assert 'id="lobby-poke"' in await lobby.receive_from(timeout=3)
    for comm in (navigation, lobby):
        await comm.disconnect()


# ----------------------------------------------------------------------------- the poll
def test_the_tables_poll_brings_the_chat_lines_after_the_last_one_shown(duel, alice, bob):
    client = client_for(bob)
    htmx = {"HX-Request": "true", "HX-Target": "table"}
    url = table_url(duel)
    version = duel.version
    r = client.get(url, {"since": version, "chat_after": 0}, headers=htmx)
    assert r.status_code == 204  # nothing new
    first = services.chat.post(duel.pk, alice, text="while the socket was away").pk

    r = client.get(url, {"since": version, "chat_after": 0}, headers=htmx)
    assert r.status_code == 200 and r.headers["HX-Reswap"] == "none"  # the table stays
    body = r.content.decode()
    assert "while the socket was away" in body and 'id="table"' not in body
    assert body.startswith('<ol hx-swap-oob="beforeend:#chat-lines">')
    r = client.get(url, {"since": version, "chat_after": first}, headers=htmx)
    assert r.status_code == 204

    # A newer table comes with the lines.
    services.chat.post(duel.pk, alice, text="and a move")
    game = duel
    game.refresh_from_db()
    seat = game.match().deal.to_act
    services.play(game.pk, game.seats.get(number=seat).player,
                  [game.match().deal.legal_actions(seat)[0].token()], game.version)
    r = client.get(url, {"since": version, "chat_after": first}, headers=htmx)
    body = r.content.decode()
    assert r.status_code == 200 and 'id="table"' in body and "and a move" in body
    assert "while the socket was away" not in body

    for bad in ("x", "-1", "²", "9" * 40, ""):  # ignored: no chat lines
        r = client.get(url, {"since": version, "chat_after": bad}, headers=htmx)
        assert r.status_code == 200 and "data-chat-id" not in r.content.decode()


# ----------------------------------------------------------------------------- the layer
class StandInRedis:
    """Redis as the watcher's client sees it: its question fails while `down`, and a
    restart gives it a new run id."""

    def __init__(self):
        self.down = False
        self.pings = 0
        self.closed = False
        self.run_id = "first"

    async def info(self, section):
        assert section == "server"
        self.pings += 1
        if self.down:
            raise RedisConnectionError("Connection closed by server.")
        return {"run_id": self.run_id, "redis_version": "7.0.15"}

    async def aclose(self):
        self.closed = True


def watched_layer(monkeypatch):
    """The site's layer around Channels' in-memory layer (Redis's part is redis-py's
    and channels_redis' own), its ping a stand-in."""
    monkeypatch.setattr(channel_layer, "CHECK_SECONDS", 0.01)
    layer = channel_layer.ReconnectingPubSubChannelLayer(
        hosts=[{"address": "redis://127.0.0.1:1/0"}])
    layer.layer = InMemoryChannelLayer()
    redis = StandInRedis()
    layer.client = lambda host: redis
    return layer, redis


async def heard(layer, channel, timeout=0.2):
    try:
        return await asyncio.wait_for(layer.receive(channel), timeout)
    except TimeoutError:
        return None


@pytest.mark.asyncio
async def test_once_redis_is_back_each_channel_in_a_group_is_told_once(monkeypatch):
    layer, ping = watched_layer(monkeypatch)
    in_a_game, in_two, in_none = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("game-1", in_a_game)
    await layer.group_add("game-1", in_two)
    await layer.group_add("user-1", in_two)
    try:
        ping.down = True
        await asyncio.sleep(0.1)
        assert await heard(layer, in_a_game) is None  # nothing while down
        ping.down = False
        for channel in (in_a_game, in_two):
            assert await heard(layer, channel, 2) == {"type": "layer.reconnected"}
            assert await heard(layer, channel) is None  # once, though in two groups
        assert await heard(layer, in_none) is None
        before = ping.pings
        await asyncio.sleep(0.1)
        assert ping.pings > before and await heard(layer, in_a_game) is None  # only after a loss
    finally:
        await layer.flush()
    await asyncio.sleep(0.05)
    assert not layer.watchers and not layer.members and ping.closed


@pytest.mark.asyncio
async def test_a_channel_that_left_its_groups_is_not_told(monkeypatch):
    layer, ping = watched_layer(monkeypatch)
    stays, leaves = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("game-1", stays)
    await layer.group_add("game-1", leaves)
    await layer.group_discard("game-1", leaves)
    try:
        ping.down = True
        await asyncio.sleep(0.05)
        ping.down = False
        assert await heard(layer, stays, 2) == {"type": "layer.reconnected"}
        assert await heard(layer, leaves) is None
    finally:
        await layer.flush()


@pytest.mark.asyncio
async def test_a_restart_between_two_questions_is_told_too(monkeypatch):
    layer, redis = watched_layer(monkeypatch)
    channel = await layer.new_channel()
    await layer.group_add("game-1", channel)
    try:
        await asyncio.sleep(0.05)
        assert await heard(layer, channel) is None  # the same server: nothing to tell
        redis.run_id = "after a restart"  # never seen down: back within the pause
        assert await heard(layer, channel, 2) == {"type": "layer.reconnected"}
        assert await heard(layer, channel) is None
    finally:
        await layer.flush()


def test_every_host_retries_a_broken_connection_once_on_a_fresh_one():
    layer = channel_layer.ReconnectingPubSubChannelLayer(
        hosts=[{"address": "redis://127.0.0.1:1/0", "socket_timeout": 30}])
    [host] = layer.hosts
    assert host["socket_timeout"] == 30 and host["retry"].get_retries() == 1
    assert RedisConnectionError in host["retry_on_error"]
