"""A year of a busy site: `python -m bench.datascale --db postgres|sqlite [--scale 0.1]`.

Fills a database (once: reruns find it filled and skip the fill) with 20,000 players,
300,000 finished games with their seats, moves, deals, rating history and some chat, 500
games in play, 100 open tables and 200 tournaments (each figure times `--scale`), then asks
for every page a player, a watcher and an administrator reach, as each kind of reader (the
busiest player sits at 5,000 games), through Django's test Client in this process with the
site's settings, and prints per page the server time p50/p95, the queries and the bytes.
Then the beat jobs (deadline sweep, reminders, "your move" mails, the daily summary,
tournaments) and a long game's export and replay, each inside a transaction rolled back.
docs/benchmarks.md, "A year of data".

The games are not played through the site one by one: a few dozen are (random legal
moves, through games.services), and their rows are copied with new ids, players and dates.
PostgreSQL: `--db postgres` takes DATABASE_URL's server and uses the database
`durak_year_<scale>` on it (made and migrated when missing). SQLite: a file under /tmp.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import logging
import os
import random
import secrets
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

BASE = {"players": 20_000, "finished": 300_000, "playing": 500, "open": 100,
        "tournaments": 200}
BUSIEST = 5_000  # games of the busiest player (at most a quarter of them at small scales)
DONE_TABLE = "bench_datascale_filled"


class Rollback(Exception):
    pass


# ----------------------------------------------------------------------------- database
def tag(scale: float) -> str:
    return f"{scale:g}".replace(".", "_")


def database_url(db: str, scale: float, name: str | None) -> str:
    if db == "sqlite":
        return f"sqlite:///{name or f'/tmp/durak-year-{tag(scale)}.sqlite3'}"
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith("postgres"):
        sys.exit("--db postgres needs DATABASE_URL=postgres://... (the server to fill)")
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path="/" + (name or f"durak_year_{tag(scale)}")))


def make_database(url: str) -> None:
    """CREATE DATABASE when the PostgreSQL one is missing."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def filled() -> bool:
    from django.db import connection

    return DONE_TABLE in connection.introspection.table_names()


def insert(model: Any, names: Sequence[str], rows: Iterable[tuple]) -> int:
    """Rows into `model`'s table, fast: COPY on PostgreSQL, executemany on SQLite. Values
    are Python values of the fields named, prepared by the fields themselves."""
    from django.db import connection

    fields = [model._meta.get_field(n) for n in names]
    # Columns the fill doesn't name (added since) take their fields' defaults: Django
    # keeps defaults in Python, so the table's columns have none of their own.
    rest = [f for f in model._meta.concrete_fields
            if f not in fields and not f.primary_key and not f.null]
    fields += rest
    defaults = tuple(f.get_default() for f in rest)
    rows = (tuple(row) + defaults for row in rows)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(model._meta.db_table)
    preps = [f.get_db_prep_save for f in fields]
    count = 0
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row([p(v, connection) for p, v in zip(preps, row, strict=True)])
                    count += 1
            return count
        marks = ", ".join(["%s"] * len(fields))
        sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
        batch: list[list[Any]] = []
        for row in rows:
            batch.append([p(v, connection) for p, v in zip(preps, row, strict=True)])
            if len(batch) >= 5000:
                cursor.executemany(sql, batch)
                count += len(batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)
            count += len(batch)
    return count


def reset_sequences(*models: Any) -> None:
    from django.core.management.color import no_style
    from django.db import connection

    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(sql)


PLAN_COLUMNS = ("gid", "tpl", "status", "private", "token", "created_by", "created_at",
                "started_at", "finished_at", "turn_started", "deadline", "next_reminder",
                "move_start", "move_step")


