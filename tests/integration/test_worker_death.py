"""A Celery worker killed (SIGKILL, the whole process group) while a bot is mid-move.

The bot task is `acks_late` with `reject_on_worker_lost`: the broker keeps the message
unacknowledged while the bot thinks. Two ways bring the game back, and both must make the
bot move exactly once for that version:
- the broker redelivers the same task once its visibility timeout has passed (5 s for
  the first test's processes; kombu looks for such messages when a worker starts, then
  only every 100 s or so);
- the beat's sweep wakes a bot that has held the initiative for 15 s with nothing
  moving (`services.wake_stalled_bots`), which comes first with the site's 60 s timeout;
- and when only the pool process dies, the worker puts the task back at once
  (`reject_on_worker_lost`).
The bots of the killed worker think for a minute (tests/integration/slow_bot_worker.py),
so the kill surely lands mid-move.
"""

import json
import os
import signal
import time
from datetime import timedelta

import pytest
from django.conf import settings

from games import services
from games.models import Move

from .helpers import fresh, moves, plain_action
from .procs import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

VISIBILITY_TIMEOUT = 5  # seconds, for the workers of this test


def trace(path):
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except FileNotFoundError:
        return []


def bots_turn(alice, classic):
    """alice against a hard bot, moved on until the bot is to act; its turn is queued."""
    game = services.create_game(alice, classic, players=2, bots=["hard"],
                                move_time=timedelta(hours=1))
    while not services.bot_holds_initiative(fresh(game)):  # alice moves until it's the bot's turn
        services.play(game.pk, alice, [plain_action(game)], fresh(game).version)
    game = fresh(game)
    assert game.turn_seat == 1
    assert not moves(game, kind=Move.Kind.BOT)
    return game


def kill_mid_move(procs, redis, game, trace_path, visibility_timeout):
    """Start a worker whose bot thinks for a minute, wait until the bot is thinking about
    this game's current version, then SIGKILL the worker's process group. Returns the
    trace record of the killed task."""
    version = game.version
    play = settings.CELERY_TASK_ROUTES["games.tasks.bot_turn"]["queue"]
    assert redis.llen(play) >= 1  # the bot's turn is queued (after the last commit)
    doomed = procs.worker("doomed", concurrency=1, module="tests.integration.slow_bot_worker",
                          env={"CELERY_VISIBILITY_TIMEOUT": str(visibility_timeout),
                               "TEST_BOT_THINK_SECONDS": "60", "TEST_BOT_TRACE": str(trace_path)})
    started = wait_until(lambda: [r for r in trace(trace_path) if r["args"] == [game.pk, version]],
                         timeout=30, what="the bot to start thinking", proc=doomed)[0]
    # acks_late: the broker holds the message, unacknowledged, while the bot thinks.
    assert redis.hlen("unacked") == 1
    doomed.kill()  # the worker and its pool process, with no chance to clean up
    assert not doomed.alive
    assert fresh(game).version == version, "the bot moved before the kill: the test proves nothing"
    assert redis.hlen("unacked") == 1  # the broker still holds the message
    return started


def hand_back_and_go_on(game, alice, worker, bot_seat=1):
    """After the rescued bot move: alice answers and the bot answers her (the game goes
    on), and the move log has no gap and no duplicate."""
    def humans_turn():
        current = fresh(game)
        return None if services.bot_holds_initiative(current) else current

    game = wait_until(humans_turn, timeout=30, what="the bot to hand the turn back", proc=worker)
    assert game.is_playing
    after = services.play(game.pk, alice, [plain_action(game)], game.version)
    if after.is_playing and after.turn_seat == bot_seat:
        wait_until(lambda: fresh(game).version > after.version, timeout=30,
                   what="the bot's next move", proc=worker)
        assert moves(game, seq=after.version + 1)[0].kind == Move.Kind.BOT
    game = fresh(game)
    assert [m.seq for m in moves(game)] == list(range(1, game.version + 1))


