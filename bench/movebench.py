"""Server CPU per move, in-process: `python -m bench.movebench`.

It makes a throw-away SQLite database, N two-player tables (through `games.services`, as
bench.loadtest does), and plays M moves through the real code: each move goes over the
mover's table socket as the page sends it (`TableConsumer.receive`), or with `--over http`
is the table form's POST to /games/<id>/play/ through the site's ASGI handler (every
middleware, the htmx answer); then the push to each of the table's two seat sockets
(`TableConsumer.game_changed`, the consumer's own render), and the channel layer's
work on the group event (the pub/sub layer's serializer, no Redis needed): one publish
per move, read once by each process that holds one of the table's sockets.

It prints the process CPU time (all threads) per move, split by exclusive time into:
database (SQL compile, execute, fetch, commit), engine (games.engine), template render
and the rest (views, middleware, ORM objects, context building). `--profile move|push`
prints cProfile's top functions for that part. A benchmark, not a test: nothing here
asserts on time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import io
import json
import logging
import os
import pstats
import random
import sys
import tempfile
import time
from collections import defaultdict


# ----------------------------------------------------------------------------- clock
class Clock:
    """Exclusive process CPU time per category: entering a category pauses the one
    around it, so every moment counts once."""

    def __init__(self):
        self.totals: dict[str, float] = defaultdict(float)
        self.stack: list[list] = []

    def enter(self, category: str) -> None:
        now = time.process_time()
        if self.stack:
            top = self.stack[-1]
            self.totals[top[0]] += now - top[1]
        self.stack.append([category, now])

    def leave(self) -> None:
        now = time.process_time()
        category, start = self.stack.pop()
        self.totals[category] += now - start
        if self.stack:
            self.stack[-1][1] = now

    def reset(self) -> None:
        self.totals.clear()


CLOCK = Clock()
QUERIES = [0]  # statements sent to the database (every thread)


def timed(owner, name: str, category: str) -> None:
    """Count the time inside `owner.name` (a function or method) as `category`."""
    inner = owner.__dict__.get(name)
    if inner is None:  # not in this checkout
        return
    is_class = isinstance(inner, classmethod)
    func = inner.__func__ if is_class else inner

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        CLOCK.enter(category)
        try:
            return func(*args, **kwargs)
        finally:
            CLOCK.leave()

    setattr(owner, name, classmethod(wrapper) if is_class else wrapper)


def instrument() -> None:
    """Wrap the database, the engine and the template engine in their categories."""
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.utils import CursorWrapper
    from django.db.models.sql import compiler
    from django.template.base import PartialTemplate, Template

    from games.engine import deal, match
    from games.services import rows

    for cls in (compiler.SQLCompiler, compiler.SQLInsertCompiler, compiler.SQLUpdateCompiler,
                compiler.SQLDeleteCompiler):
        if "execute_sql" in cls.__dict__:
            timed(cls, "execute_sql", "db")
    counted = CursorWrapper._execute_with_wrappers  # type: ignore[attr-defined]  # private

    def counting(self, *args, **kwargs):
        QUERIES[0] += 1
        return counted(self, *args, **kwargs)

    CursorWrapper._execute_with_wrappers = counting  # type: ignore[attr-defined]
    for name in ("update", "insert"):  # a change's own statements (games.services.rows)
        timed(rows, name, "db")
    timed(rows.Statement, "rows", "db")
    timed(BaseDatabaseWrapper, "commit", "db")
    timed(BaseDatabaseWrapper, "_savepoint", "db")
    timed(BaseDatabaseWrapper, "_savepoint_commit", "db")
    for name in ("from_json", "to_json", "next_deal"):
        timed(match.Match, name, "engine")
    for name in ("apply", "legal_actions", "view", "copy", "from_json", "to_json", "start"):
        timed(deal.Deal, name, "engine")
    timed(Template, "render", "render")
    timed(PartialTemplate, "render", "render")
    try:  # the felt's Jinja2 templates (games.present.felt)
        from jinja2 import Template as JinjaTemplate
    except ImportError:
        return
    timed(JinjaTemplate, "render", "render")


def instrument_detail() -> None:
    """--detail: the rest split further, by the site's own steps."""
    from django.contrib.auth import middleware as auth_middleware
    from django.contrib.sessions.backends.db import SessionStore

    from games import notify, services
    from games.present import render, snapshots

    timed(SessionStore, "load", "session")
    timed(auth_middleware, "get_user", "user")
    timed(services, "play_change", "service")  # views and sockets call it by this name
    for name in ("game_changed", "people_changed"):
        timed(notify, name, "notify")
    timed(snapshots, "keep", "snapshot")
    timed(snapshots, "read", "snapshot")
    timed(render, "reader_context", "context")



