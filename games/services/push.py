"""Web push notifications (RFC 8030, encrypted per RFC 8291, signed with the site's VAPID
key, RFC 8292) to the devices where a player asked for them: your move, a challenge, a
rematch offer, a finished game, and 80% of a turn's time used by a player who has not
looked. At most one per game per move for each player (Seat.pushed_version, claimed with
a conditional update). Every request goes through games.outbound (checked when a device is
saved and again when sending); each recipient and each device in its own try, so a broken
or silent device costs only itself: it is dropped when the push service says it is gone
(404, 410) or after MAX_FAILURES failures in a row. Sent from the Celery `push` queue
(games.tasks; docs/design.md, "Requests out")."""

from __future__ import annotations

import base64
import json
import logging
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from py_vapid import Vapid02
from pywebpush import WebPusher

from .. import outbound
from ..kept import memo
from ..models import Game, PushSubscription, Seat
from .errors import BadRequest
from .words import deadline_words, for_player, game_name, time_left_words

if TYPE_CHECKING:
    from accounts.models import Player

logger = logging.getLogger(__name__)

WARN_AT = 0.8  # share of a turn's time used when a player who has not looked is warned
TTL = 24 * 60 * 60  # seconds a push service keeps a notification for a device that is off
MAX_DEVICES = 10  # a player's subscriptions: a new one beyond makes the oldest go
MAX_FAILURES = 5  # failed sends in a row that drop a device


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
    """This device notifies `player` from now on; BadRequest (words for the player) if its
    endpoint is not one the site may send to (games.outbound), or if it is another
    player's device posted without that device's own keys. A player keeps at most
    MAX_DEVICES: the oldest goes."""
    if not _keys(p256dh, auth):
        raise BadRequest(_("This is not a push subscription."))
    try:
        outbound.aim(endpoint, settings.PUSH_HOSTS)
    except outbound.Refused as exc:
        raise BadRequest(str(exc)) from None
    with transaction.atomic():
        known = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if known is not None and known.player_id != player.pk \
                and (known.p256dh, known.auth) != (p256dh, auth):
            raise BadRequest(_("This device is already registered for notifications."))
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"player": player, "p256dh": p256dh, "auth": auth,
                                         "failures": 0})
        extra = PushSubscription.objects.filter(player=player).order_by(
            "-created_at", "-pk").values_list("pk", flat=True)[MAX_DEVICES:]
        PushSubscription.objects.filter(pk__in=list(extra)).delete()
    return subscription


def _keys(p256dh: str, auth: str) -> bool:
    """A P-256 public key, uncompressed (65 bytes), and a 16-byte secret (RFC 8291)."""
    try:
        key = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        secret = base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4))
    except ValueError:
        return False
    return len(key) == 65 and key[0] == 4 and len(secret) == 16


def unsubscribe(player: Player, endpoint: str) -> bool:
    return PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()[0] > 0


def send(player: Player | None, *, title: str, body: str, url: str, tag: str) -> int:
    """Push one notification to each of the player's devices; how many took it. Never
    raises: a device that fails is logged and counted (_deliver)."""
    if not enabled() or player is None:
        return 0
    payload = json.dumps({"title": title, "body": body, "url": url, "tag": tag},
                         ensure_ascii=False).encode()
    delivered = 0
    for subscription in list(PushSubscription.objects.filter(player=player)):
        delivered += _deliver(subscription, payload)
    return delivered


def _request(subscription: PushSubscription, payload: bytes) -> tuple[bytes, dict[str, str]]:
    """The encrypted body (RFC 8291, aes128gcm) and headers, VAPID-signed (RFC 8292)."""
    body = WebPusher(subscription.info()).encode(payload, "aes128gcm")["body"]
    parts = urlsplit(subscription.endpoint)
    claims = {"sub": settings.VAPID_SUBJECT, "aud": f"{parts.scheme}://{parts.netloc}",
              "exp": int(time.time()) + 12 * 60 * 60}
    headers = {str(k): str(v) for k, v in
               _vapid(settings.VAPID_PRIVATE_KEY).sign(claims).items()}
    headers.update({"Content-Encoding": "aes128gcm", "TTL": str(TTL),
                    "Content-Type": "application/octet-stream"})
    return bytes(body), headers


