"""Benchmark the deadline sweep: `python -m bench.sweep --games 10000 --overdue 0.01`.

N open games, a share of them overdue; prints how many games the sweep handles per second
and how many queries it makes. Everything it makes is rolled back. Run on PostgreSQL with
scripts/bench-sweep (which starts one and migrates it).
"""

from __future__ import annotations

import argparse
import os
import time
from datetime import datetime, timedelta


class Rollback(Exception):
    pass


def run(n: int, overdue: float) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games import services

    now = timezone.now()
    late = round(n * overdue)
    make_games(n, late, now)
    print(f"{connection.vendor}: {n:,} games in play, {late:,} overdue")
    for label, sweep in (("reminders", services.send_reminders),
                         ("stalled bots", services.wake_stalled_bots),
                         ("timeouts", services.sweep_expired)):
        with CaptureQueriesContext(connection) as queries:
            t0 = time.perf_counter()
            handled = sweep(now=now)
            seconds = time.perf_counter() - t0
        rate = f", {handled / seconds:,.0f} games/s" if handled else ""
        print(f"  {label:<13} {handled:>6,} handled in {seconds * 1000:8.1f} ms"
              f"{rate}; {len(queries):,} queries")
    with CaptureQueriesContext(connection) as queries:
        t0 = time.perf_counter()
        again = services.sweep_expired(now=now)
        seconds = time.perf_counter() - t0
    print(f"  nothing due:  {again} handled in {seconds * 1000:8.1f} ms; "
          f"{len(queries)} queries")


def make_games(n: int, late: int, now: datetime) -> None:
    from django.contrib.auth import get_user_model

    from games.engine import Match
    from games.models import Game, RulePreset, Seat

    preset = RulePreset.objects.create(name=f"bench-sweep-{now.timestamp()}", min_players=2,
                                       max_players=2, active=False)
    rules = preset.rules(2)
    state = Match(rules, seed=1).to_json()
    to_act = Match.from_json(state).deal.to_act
    hour = timedelta(hours=8)
    made = Game.objects.bulk_create([
        Game(preset=preset, rules=rules.to_dict(), players=2, deals=1, move_time=hour,
             status=Game.Status.PLAYING, state=state, version=1, turn_seat=to_act,
             turn_started=now - hour - timedelta(minutes=1) if i < late else now,
             deadline=now - timedelta(minutes=1) if i < late else now + hour,
             next_reminder=now + hour / 4 if i >= late else None)
        for i in range(n)
    ], batch_size=2000)
    User = get_user_model()
    people = [User.objects.create_user(username=f"bench-{now.timestamp()}-{i}")
              for i in range(2)]
    Seat.objects.bulk_create([
        Seat(game=game, number=number, team=number, player=people[number])
        for game in made for number in range(2)
    ], batch_size=4000)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sweep",
                                     description="Time the deadline sweep over many open "
                                     "games (rolled back afterwards).")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--overdue", type=float, default=0.01,
                        help="share of the games whose deadline has passed")
    args = parser.parse_args(argv)
    if args.games < 1 or not 0 <= args.overdue <= 1:
        parser.error("--games must be positive and --overdue between 0 and 1.")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    import django

    django.setup()
    from django.db import transaction

    try:
        with transaction.atomic():
            run(args.games, args.overdue)
            raise Rollback
    except Rollback:
        pass


if __name__ == "__main__":
    main()
