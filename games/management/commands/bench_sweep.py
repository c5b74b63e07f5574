"""Benchmark the deadline sweep: N open games, a share of them overdue; prints how many
games the sweep handles per second and how many queries it makes. Everything it makes is
rolled back. Run on PostgreSQL with scripts/bench-sweep."""

from __future__ import annotations

import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.engine import Match
from games.models import Game, RulePreset, Seat


class Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Time the deadline sweep over many open games (rolled back afterwards)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=10_000)
        parser.add_argument("--overdue", type=float, default=0.01,
                            help="share of the games whose deadline has passed")

    def handle(self, *args, games: int, overdue: float, **options):
        if games < 1 or not 0 <= overdue <= 1:
            raise CommandError("--games must be positive and --overdue between 0 and 1.")
        try:
            with transaction.atomic():
                self._run(games, overdue)
                raise Rollback
        except Rollback:
            pass

    def _run(self, n: int, overdue: float) -> None:
        now = timezone.now()
        late = round(n * overdue)
        self._make_games(n, late, now)
        self.stdout.write(f"{connection.vendor}: {n:,} games in play, {late:,} overdue")
        for label, sweep in (("reminders", services.send_reminders),
                             ("stalled bots", services.wake_stalled_bots),
                             ("timeouts", services.sweep_expired)):
            with CaptureQueriesContext(connection) as queries:
                t0 = time.perf_counter()
                handled = sweep(now=now)
                seconds = time.perf_counter() - t0
            rate = f", {handled / seconds:,.0f} games/s" if handled else ""
            self.stdout.write(f"  {label:<13} {handled:>6,} handled in {seconds * 1000:8.1f} ms"
                              f"{rate}; {len(queries):,} queries")
        with CaptureQueriesContext(connection) as queries:
            t0 = time.perf_counter()
            again = services.sweep_expired(now=now)
            seconds = time.perf_counter() - t0
        self.stdout.write(f"  nothing due:  {again} handled in {seconds * 1000:8.1f} ms; "
                          f"{len(queries)} queries")

    def _make_games(self, n: int, late: int, now) -> None:
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
