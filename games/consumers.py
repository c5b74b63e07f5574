"""Live tables: one WebSocket per table page (`/ws/games/<id>/`).

The game's group carries small events ("game N is at version V"); each consumer renders
its own user's table (`deal.view(their seat)`) and pushes it with `hx-swap-oob`. Moves
sent over the socket (htmx `ws-send`) go through `services`, like HTTP posts.
"""

from __future__ import annotations

import logging
import time
import uuid
from importlib import import_module
from types import SimpleNamespace
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync, sync_to_async
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils import translation
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from accounts.middleware import seen

from . import limits, services, sockets, wire
from .models import Game
from .notify import group_name, user_group
from .present import render, snapshots

MAX_MESSAGE_BYTES = 8 * 1024  # a move is a few hundred bytes
CLOSE_REFUSED = 4403
CLOSE_FLOOD = 4429
CLOSE_TOO_BIG = 4413
CLOSE_SIGNED_OUT = 4401  # the session ended (log-out, new password, account closed)
CLOSE_TOO_MANY = 4429  # too many sockets from this address or on this table
CLOSE_TRY_LATER = 1013  # the site's Redis is unreachable: the page falls back to its poll

logger = logging.getLogger(__name__)


class RefuseConsumer(WebsocketConsumer):
    """Any other socket path: refused before it is accepted."""

    def connect(self):
        self.close()


def reader_language(scope) -> str:
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
    return translation.get_language_from_request(request)


class SiteConsumer(WebsocketConsumer):
    """A socket of the site's own: a message for a client that has just left is dropped.

    A browser that moves to another page closes its sockets at once, maybe while this
    consumer is still rendering (say the whole table on connect); Daphne's WebSocket
    protocol then refuses the send (Disconnected), and that is no error of the site's.
    """

    closing = False  # this side has closed the socket
    slot = ""  # this socket's name in the socket counts (games.sockets), once counted

    async def __call__(self, scope, receive, send):
        """The socket's whole life: however it ends (a crash too), its slots are freed."""
        try:
            await super().__call__(scope, receive, send)
        except BaseException as exc:
            if isinstance(exc, Exception) and not hasattr(self, "base_send"):
                # The channel layer failed before the socket began (Redis is down):
                # refuse the handshake; the page polls and tries again.
                logger.warning("could not open a channel for a socket", exc_info=True)
                await send({"type": "websocket.close", "code": CLOSE_TRY_LATER})
                return
            for group in getattr(self, "groups_joined", []):  # a crash skipped disconnect
                try:
                    await self.channel_layer.group_discard(group, self.channel_name)
                except Exception:  # the crash is what matters here
                    pass
            raise
        finally:
            if self.slot:
                await sync_to_async(sockets.release, thread_sensitive=False)(self.slot)

    def socket_limits(self) -> list[tuple[str, int]]:
        """The counts this socket is one of: its client address's (WS_MAX_PER_ADDRESS)."""
        address = (self.scope.get("client") or [None])[0]
        return [(sockets.address_key(address), settings.WS_MAX_PER_ADDRESS)] if address else []

    def take_slot(self) -> bool:
        """Count this socket in; False, counted nowhere, when a limit is full."""
        slot = uuid.uuid4().hex
        if not sockets.take(slot, self.socket_limits()):
            return False
        self.slot = slot
        return True

    def leave_groups(self):
        try:
            for group in getattr(self, "groups_joined", []):
                async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)
        except Exception:  # Redis is down: the layer forgets the channel by itself
            logger.warning("could not leave the groups of a closed socket", exc_info=True)

    def websocket_disconnect(self, message):
        try:
            super().websocket_disconnect(message)
        finally:
            sockets.release(self.slot)

    def layer_reconnected(self, event):
        """The channel layer is back in touch with Redis (durak_site.channel_layer)."""

    @database_sync_to_async
    def dispatch(self, message):
        """As SyncConsumer's, in the reader's language (as their pages are). Once this
        side has closed the socket, what still arrives but the disconnect is dropped (a
        move sent after a log-out would otherwise be answered with a second close)."""
        if self.closing and message["type"] != "websocket.disconnect":
            return
        if not hasattr(self, "language"):
            self.language = reader_language(self.scope)
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        with translation.override(self.language):
            handler(message)

    def close(self, code=None, reason=None):
        self.closing = True
        sockets.release(self.slot)  # a socket refused or closed by the site counts no more
        super().close(code=code, reason=reason)

    def send(self, text_data=None, bytes_data=None, close=False):
        try:
            super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            pass  # the client is gone; its disconnect event follows

    # ------------------------------------------------------------ the flood limit
    bucket: limits.Bucket | None = None  # made at the socket's first message

    @staticmethod
    def clock() -> float:
        """The flood limit's clock (a test gives a socket its own)."""
        return time.monotonic()

    def _allow(self) -> bool:
        """A token bucket per connection, settings.LIMITS["socket_messages"]: beyond its
        burst, the socket is closed (CLOSE_FLOOD)."""
        if self.bucket is None:
            self.bucket = limits.Bucket("socket_messages", clock=self.clock)
        return self.bucket.allow()

    # ------------------------------------------------------------ the session
    def session_valid(self) -> bool:
        """The socket's log-in still stands: its session exists, names this user, carries
        the user's current auth hash (a new password ends it), and the user is active."""
        if self.user is None or not self.user.is_authenticated:
            return True  # nothing to outlive; moves need a user anyway
        key = getattr(self.scope.get("session"), "session_key", None)
        if not key:
            return False
        store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
        if str(store.get(SESSION_KEY)) != str(self.user.pk):
            return False
        user = get_user_model().objects.filter(pk=self.user.pk, is_active=True).first()
        stored_hash = store.get(HASH_SESSION_KEY) or ""
        return user is not None and constant_time_compare(stored_hash,
                                                          user.get_session_auth_hash())

    def session_ended(self, event):
        """From the user's group: a log-out (of this session?) or a change to the user."""
        ended = event.get("session_key")
        mine = getattr(self.scope.get("session"), "session_key", None)
        if (ended and ended == mine) or not self.session_valid():
            self.close(code=CLOSE_SIGNED_OUT)


