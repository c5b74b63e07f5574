"""Seats before the crowd (docs/design.md, "How sockets are counted"): a table full of
watchers, and addresses full of anonymous sockets, still let the table's seated players
in, and their moves reach each other; a signed-in player's page socket too. A player
has a cap of their own."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from durak_site.asgi import application
from games.live import base, sockets
from tests.games.test_live import fresh, legal, receive_table
from tests.games.test_socket_safety import assert_closed, logged_in, mover_of, open_socket

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

ANONYMOUS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
CROWD = [f"198.51.100.{n}" for n in range(5)]  # the watchers' addresses


@pytest.fixture(autouse=True)
def fresh_socket_counts(monkeypatch):
    """No count left by an earlier test's socket on a game of the same id."""
    monkeypatch.setattr(sockets, "_stores", {})
    monkeypatch.setattr(sockets, "_held", {})


async def crowd(game, settings):
    """Anonymous watchers from CROWD fill the table's cap and every crowd address's."""
    settings.WS_MAX_PER_ADDRESS, settings.WS_MAX_PER_GAME = 4, 4 * len(CROWD)
    comms = []
    for address in CROWD * 4:
        comm, connected, code = await open_socket(game, ANONYMOUS, address)
        assert connected, code
        await receive_table(comm, timeout=10)
        comms.append(comm)
    assert sockets.count(sockets.game_key(game.pk)) == settings.WS_MAX_PER_GAME
    return comms


async def nav_socket(headers, address):
    comm = WebsocketCommunicator(application, "/ws/me/?page=lobby", headers=headers)
    comm.scope["client"] = (address, 40000)
    connected, code = await comm.connect()
    return comm, connected, code


async def test_a_full_table_of_watchers_lets_its_players_in_and_their_moves_arrive(
        duel, alice, bob, carol, settings):
    watchers = await crowd(duel, settings)
    # The crowd's caps hold for watchers: one more anonymous, or a signed-in watcher.
    extra, _connected, _code = await open_socket(duel, ANONYMOUS, "203.0.113.77")
    await assert_closed(extra, base.CLOSE_TOO_MANY)
    _client, carol_headers = await sync_to_async(logged_in)(carol)
    extra, _connected, _code = await open_socket(duel, carol_headers, "203.0.113.78")
    await assert_closed(extra, base.CLOSE_TOO_MANY)

    # The players, on an address the crowd has filled too (one network, say).
    players = {}
    for user in (alice, bob):
        _client, headers = await sync_to_async(logged_in)(user)
        comm, connected, code = await open_socket(duel, headers, CROWD[0])
        assert connected, code
        await receive_table(comm, timeout=10)
        page, connected, code = await nav_socket(headers, CROWD[0])
        assert connected, code  # their pages stay live as well
        await page.receive_from(timeout=10)
        players[user.pk] = (comm, page)

    user, seat = await mover_of(duel, alice, bob)
    other = bob if user == alice else alice
    game = await fresh(duel)
    action = (await legal(game, seat))[0]
    mover_ws, other_ws = players[user.pk][0], players[other.pk][0]
    await mover_ws.send_to(text_data=json.dumps({"action": action,
                                                 "version": str(game.version),
                                                 "HEADERS": {"HX-Request": "true"}}))
    _html, version = await receive_table(mover_ws, timeout=10)
    assert version == game.version + 1
    _html, version = await receive_table(other_ws, timeout=10)  # the move arrived
    assert version == game.version + 1
    _html, version = await receive_table(watchers[0], timeout=10)
    assert version == game.version + 1
    assert sockets.count(sockets.game_key(duel.pk)) == settings.WS_MAX_PER_GAME  # watchers

    for comm in [*watchers, *[c for pair in players.values() for c in pair]]:
        await comm.disconnect()
    assert sockets.held() == 0


async def test_a_player_has_a_cap_of_their_own(duel, alice, settings):
    settings.WS_MAX_PER_PLAYER = 3
    _client, headers = await sync_to_async(logged_in)(alice)
    comms = []
    for n in range(2):  # a table socket and a page socket from each of two addresses
        comm, connected, code = await open_socket(duel, headers, f"203.0.113.{n}")
        assert connected, code
        await receive_table(comm, timeout=10)
        comms.append(comm)
    page, connected, code = await nav_socket(headers, "203.0.113.9")
    assert connected, code
    await page.receive_from(timeout=10)
    for extra, *_ in (await open_socket(duel, headers, "203.0.113.50"),
                      await nav_socket(headers, "203.0.113.51")):
        await assert_closed(extra, base.CLOSE_TOO_MANY)
    await comms.pop().disconnect()  # a closed socket frees its place
    again, connected, code = await open_socket(duel, headers, "203.0.113.50")
    assert connected, code
    for comm in [*comms, again, page]:
        await comm.disconnect()
    assert sockets.count(sockets.player_key(alice.pk)) == 0