def raw_insert(table: str, columns: Sequence[str], rows: Iterable[tuple]) -> None:
    """Rows of plain values into a table the fill made for itself (COPY on PostgreSQL)."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        adapt = connection.ops.adapt_datetimefield_value
        cursor.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
            f"({', '.join(['%s'] * len(columns))})",
            [[adapt(v) if isinstance(v, datetime) else v for v in row] for row in rows])


def make_plan_tables() -> None:
    """The plan of every game (its template, players and times) as tables, and the
    templates' moves numbered in order: the games' rows are then made in SQL."""
    from django.db import connection

    stamp = "timestamp with time zone" if connection.vendor == "postgresql" else "datetime"
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE bench_plan (gid integer PRIMARY KEY, tpl integer, status varchar(8), "
            f"private boolean, token varchar(32), created_by integer, created_at {stamp}, "
            f"started_at {stamp}, finished_at {stamp}, turn_started {stamp}, deadline {stamp}, "
            f"next_reminder {stamp}, move_start {stamp}, move_step double precision)")
        cursor.execute("CREATE TABLE bench_plan_seat (gid integer, number integer, "
                       "player integer, PRIMARY KEY (gid, number))")
        cursor.execute("CREATE TABLE bench_template_move AS SELECT m.*, "
                       "row_number() OVER (PARTITION BY m.game_id ORDER BY m.seq) - 1 AS k "
                       "FROM games_move m")  # only the templates' moves exist yet


def copy_rows(model: Any, source: str, template: str, overrides: dict[str, str]) -> int:
    """INSERT INTO the model's table SELECT its columns FROM `source`: each column from
    the template's row (`template`, an alias in `source`) unless `overrides` gives it
    an expression; the id is left to the table (the game's is the plan's)."""
    from django.db import connection

    columns, values = [], []
    for field in model._meta.concrete_fields:
        column = field.column
        if field.primary_key and column not in overrides:
            continue
        columns.append(connection.ops.quote_name(column))
        values.append(overrides.get(column, f"{template}.{connection.ops.quote_name(column)}"))
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
                       f"SELECT {', '.join(values)} FROM {source}")
        return cursor.rowcount


def copy_games() -> None:
    """The planned games, their seats and (finished) deals, copied from their templates'
    rows in SQL, with the plan's ids, players, times and status."""
    from games.models import DealRecord, Game, Seat

    game_columns = {f.column for f in Game._meta.concrete_fields}
    overrides = {"id": "p.gid", "status": "p.status", "private": "p.private",
                 "invite_token": "p.token", "created_by_id": "p.created_by",
                 "created_at": "p.created_at", "started_at": "p.started_at",
                 "finished_at": "p.finished_at", "turn_started": "p.turn_started",
                 "deadline": "p.deadline", "next_reminder": "p.next_reminder",
                 "move_email_at": "NULL", "reminders_sent": "0", "lesson": "FALSE",
                 "paused_at": "NULL", "challenged_id": "NULL", "rematch_id": "NULL"}
    copy_rows(Game, "bench_plan p JOIN games_game t ON t.id = p.tpl", "t",
              {k: v for k, v in overrides.items() if k in game_columns})
    seat_columns = {f.column for f in Seat._meta.concrete_fields}
    seat = {"game_id": "p.gid", "player_id": "ps.player", "wants_rematch": "FALSE",
            "auto_pass": "FALSE", "auto_take": "FALSE", "pushed_version": "NULL",
            "lost": "CASE WHEN p.status = 'finished' THEN ts.lost END",
            "game_status": "p.status", "game_private": "p.private",
            "game_preset_id": "t.preset_id", "game_finished_at": "p.finished_at"}
    copy_rows(Seat, "bench_plan p JOIN games_game t ON t.id = p.tpl "
              "JOIN games_seat ts ON ts.game_id = p.tpl LEFT JOIN bench_plan_seat ps "
              "ON ps.gid = p.gid AND ps.number = ts.number", "ts",
              {k: v for k, v in seat.items() if k in seat_columns})
    copy_rows(DealRecord, "bench_plan p JOIN games_dealrecord td ON td.game_id = p.tpl "
              "WHERE p.status = 'finished'", "td",
              {"game_id": "p.gid", "finished_at": "p.finished_at"})


def copy_moves() -> int:
    """Every planned game's moves, its template's in order, spread over its time."""
    from django.db import connection

    from games.models import Move

    at = ("p.move_start + p.move_step * m.k * interval '1 second'"
          if connection.vendor == "postgresql" else
          "strftime('%Y-%m-%d %H:%M:%f', p.move_start, "
          "printf('%+.3f seconds', p.move_step * m.k))")  # a signed modifier, never 1e-05
    return copy_rows(Move, "bench_plan p JOIN bench_template_move m ON m.game_id = p.tpl "
                     "LEFT JOIN bench_plan_seat ps ON ps.gid = p.gid AND ps.number = m.seat",
                     "m", {"game_id": "p.gid", "at": at,
                           "player_id": "CASE WHEN m.player_id IS NOT NULL THEN ps.player END"})


