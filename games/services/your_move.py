"""'Your move' emails for slow games: one per turn a few minutes after the move, or a daily
summary (at the hour the player chose, in their zone), for a player who has not been on
the site since (Player.move_emails); the push notification of the move goes at the same
moment."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, TypeGuard

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import notify
from ..models import Game, Seat
from .mail import mail_player
from .reminders import REMINDER_MIN_MOVE_TIME
from .words import deadline_words, for_player, game_name, player_zone, time_left_words

if TYPE_CHECKING:
    from accounts.models import Player

MOVE_EMAIL_DELAY = timedelta(minutes=5)  # a player still at the table sees the move first
SUMMARY_EVERY = timedelta(days=1)


def move_email_at(started: datetime, deadline: datetime) -> datetime | None:
    """When the player to act hears of a new turn (turns of an hour or more)."""
    return started + MOVE_EMAIL_DELAY if deadline - started >= REMINDER_MIN_MOVE_TIME else None


def send_move_emails(now: datetime | None = None) -> int:
    """Email each player whose turn came a few minutes ago and who has not been on the site
    since; each turn's email is claimed with a conditional update (sent at most once)."""
    now = now or timezone.now()
    sent = 0
    due = Game.objects.filter(status=Game.Status.PLAYING, turn_seat__isnull=False,
                              move_email_at__lte=now, paused_at__isnull=True)
    for game in due.select_related("preset"):
        claimed = Game.objects.filter(pk=game.pk, version=game.version,
                                      move_email_at=game.move_email_at).update(move_email_at=None)
        seat = (game.seats.select_related("player").filter(number=game.turn_seat).first()
                if game.turn_seat is not None else None)
        player = seat.player if seat is not None and not seat.bot_level else None
        if not claimed or seat is None or player is None:
            continue
        if player.last_seen is None or player.last_seen < (game.turn_started or now):
            notify.queue_push("move", game.pk, seat.number)  # on the push queue
        if not _wants(player, since=game.turn_started, how="now"):
            continue
        assert game.deadline is not None  # a game in play has one
        url = settings.SITE_URL.rstrip("/") + game.get_absolute_url()
        with for_player(player):
            name = game_name(game)
            mail_player(player, "moves", _("Your move: %(game)s") % {"game": name}, _(
                "Hello %(name)s,\n\nIt is your move: %(game)s. Move by %(deadline)s "
                "(%(zone)s), %(left)s.\n\n%(url)s") % {
                "name": player.name, "game": name, "url": url, "zone": player_zone(player),
                "deadline": deadline_words(game.deadline, now),
                "left": time_left_words(game.deadline or now, now)})
        sent += 1
    return sent


def send_summaries(now: datetime | None = None) -> int:
    """A daily summary for players who chose one: the slow games waiting for their move
    that they have not seen since; at most one a day each."""
    now = now or timezone.now()
    waiting = Seat.objects.filter(
        game__status=Game.Status.PLAYING, game__turn_seat=F("number"), bot_level="",
        game__paused_at__isnull=True,
        player__move_emails="daily", player__is_active=True,
    ).exclude(player__email="").select_related("game__preset", "player")
    games: defaultdict[Player, list[Game]] = defaultdict(list)
    for seat in waiting:
        game, player = seat.game, seat.player
        if player is None or game.turn_time is None or game.turn_time < REMINDER_MIN_MOVE_TIME:
            continue
        if not _summary_due(player, now):
            continue
        if _wants(player, since=game.turn_started, how="daily"):
            games[player].append(game)
    Player = get_user_model()
    sent = 0
    for player, mine in games.items():
        claimed = Player.objects.filter(pk=player.pk, last_summary=player.last_summary).update(
            last_summary=now)
        if not claimed:
            continue
        root = settings.SITE_URL.rstrip("/")
        mine.sort(key=lambda game: game.deadline or now)  # the least time left first (in play: set)
        with for_player(player):
            lines = "\n".join(
                f"- {game_name(game)}, {time_left_words(game.deadline or now, now)}: "
                f"{root}{game.get_absolute_url()}" for game in mine)
            mail_player(player, "moves", ngettext(
                "%(n)s game is waiting for your move", "%(n)s games are waiting for your move",
                len(mine)) % {"n": len(mine)},
                _("Hello %(name)s,\n\nIt is your move in:\n%(games)s") % {
                    "name": player.name, "games": lines})
        sent += 1
    return sent


def _summary_due(player: Player, now: datetime) -> bool:
    """A day since the last summary; with an hour chosen, from that hour of the player's
    day on, once that day (in their time zone)."""
    if player.summary_hour is None:
        return player.last_summary is None or now - player.last_summary >= SUMMARY_EVERY
    zone = player_zone(player)
    local = now.astimezone(zone)
    if local.hour < player.summary_hour:
        return False
    return player.last_summary is None or player.last_summary.astimezone(zone).date() < local.date()


def _wants(player: Player | None, *, since: datetime | None, how: str) -> TypeGuard[Player]:
    """The player asked for these emails, has an address, and has not been on the site
    since the turn began."""
    if player is None or not player.email or player.move_emails != how:
        return False
    return player.last_seen is None or since is None or player.last_seen < since
