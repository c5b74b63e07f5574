"""Email reminders for slow games: a player whose turn has waited hears about it twice."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Game
from .mail import in_language, mail_player

REMINDER_MIN_MOVE_TIME = timedelta(hours=1)  # faster games are played live: no email


def first_reminder(started, deadline):
    """When the player to act hears first: after a quarter of the turn's time (turns of an
    hour or more; faster games are played live)."""
    turn = deadline - started
    return started + turn / 4 if turn >= REMINDER_MIN_MOVE_TIME else None


def second_reminder(started, deadline):
    """Again when an eighth of the turn's time is left."""
    return deadline - (deadline - started) / 8


def send_reminders(now=None) -> int:
    """Email players whose turn has waited (unless they turned reminders off); each
    reminder is claimed with a conditional update, so a second sweep sends nothing."""
    now = now or timezone.now()
    sent = 0
    # One indexed query, however many games are waiting (next_reminder is set per turn).
    due = Game.objects.filter(status=Game.Status.PLAYING, turn_seat__isnull=False,
                              next_reminder__lte=now, deadline__gt=now, reminders_sent__lt=2,
                              paused_at__isnull=True)
    for game in due.select_related("preset"):
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
        left = game.deadline - now
        hours = max(1, round(left.total_seconds() / 3600))
        with in_language(player):
            mail_player(player, "reminders", _("Your move in %(game)s") % {"game": game}, ngettext(
                "Hello %(name)s,\n\nIt is your turn in %(game)s. You have about %(hours)s "
                "hour left before the site plays for you.\n\n%(url)s\n\nYou can turn these "
                "emails off on your profile page.",
                "Hello %(name)s,\n\nIt is your turn in %(game)s. You have about %(hours)s "
                "hours left before the site plays for you.\n\n%(url)s\n\nYou can turn these "
                "emails off on your profile page.", hours) % {
                "name": player.name, "game": game, "hours": hours, "url": url})
        sent += 1
    return sent