def suspend_constraints(models: Sequence[Any]) -> list[str]:
    """PostgreSQL: drop the tables' indexes (not their primary keys), unique and foreign
    key constraints while the fill copies into them; the statements that make them
    again (restore_constraints), each built once over the filled table."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return []
    tables = [m._meta.db_table for m in models]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit = off")
        cursor.execute("SET LOCAL maintenance_work_mem = '512MB'")
        cursor.execute("SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
                       "FROM pg_constraint WHERE conrelid = ANY(%s::regclass[]) "
                       "AND contype IN ('f', 'u')", [tables])
        constraints = cursor.fetchall()
        for table, name, _definition in constraints:
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        cursor.execute("SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) "
                       "FROM pg_index WHERE indrelid = ANY(%s::regclass[]) "
                       "AND NOT indisprimary", [tables])
        indexes = cursor.fetchall()
        for name, _definition in indexes:
            cursor.execute(f"DROP INDEX {name}")
    return [definition for _name, definition in indexes] + [
        f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}'
        for table, name, definition in constraints]


def restore_constraints(statements: list[str]) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


# ----------------------------------------------------------------------------- templates
def play_out(game_id: int, rng: random.Random, moves: int | None = None) -> None:
    """Random legal moves through the services until the game ends (or `moves` made)."""
    from games import services
    from games.engine import ExchangeTrump
    from games.models import Game

    made = 0
    while moves is None or made < moves:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            return
        deal = game.match_in_play().deal
        seat = deal.to_act
        assert seat is not None  # a deal in play has a seat to act
        legal = [a for a in deal.legal_actions(seat) if not isinstance(a, ExchangeTrump)]
        action = rng.choice(legal or deal.legal_actions(seat))
        services.play_seat(game.pk, seat, [action.token()], game.version)
        made += 1


def make_templates(rng: random.Random, finished: int, playing: int) -> dict[str, list[int]]:
    """Games played through the site, to be copied: finished ones of several presets and
    sizes, games in play (a few moves in) and open tables."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import RulePreset

    people = [get_user_model().objects.create_user(username=f"year-template-{n}")
              for n in range(6)]
    presets = {p.name: p for p in RulePreset.objects.all()}
    kinds = [("Classic", 2, 1)] * 5 + [("Classic", 3, 1), ("Classic", 4, 1),
             ("Perevodnoy (transfer)", 2, 1), ("Classic", 2, 3), ("Pairs 2x2", 4, 1),
             ("Prostoy", 2, 1), ("Classic", 5, 1)]
    made: dict[str, list[int]] = {"finished": [], "playing": [], "open": [], "duel": [],
                                  "duel_playing": []}
    for n in range(finished + playing):
        name, players, deals = kinds[n % len(kinds)]
        preset = presets.get(name) or presets["Classic"]
        game = services.create_game(people[0], preset, players=players, deals=deals,
                                    move_time=timedelta(days=1), rated=n % 7 != 3)
        for person in people[1:players]:
            services.join_game(game.pk, person, invite_token=game.invite_token)
        if n < finished:
            play_out(game.pk, rng)
            made["finished"].append(game.pk)
            if (name, players, deals) == ("Classic", 2, 1):
                made["duel"].append(game.pk)
        else:
            play_out(game.pk, rng, moves=rng.randrange(2, 12))
            made["playing"].append(game.pk)
            if (name, players, deals) == ("Classic", 2, 1):
                made["duel_playing"].append(game.pk)
    for players in (2, 3, 4):
        made["open"].append(services.create_game(people[0], presets["Classic"],
                                                 players=players).pk)
    return made


# ----------------------------------------------------------------------------- the fill
CHANGE_NAMES = ("game", "player", "pool", "players", "place", "lost", "mu_before",
                "sigma_before", "mu_after", "sigma_after", "at")
PHRASES = ("gg", "hello", "well played", "oops", "nice defence", "one more?")


class Template:
    """One played game's rows, ready to copy."""

    def __init__(self, game_id: int) -> None:
        from games.models import DealRecord, Game, Move
        from games.services.ratings import places, pool_of

        self.game = Game.objects.get(pk=game_id)
        self.seats = list(self.game.seats.order_by("number"))
        self.moves = list(Move.objects.filter(game=self.game).order_by("seq"))
        self.deals = list(DealRecord.objects.filter(game=self.game).order_by("number"))
        self.players = self.game.players
        self.span = ((self.game.finished_at or self.game.created_at) - self.game.created_at)
        if self.game.status == Game.Status.FINISHED:
            rules = self.game.get_rules()
            place = places(self.game)
            self.place = [place[rules.team_of(s.number)] for s in self.seats]
            worst = max(self.place)
            self.lost = [len(set(self.place)) > 1 and p == worst for p in self.place]
            self.pool = pool_of(self.game)