def _deliver(subscription: PushSubscription, payload: bytes) -> bool:
    """One device, through the door: True if the push service took the notification."""
    try:
        target = outbound.aim(subscription.endpoint, settings.PUSH_HOSTS)
        body, headers = _request(subscription, payload)
        response = outbound.post_to(target, body, headers)
    except outbound.Refused as exc:  # saved before the door, or the host moved inside
        logger.warning("push to player %s refused: %s", subscription.player_id, exc)
        subscription.delete()
        return False
    except Exception as exc:  # noqa: BLE001 - any failure is this device's alone
        logger.warning("push to player %s failed: %r", subscription.player_id, exc)
        _failed(subscription)
        return False
    if response.status in (404, 410):  # unsubscribed, or the browser's data cleared
        subscription.delete()
        return False
    if not 200 <= response.status < 300:  # a redirect is not followed: a failure too
        logger.warning("push to player %s failed: HTTP %s", subscription.player_id,
                       response.status)
        _failed(subscription)
        return False
    if subscription.failures:
        PushSubscription.objects.filter(pk=subscription.pk).update(failures=0)
    return True


def _failed(subscription: PushSubscription) -> None:
    """Counted; the MAX_FAILURES-th failure in a row drops the device."""
    PushSubscription.objects.filter(pk=subscription.pk).update(failures=F("failures") + 1)
    PushSubscription.objects.filter(pk=subscription.pk, failures__gte=MAX_FAILURES).delete()


def _each(seats: Iterable[Seat], push: Callable[[Seat], int]) -> int:
    """`push` for each seat in its own try: one recipient's failure is logged, the next
    recipient still hears."""
    sent = 0
    for seat in seats:
        try:
            sent += bool(push(seat))
        except Exception:  # noqa: BLE001
            logger.exception("push to seat %s of game %s failed", seat.number, seat.game_id)
    return sent


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

    def warn(seat: Seat) -> int:
        game, player = seat.game, seat.player
        # The query asks for a player, a turn begun and a deadline to come.
        assert player is not None and game.turn_started is not None and game.deadline
        if now < game.turn_started + (game.deadline - game.turn_started) * WARN_AT:
            return 0
        if player.last_seen is not None and player.last_seen >= game.turn_started:
            return 0  # looked since the turn began
        if not _claim(seat, game.version):
            return 0
        with for_player(player):
            return send(
                player, title=_("Your time is running out"), url=_table(game),
                tag=f"game-{game.pk}", body=_("%(game)s. Move by %(deadline)s, %(left)s.") % {
                    "game": game_name(game), "deadline": deadline_words(game.deadline, now),
                    "left": time_left_words(game.deadline, now)})

    return _each(seats, warn)


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

    def offer(seat: Seat) -> int:
        if not _has_devices(seat.player) or not _claim(seat, game.version):
            return 0
        with for_player(seat.player):
            return send(seat.player, title=_("%(name)s offers a rematch") % {"name": name},
                        body=game_name(game), url=_table(game), tag=f"game-{game.pk}")

    return _each(game.seats.filter(player__isnull=False, wants_rematch=False).exclude(
        player_id=by_id).select_related("player"), offer)


def finished(game: Game) -> int:
    """Each person at the table hears that the game is over."""

    def over(seat: Seat) -> int:
        if not _has_devices(seat.player) or not _claim(seat, game.version):
            return 0
        with for_player(seat.player):
            return send(seat.player, title=_("The game is over"), body=game_name(game),
                        url=_table(game), tag=f"game-{game.pk}")

    return _each(game.seats.filter(player__isnull=False).select_related("player"), over)


def push_about(kind: str, game_id: int, by_id: int | None = None) -> int:
    """games.tasks.push: the push of `kind` about game `game_id` ("move": to seat `by_id`,
    "rematch": offered by player `by_id`)."""
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
    if (kind == "move" and by_id is not None and game.status == Game.Status.PLAYING
            and game.turn_seat == by_id):  # `by_id`: the seat to move, still to move
        seat = game.seats.select_related("player").filter(number=by_id).first()
        return your_move(game, seat) if seat is not None else 0
    return 0
