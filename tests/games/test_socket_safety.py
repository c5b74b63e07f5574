"""Over the socket: malformed frames, sockets that outlive their session, unknown
paths, socket limits and the origin check (scheme, host and port)."""

import json
import logging

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse

from durak_site.asgi import application
from games import limits
from games.live import base, sockets
from games.live.nav import NavConsumer
from games.live.table import CLOSE_REFUSED, TableConsumer
from games.notify import group_name, nav_group
from tests.games.test_live import connect, fresh, legal, receive_table

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def fresh_socket_counts(monkeypatch):
    """No count left by an earlier test's socket on a game of the same id."""
    monkeypatch.setattr(sockets, "_stores", {})
    monkeypatch.setattr(sockets, "_held", {})


def logged_in(user):
    """A test client logged in as `user` and the socket headers of its session."""
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return client, [(b"origin", b"http://testserver"), (b"host", b"testserver"),
                    (b"cookie", cookie.encode())]


async def open_socket(game, headers, client_address=None):
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    if client_address:
        comm.scope["client"] = (client_address, 40000)
    connected, code = await comm.connect()
    return comm, connected, code


async def mover_of(game, alice, bob):
    game = await fresh(game)
    seat = await sync_to_async(lambda: game.match().deal.to_act)()
    return (alice if seat == 0 else bob), seat


async def assert_closed(comm, code):
    # A generous wait: on a timeout the communicator cancels the consumer, and a consumer
    # cancelled in the middle of its close can hang the test run (seen once under load).
    output = await comm.receive_output(timeout=10)
    while output["type"] == "websocket.send":  # a table sent before the close
        output = await comm.receive_output(timeout=10)
    assert output == {"type": "websocket.close", "code": code}


# ------------------------------------------------------------------ malformed frames
async def test_malformed_frames_get_a_message_and_the_socket_stays_open(duel, alice, bob):
    user, _seat = await mover_of(duel, alice, bob)
    comm, connected, _ = await connect(duel, user)
    assert connected
    await receive_table(comm)
    before = await fresh(duel)
    frames = [
        '{"version":1,"actions":' + "[" * 5000,  # RecursionError in json before the fix
        json.dumps({"version": before.version, "actions": [[[[[[[[[["take"]]]]]]]]]]}),
        json.dumps({"version": before.version, "actions": "take"}),
        "\ud800 not json",
    ]
    for frame in frames:
        await comm.send_to(text_data=frame)
        html, _v = await receive_table(comm)
        assert "not a move" in html, frame[:40]
    await comm.send_to(text_data=json.dumps({"sync": True}))  # still open and answering
    await receive_table(comm)
    after = await fresh(duel)
    assert (after.state, after.version) == (before.state, before.version)
    await comm.disconnect()


# ------------------------------------------------------------------ the session
async def test_log_out_closes_the_socket_and_its_moves_are_not_played(duel, alice, bob):
    user, seat = await mover_of(duel, alice, bob)
    client, headers = await sync_to_async(logged_in)(user)
    comm, connected, _ = await open_socket(duel, headers)
    assert connected
    await receive_table(comm)
    before = await fresh(duel)
    action = (await legal(before, seat))[0]
    response = await sync_to_async(client.post)(reverse("logout"))
    assert response.status_code in (200, 302)
    await comm.send_to(text_data=json.dumps({"action": action, "version": before.version}))
    await assert_closed(comm, base.CLOSE_SIGNED_OUT)
    # Closed once: the move that crossed the log-out is dropped, not answered with a
    # second close (one that came after the test's end once hung the test run).
    assert await comm.receive_nothing(timeout=0.5)
    assert (await fresh(duel)).version == before.version
    await comm.disconnect()


async def mover_at_table(game, alice, bob):
    """The player to act, logged in, with their table socket open: (user, their client,
    the socket, the version, a legal move of theirs)."""
    user, seat = await mover_of(game, alice, bob)
    client, headers = await sync_to_async(logged_in)(user)
    comm, _connected, _ = await open_socket(game, headers)
    await receive_table(comm)
    before = await fresh(game)
    return user, client, comm, before.version, (await legal(before, seat))[0]


async def test_a_move_over_a_socket_whose_session_is_gone_is_not_played(duel, alice, bob):
    # No event at all (the session simply deleted): the consumer re-checks before a move.
    _user, client, comm, version, action = await mover_at_table(duel, alice, bob)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    await sync_to_async(lambda: SessionStore(session_key=key).delete())()
    await comm.send_to(text_data=json.dumps({"action": action, "version": version}))
    await assert_closed(comm, base.CLOSE_SIGNED_OUT)
    assert (await fresh(duel)).version == version
    await comm.disconnect()


