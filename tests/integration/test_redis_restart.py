"""Live tables across a Redis restart: two Daphne processes share a Redis of this test's
own, which is killed and started again on the same port while two players' sockets stay
open. Moves and chat lines made after the restart, or while Redis was down, reach the
other player's socket within seconds, and new sockets connect."""

import json
import re
import time

import pytest
import redis
from websockets.exceptions import InvalidMessage, InvalidStatus

from .helpers import fresh, plain_action, user_at
from .procs import LOOPBACK, Proc, free_port, port_open, wait_until
from .test_daphne import open_socket, post_move, session_cookie

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# The whole table, or a push's fragment frame (games/present/fragments.py: its marker).
VERSION = re.compile(r'<(?:section id="table"|div id="table-frame")[^>]*data-version="(\d+)"')
WAIT = 15.0  # seconds a socket may take to hear of a change (it takes well under one)


class RedisServer:
    """A redis-server of this test's own on a fixed loopback port, killed and restarted."""

    def __init__(self, log_dir):
        self.port = free_port()
        self.url = f"redis://{LOOPBACK}:{self.port}/0"
        self.log_dir = log_dir
        self.proc = None
        self.starts = 0

    def start(self):
        self.starts += 1
        self.proc = Proc(f"redis-{self.starts}", [
            "redis-server", "--bind", LOOPBACK, "--port", str(self.port), "--save", "",
            "--appendonly", "no", "--dir", str(self.log_dir)],
            {"PATH": "/usr/bin:/bin:/usr/local/bin"}, self.log_dir / f"redis-{self.starts}.log")

        def answers():
            try:
                return redis.Redis.from_url(self.url, socket_timeout=1).ping()
            except redis.RedisError:
                return False
        wait_until(answers, timeout=20, what="redis-server to answer", proc=self.proc)

    def kill(self):
        self.proc.kill()
        self.proc.stop()
        wait_until(lambda: not port_open(self.port), timeout=10, what="Redis to be gone")


@pytest.fixture
def own_redis(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        if server.proc is not None:
            server.proc.stop()


class Listener:
    """Frames received on one socket, kept, so that a wait may look back at them."""

    def __init__(self, ws):
        self.ws = ws
        self.frames: list[str] = []

    def wait_for(self, found, what: str, timeout: float = WAIT):
        deadline = time.monotonic() + timeout
        while True:
            for frame in self.frames:
                if found(frame):
                    return frame
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no frame with {what} within {timeout:g} s: "
                                     f"{[f[:80] for f in self.frames[-5:]]}")
            try:
                self.frames.append(self.ws.recv(timeout=min(left, 0.5)))
            except TimeoutError:
                pass

    def table(self, version: int) -> str:
        def found(frame):
            m = VERSION.search(frame)
            return m is not None and int(m.group(1)) >= version
        return self.wait_for(found, f"the table at version {version}")

    def chat(self, text: str) -> str:
        return self.wait_for(lambda f: "data-chat-id" in f and text in f, f"the chat line {text!r}")


def open_as_the_page_does(port, game, user, tries: int = 10):
    """A table socket, opened again as the page (htmx's ws extension) does when the
    handshake is refused (403: the layer could not join the game's group while its Redis
    connection comes back) or closed unanswered (Daphne gives a handshake 5 s: on a loaded
    machine the layer's reconnection can take longer)."""
    for attempt in range(tries):
        try:
            return open_socket(port, game, user)
        except (InvalidStatus, InvalidMessage) as refused:
            status = refused.response.status_code if isinstance(refused, InvalidStatus) else None
            if status not in (403, None) or attempt == tries - 1:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable")


def test_moves_and_chat_reach_open_sockets_across_a_redis_restart(procs, duel, own_redis):
    env = {"REDIS_URL": own_redis.url}
    (daphne_a, port_a), (daphne_b, port_b) = procs.daphne(env=env), procs.daphne(env=env)
    game = fresh(duel)
    mover = game.turn_seat
    users = {seat: user_at(game, seat) for seat in (0, 1)}
    ports = {mover: port_a, 1 - mover: port_b}  # each player's socket on a Daphne of its own
    with open_socket(port_a, game, users[mover]) as ws_a, \
            open_socket(port_b, game, users[1 - mover]) as ws_b:
        sockets = {mover: Listener(ws_a), 1 - mover: Listener(ws_b)}
        for listener in sockets.values():
            listener.table(game.version)

        # A restart: Redis is back at once, and a move and a chat line follow straight away.
        own_redis.kill()
        own_redis.start()
        game = fresh(duel)
        seat = game.turn_seat
        status, html = post_move(ports[seat], game, session_cookie(users[seat]),
                                 [plain_action(game)], game.version)
        assert status == 200, html[:500]
        for listener in sockets.values():
            listener.table(game.version + 1)
        sockets[0].ws.send(json.dumps({"chat": "said after the restart"}))
        for listener in sockets.values():
            listener.chat("said after the restart")

        # Redis down: a move and a chat line are saved, and told once Redis is back.
        own_redis.kill()
        game = fresh(duel)
        seat = game.turn_seat
        status, html = post_move(ports[seat], game, session_cookie(users[seat]),
                                 [plain_action(game)], game.version)
        assert status == 200, html[:500]
        sockets[1].ws.send(json.dumps({"chat": "said while Redis was down"}))
        own_redis.start()
        for listener in sockets.values():
            listener.table(game.version + 1)
            listener.chat("said while Redis was down")

        # A move over a socket, as the page sends it, reaches the other Daphne's socket.
        game = fresh(duel)
        seat = game.turn_seat
        sockets[seat].ws.send(json.dumps({"actions": [plain_action(game)],
                                          "version": game.version}))
        for listener in sockets.values():
            listener.table(game.version + 1)

    # New sockets connect to both Daphnes and get the table, also after a restart while
    # no socket was open (nobody was reading the layer's broken connection).
    game = fresh(duel)
    for restart in (False, True):
        if restart:
            own_redis.kill()
            own_redis.start()
        for port, seat in ((port_a, mover), (port_b, 1 - mover)):
            with open_as_the_page_does(port, game, users[seat]) as ws:
                Listener(ws).table(game.version)
    for daphne in (daphne_a, daphne_b):
        assert daphne.alive, daphne.tail()
