"""The live table over WebSockets (games.live.table), with Channels' WebsocketCommunicator.

Unit tier: in-memory channel layer, bots run eagerly. Each test drives the real ASGI
application (origin check, session auth, URL routing) as a browser would.
"""

import json
import re
import types
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from durak_site.asgi import application
from games import limits, services
from games.live import base
from games.live.nav import NavConsumer
from games.live.table import TableConsumer
from games.models import Game
from tests.games.leaks import assert_no_leak

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

VERSION = re.compile(r'data-version="(\d+)"')


def session_headers(user, origin="http://testserver"):
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return [(b"origin", origin.encode()), (b"host", b"testserver"),
            (b"cookie", cookie.encode())]


async def connect(game, user=None, *, origin="http://testserver", query=""):
    headers = await sync_to_async(session_headers)(user, origin) if user else [
        (b"origin", origin.encode()), (b"host", b"testserver")]
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/{query}", headers=headers)
    connected, code = await comm.connect()
    return comm, connected, code


async def receive_table(comm, timeout=3):
    """The next table frame: the whole table, or after a move only what changed."""
    html = await comm.receive_from(timeout=timeout)
    assert ('id="table"' in html or html.startswith('<div id="table-frame"')), html[:300]
    assert 'hx-swap-oob="true"' in html
    return html, int(VERSION.search(html).group(1))


@sync_to_async
def fresh(game):
    game.refresh_from_db()
    return game


@sync_to_async
def deal_of(game):
    game.refresh_from_db()
    return game.match().deal


@sync_to_async
def legal(game, seat):
    game.refresh_from_db()
    return [a.token() for a in game.match().deal.legal_actions(seat)]


async def test_it_sends_the_whole_table_on_connect(duel, alice):
    comm, connected, _ = await connect(duel, alice)
    assert connected
    html, version = await receive_table(comm)
    deal = await deal_of(duel)
    assert version == duel.version
    for card in deal.hand(0):
        assert f'data-card="{card.code}"' in html
    await sync_to_async(assert_no_leak)(html, deal, 0)
    await comm.disconnect()


async def test_a_move_reaches_the_opponent_with_their_own_view(duel, alice, bob):
    alice_ws, *_ = await connect(duel, alice)
    bob_ws, *_ = await connect(duel, bob)
    await receive_table(alice_ws)
    await receive_table(bob_ws)
    game = await fresh(duel)
    deal = await deal_of(duel)
    mover = deal.to_act
    user = alice if mover == 0 else bob
    action = (await legal(game, mover))[0]
    v0 = game.version
    await sync_to_async(services.play)(game.pk, user, [action], v0)
    for comm, seat in ((alice_ws, 0), (bob_ws, 1)):
        html, version = await receive_table(comm)
        assert version == v0 + 1
        deal = await deal_of(duel)
        await sync_to_async(assert_no_leak)(html, deal, seat)
        for card in deal.hand(seat):
            assert f'data-card="{card.code}"' in html
    await alice_ws.disconnect()
    await bob_ws.disconnect()


async def test_a_spectator_sees_moves_but_no_hand(duel, carol):
    comm, connected, _ = await connect(duel, carol)
    assert connected
    html, _v = await receive_table(comm)
    deal = await deal_of(duel)
    await sync_to_async(assert_no_leak)(html, deal, None)
    await comm.disconnect()


async def test_an_outsider_is_refused_at_a_private_game(alice, bob, carol, classic, seeded):
    game = await sync_to_async(services.create_game)(
        alice, classic, players=2, move_time=timedelta(hours=1), private=True)
    comm, connected, code = await connect(game, carol)
    assert not connected and code == base.CLOSE_REFUSED
    comm, connected, _ = await connect(game, carol, query=f"?invite={game.invite_token}")
    assert connected
    await comm.disconnect()
    comm, connected, _ = await connect(game, alice)
    assert connected
    await comm.disconnect()


async def test_an_unknown_game_is_refused(alice, db):
    comm = WebsocketCommunicator(application, "/ws/games/999999/",
                                 headers=await sync_to_async(session_headers)(alice))
    connected, code = await comm.connect()
    assert not connected and code == base.CLOSE_REFUSED


