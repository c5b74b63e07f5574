"""The load benchmark: `python -m bench.loadtest --url http://127.0.0.1:8450`.

It starts nothing. Pointed at a running site on this machine (same checkout, same
DATABASE_URL), it makes its players, sessions and two-player tables through the ORM and
`games.services` (no sign-up, so the sign-up limit does not apply), opens each seat's
table socket, and then every table plays a move every `--interval` seconds over the
mover's table socket, as the table page sends it while its socket is open
(static/js/table.js), or with `--over http` as the form's POST. It times each move from
its sending to the other seat's socket receiving the new table (`data-version`) and
prints moves offered and handled per second, p50/p95/p99 and errors, and the server
processes' CPU and memory (psutil).

`--nav`: each player also holds the socket every page of the site opens (`/ws/me/`,
games.live.nav), which hears of every move of theirs.

`--echo` also starts the echo server (`bench.loadecho`: a Daphne of its own on the same
Redis), opens one echo socket per table and times a round trip through it at the same
rate. `--spectators N`: one table watched by N anonymous sockets (raise
WS_MAX_PER_ADDRESS and WS_MAX_PER_GAME for it); the time counts to every spectator.

A benchmark, not a test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from . import loadecho

VERSION_RE = re.compile(r'data-version="(\d+)"')
# The seat's legal moves as the table's form offers them (games.present.table, table.html).
DEFEND_RE = re.compile(r'name="beat_[^"]*" value="(defend:[^"]+)"')
CARD_RE = re.compile(r'name="action" value="((?:attack|transfer):[^"]+)"')
BUTTON_RE = re.compile(r'name="action" value="(take|pass)"')


# ----------------------------------------------------------------------------- figures
def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0..100) of `values`, nearest rank; None when there are none."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def ms(seconds: float | None) -> str:
    """A time for the table: "24 ms", "1.9 s", "-" for none."""
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.1f} s"
    return f"{seconds * 1000:.0f} ms"


COLUMNS = ["live tables", "moves/s offered", "handled", "p50", "p95", "p99", "errors",
           "echo p50", "echo p95", "server CPU", "server RSS"]


@dataclass
class Result:
    tables: int
    seconds: float
    offered: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    echo: list[float] = field(default_factory=list)
    cpu: str = "-"
    rss: str = "-"
    spectators: int = 0

    def row(self) -> list[str]:
        label = str(self.tables) if not self.spectators else f"1 ({self.spectators} watching)"
        return [label, f"{self.offered / self.seconds:.1f}",
                f"{len(self.latencies) / self.seconds:.1f}",
                ms(percentile(self.latencies, 50)), ms(percentile(self.latencies, 95)),
                ms(percentile(self.latencies, 99)), str(self.errors),
                ms(percentile(self.echo, 50)), ms(percentile(self.echo, 95)), self.cpu, self.rss]


def report(results: list[Result]) -> str:
    """A Markdown table of the runs, one row each."""
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(r.row()) + " |" for r in results]
    return "\n".join(lines)


def choose_move(html: str) -> str | None:
    """A legal move from a seat's table, or None when the seat is not to act: beat a card
    if it can, else lead or throw in on an empty table, else pass, else take."""
    defend = DEFEND_RE.findall(html)
    if defend:
        return defend[0]
    buttons = BUTTON_RE.findall(html)
    cards = CARD_RE.findall(html)
    if cards and "pass" not in buttons:
        return cards[0]
    if "pass" in buttons:
        return "pass"
    if "take" in buttons:
        return "take"
    return cards[0] if cards else None


def field_of(token: str) -> str:
    """The move form's field that carries `token` (table.html): `beat_<card>` for a
    defence, else `action`."""
    return f"beat_{token.split(':')[1]}" if token.startswith("defend:") else "action"


def version_of(html: str) -> int | None:
    found = VERSION_RE.search(html)
    return int(found.group(1)) if found else None


# ----------------------------------------------------------------------------- set-up
def setup_django(run_dir: str) -> None:
    """Django with the site's settings; SECRET_KEY from `run_dir` as scripts/run keeps it."""
    key_file = Path(run_dir) / "secret-key"
    if not os.environ.get("SECRET_KEY") and key_file.exists():
        os.environ["SECRET_KEY"] = key_file.read_text().strip()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    import django

    django.setup()