def fill(scale: float, seed: int = 1) -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import connection, transaction
    from django.utils import timezone

    from games.models import (
        ChatMessage,
        DealRecord,
        Entry,
        Game,
        Move,
        Rating,
        RatingChange,
        RoundTable,
        Seat,
        Tournament,
        TournamentRound,
    )

    Player = get_user_model()
    rng = random.Random(seed)
    n = {key: max(1, round(value * scale)) for key, value in BASE.items()}
    n["players"] = max(n["players"], 50)
    busiest_games = min(BUSIEST, n["finished"] // 4)
    now = timezone.now().replace(microsecond=0)
    year_ago = now - timedelta(days=365)
    t0 = time.perf_counter()
    print(f"filling {connection.vendor} at scale {scale:g}: {n}", flush=True)

    with transaction.atomic():
        made = make_templates(rng, finished=24, playing=6)
    templates = {k: [Template(pk) for pk in ids] for k, ids in made.items()}
    print(f"  {len(made['finished'])} games played as templates in "
          f"{time.perf_counter() - t0:.0f} s", flush=True)

    # The players: 1 admin, the busiest ("busiest"), a typical one ("player"), the rest.
    first_player = (Player.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    count = n["players"]
    ids = list(range(first_player, first_player + count))
    busiest, typical = ids[1], ids[2]
    # A few play a lot, most a little: index drawn with a skew toward the front.
    others = ids[3:]

    def someone() -> int:
        return others[int(len(others) * rng.random() ** 2.2)]

    # Plan every game: (template, players by seat, created_at, status).
    plans: list[tuple[Template, list[int], datetime, str]] = []
    finished_t = templates["finished"]
    busy_at = set(rng.sample(range(n["finished"]), busiest_games))
    typical_at = set(rng.sample(range(n["finished"]), min(120, n["finished"] // 8)))
    times = sorted(year_ago + timedelta(seconds=rng.uniform(0, 365 * 86400 - 7 * 86400))
                   for _ in range(n["finished"]))
    for i, at in enumerate(times):
        tpl = rng.choice(finished_t)
        seats: list[int] = []
        if i in busy_at:
            seats.append(busiest)
        if i in typical_at and typical not in seats:
            seats.append(typical)
        while len(seats) < tpl.players:
            p = someone()
            if p not in seats:
                seats.append(p)
        rng.shuffle(seats)
        plans.append((tpl, seats, at, Game.Status.FINISHED))
    for i in range(n["playing"]):
        tpl = rng.choice(templates["playing"])
        seats = [busiest] if i % 15 == 0 else [typical] if i % 40 == 1 else []
        while len(seats) < tpl.players:
            p = someone()
            if p not in seats:
                seats.append(p)
        plans.append((tpl, seats, now - timedelta(hours=rng.uniform(1, 200)),
                      Game.Status.PLAYING))
    for _ in range(n["open"]):
        tpl = rng.choice(templates["open"])
        plans.append((tpl, [someone()], now - timedelta(minutes=rng.uniform(1, 600)),
                      Game.Status.OPEN))

    # Tournaments: 2-player one-deal tables of their entries, 3 rounds; the last few in
    # play or open.
    duel = templates["duel"]
    tournaments: list[dict[str, Any]] = []
    for number in range(n["tournaments"]):
        size = rng.choice((8, 8, 16, 16, 32))
        entrants = rng.sample(others, size)
        if number % 10 == 0:
            entrants[0] = busiest
        cup: str = (Tournament.Status.OPEN if number % 25 == 0 else Tournament.Status.PLAYING
                    if number % 25 == 1 else Tournament.Status.FINISHED)
        start = (now + timedelta(days=2) if cup == Tournament.Status.OPEN
                 else now - timedelta(days=1) if cup == Tournament.Status.PLAYING
                 else year_ago + timedelta(days=rng.uniform(0, 350)))
        rounds = 0 if cup == Tournament.Status.OPEN else (
            2 if cup == Tournament.Status.PLAYING else 3)
        tables = []
        for r in range(rounds):
            order = entrants[:]
            rng.shuffle(order)
            for b in range(size // 2):
                pair = order[2 * b: 2 * b + 2]
                in_play = cup == Tournament.Status.PLAYING and r == rounds - 1
                plans.append((rng.choice(templates["duel_playing"] if in_play else duel), pair,
                              start + timedelta(days=r),
                              Game.Status.PLAYING if in_play else Game.Status.FINISHED))
                tables.append((r, b, len(plans) - 1))
        tournaments.append({"field": entrants, "status": cup, "start": start,
                            "rounds": rounds, "tables": tables})

    first_game = (Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    ratings: dict[tuple[int, str], list[float]] = {}  # (player, pool) -> mu, sigma, games
    record: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # played, lost
    password = make_password("a year of durak")

    # Players first (their counts from the plan).
    for tpl, seats, _at, status in plans:
        if status == Game.Status.FINISHED:
            for number, pid in enumerate(seats):
                record[pid][0] += len(tpl.deals) or 1
                record[pid][1] += int(tpl.lost[number])

    def player_rows():
        for pid in ids:
            played, lost = record[pid]
            joined = year_ago - timedelta(days=rng.uniform(0, 200))
            name = ("admin-year" if pid == ids[0] else "busiest" if pid == busiest
                    else "typical" if pid == typical else f"player{pid}")
            yield (pid, name, password, pid == ids[0], pid == ids[0], True, joined,
                   f"{name}@example.com", "", "", True, "now", {}, played, lost, 0,
                   joined + timedelta(days=rng.uniform(0, 500)) if pid % 3 else None,
                   "", "", "", name, "", "")

    with transaction.atomic():
        insert(Player, ("id", "username", "password", "is_staff", "is_superuser", "is_active",
                        "date_joined", "email", "first_name", "last_name", "email_reminders",
                        "move_emails", "vacation_days", "deals_played", "deals_lost",
                        "deals_drawn", "last_seen", "display_name", "language", "time_zone",
                        "username_skeleton", "display_name_skeleton", "email_stamp"),
               player_rows())
        reset_sequences(Player)
    print(f"  {count:,} players at {time.perf_counter() - t0:.0f} s", flush=True)

    change_rows: list[tuple] = []
    chat_rows: list[tuple] = []
    plan_rows: list[tuple] = []
    plan_seat_rows: list[tuple] = []
    gid_of: list[int] = []

    def flush_small() -> None:
        insert(RatingChange, CHANGE_NAMES, change_rows)
        insert(ChatMessage, ("game", "author", "text", "phrase", "at"), chat_rows)
        raw_insert("bench_plan", PLAN_COLUMNS, plan_rows)
        raw_insert("bench_plan_seat", ("gid", "number", "player"), plan_seat_rows)
        for rows in (change_rows, chat_rows, plan_rows, plan_seat_rows):
            rows.clear()

    brackets = [f.name for f in Rating._meta.fields if f.name.startswith("games_")]
    bracket_counts: dict[tuple[int, str], int] = defaultdict(int)
    with transaction.atomic():
        kept = suspend_constraints((Game, Seat, Move, DealRecord, RatingChange, ChatMessage))
        make_plan_tables()
        for i, (tpl, seats, at, status) in enumerate(plans):
            gid = first_game + i
            gid_of.append(gid)
            g = tpl.game
            finished = status == Game.Status.FINISHED
            started = at + timedelta(minutes=rng.uniform(1, 60))
            end = started + timedelta(hours=rng.uniform(0.2, 72)) if finished else None
            deadline = now + timedelta(hours=rng.uniform(2, 23)) if status == (
                Game.Status.PLAYING) else None
            step = ((end or now) - started).total_seconds() / max(1, len(tpl.moves))
            plan_rows.append((
                gid, g.pk, status, i % 17 == 5, f"year{gid}", seats[0], at,
                started if status != Game.Status.OPEN else None, end,
                now - timedelta(hours=1) if deadline else None, deadline,
                deadline - timedelta(hours=1) if deadline else None, started, step))
            plan_seat_rows.extend((gid, number, pid) for number, pid in enumerate(seats))
            if finished:
                if g.rated:
                    for number, pid in enumerate(seats):
                        key = (pid, tpl.pool)
                        mu, sigma, games = ratings.get(key, [25.0, 25 / 3, 0])
                        gain = (1.2 if not tpl.lost[number] else -1.4) * sigma / 8.33
                        after = [mu + gain, max(1.5, sigma * 0.97), games + 1]
                        ratings[key] = after
                        if tpl.pool == "individual":
                            field = ("games_2" if tpl.players == 2 else "games_3_4"
                                     if tpl.players <= 4 else "games_5_6")
                            bracket_counts[(pid, field)] += 1
                        change_rows.append((gid, pid, tpl.pool, tpl.players, tpl.place[number],
                                            tpl.lost[number], mu, sigma, after[0], after[1], end))
                if i % 10 == 0:
                    for k in range(3):
                        chat_rows.append((gid, seats[k % len(seats)], "", rng.choice(PHRASES),
                                          started + timedelta(minutes=k)))
            if len(plan_rows) >= 20000:
                flush_small()
        flush_small()
        copy_games()
        print(f"  {len(plans):,} games at {time.perf_counter() - t0:.0f} s", flush=True)
        moves = copy_moves()
        print(f"  {moves:,} moves at {time.perf_counter() - t0:.0f} s", flush=True)
        insert(Rating, ("player", "pool", "mu", "sigma", "games", *brackets),
               ((pid, pool, v[0], v[1], v[2], *(bracket_counts[(pid, b)] if pool == "individual"
                                                 else 0 for b in brackets))
                for (pid, pool), v in ratings.items()))

        first_t = (Tournament.objects.order_by("-pk").values_list("pk", flat=True).first()
                   or 0) + 1
        preset = duel[0].game.preset_id
        t_rows: list[tuple] = []
        e_rows: list[tuple] = []
        r_rows: list[tuple] = []
        rt_rows: list[tuple] = []
        first_round = (TournamentRound.objects.order_by("-pk").values_list("pk", flat=True)
                       .first() or 0) + 1
        rid = first_round
        for k, t in enumerate(tournaments):
            tid = first_t + k
            playing = t["status"] == Tournament.Status.PLAYING
            t_rows.append((tid, f"Cup {k + 1}", preset, "swiss", 2, 3, 1, "move",
                           timedelta(days=1), timedelta(days=3), t["start"], t["status"],
                           t["rounds"], t["start"] - timedelta(days=3), t["start"],
                           t["start"] + timedelta(days=3) if t["status"] == "finished" else None,
                           f"cup{tid}", ids[0], now + timedelta(days=2) if playing else None,
                           True, False, False, 64, False))
            for seed_no, pid in enumerate(t["field"]):
                e_rows.append((tid, pid, t["start"] - timedelta(days=1), seed_no + 1))
            round_ids = {}
            for r in range(t["rounds"]):
                round_ids[r] = rid
                last = playing and r == t["rounds"] - 1
                r_rows.append((rid, tid, r + 1, [], t["start"] + timedelta(days=r),
                               t["start"] + timedelta(days=r + 3),
                               None if last else t["start"] + timedelta(days=r + 1)))
                rid += 1
            for r, board, plan_index in t["tables"]:
                tpl, seats, _at, table_status = plans[plan_index]
                if table_status != Game.Status.FINISHED:
                    rt_rows.append((round_ids[r], board + 1, gid_of[plan_index], None, {}))
                    continue
                winner, loser = ((seats[1], seats[0]) if tpl.lost[0] else (seats[0], seats[1]))
                rt_rows.append((round_ids[r], board + 1, gid_of[plan_index],
                                [[winner], [loser]], {str(loser): 1, str(winner): 0}))
        insert(Tournament, ("id", "name", "preset", "kind", "table_size", "rounds", "deals",
                            "time_control", "move_time", "round_time", "starts_at", "status",
                            "current_round", "created_at", "started_at", "finished_at",
                            "invite_token", "created_by", "round_deadline", "rated",
                            "bots_fill", "established_only", "max_players", "private"), t_rows)
        insert(Entry, ("tournament", "player", "joined_at", "seed"), e_rows)
        insert(TournamentRound, ("id", "tournament", "number", "byes", "started_at", "deadline",
                                 "finished_at"), r_rows)
        insert(RoundTable, ("round", "board", "game", "places", "deals_lost"), rt_rows)
        reset_sequences(Game, Seat, Move, DealRecord, RatingChange, Rating, ChatMessage,
                        Tournament, Entry, TournamentRound, RoundTable)
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE TABLE {DONE_TABLE} (scale varchar(20), busiest integer, "
                           "typical integer, admin integer)")
            cursor.execute(f"INSERT INTO {DONE_TABLE} VALUES (%s, %s, %s, %s)",
                           [f"{scale:g}", busiest, typical, ids[0]])
            for table in ("bench_plan", "bench_plan_seat", "bench_template_move"):
                cursor.execute(f"DROP TABLE {table}")
        restore_constraints(kept)
        print(f"  indexes and constraints at {time.perf_counter() - t0:.0f} s", flush=True)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    else:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(f"  filled in {time.perf_counter() - t0:.0f} s", flush=True)


# ----------------------------------------------------------------------------- measuring
CPU: list[float] = []  # this process's CPU ms of each call timed last
DB_CPU: list[float] = [0.0]  # the PostgreSQL backend's CPU ms per call, on average


def backend_cpu_ms() -> float:
    """CPU the PostgreSQL backend serving this connection has used (/proc, in clock ticks:
    averaged over many calls); 0 on SQLite, whose work is in this thread's CPU."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0.0
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def timed(call: Callable[[], Any], repeat: int) -> tuple[list[float], int, Any]:
    """Milliseconds of each call after one warm-up, the queries of the last, its answer;
    CPU holds the milliseconds of this thread's CPU (not the database's) of each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    call()
    times = []
    CPU.clear()
    answer = None
    queries = 0
    db_before = backend_cpu_ms()
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            c = time.thread_time()
            t = time.perf_counter()
            answer = call()
            times.append((time.perf_counter() - t) * 1000)
            CPU.append((time.thread_time() - c) * 1000)
        queries = len(captured)
    DB_CPU[0] = (backend_cpu_ms() - db_before) / repeat
    return times, queries, answer


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def report(label: str, times: list[float], queries: int, size: int | str,
           status: int | str = "") -> None:
    print(f"  {label:<44} {statistics.median(times):8.1f} {p95(times):8.1f} "
          f"{statistics.median(CPU):6.1f} {DB_CPU[0]:6.1f} {queries:6d} {size!s:>9} "
          f"{status!s:>4}", flush=True)


def pages(repeat: int, only: str) -> None:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from games.models import Game, Tournament

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT busiest, typical, admin FROM {DONE_TABLE}")
        busiest_id, typical_id, admin_id = cursor.fetchone()
    Player = get_user_model()
    busiest = Player.objects.get(pk=busiest_id)
    typical = Player.objects.get(pk=typical_id)
    admin = Player.objects.get(pk=admin_id)
    long_game = (Game.objects.filter(status=Game.Status.FINISHED, private=False,
                                     seats__player=typical)
                 .order_by("-version").first())
    assert long_game is not None
    in_play = Game.objects.filter(status=Game.Status.PLAYING, seats__player=typical,
                                  private=False).first()
    watched = Game.objects.filter(status=Game.Status.PLAYING, private=False).order_by("pk").first()
    finished_cup = Tournament.objects.filter(status=Tournament.Status.FINISHED).order_by(
        "pk").first()
    playing_cup = Tournament.objects.filter(status=Tournament.Status.PLAYING).order_by(
        "pk").first()
    busiest_cup = Tournament.objects.filter(entries__player=busiest).order_by("-pk").first()

    readers: dict[str, Client] = {}
    for kind, person in (("visitor", None), ("player", typical), ("busiest", busiest),
                         ("admin", admin)):
        client = Client()
        if person is not None:
            client.force_login(person)
        readers[kind] = client
    gid = long_game.pk
    asked: list[tuple[str, str]] = [
        ("visitor", "/"), ("visitor", "/leaderboards/"), ("visitor", "/leaderboards/?players=3-4"),
        ("visitor", "/leaderboards/?players=teams"), ("visitor", "/tournaments/"),
        ("visitor", f"/tournaments/{finished_cup.pk}/" if finished_cup else ""),
        ("visitor", f"/tournaments/{playing_cup.pk}/" if playing_cup else ""),
        ("visitor", f"/accounts/u/{busiest.username}/"),
        ("visitor", f"/accounts/u/{typical.username}/"),
        ("visitor", f"/games/{gid}/replay/"), ("visitor", f"/games/{gid}/replay/?move=20"),
        ("visitor", f"/games/{gid}/export.json"), ("visitor", f"/games/{gid}/deals/1/"),
        ("visitor", f"/games/{watched.pk}/" if watched else ""),
        ("visitor", "/accounts/login/"), ("visitor", "/accounts/signup/"), ("visitor", "/learn/"),
        ("player", "/"), ("player", "/games/mine/"), ("player", "/accounts/profile/"),
        ("player", f"/accounts/u/{typical.username}/"), ("player", "/tournaments/"),
        ("player", f"/games/{in_play.pk}/" if in_play else ""), ("player", "/games/challenge/"),
        ("player", "/games/new/"), ("player", "/games/next/"), ("player", f"/games/{gid}/replay/"),
        ("busiest", "/"), ("busiest", "/games/mine/"), ("busiest", "/accounts/profile/"),
        ("busiest", f"/accounts/u/{busiest.username}/"), ("busiest", "/tournaments/"),
        ("busiest", f"/tournaments/{busiest_cup.pk}/" if busiest_cup else ""),
        ("busiest", "/games/next/"),
        ("admin", "/admin/"), ("admin", "/admin/games/game/"),
        ("admin", "/admin/games/game/?status__exact=finished"),
        ("admin", "/admin/games/game/?q=busiest"),
        ("admin", f"/admin/games/game/{gid}/change/"), ("admin", "/admin/accounts/player/"),
        ("admin", "/admin/accounts/player/?q=player1"),
        ("admin", f"/admin/accounts/player/{busiest.pk}/change/"),
        ("admin", "/admin/games/tournament/"),
        ("admin", f"/admin/games/tournament/{finished_cup.pk}/change/" if finished_cup else ""),
        ("admin", "/admin/games/entry/"), ("admin", "/admin/games/rulepreset/"),
    ]
    print(f"\npages ({repeat} requests each after one; ms of server time)")
    print(f"  {'reader and page':<44} {'p50':>8} {'p95':>8} {'cpu':>6} {'db cpu':>6} "
          f"{'queries':>6} {'bytes':>9} code")
    for who, url in asked:
        if not url or (only and only not in url):
            continue
        client = readers[who]
        times, queries, response = timed(functools.partial(client.get, url), repeat)
        size = len(response.content) if not getattr(response, "streaming", False) else "stream"
        report(f"{who} {url}"[:44], times, queries, size, response.status_code)

    # Sign-up and log-in: the password hash alone, then the pages' POSTs, each from an
    # address of its own (their limits) and rolled back.
    from django.contrib.auth.hashers import get_hasher, make_password
    from django.db import transaction

    hasher = get_hasher()
    times, _q, _a = timed(lambda: make_password("correct horse battery"), 3)
    hash_cpu = statistics.median(CPU)
    report(f"password hash ({hasher.algorithm}, {getattr(hasher, 'iterations', '')})",
           times, 0, "")
    addresses = iter(range(1, 10_000))

    def posted(url: str, data: dict[str, str]) -> Any:
        try:
            with transaction.atomic():
                answer = Client(REMOTE_ADDR=f"10.9.{next(addresses) // 250}.{next(addresses) % 250}"
                                ).post(url, data)
                raise Rollback(answer)
        except Rollback as done:
            return done.args[0]

    for url, data in (
            ("/accounts/login/", {"username": typical.username, "password": "a year of durak"}),
            ("/accounts/signup/", {"username": "newcomer", "password1": "an unusual pass 42",
                                   "password2": "an unusual pass 42"})):
        times, queries, response = timed(functools.partial(posted, url, data), max(3, repeat // 4))
        report(f"visitor POST {url}", times, queries, len(response.content), response.status_code)
        print(f"    CPU less the hash's: {statistics.median(CPU) - hash_cpu:.1f} ms")


def jobs(repeat: int) -> None:
    from django.db import transaction
    from django.utils import timezone

    from games import services
    from games.models import Game
    from games.present import replay

    now = timezone.now()
    print("\nbeat jobs and records (ms; each rolled back)")
    print(f"  {'job':<44} {'p50':>8} {'p95':>8} {'cpu':>6} {'db cpu':>6} {'queries':>6} "
          f"{'handled':>9}")
    for label, job in (("deadline sweep", lambda: services.sweep_expired(now=now)),
                       ("stalled bots", lambda: services.wake_stalled_bots(now=now)),
                       ("reminders", lambda: services.send_reminders(now=now)),
                       ("your-move mails", lambda: services.send_move_emails(now=now)),
                       ("daily summaries", lambda: services.send_summaries(now=now)),
                       ("tournament rounds",
                        lambda: services.tournament.advance_tournaments(now=now))):
        def once(job=job):
            try:
                with transaction.atomic(), contextlib.redirect_stdout(io.StringIO()):
                    answer = job()
                    raise Rollback(answer)
            except Rollback as done:
                return done.args[0]
        times, queries, handled = timed(once, repeat)
        report(label, times, queries, handled)
    game = Game.objects.filter(status=Game.Status.FINISHED).order_by("-version").first()
    assert game is not None
    times, queries, data = timed(lambda: replay.record(game), repeat)
    report(f"export of game {game.pk} (version {game.version})", times, queries,
           len(json.dumps(data)))
    times, queries, _ = timed(lambda: replay.step(game, 10_000, None), repeat)
    report("replay to its last move", times, queries, "")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.datascale", description=__doc__
                                     .split("\n")[0])
    parser.add_argument("--db", choices=("postgres", "sqlite"), required=True)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="times 20,000 players, 300,000 games... (0.1 for a quick run)")
    parser.add_argument("--name", help="the database's name (PostgreSQL) or file (SQLite)")
    parser.add_argument("--repeat", type=int, default=20, help="requests per page")
    parser.add_argument("--only", default="", help="only pages whose URL holds this")
    parser.add_argument("--fill-only", action="store_true")
    parser.add_argument("--no-jobs", action="store_true")
    args = parser.parse_args(argv)
    if not 0 < args.scale <= 10 or args.repeat < 1:
        parser.error("--scale must be in (0, 10] and --repeat positive.")
    url = database_url(args.db, args.scale, args.name)
    if args.db == "postgres":
        make_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # sessions of this run
    import django

    django.setup()
    for name in ("durak.request", "durak.move"):  # a line per request, per move
        logging.getLogger(name).setLevel(logging.WARNING)
    from django.core.management import call_command
    from django.db import connection

    t = time.perf_counter()
    call_command("migrate", verbosity=0)
    print(f"{connection.vendor} {url.rsplit('/', 1)[-1]}: migrated in "
          f"{time.perf_counter() - t:.1f} s; load {os.getloadavg()[0]:.2f}", flush=True)
    if not filled():
        fill(args.scale)
    if args.fill_only:
        return
    pages(args.repeat, args.only)
    if not args.no_jobs:
        jobs(max(3, args.repeat // 4))


if __name__ == "__main__":
    main()
