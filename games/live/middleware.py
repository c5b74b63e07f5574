"""What a socket of the site goes through once, when it connects, before its consumer runs:
ASGI middleware around the socket router, composed in games/live/routing.py.

- SiteOriginValidator: only pages of this site may open a socket (scheme, host and port);
- ReaderMiddleware (inside channels' AuthMiddlewareStack, which finds the user): the
  language the socket is read in and the time zone of the times it shows, chosen once
  for the connection (`scope["language"]`, `scope["time_zone"]`);
- SocketCounts (around a route's consumer, which knows the table): the socket's place in
  the socket counts (live/sockets.py): a signed-in player's own, an anonymous socket's
  client address's, and a table's watchers' (never its seated players), taken before
  the consumer runs and freed however the connection ends (a crash too). A socket over a
  limit is accepted, so that the client sees why, and closed 4429 without reaching its
  consumer.

What is per message (the flood bucket, the session re-check before a move) or needs the
consumer's channel (the 1013 refusal) stays with the consumers (live/base.py).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from asgiref.sync import sync_to_async
from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.db import database_sync_to_async
from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils import translation

from accounts.middleware import valid_time_zone

from ..models import Seat
from ..services import friends
from . import sockets
from .base import CLOSE_TOO_MANY

if TYPE_CHECKING:
    from channels.consumer import _ChannelScope

logger = logging.getLogger(__name__)

# A socket's scope and ASGI's callables as this middleware passes them on: plain dicts
# (asgiref's TypedDicts ask for keys that channels and Daphne do without, as an accept's
# headers); what it wraps takes them so.
type Scope = dict[str, Any]
type Receive = Callable[[], Awaitable[dict[str, Any]]]
type Send = Callable[[dict[str, Any]], Awaitable[None]]
type App = Callable[[Any, Any, Any], Awaitable[None]]


class SiteOriginValidator(OriginValidator):
    """Only pages of this site may open a socket: the Origin must match, scheme, host and
    port, SITE_URL, a CSRF_TRUSTED_ORIGINS entry, or the socket's own Host (an allowed
    host) with the site's scheme (https when SITE_URL is https)."""

    def __init__(self, application: App) -> None:
        super().__init__(application, [])
        self.inner = application  # `application` as ASGI 3 (the stubs allow ASGI 2 there)

    async def __call__(self, scope: _ChannelScope, receive: ASGIReceiveCallable,
                       send: ASGISendCallable) -> None:
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        allowed = [settings.SITE_URL, *settings.CSRF_TRUSTED_ORIGINS]
        if host and validate_host(split_domain_port(host)[0], settings.ALLOWED_HOSTS):
            allowed.append(("https://" if settings.HTTPS else "http://") + host)
        origin = urlparse(headers.get(b"origin", b"").decode("latin-1"))
        # Every entry carries its scheme: never a bare host matching any scheme or port.
        if any(self.match_allowed_origin(origin, p) for p in allowed if "://" in p):
            return await self.inner(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


def reader_language(scope: Mapping[str, Any]) -> str:
    """The language the socket's pages are read in, chosen as for a page (LocaleMiddleware,
    then accounts' PlayerLanguageMiddleware): the player's saved language, else the
    language cookie, else the browser's Accept-Language."""
    user = scope.get("user")
    saved = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
    if saved and saved in dict(settings.LANGUAGES):
        return saved
    headers = dict(scope.get("headers") or [])
    request = SimpleNamespace(COOKIES=scope.get("cookies") or {}, META={
        "HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")})
    # It reads only the request's COOKIES and META: a socket has no HttpRequest.
    return translation.get_language_from_request(request)  # type: ignore[arg-type]


def reader_time_zone(scope: Mapping[str, Any]) -> str:
    """The time zone of the times a socket shows: the player's saved zone (which their
    pages keep up to date from the browser, accounts' TimeZoneMiddleware), else the
    site's."""
    user = scope.get("user")
    return valid_time_zone(getattr(user, "time_zone", "")) or settings.TIME_ZONE


class ReaderMiddleware:
    """The reader's language and time zone, once for the connection; the consumers put
    the language on for each message (live/base.py)."""

    def __init__(self, application: App) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope = dict(scope, language=reader_language(scope), time_zone=reader_time_zone(scope))
        return await self.application(scope, receive, send)


