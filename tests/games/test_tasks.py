"""Celery tasks (eager in this tier): bot turns, the deadline sweep, reminders."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import services, tasks
from games.models import Game, Move

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def make_overdue(game, by=timedelta(minutes=1)):
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - by)
    game.refresh_from_db()
    return game


def test_the_sweep_task_plays_a_timeout_once_even_when_run_twice(duel):
    make_overdue(duel)
    before = duel.version
    assert tasks.sweep_deadlines() == 1
    assert tasks.sweep_deadlines() == 0
    duel.refresh_from_db()
    assert duel.version == before + 1
    assert Move.objects.filter(game=duel, kind=Move.Kind.TIMEOUT).count() == 1


def test_a_move_in_time_wins_over_a_sweep_that_saw_the_old_version(duel, alice, bob):
    deal = duel.match().deal
    user = alice if deal.to_act == 0 else bob
    services.play(duel.pk, user, [deal.legal_actions(deal.to_act)[0].token()], duel.version)
    make_overdue(duel, by=timedelta(0))
    with pytest.raises(services.StaleVersion):
        services.timeout(duel.pk, duel.version - 1)  # the sweep saw the old version
    assert not Move.objects.filter(game=duel, kind=Move.Kind.TIMEOUT).exists()


def test_a_move_after_the_deadline_is_refused_and_the_site_moves(duel, alice, bob):
    make_overdue(duel)
    deal = duel.match().deal
    seat = deal.to_act
    user = alice if seat == 0 else bob
    legal = [a.token() for a in deal.legal_actions(seat)]
    with pytest.raises(services.TimeRanOut, match="ran out"):
        services.play(duel.pk, user, [legal[-1]], duel.version)
    timeouts = Move.objects.filter(game=duel, kind=Move.Kind.TIMEOUT)
    assert [m.seat for m in timeouts] == [seat]
    assert timeouts[0].actions != [legal[-1]] or legal[-1] == legal[0]
    assert not Move.objects.filter(game=duel, kind=Move.Kind.MOVE).exists()
    assert tasks.sweep_deadlines() == 0  # played once, not again by the sweep


def test_a_stale_bot_task_does_nothing(alice, classic, seeded):
    game = services.create_game(alice, classic, players=2, bots=["medium"],
                                move_time=timedelta(hours=1))
    game.refresh_from_db()
    moves = Move.objects.filter(game=game).count()
    assert tasks.bot_turn(game.pk, game.version - 1) == 0
    assert Move.objects.filter(game=game).count() == moves


def test_a_stalled_bot_is_woken_by_the_sweep(duel):
    game = duel
    # A bot gets the seat to act while no task runs (as if a worker died).
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + game.move_time)
    game.seats.filter(number=game.turn_seat).update(bot_level="easy", player=None)
    assert services.wake_stalled_bots(now=timezone.now()) == 0  # it just changed: not stalled
    woke = services.wake_stalled_bots(now=timezone.now() + timedelta(minutes=2))
    assert woke == 1
    assert Move.objects.filter(game=game, kind=Move.Kind.BOT).exists()


def slow_game(alice, bob, classic, move_time=timedelta(days=1)):
    game = services.create_game(alice, classic, players=2, move_time=move_time)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def test_reminders_come_after_a_quarter_and_near_the_end_once_each(alice, bob, classic, seeded):
    game = slow_game(alice, bob, classic)
    waiting = game.seats.get(number=game.turn_seat).player
    start = game.deadline - game.move_time
    assert services.send_reminders(now=start + timedelta(hours=1)) == 0
    assert services.send_reminders(now=start + timedelta(hours=7)) == 1
    assert services.send_reminders(now=start + timedelta(hours=8)) == 0
    assert services.send_reminders(now=start + timedelta(hours=22)) == 1
    assert services.send_reminders(now=start + timedelta(hours=23)) == 0
    assert [m.to for m in mail.outbox] == [[waiting.email], [waiting.email]]
    assert f"/games/{game.pk}/" in mail.outbox[0].body


def test_a_move_resets_the_reminders(alice, bob, classic, seeded):
    game = slow_game(alice, bob, classic)
    start = game.deadline - game.move_time
    assert services.send_reminders(now=start + timedelta(hours=7)) == 1
    game.refresh_from_db()
    deal = game.match().deal
    user = alice if deal.to_act == 0 else bob
    services.play(game.pk, user, [deal.legal_actions(deal.to_act)[0].token()], game.version)
    game.refresh_from_db()
    assert game.reminders_sent == 0


def test_no_reminder_for_players_who_turned_them_off(alice, bob, classic, seeded):
    game = slow_game(alice, bob, classic)
    waiting = game.seats.get(number=game.turn_seat).player
    waiting.email_reminders = False
    waiting.save()
    start = game.deadline - game.move_time
    services.send_reminders(now=start + timedelta(hours=7))
    assert mail.outbox == []


def test_no_reminder_in_fast_games(alice, bob, classic, seeded):
    game = slow_game(alice, bob, classic, move_time=timedelta(minutes=10))
    start = game.deadline - game.move_time
    assert services.send_reminders(now=start + timedelta(minutes=9)) == 0
    assert mail.outbox == []


@pytest.mark.parametrize(("task", "queue"), [
    ("bot_turn", "play"), ("sweep_deadlines", "play"),
    ("coach_hint", "coach"), ("review_game", "coach"),
    ("send_reminders", "mail"), ("send_summaries", "mail"), ("challenge_mail", "mail"),
    ("push", "push"), ("push_time_warnings", "push"),
])
def test_each_task_goes_to_the_queue_of_its_urgency(task, queue):
    """Bot moves and timeouts have a queue (and a worker) of their own: the coach's and
    the mail's work never waits in front of them."""
    from durak_site.celery import app

    assert getattr(tasks, task).name == f"games.tasks.{task}"
    assert app.amqp.router.route({}, f"games.tasks.{task}")["queue"].name == queue


def test_every_game_task_has_a_queue_chosen():
    """(Anything unrouted goes to the mail's queue: no place for a bot's move.)"""
    from durak_site.celery import app

    app.loader.import_default_modules()
    ours = {name for name in app.tasks if name.startswith("games.")}
    assert ours and ours <= set(app.conf.task_routes), ours - set(app.conf.task_routes)
