"""What a move costs the database does not grow with the game's length.

A move sent over the table's socket or posted over HTTP (the table's form) and the push
that renders the other seat's table make as many queries late in a deal as early in it,
and no more than they did once counted (the game read once for the move and once for the
answer, the seats once).
"""

import json
import types

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.middleware import seen
from bench import loadtest
from bench.movebench import consumer_for
from games.live import base
from games.models import Game
from games.present import snapshots
from games.present.render import table_html

from .conftest import client_for, to_act

pytestmark = pytest.mark.django_db

POST_QUERIES = 8  # session, user; lock, seats, save, move log (and two savepoints): the
# answer is made from the rows the move wrote (games.present.snapshots.keep)
PUSH_QUERIES = 2  # game, seats (games.present.snapshots.read in a process that knows the game)
FIRST_PUSH_QUERIES = 6  # ...and in one that does not: preset, maker, finished deals, ratings


def _move(game, clients, users) -> tuple[int, int]:
    """Play the seat to act's move as the benchmark does; (POST queries, push queries)."""
    seat = to_act(game)
    token = loadtest.choose_move(table_html(game, users[seat], oob=True))
    name = loadtest.field_of(token)
    with CaptureQueriesContext(connection) as posted:
        r = clients[seat].post(f"/games/{game.pk}/play/", {name: token, "version": game.version},
                               headers={"HX-Request": "true"})
    assert r.status_code == 200
    with CaptureQueriesContext(connection) as pushed:  # TableConsumer.send_table, unkept
        fresh, seats = snapshots.read(game.pk)
        table_html(fresh, users[1 - seat], oob=True, seats=seats)
    with CaptureQueriesContext(connection) as kept:  # ...and the table's other sockets
        fresh, seats = snapshots.at(game.pk, game.version + 1)
        table_html(fresh, users[seat], oob=True, seats=seats)
    assert len(kept) == 0, [q["sql"][:200] for q in kept.captured_queries]
    return len(posted), len(pushed)


def test_a_move_costs_the_same_queries_early_and_late_in_a_deal(duel):
    users = {s.number: s.player for s in duel.seats.all()}
    clients = {n: client_for(u) for n, u in users.items()}
    for client in clients.values():
        client.get(f"/games/{duel.pk}/")  # log-in's first request notes "last seen"
    counts = []
    while len(counts) < 24:
        duel = Game.objects.get(pk=duel.pk)
        assert duel.is_playing and duel.match().deal_number == 1, "the deal ended too soon"
        counts.append(_move(duel, clients, users))
    early, late = counts[1], counts[-1]
    print(f"queries per move (POST, push): early {early}, late {late}")
    assert late == early
    # The first move in this process also reads what the game's versions share.
    assert counts[0][0] <= POST_QUERIES + FIRST_PUSH_QUERIES - PUSH_QUERIES
    assert max(c[0] for c in counts[1:]) <= POST_QUERIES
    assert max(c[1] for c in counts) <= PUSH_QUERIES
    snapshots.forget()  # a process that has not seen this game yet
    with CaptureQueriesContext(connection) as first:
        snapshots.read(duel.pk)
    assert len(first) <= FIRST_PUSH_QUERIES, [q["sql"][:200] for q in first.captured_queries]


SOCKET_QUERIES = 8  # as the POST: session, user; lock, seats, save, move log (two savepoints)


class OneMoveASecond:
    """A socket's own clock for its flood limit: each reading a second later, as if the
    player moved once a second however fast the machine runs the test."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_a_move_over_the_socket_costs_the_same_queries_early_and_late(duel, monkeypatch):
    # The wall clock stands still (the fastest machine): only the sockets' own clocks move.
    monkeypatch.setattr(base, "time", types.SimpleNamespace(monotonic=lambda: 1000.0))
    users = {s.number: s.player for s in duel.seats.all()}
    clients = {n: client_for(u) for n, u in users.items()}
    sockets = {n: consumer_for(duel.pk, {"user": u, "session": clients[n].session.session_key})
               for n, u in users.items()}
    for socket in sockets.values():
        socket.clock = OneMoveASecond()
    for user in users.values():
        seen(user)  # as their first request does: "last seen" is written once a minute
    counts = []
    while len(counts) < 24:
        duel = Game.objects.get(pk=duel.pk)
        assert duel.is_playing and duel.match().deal_number == 1, "the deal ended too soon"
        seat = to_act(duel)
        token = loadtest.choose_move(table_html(duel, users[seat], oob=True))
        name = loadtest.field_of(token)
        with CaptureQueriesContext(connection) as moved:
            sockets[seat].receive(text_data=json.dumps(
                {name: [token], "version": [str(duel.version)]}))
        assert not sockets[seat].frames, sockets[seat].frames[-1][-500:]  # not refused
        assert Game.objects.get(pk=duel.pk).version == duel.version + 1
        counts.append(len(moved))
        last = [q["sql"][:90] for q in moved.captured_queries]
    print(f"queries per move over the socket: early {counts[1]}, late {counts[-1]}")
    assert counts[-1] == counts[1]
    assert max(counts[1:]) <= SOCKET_QUERIES, last