async def test_without_redis_a_socket_is_refused_cleanly(duel, alice, monkeypatch, caplog):
    async def down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr("channels.layers.InMemoryChannelLayer.group_add", down)
    comm, connected, code = await connect(duel, alice)
    assert not connected and code == base.CLOSE_TRY_LATER
    assert "could not join game" in caplog.text and "ERROR" not in caplog.text


async def test_a_foreign_origin_is_refused(duel, alice):
    comm, connected, _ = await connect(duel, alice, origin="http://evil.example")
    assert not connected


async def test_a_move_over_the_socket_goes_through_services(duel, alice, bob):
    deal = await deal_of(duel)
    mover = deal.to_act
    user = alice if mover == 0 else bob
    comm, *_ = await connect(duel, user)
    await receive_table(comm)
    game = await fresh(duel)
    action = (await legal(game, mover))[0]
    # What htmx ws-send sends: the form's fields as JSON (plus htmx's HEADERS).
    await comm.send_to(text_data=json.dumps({
        "action": action, "version": str(game.version),
        "HEADERS": {"HX-Request": "true"}}))
    html, version = await receive_table(comm)
    assert version == game.version + 1
    log = await sync_to_async(lambda: list(game.moves.values_list("actions", flat=True)))()
    assert log[-1] == [action]
    await comm.disconnect()


async def test_a_move_over_the_socket_marks_the_player_seen(duel, alice, bob):
    """As a page does: no "your move" email for a player who is at the table."""
    deal = await deal_of(duel)
    user = alice if deal.to_act == 0 else bob
    await sync_to_async(type(user).objects.filter(pk=user.pk).update)(last_seen=None)
    comm, *_ = await connect(duel, user)
    await receive_table(comm)
    game = await fresh(duel)
    action = (await legal(game, deal.to_act))[0]
    await comm.send_to(text_data=json.dumps({"action": [action], "version": [str(game.version)]}))
    await receive_table(comm)
    await comm.disconnect()
    assert await sync_to_async(lambda: type(user).objects.get(pk=user.pk).last_seen)() is not None


async def test_bad_messages_get_a_clear_answer_and_change_nothing(duel, alice, bob):
    deal = await deal_of(duel)
    mover = deal.to_act
    user = alice if mover == 0 else bob
    comm, *_ = await connect(duel, user)
    await receive_table(comm)
    before = await fresh(duel)
    state, version = before.state, before.version
    action = (await legal(before, mover))[0]
    cases = [
        ("not json at all", "not a move"),
        (json.dumps([1, 2, 3]), "not a move"),
        (json.dumps({"action": "attack:ZZ", "version": version}), "“attack:ZZ” is not a move"),
        (json.dumps({"action": action, "version": version - 1}), "moved on"),
        (json.dumps({"action": "teleport", "version": version}), "is not a move"),
        (json.dumps({"actions": "[{", "version": version}), "That is not a move."),
        (json.dumps({"actions": [{"type": "take"}], "version": version}), "That is not a move."),
        (json.dumps({"action": 7, "version": version}), "That is not a move."),
    ]
    for message, expected in cases:
        await comm.send_to(text_data=message)
        html, _v = await receive_table(comm)
        assert expected in html, message
    after = await fresh(duel)
    assert (after.state, after.version) == (state, version)
    await comm.disconnect()


async def test_another_seat_is_refused_over_the_socket(duel, alice, bob):
    deal = await deal_of(duel)
    mover = deal.to_act
    user = bob if mover == 0 else alice  # not the mover
    comm, *_ = await connect(duel, user)
    await receive_table(comm)
    game = await fresh(duel)
    action = (await legal(game, mover))[0]
    await comm.send_to(text_data=json.dumps(
        {"actions": [action], "version": game.version, "seat": mover}))
    html, _ = await receive_table(comm)
    assert "not your seat" in html
    assert (await fresh(duel)).version == game.version
    await comm.disconnect()


