"""What every consumer of the site shares (live/table.py's table sockets, live/nav.py's
per-page socket), beyond what live/middleware.py does once per connection (the origin,
the reader's language and time zone, the socket counts): the language put on for each
message, the check that its log-in still stands (before each move, and when the user's
group says a session ended), a token bucket against floods, the refusal (1013) of a
socket whose channel cannot be opened, and the close codes; a message for a client that
has just left is dropped.

These stay with the consumer: the session is re-checked per frame, after the flood
bucket (a flood costs no session read) and right before the move it guards; the bucket
is the consumer's own; the channel is opened by the consumer (channels' AsyncConsumer),
so only it can tell a channel that failed from a crash of its own code.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any, cast

from asgiref.sync import async_to_sync
from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connection
from django.db.models import Field, Model
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare

from .. import limits
from ..services.access import Someone
from . import sockets

if TYPE_CHECKING:
    from channels.consumer import _ChannelScope


MAX_MESSAGE_BYTES = 8 * 1024  # a move is a few hundred bytes
CLOSE_REFUSED = 4403
CLOSE_FLOOD = 4429
CLOSE_TOO_BIG = 4413
CLOSE_SIGNED_OUT = 4401  # the session ended (log-out, new password, account closed)
CLOSE_TOO_MANY = 4429  # too many sockets from this address or on this table
CLOSE_TRY_LATER = 1013  # the site's Redis is unreachable: the page falls back to its poll

logger = logging.getLogger(__name__)



def session_and_user_sql(session: type[Model], user: type[Model], quote: Callable[[str], str]) -> str:
    """A socket's log-in, checked per frame: its session (unexpired) and its user, in one
    query, its tables and columns named by the models (docs/design.md, "Public APIs only")."""

    def column(model: type[Model], name: str) -> str:
        # Model._meta is Django's documented model API
        field = model._meta.pk if name == "pk" else model._meta.get_field(name)
        assert isinstance(field, Field) and field.column is not None
        return f"{quote(model._meta.db_table)}.{quote(field.column)}"

    return (f"SELECT {column(session, 'session_data')}, {column(user, 'password')},"
            f" {column(user, 'is_active')}"
            f" FROM {quote(session._meta.db_table)}, {quote(user._meta.db_table)}"
            f" WHERE {column(session, 'session_key')} = %s"
            f" AND {column(session, 'expire_date')} > %s AND {column(user, 'pk')} = %s")


def scope_user(scope: Mapping[str, Any]) -> Someone:
    """The socket's user: AuthMiddlewareStack's lazy object, a Player or AnonymousUser
    inside (the stubs know it only as some user)."""
    return cast("Someone", scope.get("user"))


class SiteConsumer(WebsocketConsumer):
    """A socket of the site's own: a message for a client that has just left is dropped.

    A browser that moves to another page closes its sockets at once, maybe while this
    consumer is still rendering (say the whole table on connect); Daphne's WebSocket
    protocol then refuses the send (Disconnected), and that is no error of the site's.
    """

    closing = False  # this side has closed the socket
    loop_send: ASGISendCallable  # the ASGI send, for a frame sent from the event loop
    user: Someone = None  # the socket's user, set on connect (scope_user)

    async def __call__(self, scope: _ChannelScope, receive: ASGIReceiveCallable,
                       send: ASGISendCallable) -> None:
        """The socket's whole life: a channel that cannot be opened refuses it (1013); a
        crash leaves its groups (live/middleware.py frees its slots)."""
        self.loop_send = send  # channels wraps it for the thread; this is the event loop's
        try:
            await super().__call__(scope, receive, send)
        except BaseException as exc:
            if isinstance(exc, Exception) and not hasattr(self, "base_send"):
                # The channel layer failed before the socket began (Redis is down):
                # refuse the handshake; the page polls and tries again.
                logger.warning("could not open a channel for a socket", exc_info=True)
                await send({"type": "websocket.close", "code": CLOSE_TRY_LATER,
                            "reason": ""})  # Daphne reads no reason
                return
            for group in getattr(self, "groups_joined", []):  # a crash skipped disconnect
                try:
                    await self.channel_layer.group_discard(group, self.channel_name)
                except Exception:  # the crash is what matters here
                    pass
            raise

    @property
    def language(self) -> str:
        """The language the socket is read in (live/middleware.py chose it)."""
        return str(self.scope.get("language") or settings.LANGUAGE_CODE)

    @property
    def time_zone(self) -> str | None:
        """The time zone of the times it shows (live/middleware.py; None: the user's)."""
        zone = self.scope.get("time_zone")
        return str(zone) if zone is not None else None

    def leave_groups(self) -> None:
        try:
            for group in getattr(self, "groups_joined", []):
                async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)
        except Exception:  # Redis is down: the layer forgets the channel by itself
            logger.warning("could not leave the groups of a closed socket", exc_info=True)

    def layer_reconnected(self, event: dict[str, Any]) -> None:
        """The channel layer is back in touch with Redis (durak_site.channel_layer)."""

    @database_sync_to_async
    def dispatch(self, message: dict[str, Any]) -> None:
        """As SyncConsumer's, in the reader's language (as their pages are). Once this
        side has closed the socket, what still arrives but the disconnect is dropped (a
        move sent after a log-out would otherwise be answered with a second close)."""
        if self.closing and message["type"] != "websocket.disconnect":
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        with translation.override(self.language):
            handler(message)

    def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        self.closing = True
        # A socket refused or closed by the site counts no more (live/middleware.py).
        sockets.release(str(self.scope.get("socket_slot", "")))
        super().close(code=code, reason=reason)

    # WebsocketConsumer.send, whose stub ignores the same mismatch with SyncConsumer.send.
    def send(self, text_data: str | None = None, bytes_data: bytes | None = None,  # type: ignore[override]
             close: bool = False) -> None:
        try:
            super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            pass  # the client is gone; its disconnect event follows

    # ------------------------------------------------------------ the flood limit
    bucket: limits.Bucket | None = None  # made at the socket's first message
    session_passed: tuple[object, ...] | None = None  # the session row that last passed

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
        model = get_user_model()
        user: AbstractBaseUser | None
        if isinstance(store, DatabaseSessionStore):  # the session and the user in one query
            sql = session_and_user_sql(store.get_model_class(), model, connection.ops.quote_name)
            with connection.cursor() as cursor:
                cursor.execute(sql, [key, timezone.now(), self.user.pk])
                row = cursor.fetchone()
            if row is not None and tuple(row) == self.session_passed:
                return True  # the same session data and password as the last check passed
            data = store.decode(row[0]) if row else {}
            user = model(pk=self.user.pk, password=row[1]) if row and row[2] else None
        else:
            data = {k: store.get(k) for k in (SESSION_KEY, HASH_SESSION_KEY)}
            user = model.objects.filter(pk=self.user.pk, is_active=True).first()
        if user is None or str(data.get(SESSION_KEY)) != str(self.user.pk):
            return False
        if not constant_time_compare(data.get(HASH_SESSION_KEY) or "",
                                     user.get_session_auth_hash()):
            return False
        if isinstance(store, DatabaseSessionStore):
            self.session_passed = tuple(row)  # decoded and hashed again only when it changes
        return True

    def session_ended(self, event: dict[str, Any]) -> None:
        """From the user's group: a log-out (of this session?) or a change to the user."""
        ended = event.get("session_key")
        mine = getattr(self.scope.get("session"), "session_key", None)
        if (ended and ended == mine) or not self.session_valid():
            self.close(code=CLOSE_SIGNED_OUT)
