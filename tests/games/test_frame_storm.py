"""Every frame shape from everyone: the table's and the navigation's sockets answer each
frame or refuse it politely, never crash (1011), and give back every socket count.

Frames: every JSON type in every field a client may send, JSON that is not an object,
text that is not JSON, binary frames and a frame over the size limit; senders: an
anonymous reader, a seated player, a spectator of a public table, and an outsider of a
private table with and without its invite link.
"""

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from durak_site.asgi import application
from games import services
from games.live import base, sockets
from games.models import Game
from tests.games.test_live import session_headers

pytestmark = [pytest.mark.django_db(transaction=True, serialized_rollback=True), pytest.mark.asyncio]

VALUES = [None, True, False, 0, 1, -1, 2**70, 1.5, "", "x", "take", "12", "attack:7S",
          [], [None], [1], [[1]], ["take"], ["x", "y"], [{"x": 1}], {}, {"x": 1},
          {"actions": ["take"]}]
FIELDS = ["actions", "action", "beat_7S", "then", "version", "seat", "chat", "phrase",
          "sync", "type"]
RAW_TEXT = ["", "not json", "{", "null", "true", "1", "1.5", '"take"', "[]", '[1, [2]]',
            '{"version": 1e999, "actions": ["take"]}', '{"version": NaN, "actions": ["take"]}',
            '{"version": -Infinity, "actions": ["take"]}', '{"actions": ["take"], "version": 1}',
            '{"phrase": [[1]]}', '{"phrase": {"x": 1}}', '{"chat": ["hello"]}', '{"sync": true}',
            '{"type": "sync"}', "[" * 50 + "]" * 50, '{"a": ' * 20 + "1" + "}" * 20,
            "\ud800 not json", '{"HEADERS": {"HX-Request": "true"}, "chat": "hi"}']
RAW_BYTES = [b"", b"\x00\xff\xfe", b'{"sync": true}', b'{"actions": ["take"], "version": 1}',
             "{\"chat\": \"\u00e9\"}".encode("latin-1")]


def frames(version: int) -> list[dict]:
    """Each frame as the server hands it to the application."""
    out = []
    for field in FIELDS:
        for value in VALUES:
            out.append({field: value})
            if field in ("actions", "action", "version", "seat", "then"):  # beside a move
                out.append({"actions": ["take"], "version": version, field: value})
    sent = [{"text": json.dumps(frame)} for frame in out]
    sent += [{"text": text} for text in RAW_TEXT]
    sent += [{"bytes": data} for data in RAW_BYTES]
    return [{"type": "websocket.receive", **frame} for frame in sent]


class OneFrameASecond:
    """The flood limit's clock: every reading a second on, so the storm is never cut off
    as a flood (that is test_live's test) however fast the machine sends it."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture(autouse=True)
def fresh_socket_counts(monkeypatch):
    """No count left by an earlier test's socket on a game of the same id."""
    monkeypatch.setattr(sockets, "_stores", {})
    monkeypatch.setattr(sockets, "_held", {})


@pytest.fixture
def slow_clock(monkeypatch):
    monkeypatch.setattr(base.SiteConsumer, "clock", OneFrameASecond())


@pytest.fixture
def hidden(alice, bob, classic, seeded):
    """A private table of alice and bob, playing."""
    game = services.create_game(alice, classic, players=2, private=True,
                                move_time=timedelta(hours=1))
    services.join_game(game.pk, bob, invite_token=game.invite_token)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    return game


async def open_socket(path, user=None, address="203.0.113.5", *, first=True):
    """(socket, accepted, close code). `first`: the socket sends something on connect (a
    table, a count), read here; a socket over a limit is accepted, then closed 4429."""
    headers = await sync_to_async(session_headers)(user) if user else [
        (b"origin", b"http://testserver"), (b"host", b"testserver")]
    comm = WebsocketCommunicator(application, path, headers=headers)
    comm.scope["client"] = (address, 40000)
    connected, code = await comm.connect(timeout=10)
    if connected and first:
        output = await answer(comm)
        if output["type"] == "websocket.close":
            return comm, False, output.get("code")
    return comm, connected, code


async def answer(comm, timeout: float = 10) -> dict:
    """The socket's next output; a crash of the consumer is raised at once."""
    output = asyncio.ensure_future(comm.output_queue.get())
    done, _ = await asyncio.wait({output, comm.future}, timeout=timeout,
                                 return_when=asyncio.FIRST_COMPLETED)
    if output in done:
        return output.result()
    output.cancel()
    if comm.future.done():
        comm.future.result()  # the consumer's exception
    raise AssertionError(f"no answer within {timeout} s")


async def drain(comm, what: str) -> list[dict]:
    """Whatever the socket has sent meanwhile: frames only, never a close."""
    outputs = []
    while not await comm.receive_nothing(timeout=0.01, interval=0.002):
        outputs.append(await answer(comm))
    for output in outputs:
        assert output["type"] == "websocket.send", (what, output)
    return outputs


