"""games.live.sockets without Redis: slots that run out unless their process renews them, and a
refused socket that holds and extends nothing (the Redis store: tests/integration)."""

import os

import pytest

from games.live import sockets

GAME = sockets.game_key(1)
ADDRESS = sockets.address_key("203.0.113.9")


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch, settings):
    settings.WS_SLOT_SECONDS = 60
    clock = Clock()
    monkeypatch.setattr(sockets, "_stores", {(os.getpid(), ""): sockets.LocalSlots(clock)})
    monkeypatch.setattr(sockets, "_held", {})
    return clock


def test_a_full_limit_refuses_and_the_refusal_extends_nothing(clock):
    assert sockets.take("a", [(GAME, 2), (ADDRESS, 5)])
    assert sockets.take("b", [(GAME, 2), (ADDRESS, 5)])
    clock.now += 59
    for _ in range(10):
        assert not sockets.take("c", [(ADDRESS, 5), (GAME, 2)])
    assert (sockets.count(GAME), sockets.count(ADDRESS)) == (2, 2)  # "c" counted nowhere
    sockets._held.clear()  # their process is gone: nobody renews them
    clock.now += 1
    assert (sockets.count(GAME), sockets.count(ADDRESS)) == (0, 0)
    assert sockets.take("c", [(GAME, 2)])


def test_slots_renewed_by_their_process_stay_and_the_others_run_out(clock):
    assert sockets.take("live", [(GAME, 10)])
    assert sockets.take("crashed", [(GAME, 10)])
    sockets._held.pop("crashed")  # as if its process died: no renewal, no release
    for _ in range(5):
        clock.now += 30
        sockets.renew()
    assert sockets.count(GAME) == 1
    sockets.release("live")
    sockets.release("live")  # a second release does nothing
    assert sockets.count(GAME) == 0 and sockets.held() == 0


def test_a_socket_without_limits_holds_nothing(clock):
    assert sockets.take("x", [])
    assert sockets.held() == 0


def test_who_is_online_is_who_holds_a_players_slot(clock):
    assert sockets.take("alices-page", [(sockets.player_key(1), 30)])
    assert sockets.take("alices-table", [(sockets.player_key(1), 30)])
    assert sockets.take("a-watcher", [(ADDRESS, 5)])
    assert sockets.online([1, 2]) == {1} and sockets.online([]) == set()
    sockets.release("alices-page")
    assert sockets.online([1, 2]) == {1}  # her table's socket is still open
    sockets.release("alices-table")
    assert sockets.online([1, 2]) == set()
