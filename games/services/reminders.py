"""Email reminders for slow games: a player whose turn has waited hears about it twice."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Game
from .mail import mail_player
from .words import deadline_words, for_player, game_name, player_zone, time_left_words

REMINDER_MIN_MOVE_TIME = timedelta(hours=1)  # faster games are played live: no email


def first_reminder(started: datetime, deadline: datetime) -> datetime | None:
    """When the player to act hears first: after a quarter of the turn's time (turns of an
    hour or more; faster games are played live)."""
    turn = deadline - started
    return started + turn / 4 if turn >= REMINDER_MIN_MOVE_TIME else None


def second_reminder(started: datetime, deadline: datetime) -> datetime:
    """Again when an eighth of the turn's time is left."""
    return deadline - (deadline - started) / 8


def send_reminders(now: datetime | None = None) -> int:
    """Email players whose turn has waited (unless they turned reminders off); each
    reminder is claimed with a conditional update, so a second sweep sends nothing."""
    now = now or timezone.now()
    sent = 0
    # One indexed query, however many games are waiting (next_reminder is set per turn).
    due = Game.objects.filter(status=Game.Status.PLAYING, turn_seat__isnull=False,
                              next_reminder__lte=now, deadline__gt=now, reminders_sent__lt=2,
                              paused_at__isnull=True)
    for game in due.select_related("preset"):
        if game.turn_seat is None or game.deadline is None or game.turn_started is None:
            continue  # not so in play (the query asks for them)
        seat = game.seats.select_related("player").filter(number=game.turn_seat).first()
        player = seat.player if seat is not None and not seat.bot_level else None
        claimed = Game.objects.filter(pk=game.pk, version=game.version,
                                      reminders_sent=game.reminders_sent).update(
            reminders_sent=game.reminders_sent + 1,
            next_reminder=second_reminder(game.turn_started, game.deadline)
            if game.reminders_sent == 0 else None)
        if not claimed or player is None or not player.email_reminders or not player.email:
            continue
        url = settings.SITE_URL.rstrip("/") + game.get_absolute_url()
        with for_player(player):
            name = game_name(game)
            mail_player(player, "reminders", _("Your move: %(game)s") % {"game": name}, _(
                "Hello %(name)s,\n\nYour move is still waiting: %(game)s. Unless you move by "
                "%(deadline)s (%(zone)s), %(left)s, the site plays for you.\n\n%(url)s\n\n"
                "You can turn these emails off on your profile page.") % {
                "name": player.name, "game": name, "url": url, "zone": player_zone(player),
                "deadline": deadline_words(game.deadline, now),
                "left": time_left_words(game.deadline, now)})
        sent += 1
    return sent