class SocketCounts:
    """The socket's place in the counts it is one of (docs/design.md, "How sockets are
    counted"): a signed-in player's socket in the player's own (WS_MAX_PER_PLAYER), never
    their address's, so a crowd on their address cannot shut them out; an anonymous one
    in its client address's (WS_MAX_PER_ADDRESS); and with `per_table`, a watcher's also
    in its table's (WS_MAX_PER_GAME). A player seated at the table is no watcher: a crowd
    of watchers never keeps them from their table. The slot's name is
    `scope["socket_slot"]`, so that a consumer that closes the socket frees it at once
    (live/base.py)."""

    def __init__(self, application: App, *, per_table: bool = False) -> None:
        self.application = application
        self.per_table = per_table

    @staticmethod
    def player_id(scope: Scope) -> int | None:
        """The signed-in user's id (AuthMiddlewareStack has read the user already)."""
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            return None
        return int(user.pk)

    def limits(self, scope: Scope, *, seated: bool = False) -> list[tuple[str, int]]:
        counted: list[tuple[str, int]] = []
        if self.per_table and not seated:
            game_id = scope["url_route"]["kwargs"]["game_id"]
            counted.append((sockets.game_key(game_id), settings.WS_MAX_PER_GAME))
        player = self.player_id(scope)
        address = (scope.get("client") or [None])[0]
        if player is not None:
            counted.append((sockets.player_key(player), settings.WS_MAX_PER_PLAYER))
        elif address:
            counted.append((sockets.address_key(address), settings.WS_MAX_PER_ADDRESS))
        return counted

    async def seated(self, scope: Scope) -> bool:
        """The socket's user holds a seat at its table (one indexed read, signed-in
        sockets of a table only: an anonymous crowd costs the database nothing)."""
        player = self.player_id(scope)
        if not self.per_table or player is None:
            return False
        game_id = scope["url_route"]["kwargs"]["game_id"]
        return bool(await database_sync_to_async(
            Seat.objects.filter(game_id=game_id, player_id=player).exists)())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        slot = uuid.uuid4().hex
        limits = self.limits(scope, seated=await self.seated(scope))
        if not await sync_to_async(sockets.take, thread_sensitive=False)(slot, limits):
            return await refuse(receive, send, CLOSE_TOO_MANY)  # counted nowhere
        player = self.player_id(scope)
        if player is not None:  # their friends see them come (docs/design.md, "Friends and blocks")
            presence_later(player, 0)  # not waited for: the socket opens at once
        try:
            return await self.application(dict(scope, socket_slot=slot), receive, send)
        finally:
            await sync_to_async(sockets.release, thread_sensitive=False)(slot)
            if player is not None:  # and go, when it was their last socket
                presence_later(player)


OFFLINE_GRACE = 3.0  # seconds: a player off to their next page is not seen going and coming
_later: set[asyncio.Task[None]] = set()  # the lookups under way (a task unreferenced may go)


def presence_later(player_id: int, delay: float | None = None) -> None:
    """presence_changed, `delay` seconds from now (OFFLINE_GRACE by default: by then a page
    that was only being left for another has opened that page's socket, and their
    friends' lists stay as they are)."""
    loop = asyncio.get_running_loop()

    def start() -> None:
        task = loop.create_task(presence_changed(player_id))
        _later.add(task)
        task.add_done_callback(_later.discard)

    loop.call_later(OFFLINE_GRACE if delay is None else delay, start)


async def presence_changed(player_id: int) -> None:
    """A socket of the player opened or closed: their mutual friends' "Friends online"
    lists look again (a socket more or less of a player already online changes no list,
    and the navigation sends nothing that has not changed)."""
    try:
        await database_sync_to_async(friends.tell_presence)([player_id])
    except Exception:  # the database or the layer is down: the lists catch up later
        logger.warning("could not tell player %s's friends", player_id, exc_info=True)


async def refuse(receive: Receive, send: Send, code: int) -> None:
    """Accept the socket, so that the client sees why, and close it with `code`."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": code})
    while message["type"] != "websocket.disconnect":
        message = await receive()