# ----------------------------------------------------------------------------- set-up
def setup_django(database: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.test_settings")
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.setdefault("DB_CONN_MAX_AGE", "60")  # as scripts/run
    os.environ.pop("REDIS_URL", None)  # the in-memory channel layer, eager Celery
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # The request log still formats its lines (its cost counts) but writes them nowhere.
    sink = open(os.devnull, "w")  # noqa: SIM115 - open while the process runs
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(sink)


def make_tables(count: int) -> list[dict]:
    """`count` two-player tables with their players' sessions (bench.loadtest's)."""
    from games.models import Game, RulePreset

    from . import loadtest

    if not RulePreset.objects.filter(active=True, teams="").exists():
        RulePreset.objects.create(name="Bench classic", min_players=2, max_players=6)
    players = loadtest.make_players(2 * count, f"mb{os.getpid()}-")
    tables = []
    for game_id, pair in zip(loadtest.make_tables(players), zip(players[::2], players[1::2])):
        tables.append({"game": Game.objects.get(pk=game_id), "players": list(pair)})
    return tables


def consumer_for(game_id: int, player: dict | None):
    """A table socket as Daphne would hold it after connecting (player None: an anonymous
    watcher); its frames are kept."""
    from games.live.table import TableConsumer

    class KeptFrames(TableConsumer):
        """Sends nothing: keeps its frames. The page sends a move every second or so and
        the bench back to back, so its flood limit reads a clock that moves a second per
        message."""

        def __init__(self) -> None:
            super().__init__()
            self.frames: list[str | None] = []
            self.ticks = iter(range(10**9))

        def clock(self) -> float:  # type: ignore[override]  # a staticmethod there
            return float(next(self.ticks))

        def send(self, text_data: str | None = None,  # type: ignore[override]  # as live.base
                 bytes_data: bytes | None = None, close: bool = False) -> None:
            self.frames.append(text_data)

        async def loop_send(self, message) -> None:  # a frame sent from the event loop
            self.frames.append(message.get("text"))

    from django.contrib.auth.models import AnonymousUser

    user = AnonymousUser() if player is None else player["user"]
    consumer = KeptFrames()
    consumer.scope = {  # type: ignore[typeddict-item]  # what the consumer reads, no more
                      "type": "websocket", "user": user,  # type: ignore[typeddict-item]
                      "query_string": b"",
                      "cookies": {"csrftoken": CSRF},
                      "headers": [(b"origin", b"http://testserver")],
                      "url_route": {"kwargs": {"game_id": game_id}}}  # type: ignore[typeddict-item]
    from importlib import import_module

    from django.conf import settings

    if player is not None:
        store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=player["session"])
        consumer.scope["session"] = store
    from games.present.reader import TableReader

    consumer.game_id, consumer.user, consumer.invite = game_id, user, ""
    consumer.reader = TableReader(game_id, user, invite="", site_root=consumer.site_root(),
                                  language=consumer.language, time_zone=consumer.time_zone)
    return consumer


SENT: dict[str, dict] = {}  # group -> the last event sent to it (instead of the layer)


def keep_group_events() -> None:
    """The site's group events are kept here, not sent: the bench hands each to the
    table's sockets itself, after the channel layer's serializer has seen it."""
    from games import notify

    def kept(group: str, event: dict) -> None:
        SENT[group] = event

    notify._group_send = kept  # the bench's own channel layer


CSRF = "b" * 32
HEADERS = {"HX-Request": "true", "X-CSRFToken": CSRF, "Origin": "http://testserver"}


# ----------------------------------------------------------------------------- the run
# What a process keeps in memory between requests and socket events (module, attribute):
# each simulated server process gets its own (--processes).
PROCESS_MEMORY = [("games.present.snapshots", "_kept"), ("games.present.render", "_rendered"),
                  ("games.present.snapshots", "_shared"), ("games.present.fragments", "_shown"),
                  ("games.present.fragments", "_lines"), ("games.present.fragments", "_frames")]


