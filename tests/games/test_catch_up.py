"""Catching up: a table socket that missed group events (the channel layer lost Redis, so
they were never delivered) gets the newer table and the chat lines it lacks when the layer
is back, when the page asks (its socket's sync on every open), when a later chat line
comes, and through the table's poll; the channel layer resubscribes and retries a
publish (durak_site.channel_layer, with a stand-in for Redis)."""

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
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
class StandInPubSub:
    """redis-py's PubSub as the shard uses it; reads fail while `down`."""

    def __init__(self, failing_subscribes=0, error=RedisConnectionError):
        self.down = False
        self.error = error
        self.subscribed = True
        self.subscribe_calls = []
        self.failing_subscribes = failing_subscribes

    async def get_message(self, ignore_subscribe_messages=True, timeout=0.1):
        await asyncio.sleep(0.01)
        if self.down:
            raise self.error("Connection closed by server.")
        return None

    async def subscribe(self, *channels):
        if self.failing_subscribes:
            self.failing_subscribes -= 1
            raise RedisConnectionError("Connection closed by server.")
        self.subscribe_calls.append(set(channels))


class StandInPool:
    def __init__(self):
        self.idle_closed = 0

    async def disconnect(self, inuse_connections=True):
        assert not inuse_connections  # the subscriber's connection stays
        self.idle_closed += 1


class StandInRedis:
    def __init__(self, failures):
        self.failures = failures
        self.published = []
        self.connection_pool = StandInPool()

    async def publish(self, channel, message):
        if self.failures:
            self.failures -= 1
            raise RedisConnectionError("Connection closed by server.")
        self.published.append((channel, message))

    async def aclose(self, close_connection_pool=True):
        pass


def shard_of(layer_loop):
    [shard] = layer_loop._shards
    return shard


@pytest.mark.asyncio
@pytest.mark.parametrize("error", [RedisConnectionError, TimeoutError])
async def test_the_layer_resubscribes_and_tells_grouped_channels_once_redis_is_back(
        monkeypatch, error):
    monkeypatch.setattr(channel_layer, "RETRY_SECONDS", 0.01)
    layer = channel_layer.ReconnectingPubSubChannelLayer(
        hosts=[{"address": "redis://127.0.0.1:1/0"}])
    loop_layer = layer._get_layer()
    shard = shard_of(loop_layer)
    pubsub = StandInPubSub(error=error)
    shard._redis, shard._pubsub = StandInRedis(0), pubsub
    for name in ("in-a-game", "in-two-groups", "in-no-group"):
        loop_layer.channels[name] = asyncio.Queue()
    loop_layer.groups = {"asgi__group__game-1": {"in-a-game", "in-two-groups"},
                         "asgi__group__user-1": {"in-two-groups"}}
    shard._subscribed_to = {"in-a-game", "asgi__group__game-1", "asgi__group__user-1"}

    task = asyncio.ensure_future(shard._do_receiving())
    try:
        pubsub.down = True
        await asyncio.sleep(0.1)
        assert all(q.empty() for q in loop_layer.channels.values())  # nothing while down
        pubsub.down = False
        for name in ("in-a-game", "in-two-groups"):
            message = await asyncio.wait_for(loop_layer.channels[name].get(), 2)
            assert layer.deserialize(message) == {"type": "layer.reconnected"}
            assert loop_layer.channels[name].empty()  # once, though in two groups
        assert loop_layer.channels["in-no-group"].empty()
        assert pubsub.subscribe_calls == [shard._subscribed_to]
    finally:
        task.cancel()


@pytest.mark.asyncio
async def test_a_publish_on_a_broken_connection_is_tried_once_more():
    layer = channel_layer.ReconnectingPubSubChannelLayer(
        hosts=[{"address": "redis://127.0.0.1:1/0"}])
    shard = shard_of(layer._get_layer())
    shard._redis, shard._pubsub = StandInRedis(failures=1), StandInPubSub()
    await layer.group_send("game-1", {"type": "game.changed", "version": 3})
    assert [channel for channel, _ in shard._redis.published] == ["asgi__group__game-1"]
    assert shard._redis.connection_pool.idle_closed == 1  # the retry connects afresh

    shard._redis = StandInRedis(failures=2)  # Redis is gone: the error is the caller's
    with pytest.raises(RedisConnectionError):
        await layer.group_send("game-1", {"type": "game.changed", "version": 4})


@pytest.mark.asyncio
async def test_a_subscribe_on_a_broken_connection_is_tried_once_more():
    layer = channel_layer.ReconnectingPubSubChannelLayer(
        hosts=[{"address": "redis://127.0.0.1:1/0"}])
    shard = shard_of(layer._get_layer())
    shard._redis, shard._pubsub = StandInRedis(0), StandInPubSub(failing_subscribes=1)
    shard._receive_task = asyncio.ensure_future(asyncio.sleep(0))  # no reader here
    channel = await layer.new_channel()  # a new socket's, before its handshake ends
    assert channel in shard._subscribed_to
    assert shard._pubsub.subscribe_calls == [{channel}]

    shard._pubsub.failing_subscribes = 2  # Redis is gone: the error is the caller's
    with pytest.raises(RedisConnectionError):
        await layer.group_add("game-1", channel)