def make_players(count: int, prefix: str) -> list[dict]:
    """`count` players, each with a logged-in session (its cookie value)."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password

    model = get_user_model()
    backend = "django.contrib.auth.backends.ModelBackend"
    store_class = __import__(settings.SESSION_ENGINE, fromlist=["SessionStore"]).SessionStore
    players = []
    unusable = make_password(None)
    for i in range(count):
        user = model.objects.create(username=f"{prefix}{i}", password=unusable)
        store = store_class()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = backend
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        players.append({"user": user, "session": store.session_key})
    return players


def make_tables(players: list[dict]) -> list[int]:
    """Two-player casual tables, started, for players paired in order."""
    from games import services
    from games.models import Game, RulePreset

    preset = next(p for p in RulePreset.objects.filter(active=True)
                  if 2 in p.player_counts and not p.teams)
    ids = []
    for first, second in zip(players[::2], players[1::2]):
        game = services.create_game(first["user"], preset, players=2, rated=False)
        services.join_game(game.pk, second["user"])
        if Game.objects.get(pk=game.pk).status == Game.Status.OPEN:
            services.start_game(game.pk, first["user"])
        ids.append(game.pk)
    return ids


# ----------------------------------------------------------------------------- the run
class Site:
    def __init__(self, url: str):
        parts = urlsplit(url)
        self.url = url.rstrip("/")
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.ws = f"ws://{self.host}:{self.port}"
        self.csrf = secrets.token_hex(16)  # 32 characters, the cookie and the header agree

    def cookies(self, session: str | None) -> str:
        jar = f"csrftoken={self.csrf}"
        return jar + (f"; sessionid={session}" if session else "")

    async def post(self, path: str, fields: dict, session: str) -> tuple[int, str]:
        """POST a form as htmx does; (status, body). One connection per request."""
        body = urlencode(fields).encode()
        head = (f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Origin: {self.url}\r\nReferer: {self.url}{path}\r\n"
                f"Cookie: {self.cookies(session)}\r\nX-CSRFToken: {self.csrf}\r\n"
                "HX-Request: true\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(head + body)
            await writer.drain()
            raw = await reader.read()
        finally:
            writer.close()
        status_line, _, rest = raw.partition(b"\r\n")
        status = int(status_line.split()[1]) if status_line.startswith(b"HTTP/") else 0
        return status, rest.partition(b"\r\n\r\n")[2].decode("utf-8", "replace")

    async def socket(self, path: str, session: str | None):
        import websockets

        return await websockets.connect(
            self.ws + path, origin=websockets.Origin(self.url), max_size=2**22, open_timeout=60,
            additional_headers={"Cookie": self.cookies(session)}, ping_interval=None)


class Table:
    """One table: two seats' sockets, the latest table each seat saw, the moves in flight."""

    def __init__(self, site: Site, game_id: int, sessions: list[str], result: Result,
                 over: str = "socket"):
        self.site, self.game_id, self.sessions, self.result = site, game_id, sessions, result
        self.over = over
        self.html = ["", ""]
        self.seen = [-1, -1]
        self.pending: dict[int, tuple[int, float]] = {}  # version -> (watching seat, t0)
        self.sent: dict[int, float] = {}  # version -> when its move went out
        self.sockets: list = []
        self.nav_sockets: list = []
        self.first = [asyncio.Event(), asyncio.Event()]

    async def open(self, nav: bool = False) -> None:
        for seat, session in enumerate(self.sessions):
            ws = await self.site.socket(f"/ws/games/{self.game_id}/", session)
            self.sockets.append(ws)
            asyncio.create_task(self.listen(seat, ws))
            if nav:  # the page's own socket (games.live.nav): read and dropped
                page = await self.site.socket("/ws/me/", session)
                self.nav_sockets.append(page)
                asyncio.create_task(self.drain(page))

    async def drain(self, ws) -> None:
        try:
            async for _frame in ws:
                pass
        except Exception:  # noqa: BLE001 - a socket that dies counts as an error
            if self.result is not None:
                self.result.errors += 1

    async def listen(self, seat: int, ws) -> None:
        try:
            async for frame in ws:
                version = version_of(frame)
                if version is None:
                    continue
                now = time.perf_counter()
                if version >= self.seen[seat]:
                    self.seen[seat], self.html[seat] = version, frame
                if 'role="alert"' in frame:  # a move of this seat's was refused
                    for v, (watcher, _t0) in list(self.pending.items()):
                        if watcher != seat and version < v:
                            del self.pending[v]
                            self.sent.pop(v, None)
                            if self.result is not None:
                                self.result.errors += 1
                for v, (watcher, t0) in list(self.pending.items()):
                    if watcher == seat and version >= v:
                        del self.pending[v]
                        if self.result is not None:
                            self.result.latencies.append(now - t0)
                self.first[seat].set()
        except Exception:  # noqa: BLE001 - a socket that dies counts as an error
            if self.result is not None:
                self.result.errors += 1

    async def play(self, interval: float, until: float) -> None:
        await asyncio.sleep(random.uniform(0, interval))
        while time.perf_counter() < until:
            tick = time.perf_counter()
            self.result.offered += 1
            await self.move()
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - tick)))

    async def move(self) -> None:
        if self.pending:
            return  # the last move has not reached the other seat yet: this one waits
        for seat in (0, 1):
            token = choose_move(self.html[seat])
            if token is None:
                continue
            version = self.seen[seat]
            name = field_of(token)
            other = 1 - seat
            self.pending[version + 1] = (other, time.perf_counter())
            self.sent[version + 1] = self.pending[version + 1][1]
            if self.over == "socket":  # the form's fields as JSON, as table.js sends them
                try:
                    await self.sockets[seat].send(json.dumps(
                        {name: [token], "version": [str(version)]}))
                except Exception:  # noqa: BLE001 - the socket is gone: an error
                    self.pending.pop(version + 1, None)
                    self.sent.pop(version + 1, None)
                    self.result.errors += 1
                return
            try:
                status, body = await self.site.post(
                    f"/games/{self.game_id}/play/", {name: token, "version": version},
                    self.sessions[seat])
            except OSError:
                status, body = 0, ""
            if status != 200:
                self.pending.pop(version + 1, None)
                self.sent.pop(version + 1, None)
                self.result.errors += 1
                return
            new = version_of(body)
            if new is not None and new >= self.seen[seat]:
                self.seen[seat], self.html[seat] = new, body
            return

    async def close(self) -> None:
        for ws in self.sockets + self.nav_sockets:
            await ws.close()


