"""Socket counts in the real Redis, held by real Daphne processes (games.live.sockets).

A Daphne killed with SIGKILL never closes its sockets: their places come free by
themselves within WS_SLOT_SECONDS (a few seconds here), while a living Daphne keeps its
sockets' places for as long as they are open. A socket refused for too many sockets adds
and extends nothing. The sockets here are anonymous watchers': counted per table and per
address (a seated player's are not, docs/design.md "How sockets are counted").
"""

import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from games.live import sockets

from .procs import LOOPBACK, wait_until
from .test_daphne import cookie_header, session_cookie, table_frame

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SLOT = 6  # WS_SLOT_SECONDS of the Daphnes here: renewed every 2 s


def connect(port, game, user=None):
    """(socket, None) with its table, or (None, close code) when refused; without `user`,
    an anonymous watcher's."""
    headers = {"Cookie": cookie_header(session_cookie(user))} if user else {}
    ws = ws_connect(f"ws://{LOOPBACK}:{port}/ws/games/{game.pk}/",
                    origin=f"http://{LOOPBACK}:{port}", additional_headers=headers,
                    open_timeout=15, close_timeout=2)
    try:
        table_frame(ws, at_least=0)
    except ConnectionClosed as exc:
        ws.close()
        return None, exc.rcvd.code if exc.rcvd else None
    return ws, None


def counts(game) -> tuple[int, int]:
    return (sockets.count(sockets.game_key(game.pk)),
            sockets.count(sockets.address_key(LOOPBACK)))


def test_a_killed_daphnes_sockets_free_their_places_within_the_slot_time(procs, duel):
    env = {"WS_SLOT_SECONDS": str(SLOT), "WS_MAX_PER_GAME": "4"}
    daphne, port = procs.daphne(env=env)
    held = [connect(port, duel) for _ in range(4)]
    assert [code for _ws, code in held] == [None] * 4
    # Open sockets keep their places well past their slots' time: Daphne renews them.
    deadline = time.monotonic() + 2 * SLOT
    while time.monotonic() < deadline:
        assert counts(duel) == (4, 4)
        time.sleep(0.5)

    daphne.kill()  # SIGKILL: no disconnect, no finally
    killed = time.monotonic()
    at_kill = counts(duel)
    wait_until(lambda: counts(duel) == (0, 0), timeout=SLOT + 30,
               what="the killed Daphne's sockets to free their places")
    print(f"counts (table, address) at the kill {at_kill}, (0, 0) "
          f"{time.monotonic() - killed:.1f} s later (WS_SLOT_SECONDS={SLOT})")
    for ws, _code in held:
        ws.close()

    _other, port = procs.daphne(env=env)  # the table's watchers get in again
    again = [connect(port, duel) for _ in range(4)]
    assert [code for _ws, code in again] == [None] * 4
    for ws, _code in again:
        ws.close()
    wait_until(lambda: counts(duel) == (0, 0), timeout=10, what="closed sockets' places")


def test_a_refused_socket_extends_nothing(procs, duel, real_services):
    env = {"WS_SLOT_SECONDS": "10", "WS_MAX_PER_GAME": "2"}
    (first, port_a), (_second, port_b) = procs.daphne(env=env), procs.daphne(env=env)
    held = [connect(port_a, duel) for _ in range(2)]
    assert [code for _ws, code in held] == [None, None]
    first.kill()  # its two places are held until their slots run out
    key = sockets.game_key(duel.pk)
    slots = real_services.zrange(key, 0, -1, withscores=True)
    assert len(slots) == 2
    runs_out = min(score for _member, score in slots) / 1000

    def redis_now() -> float:
        seconds, micros = real_services.time()
        return seconds + micros / 1e6

    refused = []
    while redis_now() < runs_out - 2 and len(refused) < 5:
        ws, code = connect(port_b, duel)
        assert ws is None, "a socket got in while the table was full"
        refused.append(code)
    assert refused and set(refused) == {4429}, refused
    assert real_services.zrange(key, 0, -1, withscores=True) == slots  # nothing added or moved
    wait_until(lambda: counts(duel)[0] == 0, timeout=10 + 30, what="the slots to run out")
    ws, code = connect(port_b, duel)
    assert code is None
    ws.close()
    for ws, _code in held:
        ws.close()


def test_a_redis_that_lost_its_data_gets_the_open_sockets_counted_again(procs, duel,
                                                                        real_services):
    _daphne, port = procs.daphne(env={"WS_SLOT_SECONDS": str(SLOT)})
    held = [connect(port, duel) for _ in range(3)]
    assert [code for _ws, code in held] == [None] * 3
    assert counts(duel) == (3, 3)
    real_services.flushdb()  # as a Redis restarted without its data
    assert counts(duel) == (0, 0)
    wait_until(lambda: counts(duel) == (3, 3), timeout=SLOT + 30,
               what="Daphne's renewal to count its open sockets again")
    for ws, _code in held:
        ws.close()
    wait_until(lambda: counts(duel) == (0, 0), timeout=10, what="closed sockets' places")


def test_two_hundred_bad_frames_leave_no_count_and_the_players_get_in(procs, duel):
    _daphne, port = procs.daphne(env={"WS_MAX_PER_GAME": "2"})
    bad = '{"actions": ["take"], "version": 1}'  # from a reader who is not logged in
    answered = 0
    for _ in range(200):
        with ws_connect(f"ws://{LOOPBACK}:{port}/ws/games/{duel.pk}/",
                        origin=f"http://{LOOPBACK}:{port}", open_timeout=15,
                        close_timeout=2) as ws:
            table_frame(ws, at_least=0)
            ws.send(bad)
            answered += "Log in to play" in ws.recv(timeout=15)
    wait_until(lambda: counts(duel) == (0, 0), timeout=15, what="the closed sockets' places")
    after = counts(duel)
    players = [connect(port, duel, duel.seats.get(number=n).player) for n in (0, 1)]
    print(f"200 bad frames: {answered} answered 'Log in to play'; counts after {after}; "
          f"the players' connects refused with {[code for _ws, code in players]}")
    assert answered == 200
    assert [code for _ws, code in players] == [None, None]
    for ws, _code in players:
        ws.close()