class Process:
    """One simulated server process: its own kept snapshots and renders."""

    def __init__(self):
        import importlib

        self.memory = {}
        for module, attribute in PROCESS_MEMORY:
            try:  # (an older checkout may keep less)
                kept = getattr(importlib.import_module(module), attribute)
            except (ImportError, AttributeError):
                continue
            self.memory[module, attribute] = type(kept)(
                kept.maxsize, kept.seconds, name=f"{kept.name} in process {id(self)}")

    def enter(self) -> None:
        import importlib

        for (module, attribute), kept in self.memory.items():
            setattr(importlib.import_module(module), attribute, kept)


class Bench:
    def __init__(self, tables: list[dict], processes: int, over: str = "http",
                 watchers: int = 0):
        from channels_redis.pubsub import RedisPubSubChannelLayer
        from django.conf import settings
        from django.test import AsyncClient

        self.layer = RedisPubSubChannelLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}])
        self.processes = [Process() for _ in range(processes)]
        self.sent_over = over
        self.tables = tables
        for t in tables:
            t["clients"] = []
            for p in t["players"]:
                client = AsyncClient(enforce_csrf_checks=True)
                client.cookies[settings.SESSION_COOKIE_NAME] = p["session"]
                client.cookies[settings.CSRF_COOKIE_NAME] = CSRF
                t["clients"].append(client)
            t["sockets"] = [consumer_for(t["game"].pk, p) for p in t["players"]]
            # Daphne's shared port hands each connection to either process.
            t["socket_process"] = [random.choice(self.processes) for _ in t["sockets"]]
            t["watchers"] = [consumer_for(t["game"].pk, None) for _ in range(watchers)]
            t["watcher_process"] = [self.processes[n % processes] for n in range(watchers)]
            t["html"] = ["", ""]
            t["version"] = t["game"].version
        self.moves = self.pushes = self.watched = 0
        self.over: set[int] = set()

    def first_tables(self) -> None:
        """Every socket's table on connect (not counted)."""
        for t in self.tables:
            for seat, socket in enumerate(t["sockets"]):
                t["socket_process"][seat].enter()
                socket.send_table()
                t["html"][seat] = socket.frames[-1]
            for n, watcher in enumerate(t["watchers"]):
                t["watcher_process"][n].enter()
                watcher.send_table()

    async def move(self, t: dict, phase: dict | None) -> bool:
        from channels.db import database_sync_to_async

        from . import loadtest

        for seat in (0, 1):
            token = loadtest.choose_move(t["html"][seat])
            if token is not None:
                break
        else:
            return False
        name = loadtest.field_of(token)
        if self.sent_over == "socket":  # the form's fields over the mover's socket (table.js)
            mover = t["sockets"][seat]
            t["socket_process"][seat].enter()
            sent = len(mover.frames)
            self._begin("move")
            await database_sync_to_async(mover.receive)(text_data=json.dumps(
                {name: [token], "version": [str(t["version"])]}))
            self._end("move", phase)
            if len(mover.frames) > sent:  # only a refusal answers at once
                raise RuntimeError(f"move {token} refused: {mover.frames[-1][-1500:]!r}")
        else:
            random.choice(self.processes).enter()  # the POST's connection, to either process
            self._begin("move")
            response = await t["clients"][seat].post(
                f"/games/{t['game'].pk}/play/", {name: token, "version": t["version"]},
                headers=HEADERS)
            self._end("move", phase)
            if response.status_code != 200:
                raise RuntimeError(f"move {token} refused: {response.status_code} "
                                   f"{response.content[-1500:]!r}")
        t["version"] += 1
        # The group event the move's commit sent (notify.game_changed), as Redis carries it.
        event = SENT.pop(f"game-{t['game'].pk}", None) or {"type": "game.changed",
                                                            "version": t["version"]}
        self._begin("serialize")
        message = self.layer.serialize(event)  # one PUBLISH for the group
        for _process in {id(p) for p in t["socket_process"]}:  # read once per process
            self.layer.deserialize(message)
        self._end("serialize", phase)
        for n, socket in enumerate(t["sockets"]):
            t["socket_process"][n].enter()
            self._begin("push")
            await socket.dispatch(event)  # as channels hands it over
            self._end("push", phase)
            t["html"][n] = socket.frames[-1]
            self.pushes += 1
        for n, watcher in enumerate(t["watchers"]):  # each reads the event from its queue
            t["watcher_process"][n].enter()
            self._begin("watch")
            await watcher.dispatch(self.layer.deserialize(message))
            self._end("watch", phase)
            watcher.frames.clear()
            self.watched += 1
        self.moves += 1
        return True

    def _begin(self, part: str) -> None:
        CLOCK.reset()
        CLOCK.enter("other")
        self.started = time.process_time()
        self.queries = QUERIES[0]

    def _end(self, part: str, phase: dict | None) -> None:
        CLOCK.leave()
        if phase is None:
            return
        phase[part, "total"] += time.process_time() - self.started
        phase[part, "queries"] += QUERIES[0] - self.queries
        for category, seconds in CLOCK.totals.items():
            phase[part, category] += seconds

    async def play(self, count: int, phase) -> None:
        done = 0
        while done < count:
            live = [t for t in self.tables if t["game"].pk not in self.over]
            if not live:
                raise RuntimeError("every table has finished its match")
            t = random.choice(live)
            if await self.move(t, phase):
                done += 1
            else:
                self.over.add(t["game"].pk)

    async def run(self, moves: int, warm: int, profile: str | None) -> dict:
        await self.play(warm, None)
        phase: dict = defaultdict(float)
        self.moves = self.pushes = self.watched = 0
        profiler = cProfile.Profile() if profile else None
        if profiler:
            original = self._begin, self._end

            def begin(part):
                original[0](part)
                if part == profile:
                    profiler.enable()

            def end(part, ph):
                if part == profile:
                    profiler.disable()
                original[1](part, ph)

            self._begin, self._end = begin, end  # type: ignore[method-assign]  # profiling
        await self.play(moves, phase)
        if profiler:
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out)
            if os.environ.get("MOVEBENCH_PSTATS"):
                stats.dump_stats(os.environ["MOVEBENCH_PSTATS"])
            stats.sort_stats("tottime").print_stats(30)
            stats.sort_stats("cumulative").print_stats(45)
            print(out.getvalue(), file=sys.stderr)
        return phase


