"""Attacks on the real stack: two Daphnes sharing one port (as the Procfile runs them), the
site's Celery workers, Redis and PostgreSQL, with the site's own limits.

The crowd (docs/design.md, "How sockets are counted"): 200 anonymous sockets from 10
client addresses fill a public table's watcher cap and every one of those addresses'
caps. The table's seated players still get their sockets, and their pages' sockets,
even from an address the crowd has filled, and each move reaches the other seat in time.
127.0.0.0/8 is all loopback on Linux: each client socket is bound to its own 127.0.0.x.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import threading
import time
from collections import Counter
from contextlib import ExitStack

import psutil
import pytest
from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed, InvalidMessage
from websockets.sync.client import connect as ws_connect

from .faults import procfile_workers
from .helpers import fresh, plain_action, to_act, user_at
from .procs import LOOPBACK, ROOT, VENV_BIN, free_port, port_open, wait_until
from .test_daphne import cookie_header, session_cookie, table_frame

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CROWD = [f"127.0.0.{n}" for n in range(2, 12)]  # ten client addresses
EACH = 20  # sockets from each: 200, the site's WS_MAX_PER_GAME (and WS_MAX_PER_ADDRESS each)
MOVES = 20
ANY_VERSION = re.compile(r'data-version="(\d+)"')


class Crowd:
    """Anonymous watchers, held open in a thread of their own, reading every frame."""

    def __init__(self, port: int, game_id: int):
        self.url = f"ws://{LOOPBACK}:{port}/ws/games/{game_id}/"
        self.origin = f"http://{LOOPBACK}:{port}"
        self.outcomes: Counter[str] = Counter()  # "accepted", or the close code
        self.shown: dict[int, int] = {}  # watcher -> the last table version it was sent
        self.retried = 0  # handshakes that got no answer and were opened again
        self.done = threading.Event()  # every socket has its answer
        self.thread = threading.Thread(target=asyncio.run, args=(self._main(),), daemon=True)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping: asyncio.Event | None = None

    def start(self) -> Crowd:
        self.thread.start()
        assert self.done.wait(45), f"the crowd did not get its answers: {self.outcomes}"
        return self

    def stop(self) -> None:
        if self.loop is not None and self.stopping is not None:
            self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(30)

    async def _main(self) -> None:
        self.loop, self.stopping = asyncio.get_running_loop(), asyncio.Event()
        opening = asyncio.Semaphore(25)  # as a crowd arriving, not one burst of 200
        answered = asyncio.Semaphore(0)
        watchers = [asyncio.create_task(self._one(n, address, opening, answered))
                    for n, address in enumerate(CROWD * EACH)]
        for _ in watchers:
            await answered.acquire()
        self.done.set()
        await asyncio.gather(*watchers, return_exceptions=True)

    async def _one(self, n: int, address: str, opening: asyncio.Semaphore,
                   answered: asyncio.Semaphore) -> None:
        try:
            async with opening:
                ws = await self._open(address)
                try:
                    first = await asyncio.wait_for(ws.recv(), 30)
                except ConnectionClosed as exc:
                    self.outcomes[str(exc.rcvd.code if exc.rcvd else None)] += 1
                    return
            self.outcomes["accepted"] += 1
            self.shown[n] = int(ANY_VERSION.search(str(first)).group(1))
        except Exception as exc:  # noqa: BLE001 - counted, and shown in the figures
            self.outcomes[type(exc).__name__] += 1
            return
        finally:
            answered.release()
        async with ws:
            reader = asyncio.create_task(self._read(n, ws))
            assert self.stopping is not None
            await self.stopping.wait()
            reader.cancel()

    async def _open(self, address: str):
        """A socket, opened again once as the page does when its handshake got no answer
        (Daphne drops a handshake not accepted within its connect timeout on a busy
        machine); a refusal is an answer, and is not tried again."""
        for attempt in (1, 2):
            try:
                return await async_connect(self.url, origin=self.origin, proxy=None,  # type: ignore[arg-type]
                                           local_addr=(address, 0), open_timeout=30,
                                           close_timeout=2, ping_interval=None)
            except (InvalidMessage, TimeoutError, OSError):
                if attempt == 2:
                    raise
                self.retried += 1
        raise AssertionError("unreachable")

    async def _read(self, n: int, ws) -> None:
        async for frame in ws:
            found = ANY_VERSION.search(str(frame))
            if found:
                self.shown[n] = max(self.shown[n], int(found.group(1)))


def shared_port_daphnes(procs, count: int = 2) -> tuple[list, int]:
    """`count` Daphnes on one port through scripts/daphne_shared_port.py (the Procfile's
    web and web2)."""
    port = free_port()
    env = {"HOST": LOOPBACK, "PORT": str(port), "PATH": f"{VENV_BIN}:{procs.env.get('PATH', '')}"}
    daphnes = [procs._start(f"web{n}", [str(VENV_BIN / "python"),
                                        str(ROOT / "scripts" / "daphne_shared_port.py")], env)
               for n in range(count)]
    for proc in daphnes:  # each listening: the port is open while either of them is up
        wait_until(lambda proc=proc: proc.alive and any(
            c.status == psutil.CONN_LISTEN and c.laddr.port == port
            for c in psutil.Process(proc.pid).net_connections("tcp")),
            timeout=30, what=f"{proc.name} to listen on {port}", proc=proc)
    assert port_open(port)
    return daphnes, port


def established(proc, port: int) -> int:
    return sum(c.status == psutil.CONN_ESTABLISHED and c.laddr.port == port
               for c in psutil.Process(proc.pid).net_connections("tcp"))


def player_socket(port: int, path: str, user, address: str):
    return ws_connect(f"ws://{LOOPBACK}:{port}{path}", origin=f"http://{LOOPBACK}:{port}",
                      additional_headers={"Cookie": cookie_header(session_cookie(user))},
                      source_address=(address, 0), open_timeout=15, close_timeout=2)


def refused_code(port: int, game_id: int, address: str) -> int | None:
    """An anonymous socket's close code (None: it was let in and sent the table)."""
    with ws_connect(f"ws://{LOOPBACK}:{port}/ws/games/{game_id}/",
                    origin=f"http://{LOOPBACK}:{port}", source_address=(address, 0),
                    open_timeout=15, close_timeout=2) as ws:
        try:
            ws.recv(timeout=15)
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None
    return None


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def test_a_crowd_of_two_hundred_anonymous_sockets_leaves_the_players_their_table(procs, duel):
    started = time.monotonic()
    daphnes, port = shared_port_daphnes(procs)
    for name, args in procfile_workers().items():
        procs.site_worker(name, args)
    crowd = Crowd(port, duel.pk).start()
    with ExitStack() as held:
        held.callback(crowd.stop)  # last: after the players' sockets are closed
        # The caps hold for watchers: one more from a crowd address, or from a new one.
        extra = {address: refused_code(port, duel.pk, address)
                 for address in (CROWD[0], "127.0.0.99")}
        # The players: alice on an address the crowd has filled, bob on the usual one.
        seats = {}
        for seat, address in ((0, CROWD[0]), (1, LOOPBACK)):
            user = user_at(duel, seat)
            page = held.enter_context(player_socket(port, "/ws/me/?page=lobby", user, address))
            page.recv(timeout=15)  # the navigation: their pages stay live too
            table = held.enter_context(player_socket(port, f"/ws/games/{duel.pk}/", user,
                                                     address))
            table_frame(table, at_least=0)
            seats[seat] = table
        served = [established(proc, port) for proc in daphnes]

        arrivals = []
        for _ in range(MOVES):
            game = fresh(duel)
            if not game.is_playing:
                break
            seat = to_act(duel)
            move = json.dumps({"action": plain_action(duel, seat), "version": str(game.version)})
            sent = time.monotonic()
            seats[seat].send(move)
            table_frame(seats[1 - seat], at_least=game.version + 1, timeout=10)
            arrivals.append(time.monotonic() - sent)
            table_frame(seats[seat], at_least=game.version + 1, timeout=10)
        last = fresh(duel).version
        wait_until(lambda: min(crowd.shown.values(), default=-1) >= last, timeout=20,
                   what="every watcher to be sent the last move")
    print(f"the crowd: {dict(crowd.outcomes)} of {len(CROWD) * EACH} anonymous sockets from "
          f"{len(CROWD)} addresses ({crowd.retried} opened a second time); one more refused with {extra}; connections per Daphne "
          f"{served}; {len(arrivals)} moves, arrival on the other seat p95 "
          f"{p95(arrivals):.3f} s, max {max(arrivals):.3f} s; every watcher shown version "
          f"{last}; {time.monotonic() - started:.0f} s in all")
    assert crowd.outcomes == {"accepted": len(CROWD) * EACH}
    assert extra == {CROWD[0]: 4429, "127.0.0.99": 4429}
    assert all(served), f"a Daphne served no socket: {served}"
    # Each move reached the other seat (table_frame's 10 s is a guard against a hang, not a
    # speed target: the figures above are printed, as a benchmark prints them).
    assert len(arrivals) >= 8
