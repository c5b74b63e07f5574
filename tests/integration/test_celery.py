"""Celery for real: worker and beat processes on the real Redis broker, the test database
on PostgreSQL. The test process only makes games and reads the database back."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import notify, services, tasks
from games.engine.verify import verify
from games.models import Game, Move, Seat
from games.present import replay

from .helpers import fresh, moves
from .procs import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

SUCCEEDED = re.compile(r"Task games\.tasks\.sweep_deadlines\[[0-9a-f-]+\] succeeded in [\d.e-]+s: (\d+)")


def assert_log_consistent(game):
    """Every change is in the move log once, numbered 1..version with no gap."""
    game = fresh(game)
    assert [m.seq for m in moves(game)] == list(range(1, game.version + 1))


def test_a_game_between_bots_plays_to_the_end_by_itself(procs, alice, classic, seeded):
    game = services.create_game(alice, classic, players=2, bots=1, move_time=timedelta(hours=1))
    # A computer player takes alice's seat too: both seats are bots, which play at once (a
    # bot standing in for a person, with player set, would keep a person's pace instead).
    Seat.objects.filter(game=game, number=0).update(player=None, bot_level="medium")
    game = fresh(game)
    start = game.version
    assert game.is_playing and services.bot_holds_initiative(game)

    worker = procs.worker(concurrency=2)
    notify.game_changed(game.pk, game.version, bot_to_move=True)  # queues the bot turn

    wait_until(lambda: fresh(game).status == Game.Status.FINISHED, timeout=120, interval=0.25,
               what=f"game {game.pk} to finish", proc=worker)
    game = fresh(game)
    assert game.match().is_over
    assert game.turn_seat is None and game.deadline is None
    played = moves(game, seq__gt=start)
    assert len(played) >= 10  # a deal of Durak takes many moves
    assert {m.kind for m in played} == {Move.Kind.BOT}
    assert {m.seat for m in played} == {0, 1}
    assert_log_consistent(game)
    assert verify(replay.record(game)).ok  # every card as its seed deals it (docs/fairness.md)
    assert "Traceback" not in worker.log(), worker.tail()
    print(f"bots played {len(played)} moves to the end")


def test_a_timeout_fires_once_when_two_sweeps_and_the_site_race(procs, alice, bob, classic,
                                                                  seeded):
    games = []
    for _ in range(16):
        game = services.create_game(alice, classic, players=2, move_time=timedelta(hours=1))
        services.join_game(game.pk, bob)
        games.append(fresh(game))
    overdue = timezone.now() - timedelta(seconds=5)
    Game.objects.filter(pk__in=[g.pk for g in games]).update(deadline=overdue)
    worker = procs.worker(concurrency=2)

    # Two sweeps on the worker and one here, all at once.
    tasks.sweep_deadlines.delay()
    tasks.sweep_deadlines.delay()
    here = services.sweep_expired()

    def both_tasks_done():
        return [int(n) for n in SUCCEEDED.findall(worker.log())] if len(
            SUCCEEDED.findall(worker.log())) == 2 else None

    there = wait_until(both_tasks_done, timeout=30, what="both sweep tasks to finish",
                       proc=worker)
    for game in games:
        timeouts = moves(game, kind=Move.Kind.TIMEOUT)
        assert len(timeouts) == 1, f"game {game.pk}: {timeouts}"
        assert timeouts[0].seq == game.version + 1
        assert fresh(game).version == game.version + 1
        assert fresh(game).deadline > timezone.now()
        assert_log_consistent(game)
    # Each overdue seat was played by exactly one of the three sweeps.
    assert here + sum(there) == len(games), (here, there)
    print(f"timeouts played: {here} by this process, {there} by the two worker tasks")


def test_beat_sweeps_deadlines_and_wakes_stalled_bots_by_itself(procs, real_services, alice, bob,
                                                                 classic, seeded):
    # A human game whose deadline has passed: the sweep plays the timeout move.
    overdue = services.create_game(alice, classic, players=2, move_time=timedelta(hours=1))
    services.join_game(overdue.pk, bob)
    overdue = fresh(overdue)
    Game.objects.filter(pk=overdue.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    # A bot holds the initiative, but no task is handling it (its message was lost): its
    # turn began 20 s ago, so the sweep wakes it. Both seats are bots (no person's pace).
    stalled = services.create_game(alice, classic, players=2, bots=1,
                                   move_time=timedelta(hours=1))
    Seat.objects.filter(game=stalled, number=0).update(player=None, bot_level="medium")
    began = timezone.now() - timedelta(seconds=20)
    Game.objects.filter(pk=stalled.pk).update(turn_started=began,
                                              deadline=began + timedelta(hours=1))
    stalled = fresh(stalled)
    real_services.flushdb()  # no queued bot turn: the bot is stalled

    worker = procs.worker(concurrency=2)
    beat = procs.beat()
    wait_until(lambda: moves(overdue, kind=Move.Kind.TIMEOUT), timeout=20,
               what="the beat's sweep to play the overdue timeout", proc=beat)
    wait_until(lambda: fresh(stalled).version > stalled.version, timeout=20,
               what="the beat's sweep to wake the stalled bot", proc=worker)
    # Let the beat sweep a few more times: nothing more happens to the overdue game.
    sent = beat.log().count("Sending due task sweep-deadlines")
    wait_until(lambda: beat.log().count("Sending due task sweep-deadlines") >= sent + 2,
               timeout=15, what="two more sweeps", proc=beat)
    assert [(m.kind, m.seq) for m in moves(overdue, seq__gt=overdue.version)] == [
        (Move.Kind.TIMEOUT, overdue.version + 1)]
    assert fresh(overdue).deadline > timezone.now()
    woken = moves(stalled, seq__gt=stalled.version)
    assert woken and woken[0].kind == Move.Kind.BOT and woken[0].seq == stalled.version + 1
    assert_log_consistent(overdue)
    assert_log_consistent(stalled)