def report(phase: dict, moves: int, pushes: int, processes: int, over: str = "http",
           watched: int = 0) -> str:
    def ms(part, category="total", per=moves):
        return phase.get((part, category), 0.0) * 1000 / max(per, 1)

    total = sum(ms(p) for p in ("move", "serialize", "push"))
    found = {c for (_part, c) in phase if c not in ("total", "queries", "other")}
    categories = ["db", "engine", "render"] + sorted(found - {"db", "engine", "render"})
    categories.append("other")
    lines = [f"{moves} moves, {pushes} pushes ({pushes / max(moves, 1):.1f} per move), "
             f"{processes} simulated server process(es)",
             f"server CPU per move: {total:.2f} ms",
             f"{'part (ms)':<26}  total " + " ".join(f"{c:>8}" for c in categories)
             + "  queries"]
    sent = "move over the socket" if over == "socket" else "POST /play"
    for part, per, label in (("move", moves, f"{sent} (per move)"),
                             ("push", pushes, "push (per socket)"),
                             ("serialize", moves, "channel layer (per move)"),
                             ("watch", watched, "push to a watcher (each)")):
        if not per:
            continue
        cells = [ms(part, c, per) for c in ["total", *categories]]
        queries = phase.get((part, "queries"), 0) / max(per, 1)
        lines.append(f"{label:<26} {cells[0]:6.2f} " + " ".join(f"{c:8.2f}" for c in cells[1:])
                     + f"  {queries:7.2f}")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.movebench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20, help="two-player tables")
    parser.add_argument("--moves", type=int, default=400, help="moves measured")
    parser.add_argument("--warm", type=int, default=60, help="moves played first, unmeasured")
    parser.add_argument("--processes", type=int, default=2,
                        help="server processes (scripts/run: two Daphnes)")
    parser.add_argument("--over", choices=["socket", "http"], default="socket",
                        help="a move over the mover's table socket (as the page sends it "
                        "while the socket is open) or the form's POST")
    parser.add_argument("--watchers", type=int, default=0,
                        help="anonymous sockets watching each table (not in the CPU per move)")
    parser.add_argument("--profile", choices=["move", "push", "watch"],
                        help="cProfile this part")
    parser.add_argument("--detail", action="store_true",
                        help="split the rest by the site's steps (session, user, service...)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    with tempfile.TemporaryDirectory(prefix="movebench-") as folder:
        setup_django(os.path.join(folder, "bench.sqlite3"))
        instrument()
        keep_group_events()
        if args.detail:
            instrument_detail()
        bench = Bench(make_tables(args.tables), args.processes, args.over, args.watchers)
        bench.first_tables()
        phase = asyncio.run(bench.run(args.moves, args.warm, args.profile))
        print(report(phase, bench.moves, bench.pushes, args.processes, args.over,
                     bench.watched))


if __name__ == "__main__":
    main()