async def test_a_socket_that_has_moved_is_checked_again_at_its_next_move(duel, alice, bob):
    # Its first move passed the check; the password then changes with no event told (a
    # queryset update): the next move finds the session row changed and is not played.
    user, _client, comm, version, action = await mover_at_table(duel, alice, bob)
    await comm.send_to(text_data=json.dumps({"action": action, "version": version}))
    await receive_table(comm)
    assert (await fresh(duel)).version == version + 1
    await sync_to_async(lambda: type(user).objects.filter(pk=user.pk).update(
        password="pbkdf2_sha256$1$salt$changed"))()
    await comm.send_to(text_data=json.dumps({"action": "take", "version": version + 1}))
    await assert_closed(comm, base.CLOSE_SIGNED_OUT)
    assert (await fresh(duel)).version == version + 1
    await comm.disconnect()


@pytest.mark.parametrize("change", ["password", "deactivate"])
async def test_a_new_password_or_a_closed_account_closes_the_socket(duel, alice, bob, change):
    user, seat = await mover_of(duel, alice, bob)
    _client, headers = await sync_to_async(logged_in)(user)
    comm, connected, _ = await open_socket(duel, headers)
    await receive_table(comm)

    def apply():
        if change == "password":
            user.set_password("another-fine-password-42")
        else:
            user.is_active = False
        user.save()

    await sync_to_async(apply)()
    await assert_closed(comm, base.CLOSE_SIGNED_OUT)
    await comm.disconnect()


async def test_another_session_of_the_same_user_keeps_its_socket(duel, alice, bob):
    _first, headers = await sync_to_async(logged_in)(alice)
    second, _ = await sync_to_async(logged_in)(alice)
    comm, connected, _ = await open_socket(duel, headers)
    await receive_table(comm)
    await sync_to_async(second.post)(reverse("logout"))
    await comm.send_to(text_data=json.dumps({"sync": True}))
    await receive_table(comm)  # still open
    await comm.disconnect()


# ------------------------------------------------------------------ paths
@pytest.mark.parametrize("path", ["/ws/games/abc/", "/ws/nothing/", "/ws/games/1/extra/"])
async def test_an_unknown_socket_path_is_refused_without_an_error(path, caplog, db):
    caplog.set_level(logging.WARNING)
    comm = WebsocketCommunicator(application, path, headers=[
        (b"origin", b"http://testserver"), (b"host", b"testserver")])
    connected, _code = await comm.connect()
    assert not connected
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ------------------------------------------------------------------ limits
async def open_tables(game, headers, addresses):
    """A socket from each address, each showing the table."""
    comms = []
    for address in addresses:
        comm, connected, _ = await open_socket(game, headers, address)
        assert connected
        await receive_table(comm)
        comms.append(comm)
    return comms


async def test_sockets_beyond_the_limit_per_address_are_refused(duel, settings):
    """Anonymous sockets count per address (a signed-in player's: per player)."""
    settings.WS_MAX_PER_ADDRESS = 3
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    comms = await open_tables(duel, headers, ["203.0.113.7"] * 3)
    extra, _connected, _ = await open_socket(duel, headers, "203.0.113.7")
    await assert_closed(extra, base.CLOSE_TOO_MANY)
    comms += await open_tables(duel, headers, ["198.51.100.9"])  # another address
    await comms.pop(0).disconnect()  # a closed socket frees its place
    comms += await open_tables(duel, headers, ["203.0.113.7"])
    for comm in comms:
        await comm.disconnect()


async def test_sockets_beyond_the_limit_per_game_are_refused(duel, carol, dave, settings):
    """The table's watchers, signed in or not, count per table (its players: never)."""
    settings.WS_MAX_PER_GAME = 2
    _client, headers = await sync_to_async(logged_in)(carol)
    comms = await open_tables(duel, headers, ["203.0.113.1", "203.0.113.2"])
    _client, headers = await sync_to_async(logged_in)(dave)
    extra, _connected, _ = await open_socket(duel, headers, "203.0.113.50")
    await assert_closed(extra, base.CLOSE_TOO_MANY)
    anonymous = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    extra, _connected, _ = await open_socket(duel, anonymous, "203.0.113.51")
    await assert_closed(extra, base.CLOSE_TOO_MANY)
    for comm in comms:
        await comm.disconnect()


