"""Several processes: two Daphne servers and a Celery worker sharing one Redis.

A browser's socket is held by one Daphne process; the change that it must hear about is
made by another process (a POST served by the other Daphne, or a bot move made by the
worker). Only the Redis channel layer can carry that news across.
"""

import http.client
import json
import re
import time
from datetime import timedelta
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.test import Client
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect as ws_connect

from games import services
from games.models import Move
from tests.games.leaks import assert_no_leak

from .helpers import fresh, moves, plain_action, user_at
from .procs import LOOPBACK, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

IDLE_SECONDS = 7
# The whole table, or a push's fragment frame (games/present/fragments.py: its marker).
VERSION = re.compile(r'<(?:section id="table"|div id="table-frame")[^>]*data-version="(\d+)"')


def session_cookie(user) -> dict:
    """A logged-in session for `user`, stored in the test database the servers read."""
    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


def cookie_header(cookies: dict) -> str:
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def request(port, method, path, cookies: dict, *, body=None, headers=None, source=None):
    """One HTTP request to a server on loopback (from the client address `source`, say
    127.0.0.7); cookies it sets are kept in `cookies`."""
    conn = http.client.HTTPConnection(LOOPBACK, port, timeout=15,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, body=body,
                     headers={"Cookie": cookie_header(cookies), **(headers or {})})
        resp = conn.getresponse()
        text = resp.read().decode()
        for header in resp.headers.get_all("Set-Cookie") or []:
            name, _, value = header.split(";", 1)[0].partition("=")
            cookies[name.strip()] = value.strip()
        return resp.status, text
    finally:
        conn.close()


def post_move(port, game, cookies: dict, actions, version):
    """What the table page does: GET it (for the CSRF cookie), then POST the move (htmx)."""
    status, _ = request(port, "GET", f"/games/{game.pk}/", cookies)
    assert status == 200
    assert "csrftoken" in cookies
    body = urlencode({"action": actions, "version": version}, doseq=True)  # the form's tokens
    return request(port, "POST", f"/games/{game.pk}/play/", cookies, body=body, headers={
        "Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": cookies["csrftoken"],
        "HX-Request": "true", "Origin": f"http://{LOOPBACK}:{port}",
    })


def open_socket(port, game, user):
    return ws_connect(f"ws://{LOOPBACK}:{port}/ws/games/{game.pk}/",
                      origin=f"http://{LOOPBACK}:{port}",
                      additional_headers={"Cookie": cookie_header(session_cookie(user))},
                      open_timeout=10, close_timeout=2)


