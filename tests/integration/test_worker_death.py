"""A Celery worker killed (SIGKILL, the whole process group) while a bot is mid-move.

The bot task is `acks_late` with `reject_on_worker_lost`: the broker keeps the message
unacknowledged while the task runs, and after the visibility timeout (5 s for these
processes) the next worker takes it again. The bot then moves exactly once for that
version, and the game goes on.
"""

import json
import time
from datetime import timedelta

import pytest

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


def test_a_bot_move_survives_its_worker_being_killed(procs, real_services, tmp_path, alice,
                                                      classic, seeded):
    game = services.create_game(alice, classic, players=2, bots=["hard"],
                                move_time=timedelta(hours=1))
    while not services.bot_holds_initiative(fresh(game)):  # alice moves until it's the bot's turn
        services.play(game.pk, alice, [plain_action(game)], fresh(game).version)
    game = fresh(game)
    version, bot_seat = game.version, game.turn_seat
    assert bot_seat == 1
    assert not moves(game, kind=Move.Kind.BOT)
    # The bot's turn is queued on the broker (after the commit of the last change).
    assert real_services.llen("celery") >= 1

    # 1. A worker whose bot thinks for a long time takes the task...
    first_trace = tmp_path / "first.jsonl"
    env = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT)}
    doomed = procs.worker("doomed", concurrency=1, module="tests.integration.slow_bot_worker",
                          env={**env, "TEST_BOT_THINK_SECONDS": "60",
                               "TEST_BOT_TRACE": str(first_trace)})
    started = wait_until(lambda: [r for r in trace(first_trace) if r["args"] == [game.pk, version]],
                         timeout=30, what="the bot to start thinking", proc=doomed)[0]
    # ...and holds it unacknowledged while the bot thinks.
    assert real_services.hlen("unacked") == 1
    assert fresh(game).version == version

    # 2. Kill it mid-move: the worker and its pool process, no chance to clean up.
    doomed.kill()
    assert not doomed.alive
    assert fresh(game).version == version, "the bot moved before the kill: the test proves nothing"
    assert real_services.hlen("unacked") == 1  # the broker still holds the message

    # 3. Once the visibility timeout has passed, a new worker takes the task again.
    (_tag, delivered_at), = real_services.zrange("unacked_index", 0, -1, withscores=True)
    time.sleep(max(0.0, delivered_at + VISIBILITY_TIMEOUT + 0.5 - time.time()))
    second_trace = tmp_path / "second.jsonl"
    worker = procs.worker("rescuer", concurrency=1, module="tests.integration.slow_bot_worker",
                          env={**env, "TEST_BOT_TRACE": str(second_trace)})
    wait_until(lambda: fresh(game).version > version, timeout=40, interval=0.2,
               what="the redelivered bot turn to move", proc=worker)

    # The same task (same id), redelivered by the broker, made the move: once.
    redone = [r for r in trace(second_trace) if r["task"] == started["task"]]
    assert redone and redone[0]["redelivered"], (started, trace(second_trace))
    made = moves(game, seq=version + 1)
    assert [(m.kind, m.seat) for m in made] == [(Move.Kind.BOT, bot_seat)]
    wait_until(lambda: real_services.hlen("unacked") == 0, timeout=10,
               what="the task to be acknowledged", proc=worker)

    # 4. The game goes on: alice answers, and the bot answers her through the new worker.
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
    bot_seqs = [m.seq for m in moves(game, kind=Move.Kind.BOT)]
    assert len(bot_seqs) == len(set(bot_seqs))