async def echo_loop(site: Site, interval: float, until: float, result: Result) -> None:
    ws = await site.socket("/" + loadecho.ECHO_PATH, None)
    await asyncio.sleep(random.uniform(0, interval))
    try:
        while time.perf_counter() < until:
            tick = time.perf_counter()
            await ws.send(str(tick))
            try:
                await asyncio.wait_for(ws.recv(), timeout=interval * 5)
                result.echo.append(time.perf_counter() - tick)
            except TimeoutError:
                result.errors += 1
            except Exception:  # noqa: BLE001 - the site closed it (overloaded): an error
                result.errors += 1
                return
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - tick)))
    finally:
        await ws.close()


class Spectator:
    def __init__(self, site: Site, game_id: int):
        self.site, self.game_id = site, game_id
        self.version = -1
        self.arrived: dict[int, float] = {}
        self.ready = asyncio.Event()

    async def watch(self, result: Result) -> None:
        ws = await self.site.socket(f"/ws/games/{self.game_id}/", None)
        self.ws = ws
        try:
            async for frame in ws:
                version = version_of(frame)
                if version is not None and version > self.version:
                    self.version = version
                    self.arrived[version] = time.perf_counter()
                    self.ready.set()
        except Exception:  # noqa: BLE001
            result.errors += 1