def table_frame(ws, *, at_least: int, timeout: float = 15.0) -> tuple[str, int]:
    """The first table pushed on `ws` at version `at_least` or later."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no table at version >= {at_least} within {timeout} s"
        try:
            html = ws.recv(timeout=left)
        except TimeoutError:
            raise AssertionError(f"no table at version >= {at_least} within {timeout} s") from None
        found = VERSION.search(html)
        assert found and 'hx-swap-oob="true"' in html, html[:300]
        if int(found.group(1)) >= at_least:
            return html, int(found.group(1))


def test_a_move_posted_to_one_daphne_reaches_sockets_on_both(shared_daphnes, real_services,
                                                             duel):
    (daphne_a, port_a), (daphne_b, port_b) = shared_daphnes
    game = fresh(duel)
    version, mover = game.version, game.turn_seat
    other = 1 - mover
    with open_socket(port_a, game, user_at(game, other)) as watcher, \
            open_socket(port_b, game, user_at(game, mover)) as own:
        assert table_frame(watcher, at_least=version)[1] == version  # the table on connect
        assert table_frame(own, at_least=version)[1] == version

        action = plain_action(game)
        status, html = post_move(port_b, game, session_cookie(user_at(game, mover)), [action],
                                 version)
        assert status == 200, html[:500]

        game = fresh(duel)
        assert game.version == version + 1
        assert [(m.kind, m.seat, m.actions) for m in moves(game, seq__gt=version)] == [
            (Move.Kind.MOVE, mover, [action])]
        # Daphne A heard of it through Redis, and rendered the watcher's own view.
        html, seen = table_frame(watcher, at_least=version + 1)
        assert seen == version + 1
        assert_no_leak(html, game.match().deal, other)
        html, seen = table_frame(own, at_least=version + 1)
        assert seen == version + 1
        assert_no_leak(html, game.match().deal, mover)

        # A stale repeat of the same POST (a second tab) changes nothing.
        status, html = post_move(port_b, game, session_cookie(user_at(game, mover)), [action],
                                 version)
        assert status == 409 and "The game has moved on" in html
        assert fresh(duel).version == version + 1

        # Idle sockets keep listening (longer than redis-py's 5 s read timeout), and news
        # flows the other way too: a move posted to Daphne A reaches the socket on B.
        time.sleep(IDLE_SECONDS)
        game = fresh(duel)
        seat = game.turn_seat
        status, html = post_move(port_a, game, session_cookie(user_at(game, seat)),
                                 [plain_action(game)], game.version)
        assert status == 200, html[:500]
        for ws in (watcher, own):
            assert table_frame(ws, at_least=game.version + 1)[1] == game.version + 1

        # A move sent over one server's socket (htmx ws-send) reaches the other's.
        game = fresh(duel)
        sockets = {other: watcher, mover: own}
        sender, listener = sockets[game.turn_seat], sockets[1 - game.turn_seat]
        sender.send(json.dumps({"actions": [plain_action(game)], "version": game.version}))
        for ws in (sender, listener):
            assert table_frame(ws, at_least=game.version + 1)[1] == game.version + 1
        assert moves(game, seq=game.version + 1)[0].kind == Move.Kind.MOVE
    for daphne in (daphne_a, daphne_b):
        assert "Traceback" not in daphne.log(), daphne.tail()


def test_a_socket_from_another_origin_is_refused_by_a_real_server(shared_daphnes,
                                                                  real_services, duel, alice):
    (_proc, port), _other = shared_daphnes
    with pytest.raises(InvalidStatus) as refused:
        ws_connect(f"ws://{LOOPBACK}:{port}/ws/games/{duel.pk}/", origin="http://evil.example",
                   additional_headers={"Cookie": cookie_header(session_cookie(alice))},
                   open_timeout=10)
    assert refused.value.response.status_code == 403


def test_a_bot_move_made_by_the_worker_reaches_a_socket(procs, shared_daphnes, alice,
                                                        classic, seeded):
    game = services.create_game(alice, classic, players=2, bots=1, move_time=timedelta(hours=1))
    while not services.bot_holds_initiative(fresh(game)):  # alice moves until it's the bot's turn
        services.play(game.pk, alice, [plain_action(game)], fresh(game).version)
    game = fresh(game)
    version = game.version
    (_a, port_a), (_b, port_b) = shared_daphnes
    with open_socket(port_a, game, alice) as ws:
        assert table_frame(ws, at_least=version)[1] == version
        # Only the worker changes the game now: the push must come from it, via Redis.
        worker = procs.worker(concurrency=1)
        wait_until(lambda: not services.bot_holds_initiative(fresh(game)), timeout=30,
                   what="the bot to move", proc=worker)
        game = fresh(game)
        assert game.version > version
        assert {m.kind for m in moves(game, seq__gt=version)} == {Move.Kind.BOT}
        html, seen = table_frame(ws, at_least=game.version)
        assert seen == game.version
        assert_no_leak(html, game.match().deal, 0)

        # alice answers over HTTP on the other server; the bot answers through the worker.
        if game.is_playing:
            mine = game.version
            status, body = post_move(port_b, game, session_cookie(alice), [plain_action(game)],
                                     mine)
            assert status == 200, body[:500]
            _html, seen = table_frame(ws, at_least=mine + 1)
            assert seen > mine
            assert moves(game, seq=mine + 1)[0].kind == Move.Kind.MOVE
