"""Celery tasks: thin wrappers around services. Each goes to the queue of its urgency
(settings.CELERY_TASK_ROUTES): "play", "coach", "mail" or "push", each taken by a worker
(docs/design.md, "Celery queues and workers")."""

from __future__ import annotations

from celery import shared_task

from . import review, services
from .models import Game


@shared_task(acks_late=True, ignore_result=True)
def bot_turn(game_id: int, version: int) -> int:
    """Bot moves while a bot holds the initiative (a bounded number; the last one queues
    the next turn). A task for an old version does nothing."""
    return services.run_bots(game_id, version=version)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Beat: after an outage of the sweep, move the clocks on by it; play the timeout move
    of every overdue seat (each claimed once), and wake bot turns that no task is
    handling (a worker died)."""
    played = services.sweep_expired()
    services.wake_stalled_bots()
    return played


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """Beat: email players whose turn has waited a while, and again near the deadline;
    "your move" emails and pushes a few minutes after a move the player has not seen, a
    push at 80% of a turn's time (on the push queue); clocks restart for players whose
    vacation ran out."""
    services.end_vacations()
    sent = services.send_reminders() + services.send_move_emails()
    push_time_warnings.delay()
    return sent


@shared_task(ignore_result=True)
def push_time_warnings() -> int:
    """The push at 80% of a turn's time to players who have not looked
    (games.services.push)."""
    return services.push.time_warnings()


@shared_task(ignore_result=True)
def send_summaries() -> int:
    """Beat: the daily "games waiting for your move" emails."""
    return services.send_summaries()


@shared_task(ignore_result=True)
def coach_hint(game_id: int, version: int, seat: int) -> bool:
    """The coach's hint for one seat at one version (games.services.coach)."""
    return services.compute_hint(game_id, version, seat)


@shared_task(ignore_result=True)
def review_game(game_id: int) -> int:
    """The coach's review of a finished game (games.review); how many moves it marked."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.is_over:
        return 0
    return len(review.compute(game))


@shared_task(ignore_result=True)
def challenge_mail(game_id: int) -> bool:
    """The email telling a challenged player of the table made for them; its push goes on
    the push queue, which a device that fails can't hold up."""
    try:
        return services.send_challenge_mail(game_id)
    finally:
        push.delay("challenge", game_id)


@shared_task(ignore_result=True)
def advance_tournament(tournament_id: int) -> bool:
    """A table of the tournament ended: close its round if it is over, pair the next."""
    return services.tournament.advance(tournament_id)


@shared_task(ignore_result=True)
def tournament_rounds() -> int:
    """Beat: start tournaments at their start time; withdraw players with two timeouts;
    close rounds at their deadline (games.services.tournament)."""
    return services.tournament.advance_tournaments()


@shared_task(ignore_result=True)
def tournament_mail(tournament_id: int, number: int) -> int:
    """Mail the players that round `number` has started, or (0) the final standings."""
    return services.tournament.send_tournament_mail(tournament_id, number)


@shared_task(ignore_result=True)
def push(kind: str, game_id: int, by_id: int | None = None) -> int:
    """A push notification about a game: "move" (to seat `by_id`), "challenge", "rematch"
    offered (by player `by_id`), "finished"."""
    return services.push.push_about(kind, game_id, by_id)


@shared_task(ignore_result=True)
def remove_old_guests() -> int:
    """Beat: remove unclaimed guests away for 30 days, their finished games kept
    (games.services.guests)."""
    return services.guests.remove_old_guests()