class TableConsumer(SiteConsumer):
    def connect(self):
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.invite = (query.get("invite") or [""])[0][:64]
        self.sent_version = -1
        if not self.take_slot():
            self.accept()  # accepted, so that the client sees why
            self.close(code=CLOSE_TOO_MANY)
            return
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None or not services.can_view(game, self.user, self.invite):
            self.close(code=CLOSE_REFUSED)
            return
        self.groups_joined = [group_name(game.pk)]
        if self.user is not None and self.user.is_authenticated:
            self.groups_joined.append(user_group(self.user.pk))
        try:
            for group in self.groups_joined:
                async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        except Exception:  # Redis is down: refuse cleanly rather than fail the handshake
            logger.warning("could not join game %s's group", self.game_id, exc_info=True)
            self.close(code=CLOSE_TRY_LATER)  # refused at the handshake; the page polls
            return
        self.accept()
        self.send_table()  # on every (re)connect: the whole table
        self.chat_seen = render.last_chat_id(self.game_id)  # the page shows the chat so far

    def socket_limits(self) -> list[tuple[str, int]]:
        return [(sockets.game_key(self.game_id), settings.WS_MAX_PER_GAME),
                *super().socket_limits()]

    def disconnect(self, code):
        self.leave_groups()

    # ------------------------------------------------------------ from the group
    def game_changed(self, event):
        if event.get("version", 0) > self.sent_version:
            self.send_table(version=event.get("version"))

    def chat_message(self, event):
        """A chat line was written: send it, and any earlier line this socket has missed,
        if this reader may read them (not muted, a seated player or a watcher of a public
        game)."""
        message_id = event.get("id")
        if isinstance(message_id, int):
            after = message_id if self.chat_seen is None else self.chat_seen
            self.send_chat(after, upto=message_id, also=message_id)

    def layer_reconnected(self, event):
        """The channel layer was cut off from Redis: the group's events of that time are
        lost. Catch up from the database."""
        self.catch_up(self.sent_version, self.chat_seen)

    # ------------------------------------------------------------ catching up
    chat_seen: int | None = None  # the last chat line the reader has (connect sets it)

    def catch_up(self, version: int, chat_after: int | None) -> None:
        """Send the table if it is newer than `version`, and the chat lines written after
        line `chat_after`."""
        now = Game.objects.filter(pk=self.game_id).values_list("version", flat=True).first()
        if now is not None and now > version:
            self.send_table()
        if chat_after is not None:
            self.send_chat(chat_after)

    def sync(self, data: dict) -> None:
        """The client asks for what it may have missed: `{"sync": true}` alone, the whole
        table; with `version` (the table it shows) and `chat_after` (the last chat line it
        shows), only what is newer."""
        def number(value):
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**62
            return value if ok else None

        version, chat_after = number(data.get("version")), number(data.get("chat_after"))
        if version is not None:  # what this socket has sent since it opened, it has too
            self.catch_up(max(version, self.sent_version), chat_after)
            return
        self.send_table()
        if chat_after is not None:
            self.send_chat(chat_after)

    def send_chat(self, after: int, upto: int | None = None, also: int | None = None) -> None:
        cookies = self.scope.get("cookies") or {}
        frames, last = render.chat_lines_after(self.game_id, self.user, self.invite, after=after,
                                              upto=upto, also=also,
                                              csrf_token=cookies.get("csrftoken", ""))
        for frame in frames:
            self.send(text_data=frame)
        self.chat_seen = max(self.chat_seen or 0, last)

    # ------------------------------------------------------------ from the client
    def receive(self, text_data=None, bytes_data=None):
        if not self._allow():
            self.close(code=CLOSE_FLOOD)
            return
        if not self.session_valid():  # logged out, new password, account closed
            self.close(code=CLOSE_SIGNED_OUT)
            return
        raw = text_data if text_data is not None else bytes_data or b""
        if len(raw) > MAX_MESSAGE_BYTES:
            self.send_table(message=_("That message is too large."))
            self.close(code=CLOSE_TOO_BIG)
            return
        try:
            data = wire.read_frame(raw)
        except services.GameError as exc:
            self.send_table(message=exc.message)
            return
        if wire.asks_to_catch_up(data):
            self.sync(data)  # a client that saw a gap, or opened its socket again
            return
        if wire.is_chat(data):  # the chat form (htmx ws-send)
            self.receive_chat(data)
            return
        try:
            wire.check_move(data)
            if self.user is not None and self.user.is_authenticated:
                seen(self.user)  # as a page would: no "your move" email for a move they have seen
            actions, version, seat = wire.move_from_fields(data)
            change = services.play_change(self.game_id, self.user, actions, version, seat=seat)
        except services.GameError as exc:
            self.send_table(message=exc.message)
            return
        # The group event brings the new table to everybody, this socket too; the sockets
        # of this process render it from the rows the move has just written.
        snapshots.keep(change.game, change.seats)

    def receive_chat(self, data):
        try:
            text, phrase = wire.chat_from_fields(data)
            services.chat.post(self.game_id, self.user, text=text, phrase=phrase)
        except services.GameError as exc:
            self.send(text_data=render.chat_error_html(exc.message))
            return
        self.send(text_data=render.chat_error_html(""))  # clears an earlier refusal
        # The group event brings the line to every reader, this socket too.

    # ------------------------------------------------------------ rendering
    def site_root(self) -> str:
        """The page's own origin ("http://host:port") for absolute links such as the
        invite link; AllowedHostsOriginValidator has already checked it."""
        origin = dict(self.scope.get("headers") or []).get(b"origin", b"").decode("latin-1")
        return origin if origin.startswith(("http://", "https://")) else ""

    def send_table(self, message=None, version=None):
        """The reader's table at `version` (None: as it is now). Every socket reading the
        same view at a version shares one render (games.present.render): the mover's answer, their
        other tabs, anonymous spectators."""
        found = snapshots.at(self.game_id, version)  # read once per version for all
        if found is None:
            self.close(code=CLOSE_REFUSED)
            return
        game, seats = found
        cookies = self.scope.get("cookies") or {}
        html = render.table_html(game, self.user, invite=self.invite, message=message,
                                csrf_token=cookies.get("csrftoken", ""), oob=True,
                                site_root=self.site_root(), seats=seats)
        self.sent_version = max(self.sent_version, game.version)
        self.send(text_data=html)
        if game.status == Game.Status.ABORTED:  # a cancelled table's chat closes
            self.send(text_data=render.chat_html(game, self.user, self.invite,
                                                csrf_token=cookies.get("csrftoken", "")))
