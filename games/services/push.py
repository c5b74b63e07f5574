"""Web push notifications (RFC 8030, encrypted per RFC 8291, signed with the site's VAPID
key, RFC 8292) to the devices where a player asked for them: your move, a challenge, a
rematch offer, a finished game, and 80% of a turn's time used by a player who has not
looked. At most one per game per move for each player (Seat.pushed_version, claimed with
a conditional update); a device the push service says is gone (404, 410) is dropped.
Sent from the Celery `mail` queue (games.tasks.push, the beat's round)."""

from __future__ import annotations

import base64
import json
import logging
from datetime import datetime
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from ..kept import memo
from ..models import Game, PushSubscription, Seat
from .words import deadline_words, for_player, game_name, time_left_words

if TYPE_CHECKING:
    from accounts.models import Player

logger = logging.getLogger(__name__)

WARN_AT = 0.8  # share of a turn's time used when a player who has not looked is warned
TTL = 24 * 60 * 60  # seconds a push service keeps a notification for a device that is off
TIMEOUT = 10  # seconds for a push service to answer


@memo("services.push.vapid", maxsize=4, lasting=True)
def _vapid(private_key: str) -> Vapid02:
    return Vapid02.from_raw(private_key.encode())


def enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY)


def public_key() -> str:
    """The application server key a browser subscribes with (base64url, uncompressed
    point), or "" when push is off."""
    if not enabled():
        return ""
    raw = _vapid(settings.VAPID_PRIVATE_KEY).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def subscribe(player: Player, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """This device notifies `player` from now on (a device another player had is theirs
    now: one subscription per device)."""
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"player": player, "p256dh": p256dh, "auth": auth})
    return subscription


def unsubscribe(player: Player, endpoint: str) -> bool:
    return PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()[0] > 0


def send(player: Player | None, *, title: str, body: str, url: str, tag: str) -> int:
    """Push one notification to each of the player's devices; how many took it."""
    if not enabled() or player is None:
        return 0
    payload = json.dumps({"title": title, "body": body, "url": url, "tag": tag},
                         ensure_ascii=False)
    delivered = 0
    for subscription in PushSubscription.objects.filter(player=player):
        try:
            webpush(subscription.info(), payload, ttl=TTL, timeout=TIMEOUT,
                    vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
                    vapid_claims={"sub": settings.VAPID_SUBJECT})
            delivered += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):  # unsubscribed, or the browser's data cleared
                subscription.delete()
            else:
                logger.warning("push to player %s failed: %s", player.pk, status or exc)
        except OSError as exc:  # the push service did not answer (requests' errors)
            logger.warning("push to player %s failed: %s", player.pk, exc)
    return delivered


def _claim(seat: Seat, version: int) -> bool:
    """The one push of this move to this seat's player: True for the first caller only."""
    return bool(Seat.objects.filter(pk=seat.pk).filter(
        Q(pushed_version__isnull=True) | ~Q(pushed_version=version))
        .update(pushed_version=version))


def _has_devices(player: Player | None) -> bool:
    return player is not None and enabled() and player.push_subscriptions.exists()


def _table(game: Game) -> str:
    return game.get_absolute_url()


def your_move(game: Game, seat: Seat, now: datetime | None = None) -> int:
    """It is `seat`'s player's move: the deadline in their zone and words."""
    player = seat.player
    if not _has_devices(player) or not _claim(seat, game.version):
        return 0
    with for_player(player):
        body = game_name(game)
        if game.deadline:
            body = _("%(game)s. Move by %(deadline)s, %(left)s.") % {
                "game": body, "deadline": deadline_words(game.deadline, now),
                "left": time_left_words(game.deadline, now)}
        return send(player, title=_("Your move"), body=body, url=_table(game),
                    tag=f"game-{game.pk}")


def time_warnings(now: datetime | None = None) -> int:
    """The beat's round: a player who has used 80% of their turn's time and has not been on
    the site since it began hears of it (once per move, whatever else was pushed)."""
    now = now or timezone.now()
    if not enabled():
        return 0
    seats = (Seat.objects.filter(
        game__status=Game.Status.PLAYING, game__turn_seat=F("number"), bot_level="",
        game__paused_at__isnull=True, game__deadline__gt=now,
        game__turn_started__isnull=False, player__push_subscriptions__isnull=False)
        .exclude(pushed_version=F("game__version"))
        .select_related("game__preset", "player").distinct())
    sent = 0
    for seat in seats:
        game, player = seat.game, seat.player
        # The query asks for a player, a turn begun and a deadline to come.
        assert player is not None and game.turn_started is not None and game.deadline
        if now < game.turn_started + (game.deadline - game.turn_started) * WARN_AT:
            continue
        if player.last_seen is not None and player.last_seen >= game.turn_started:
            continue  # looked since the turn began
        if not _claim(seat, game.version):
            continue
        with for_player(player):
            sent += bool(send(
                player, title=_("Your time is running out"), url=_table(game),
                tag=f"game-{game.pk}", body=_("%(game)s. Move by %(deadline)s, %(left)s.") % {
                    "game": game_name(game), "deadline": deadline_words(game.deadline, now),
                    "left": time_left_words(game.deadline, now)}))
    return sent


def challenge(game: Game) -> int:
    """The challenged player hears of the table made for them."""
    player = game.challenged
    if not _has_devices(player):
        return 0
    challenger = game.created_by.name if game.created_by else "—"
    with for_player(player):
        return send(player, title=_("%(name)s challenges you") % {"name": challenger},
                    body=f"{game.preset.label}, {game.clock_label}",
                    url=game.invite_url, tag=f"game-{game.pk}")


def rematch_offer(game: Game, by_id: int) -> int:
    """The players of a finished game who have not accepted its rematch hear that one was
    offered."""
    offering = game.seats.filter(player_id=by_id).select_related("player").first()
    name = offering.player.name if offering and offering.player else "—"
    sent = 0
    for seat in game.seats.filter(player__isnull=False, wants_rematch=False).exclude(
            player_id=by_id).select_related("player"):
        if not _has_devices(seat.player) or not _claim(seat, game.version):
            continue
        with for_player(seat.player):
            sent += bool(send(seat.player, title=_("%(name)s offers a rematch") % {"name": name},
                              body=game_name(game), url=_table(game), tag=f"game-{game.pk}"))
    return sent


def finished(game: Game) -> int:
    """Each person at the table hears that the game is over."""
    sent = 0
    for seat in game.seats.filter(player__isnull=False).select_related("player"):
        if not _has_devices(seat.player) or not _claim(seat, game.version):
            continue
        with for_player(seat.player):
            sent += bool(send(seat.player, title=_("The game is over"), body=game_name(game),
                              url=_table(game), tag=f"game-{game.pk}"))
    return sent


def push_about(kind: str, game_id: int, by_id: int | None = None) -> int:
    """games.tasks.push: the push of `kind` about game `game_id`."""
    game = Game.objects.select_related("preset", "created_by", "challenged").filter(
        pk=game_id).first()
    if game is None:
        return 0
    if kind == "challenge" and game.is_open:
        return challenge(game)
    if (kind == "rematch" and by_id is not None and game.status == Game.Status.FINISHED
            and game.rematch_id is None):
        return rematch_offer(game, by_id)
    if kind == "finished" and game.status == Game.Status.FINISHED:
        return finished(game)
    return 0
