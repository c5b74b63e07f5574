"""Queues by urgency, with the site's own workers as scripts/run starts them (Procfile) on
the real Redis broker: a flood of the coach's work never delays a bot's move, and many
requests for one review or one hint queue one task."""

from __future__ import annotations

import json
import shlex
import threading
import time
from datetime import timedelta
from urllib.parse import urlencode

import pytest

from games import notify, services
from games.models import Move

from .helpers import fresh, moves, plain_action
from .procs import LOOPBACK, ROOT, VENV_BIN, wait_until
from .test_daphne import request, session_cookie

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

REVIEWS, HINTS = 30, 60


def procfile_workers() -> dict[str, list[str]]:
    """scripts/run's Celery workers (Procfile): name -> the arguments after `celery`."""
    workers = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, sep, command = line.partition(":")
        argv = shlex.split(command) if sep and not line.startswith("#") else []
        if argv[:1] == ["celery"] and "worker" in argv:
            workers[name.strip()] = argv[1:]
    assert workers, "the Procfile names no Celery worker"
    return workers


def start_site_workers(procs) -> dict:
    """Every worker of the Procfile with its queues and concurrency, logging at info (to
    see "ready." and each task received) under a node name of this test's own."""
    started = {}
    for name, args in procfile_workers().items():
        if "-n" in args:
            i = args.index("-n")
            args = [*args[:i], *args[i + 2:]]
        proc = procs._start(name, [str(VENV_BIN / "celery"), *args, "--loglevel=info",
                                   "-n", f"{name}-{id(procs)}@{LOOPBACK}",
                                   "--without-gossip", "--without-mingle", "--without-heartbeat"])
        started[name] = proc
    for proc in started.values():
        proc.wait_for_log(" ready.", timeout=60)
    return started


def queued_tasks(redis_client) -> dict[str, int]:
    """Task messages waiting in the broker (every queue), by task name."""
    counts: dict[str, int] = {}
    for key in redis_client.scan_iter():
        if redis_client.type(key) != b"list":
            continue
        for raw in redis_client.lrange(key, 0, -1):
            try:
                task = json.loads(raw)["headers"]["task"]
            except (ValueError, KeyError, TypeError):
                continue
            counts[task] = counts.get(task, 0) + 1
    return counts


def finished_game(alice, classic):
    """alice against an Easy bot, played out here (the bot's moves in this process)."""
    game = services.create_game(alice, classic, players=2, bots=["easy"],
                                move_time=timedelta(hours=1))
    for _ in range(400):
        game = fresh(game)
        if not game.is_playing:
            return game
        if services.bot_holds_initiative(game):
            services.run_bots(game.pk, version=game.version)
        else:
            services.play(game.pk, alice, [plain_action(game)], game.version)
    raise AssertionError("the game did not end")


def alice_to_act(alice, classic, **kwargs):
    """alice against an Easy bot, her turn (the bot's first moves played here)."""
    game = services.create_game(alice, classic, players=2, bots=["easy"],
                                move_time=timedelta(hours=1), **kwargs)
    for _ in range(50):
        game = fresh(game)
        if not services.bot_holds_initiative(game):
            assert game.is_playing and game.turn_seat == 0
            return game
        services.run_bots(game.pk, version=game.version)
    raise AssertionError("alice's turn never came")


def post_all(port, user, path, count) -> list[int]:
    """`count` POSTs of `path` as `user`, all at once (threads), as a page would send them."""
    cookies = session_cookie(user)
    status, _ = request(port, "GET", "/", cookies)
    assert status == 200 and "csrftoken" in cookies
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "X-CSRFToken": cookies["csrftoken"], "Origin": f"http://{LOOPBACK}:{port}",
               "HX-Request": "true"}
    barrier = threading.Barrier(count)
    statuses = [0] * count

    def post(i):
        barrier.wait(timeout=30)
        statuses[i] = request(port, "POST", path, dict(cookies), body=urlencode({}),
                              headers=headers)[0]

    threads = [threading.Thread(target=post, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return statuses


def test_a_flood_of_coach_work_never_delays_a_bots_move(procs, shared_daphnes, real_services,
                                                       alice, bob, classic, seeded):
    reviewed = finished_game(alice, classic)
    hinted = services.create_game(alice, classic, players=2, rated=False,
                                  move_time=timedelta(hours=1))
    services.join_game(hinted.pk, bob)
    hinted = fresh(hinted)
    asker = alice if hinted.turn_seat == 0 else bob
    easy = alice_to_act(alice, classic)
    real_services.flushdb()  # the stale bot turns queued while the games were set up

    # Many requests at once for one review and one hint: one task each.
    (_daphne, port), _other = shared_daphnes
    statuses = post_all(port, alice, f"/games/{reviewed.pk}/review/", REVIEWS)
    statuses += post_all(port, asker, f"/games/{hinted.pk}/hint/", HINTS)
    assert set(statuses) <= {200, 302}, statuses
    queued = queued_tasks(real_services)
    assert (queued.get("games.tasks.review_game"), queued.get("games.tasks.coach_hint")) == (
        1, 1), queued

    # Then many players' worth of coach work: 30 reviews and 60 hints, all waiting.
    for _ in range(REVIEWS):
        notify.queue_review(reviewed.pk)
    for _ in range(HINTS):
        notify.queue_hint(hinted.pk, hinted.version, hinted.turn_seat)
    workers = start_site_workers(procs)
    wait_until(lambda: any("games.tasks.review_game[" in w.log() for w in workers.values()),
               timeout=30, what="the coach to start on the reviews")

    # alice moves against the Easy bot: its answer does not wait for the coach.
    version = easy.version
    started = time.monotonic()
    services.play(easy.pk, alice, [plain_action(easy)], version)
    wait_until(lambda: fresh(easy).version > version + 1 or not fresh(easy).is_playing,
               timeout=120, interval=0.02, what="the Easy bot's answer")
    took = time.monotonic() - started
    left = queued_tasks(real_services)
    coach_left = left.get("games.tasks.review_game", 0) + left.get("games.tasks.coach_hint", 0)
    print(f"the Easy bot answered in {took:.2f} s with {coach_left} coach tasks still queued")
    assert Move.Kind.BOT in {m.kind for m in moves(easy, seq__gt=version)}
    assert coach_left > 0, "the coach's flood was gone before the bot moved: no test"
    for proc in workers.values():
        assert "Traceback" not in proc.log(), proc.tail()