class Bug(Exception):
    pass


def broken(self, event):
    raise Bug("a bug in a handler")


@pytest.mark.parametrize("kind", ["table", "navigation"])
async def test_a_consumer_that_crashes_still_frees_its_place(duel, alice, settings, kind):
    settings.WS_MAX_PER_GAME = settings.WS_MAX_PER_ADDRESS = settings.WS_MAX_PER_PLAYER = 1
    _client, headers = await sync_to_async(logged_in)(alice)

    async def open_one():
        if kind == "table":
            return await open_socket(duel, headers, "203.0.113.7")
        comm = WebsocketCommunicator(application, "/ws/me/", headers=headers)
        comm.scope["client"] = ("203.0.113.7", 40000)
        return comm, *(await comm.connect())

    comm, connected, _ = await open_one()
    assert connected
    await comm.receive_from(timeout=10)  # the table, or the navigation's count
    handler, group = {"table": ("game_changed", group_name(duel.pk)),
                      "navigation": ("people_changed", nav_group(alice.pk))}[kind]
    cls = TableConsumer if kind == "table" else NavConsumer
    original = cls.__dict__[handler]
    setattr(cls, handler, broken)
    try:
        await get_channel_layer().group_send(group, {"type": handler.replace("_", "."),
                                                     "version": 10**6})
        with pytest.raises(Bug):
            await comm.wait(timeout=10)  # crashed: the server would close it with 1011
    finally:
        setattr(cls, handler, original)
    again, connected, code = await open_one()
    assert connected, code
    first = await again.receive_output(timeout=10)
    assert first["type"] == "websocket.send", first  # not closed 4429: the place is free
    await again.disconnect()


async def test_a_flood_on_the_navigation_socket_closes_it(alice, monkeypatch):
    monkeypatch.setattr(base.SiteConsumer, "clock", staticmethod(lambda: 1000.0))  # frozen
    _client, headers = await sync_to_async(logged_in)(alice)
    comm = WebsocketCommunicator(application, "/ws/me/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=10)  # the navigation's count
    for _ in range(limits.rate("socket_messages").burst + 5):
        await comm.send_to(text_data="{}")
    await assert_closed(comm, base.CLOSE_FLOOD)
    await comm.disconnect()


# ------------------------------------------------------------------ origin
@pytest.mark.parametrize("origin, allowed", [
    ("https://localhost", True),
    ("http://localhost", False),  # right host, wrong scheme
    ("https://localhost:8443", False),  # right host, wrong port
    ("http://evil.example:8000", False),
    ("https://evil.example", False),
    ("null", False),
])
async def test_the_origin_must_match_scheme_host_and_port(duel, alice, settings, origin, allowed):
    # The site is https://localhost (localhost: an allowed host by default).
    settings.SITE_URL = "https://localhost"
    settings.HTTPS = True
    _client, headers = await sync_to_async(logged_in)(alice)
    headers = [(b"origin", origin.encode()), (b"host", b"localhost"), headers[2]]
    comm, connected, _ = await open_socket(duel, headers)
    assert connected is allowed
    if connected:
        await receive_table(comm)
        await comm.disconnect()


@pytest.mark.parametrize("path", ["table", "/ws/me/"])
async def test_a_channel_layer_that_cannot_reach_redis_refuses_the_handshake_politely(
        duel, alice, monkeypatch, path):
    async def unreachable(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(type(get_channel_layer()), "new_channel", unreachable)
    _client, headers = await sync_to_async(logged_in)(alice)
    url = f"/ws/games/{duel.pk}/" if path == "table" else path
    comm = WebsocketCommunicator(application, url, headers=headers)
    connected, code = await comm.connect(timeout=10)  # a crash would raise here
    assert not connected and code == base.CLOSE_TRY_LATER


# ------------------------------------------------------------------ a game that goes
async def test_a_game_gone_while_its_socket_opens_closes_it_without_an_error(
        duel, alice, bob, monkeypatch):
    """Its rules or rows deleted between the handshake and the first table (an admin's
    delete, a test's flush): the socket is closed as refused, and nothing fails."""
    def gone(self):
        raise type(duel).preset.field.related_model.DoesNotExist("deleted meanwhile")
    monkeypatch.setattr(TableConsumer, "send_table", gone)
    _client, headers = await sync_to_async(logged_in)(alice)
    comm, connected, _code = await open_socket(duel, headers)
    assert connected
    await assert_closed(comm, CLOSE_REFUSED)
    await comm.disconnect()