async def storm(comm, version: int, who: str, *, answers: bool):
    """Every frame, then one over the size limit. `answers`: each frame gets one frame
    back (the table, or the chat's answer); the navigation's socket says nothing but stays
    open. A seated player's chat lines and moves also come back through the game's group."""
    for frame in frames(version):
        what = f"{who}: {frame!r}"[:200]
        await comm.send_input(frame)  # raises the consumer's exception, had it crashed
        if answers:
            first = await answer(comm)
            assert first["type"] == "websocket.send", (what, first)
        if who == "seated":
            await drain(comm, what)
    await drain(comm, who)
    await comm.send_to(text_data="x" * (base.MAX_MESSAGE_BYTES + 1))
    if answers:
        assert "too large" in (await answer(comm))["text"]
        assert await answer(comm) == {
            "type": "websocket.close", "code": base.CLOSE_TOO_BIG}
    else:
        assert await comm.receive_nothing(timeout=0.05)


async def assert_no_count_left(game, user, address="203.0.113.5"):
    """Every count is back to zero: none held, and with room for one socket per address
    and per table, one more socket still gets in (a leaked count would refuse it)."""
    assert sockets.count(sockets.game_key(game.pk)) == 0
    assert sockets.count(sockets.address_key(address)) == 0
    assert sockets.held() == 0  # this process renews nothing more
    limits = (settings.WS_MAX_PER_ADDRESS, settings.WS_MAX_PER_GAME)
    settings.WS_MAX_PER_ADDRESS = settings.WS_MAX_PER_GAME = 1
    try:
        comm, connected, code = await open_socket(
            f"/ws/games/{game.pk}/?invite={game.invite_token}")
        assert connected, code
        await comm.disconnect()
        comm, connected, code = await open_socket("/ws/me/?page=lobby", user)
        assert connected, code
        await comm.disconnect()
    finally:
        settings.WS_MAX_PER_ADDRESS, settings.WS_MAX_PER_GAME = limits


@pytest.mark.parametrize("who", ["anonymous", "seated", "spectator", "invited"])
async def test_the_table_answers_every_frame_and_never_crashes(
        who, duel, hidden, alice, carol, slow_clock):
    game = hidden if who == "invited" else duel
    user = {"anonymous": None, "seated": alice, "spectator": carol, "invited": carol}[who]
    query = f"?invite={game.invite_token}" if who == "invited" else ""
    comm, connected, code = await open_socket(f"/ws/games/{game.pk}/{query}", user)
    assert connected, code
    await drain(comm, "the table")
    version = (await sync_to_async(Game.objects.get)(pk=game.pk)).version
    await storm(comm, version, who, answers=True)
    await comm.disconnect()
    await assert_no_count_left(game, alice)


async def test_an_outsider_without_the_invite_is_refused_and_counts_nothing(
        hidden, carol, alice):
    comm, connected, code = await open_socket(f"/ws/games/{hidden.pk}/", carol)
    assert not connected and code == base.CLOSE_REFUSED
    await comm.disconnect()
    await assert_no_count_left(hidden, alice)


@pytest.mark.parametrize("who", ["anonymous", "signed-in"])
async def test_the_navigation_socket_takes_every_frame_and_stays_open(who, duel, alice,
                                                                     slow_clock):
    comm, connected, code = await open_socket("/ws/me/?page=lobby",
                                              alice if who == "signed-in" else None,
                                              first=who == "signed-in")
    assert connected, code
    await drain(comm, "the navigation")
    await storm(comm, 1, who, answers=False)
    await comm.disconnect(timeout=30)  # after every frame: a crash on one is raised here
    await assert_no_count_left(duel, alice)


async def test_two_hundred_bad_frames_from_ten_addresses_leave_no_count(
        duel, alice, bob, slow_clock, settings):
    """The table's own players still get in after 200 anonymous sockets each sent a move
    (the frame that crashed the consumer) and left."""
    bad = json.dumps({"actions": ["take"], "version": 1})
    crashed = 0
    for n in range(200):
        comm, connected, code = await open_socket(f"/ws/games/{duel.pk}/",
                                                  address=f"198.51.100.{n % 10}")
        assert connected, code
        await comm.send_to(text_data=bad)
        try:
            said = await answer(comm)
            assert said["type"] == "websocket.send" and "Log in to play" in said["text"]
            await comm.disconnect()
        except Exception:  # noqa: BLE001 - counted: the consumer crashed
            crashed += 1
    table = sockets.count(sockets.game_key(duel.pk))
    addresses = [sockets.count(sockets.address_key(f"198.51.100.{n}")) for n in range(10)]
    settings.WS_MAX_PER_GAME = 2  # the table's own players: no room for a leaked count
    players = []
    for user in (alice, bob):
        comm, connected, code = await open_socket(f"/ws/games/{duel.pk}/", user)
        players.append((connected, code))
        await comm.disconnect()
    print(f"frame storm: {crashed} of 200 sockets crashed; counts after: table {table}, "
          f"addresses {addresses}; the players' connects (accepted, code): {players}")
    assert crashed == 0
    assert table == 0 and addresses == [0] * 10
    assert players == [(True, None), (True, None)]
