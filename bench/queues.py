"""How long an Easy bot takes to answer while the coach's queue is flooded (prints figures;
not a test): `python -m bench.queues`. Run through scripts/bench-queues, which starts a
private PostgreSQL and Redis.

It makes its own players and games in the database of DATABASE_URL, starts the site's
Celery workers as scripts/run does (the Procfile's lines; `--one-worker`: one worker
taking every queue with the Procfile's first worker's concurrency, as before the queues
were split), measures an Easy bot's answer to a move with the queues empty, then queues
30 reviews and 60 hints (as many players asking at once would) and measures again.
`--running` uses workers that are already running against REDIS_URL instead.
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")


def procfile_workers(one_worker: bool) -> dict[str, list[str]]:
    workers = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, sep, command = line.partition(":")
        argv = shlex.split(command) if sep and not line.startswith("#") else []
        if argv[:1] == ["celery"] and "worker" in argv:
            workers[name.strip()] = argv
    if one_worker:  # every queue, one worker, the first worker's concurrency
        name, argv = next(iter(workers.items()))
        if "-Q" in argv:
            i = argv.index("-Q")
            argv = [*argv[:i], *argv[i + 2:]]
        workers = {name: argv}
    return workers


def start_workers(one_worker: bool, logs: Path) -> list[subprocess.Popen]:
    procs = []
    for name, argv in procfile_workers(one_worker).items():
        log = open(logs / f"{name}.log", "wb")  # noqa: SIM115 - kept while it runs
        venv_celery = Path(sys.executable).parent / "celery"
        argv = [str(venv_celery), *argv[1:], "--loglevel=info", "-n", f"bench-{name}@%h"]
        procs.append(subprocess.Popen(argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                      start_new_session=True))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all(" ready." in (logs / f"{n}.log").read_text(errors="replace")
               for n in procfile_workers(one_worker)):
            return procs
        time.sleep(0.2)
    raise SystemExit("the workers did not start: see " + str(logs))


def stop_workers(procs) -> None:
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)  # the queued flood is not worth waiting for
        except ProcessLookupError:
            pass
        p.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.queues",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=30)
    parser.add_argument("--hints", type=int, default=60)
    parser.add_argument("--moves", type=int, default=10, help="bot answers timed per phase")
    parser.add_argument("--one-worker", action="store_true",
                        help="one worker for every queue (the layout before the split)")
    parser.add_argument("--running", action="store_true",
                        help="use workers already running against REDIS_URL")
    options = parser.parse_args()

    import django

    django.setup()
    logging.getLogger("durak.move").setLevel(logging.WARNING)  # this process's moves
    import redis
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from games import notify, services
    from games.models import Game, RulePreset

    assert settings.REDIS_URL and not settings.CELERY_TASK_ALWAYS_EAGER, "needs REDIS_URL"
    broker = redis.Redis.from_url(settings.REDIS_URL)
    tag = str(int(time.time()))
    users = get_user_model().objects
    alice = users.create_user(username=f"qb-{tag}-a", password=None)
    bob = users.create_user(username=f"qb-{tag}-b", password=None)
    preset = RulePreset.objects.create(name=f"Queue bench {tag}", min_players=2, max_players=2,
                                       timeouts_allowed=50)

    def fresh(game):
        return Game.objects.get(pk=game.pk)

    def first_action(game):
        return services.timeout_action(game.match().deal, game.match().deal.to_act).token()

    def bots_here(game):
        while (game := fresh(game)).is_playing and services.bot_holds_initiative(game):
            services.run_bots(game.pk, version=game.version)
        return game

    def new_easy_game():
        game = services.create_game(alice, preset, players=2, bots=["easy"],
                                    move_time=timedelta(hours=1))
        return bots_here(game)

    reviewed = new_easy_game()
    while (reviewed := bots_here(reviewed)).is_playing:
        services.play(reviewed.pk, alice, [first_action(reviewed)], reviewed.version)
    hinted = services.create_game(alice, preset, players=2, rated=False,
                                  move_time=timedelta(hours=1))
    services.join_game(hinted.pk, bob)
    hinted = fresh(hinted)
    for queue in settings.CELERY_TASK_QUEUES:
        broker.delete(queue)  # the stale bot turns the set-up queued

    def coach_queued() -> int:
        return sum(broker.llen(q) for q in ("coach", "mail", "celery"))

    def answers(n: int) -> list[float]:
        """Time from alice's move to the Easy bot's answer, n times."""
        took: list[float] = []
        game = new_easy_game()
        while len(took) < n:
            if not game.is_playing:
                game = new_easy_game()
                continue
            version = game.version
            started = time.monotonic()
            services.play(game.pk, alice, [first_action(game)], version)
            if not services.bot_holds_initiative(fresh(game)):
                game = fresh(game)  # alice acts again (or the deal is over): no answer due
                continue
            while (now := fresh(game)).version <= version + 1 and now.is_playing:
                if time.monotonic() - started > 300:
                    raise SystemExit(f"no answer in 300 s (game {game.pk} v{version + 1})")
                time.sleep(0.005)
            took.append(time.monotonic() - started)
            game = bots_here(now)
        return took

    def report(label, took):
        print(f"{label:<38} p50 {statistics.median(took) * 1000:7.0f} ms   "
              f"max {max(took) * 1000:7.0f} ms   ({len(took)} answers)")

    procs = []
    with tempfile.TemporaryDirectory(prefix="queuebench-") as logs:
        try:
            if not options.running:
                procs = start_workers(options.one_worker, Path(logs))
            layout = ("one worker, every queue" if options.one_worker else
                      "the Procfile's workers: " + ", ".join(procfile_workers(False)))
            if options.running:
                layout = "workers already running"
            print(f"{layout}; Easy bot; {os.cpu_count()} cores, load "
                  f"{os.getloadavg()[0]:.2f}")
            report("queues empty", answers(options.moves))
            for _ in range(options.reviews):
                notify.queue_review(reviewed.pk)
            for _ in range(options.hints):
                notify.queue_hint(hinted.pk, hinted.version, hinted.turn_seat)
            before = coach_queued()
            t0 = time.monotonic()
            flooded = answers(options.moves)
            report(f"{options.reviews} reviews + {options.hints} hints queued", flooded)
            print(f"coach and mail tasks waiting: {before} before, {coach_queued()} after "
                  f"{time.monotonic() - t0:.1f} s")
        except SystemExit:
            for log in Path(logs).glob("*.log"):
                print(f"--- {log.name}\n" + "\n".join(log.read_text().splitlines()[-15:]))
            raise
        finally:
            stop_workers(procs)
            if not options.running:
                for queue in settings.CELERY_TASK_QUEUES:
                    broker.delete(queue)


if __name__ == "__main__":
    main()