async def test_a_huge_message_closes_the_socket_and_changes_nothing(duel, alice):
    comm, *_ = await connect(duel, alice)
    await receive_table(comm)
    version = (await fresh(duel)).version
    await comm.send_to(text_data="x" * (base.MAX_MESSAGE_BYTES + 1))
    html, _ = await receive_table(comm)
    assert "too large" in html
    closed = await comm.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": base.CLOSE_TOO_BIG}
    assert (await fresh(duel)).version == version


async def test_a_flood_is_cut_off(duel, alice, monkeypatch):
    # The bucket refills with time: stop its clock so a slow machine sees the same flood.
    monkeypatch.setattr(base, "time", types.SimpleNamespace(monotonic=lambda: 1000.0))
    comm, *_ = await connect(duel, alice)
    await receive_table(comm)
    for _ in range(limits.rate("socket_messages").burst + 20):
        await comm.send_to(text_data=json.dumps({"sync": True}))
    outputs = []
    while True:
        out = await comm.receive_output(timeout=5)
        outputs.append(out)
        if out["type"] == "websocket.close":
            break
    assert outputs[-1]["code"] == base.CLOSE_FLOOD
    assert len(outputs) - 1 <= limits.rate("socket_messages").burst  # answered at most the burst, then closed


async def test_a_reconnect_gets_the_full_table(duel, alice, bob):
    comm, *_ = await connect(duel, alice)
    await receive_table(comm)
    await comm.disconnect()
    # Moves happen while alice is away.
    game = await fresh(duel)
    deal = await deal_of(duel)
    mover = deal.to_act
    action = (await legal(game, mover))[0]
    await sync_to_async(services.play)(game.pk, alice if mover == 0 else bob, [action],
                                       game.version)
    comm, connected, _ = await connect(duel, alice)
    assert connected
    html, version = await receive_table(comm)
    assert version == game.version + 1
    await comm.send_to(text_data=json.dumps({"sync": True}))  # a client that saw a gap
    html, again = await receive_table(comm)
    assert again == version
    await comm.disconnect()


async def test_a_human_plays_a_whole_deal_against_a_bot_over_the_socket(
        alice, classic, seeded, settings):
    settings.LIMITS = {**settings.LIMITS, "socket_messages": (1000.0, 12)}  # clicks very fast
    game = await sync_to_async(services.create_game)(
        alice, classic, players=2, bots=["medium"], move_time=timedelta(hours=1))
    game = await fresh(game)
    assert game.status == Game.Status.PLAYING
    comm, *_ = await connect(game, alice)
    html, version = await receive_table(comm)
    moves = 0
    while True:
        game = await fresh(game)
        deal = game.match().deal if game.state else None
        if game.status != Game.Status.PLAYING or deal.is_over or game.match().deal_number > 1:
            break
        if deal.to_act != 0:  # the bot moved already (eagerly) when the deal began
            await comm.send_to(text_data=json.dumps({"sync": True}))
            html, version = await receive_table(comm)
            continue
        action = (await legal(game, 0))[0]
        await comm.send_to(text_data=json.dumps({"actions": [action], "version": game.version}))
        html, version = await receive_table(comm)
        # Drain the pushes for the bot's replies.
        while version < (await fresh(game)).version:
            html, version = await receive_table(comm)
        await sync_to_async(assert_no_leak)(html, (await deal_of(game)), 0)
        moves += 1
        assert moves < 500
    game = await fresh(game)
    assert moves > 3
    assert game.status == Game.Status.FINISHED
    assert "durak" in html.lower() or "draw" in html.lower()
    await comm.disconnect()


async def test_a_message_for_a_client_that_has_just_left_is_dropped():
    """A browser that moves on closes its sockets at once, maybe while the table is still
    being rendered: Daphne's protocol refuses the send, and that is no error of the site's."""
    def gone(message):
        raise Disconnected("Attempt to send on a closed protocol")

    for consumer in (TableConsumer(), NavConsumer()):
        consumer.base_send = gone
        await sync_to_async(consumer.send)(text_data="<div id='table'></div>")