def server_processes(site: Site) -> list:
    """The processes listening on the site's port and its Redis's (psutil), if on this
    machine; [] when psutil cannot see them."""
    try:
        import psutil
    except ImportError:
        return []
    ports = {site.port}
    redis_url = os.environ.get("REDIS_URL", "")
    if redis_url:
        ports.add(urlsplit(redis_url).port or 6379)
    found = {}
    try:
        for conn in psutil.net_connections(kind="tcp"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port in ports \
                    and conn.pid:
                found[conn.pid] = psutil.Process(conn.pid)
    except (psutil.AccessDenied, psutil.NoSuchProcess):
        return []
    return list(found.values())


def measure_start(processes: list) -> dict:
    return {p.pid: sum(p.cpu_times()[:2]) for p in processes}


def measure_end(processes: list, start: dict, seconds: float) -> tuple[str, str]:
    cpu, rss = [], []
    for p in processes:
        try:
            used = sum(p.cpu_times()[:2]) - start[p.pid]
            cpu.append(f"{p.name()} {100 * used / seconds:.0f}%")
            rss.append(f"{p.name()} {p.memory_info().rss / 2**20:.0f} MB")
        except Exception:  # noqa: BLE001 - a process gone meanwhile
            continue
    return ", ".join(cpu) or "-", ", ".join(rss) or "-"


async def run(args) -> Result:
    site = Site(args.url)
    prefix = f"lt{secrets.token_hex(3)}-"
    tables_n = 1 if args.spectators else args.tables
    players = await asyncio.to_thread(make_players, 2 * tables_n, prefix)
    ids = await asyncio.to_thread(make_tables, players)
    result = Result(tables=tables_n, seconds=args.seconds, spectators=args.spectators)
    tables = [Table(site, game_id, [players[2 * i]["session"], players[2 * i + 1]["session"]],
                    result, args.over) for i, game_id in enumerate(ids)]
    for start in range(0, len(tables), 20):  # open the sockets 20 tables at a time
        await asyncio.gather(*(t.open(args.nav) for t in tables[start:start + 20]))
    await asyncio.gather(*(e.wait() for t in tables for e in t.first))
    spectators = [Spectator(site, ids[0]) for _ in range(args.spectators)]
    for start in range(0, len(spectators), 50):
        batch = spectators[start:start + 50]
        for s in batch:
            asyncio.create_task(s.watch(result))
        await asyncio.gather(*(s.ready.wait() for s in batch))
    print(f"{len(tables)} tables, {len(spectators)} spectators ready", file=sys.stderr)
    processes = server_processes(site)
    started = measure_start(processes)
    until = time.perf_counter() + args.seconds
    jobs = [t.play(args.interval, until) for t in tables]
    if args.echo:
        echo = Site(args.echo_url)
        jobs += [echo_loop(echo, args.interval, until, result) for _ in tables]
    await asyncio.gather(*jobs)
    await asyncio.sleep(min(5.0, args.interval * 2))  # the last moves arrive
    result.cpu, result.rss = measure_end(processes, started, args.seconds)
    if spectators:  # the time until the move reached every spectator
        result.latencies = []
        for version, t0 in tables[0].sent.items():
            arrived = [s.arrived.get(version) for s in spectators]
            times = [a for a in arrived if a is not None]
            if len(times) == len(arrived):
                result.latencies.append(max(times) - t0)
            else:
                result.errors += 1
    for t in tables:
        await t.close()
    for s in spectators:
        await s.ws.close()
    return result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.loadtest", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the running site")
    parser.add_argument("--tables", type=int, nargs="+", default=[20],
                        help="live two-player tables; several numbers make one run each")
    parser.add_argument("--seconds", type=float, default=30.0, help="time to play per run")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a table's moves")
    parser.add_argument("--over", choices=["socket", "http"], default="socket",
                        help="how a move is sent: over the mover's table socket, as the "
                        "page does while it is open, or as the form's POST")
    parser.add_argument("--echo", action="store_true",
                        help="also start the echo server and time its socket")
    parser.add_argument("--nav", action="store_true",
                        help="each player also opens the page's own socket (/ws/me/: the "
                        "count of games waiting for them), as every page of the site does")
    parser.add_argument("--spectators", type=int, default=0,
                        help="one table watched by this many anonymous sockets")
    parser.add_argument("--run-dir", default=os.environ.get("RUN_DIR", ".run"),
                        help="where scripts/run keeps the secret key")
    args = parser.parse_args(argv)
    setup_django(args.run_dir)
    echo_server = None
    if args.echo:
        echo_server, args.echo_url = loadecho.serve(Site(args.url).host)
    results = []
    try:
        for n in ([1] if args.spectators else args.tables):
            args.tables = n
            results.append(asyncio.run(run(args)))
            print(report(results[-1:]), file=sys.stderr)
    finally:
        if echo_server is not None:
            echo_server.terminate()
            echo_server.wait(10)
    print(report(results))


if __name__ == "__main__":
    main()