def test_the_broker_redelivers_a_bot_move_whose_worker_was_killed(procs, real_services, tmp_path,
                                                                    alice, classic, seeded):
    game = bots_turn(alice, classic)
    version = game.version
    started = kill_mid_move(procs, real_services, game, tmp_path / "first.jsonl",
                            VISIBILITY_TIMEOUT)

    # Once the visibility timeout has passed, a new worker takes the same task again.
    (_tag, delivered_at), = real_services.zrange("unacked_index", 0, -1, withscores=True)
    time.sleep(max(0.0, delivered_at + VISIBILITY_TIMEOUT + 0.5 - time.time()))
    second_trace = tmp_path / "second.jsonl"
    worker = procs.worker("rescuer", concurrency=1, module="tests.integration.slow_bot_worker",
                          env={"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
                               "TEST_BOT_TRACE": str(second_trace)})
    wait_until(lambda: fresh(game).version > version, timeout=40, interval=0.2,
               what="the redelivered bot turn to move", proc=worker)

    # The same task (same id), redelivered by the broker, made the move: once.
    redone = [r for r in trace(second_trace) if r["task"] == started["task"]]
    assert redone and redone[0]["redelivered"], (started, trace(second_trace))
    assert [(m.kind, m.seat) for m in moves(game, seq=version + 1)] == [(Move.Kind.BOT, 1)]
    wait_until(lambda: real_services.hlen("unacked") == 0, timeout=10,
               what="the task to be acknowledged", proc=worker)
    hand_back_and_go_on(game, alice, worker)


def test_the_sweep_wakes_a_bot_whose_worker_was_killed(procs, real_services, tmp_path, alice,
                                                      classic, seeded):
    """With the site's own visibility timeout (60 s) a worker restarted at once finds no
    message to take back yet: the beat's sweep (wake_stalled_bots, 15 s after the last
    change) queues a new bot turn, and the bot moves once."""
    game = bots_turn(alice, classic)
    version = game.version
    started = kill_mid_move(procs, real_services, game, tmp_path / "first.jsonl", 60)

    second_trace = tmp_path / "second.jsonl"
    worker = procs.worker("restarted", concurrency=1, module="tests.integration.slow_bot_worker",
                          env={"TEST_BOT_TRACE": str(second_trace)})
    beat = procs.beat()
    wait_until(lambda: fresh(game).version > version, timeout=45, interval=0.25,
               what="the sweep to wake the bot", proc=beat)

    woken = [r for r in trace(second_trace) if r["args"] == [game.pk, version]]
    assert woken and woken[0]["task"] != started["task"] and not woken[0]["redelivered"], woken
    assert [(m.kind, m.seat) for m in moves(game, seq=version + 1)] == [(Move.Kind.BOT, 1)]
    # The killed task's message is still held by the broker; when it comes back it finds
    # the game moved on and does nothing (bot_turn checks the version). The woken turn's
    # own message is acked a moment after its move commits.
    wait_until(lambda: real_services.hlen("unacked") == 1, timeout=10, interval=0.1,
               what="only the killed task's message to stay unacked", proc=worker)
    hand_back_and_go_on(game, alice, worker)


def test_a_killed_pool_process_has_its_bot_move_requeued_at_once(procs, real_services, tmp_path,
                                                                  alice, classic, seeded):
    """Only the pool process dies (say the kernel's OOM killer): the worker itself sees the
    loss and, with reject_on_worker_lost, puts the task back at once, without waiting for
    any visibility timeout."""
    game = bots_turn(alice, classic)
    version = game.version
    trace_path = tmp_path / "trace.jsonl"
    worker = procs.worker("pool", concurrency=1, module="tests.integration.slow_bot_worker",
                          env={"TEST_BOT_THINK_SECONDS": "60", "TEST_BOT_TRACE": str(trace_path)})
    first = wait_until(lambda: [r for r in trace(trace_path) if r["args"] == [game.pk, version]],
                       timeout=30, what="the bot to start thinking", proc=worker)[0]
    assert first["pid"] != worker.pid and not first["redelivered"]
    os.kill(first["pid"], signal.SIGKILL)

    wait_until(lambda: fresh(game).version > version, timeout=30, interval=0.2,
               what="the requeued bot turn to move", proc=worker)
    again = [r for r in trace(trace_path) if r["task"] == first["task"] and r is not first]
    assert again and again[-1]["redelivered"] and again[-1]["pid"] != first["pid"], trace(trace_path)
    assert [(m.kind, m.seat) for m in moves(game, seq=version + 1)] == [(Move.Kind.BOT, 1)]
    assert "WorkerLostError" in worker.log(), worker.tail()
    hand_back_and_go_on(game, alice, worker)
