"""Live tables: one WebSocket per table page (`/ws/games/<id>/`).

The game's group carries small events ("game N is at version V", with the rows as
committed); each socket sends its reader the frames games.present.reader makes for them
(htmx `hx-swap-oob`); anonymous watchers of a process share one frame, sent from the event
loop (`dispatch`). Moves sent over the socket (htmx `ws-send`) go through `services`, like
HTTP posts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from autobahn.exception import Disconnected
from channels.generic.websocket import WebsocketConsumer
from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _

from accounts.middleware import seen

from .. import services, wire
from ..models import Game
from ..notify import group_name, user_group
from ..present import render, snapshots
from ..present.reader import TableReader
from .base import (
    CLOSE_FLOOD,
    CLOSE_REFUSED,
    CLOSE_SIGNED_OUT,
    CLOSE_TOO_BIG,
    CLOSE_TRY_LATER,
    MAX_MESSAGE_BYTES,
    SiteConsumer,
    scope_user,
)

logger = logging.getLogger(__name__)

# Frames for anonymous watchers being made in this process (TableConsumer.dispatch): the
# event loop's own, so no lock.
_making: dict[Hashable, asyncio.Future[None]] = {}


class RefuseConsumer(WebsocketConsumer):
    """Any other socket path: refused before it is accepted."""

    def connect(self) -> None:
        self.close()


class TableConsumer(SiteConsumer):
    def connect(self) -> None:
        self.game_id: int = self.scope["url_route"]["kwargs"]["game_id"]
        self.user = scope_user(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.invite = (query.get("invite") or [""])[0][:64]
        self.reader = TableReader(self.game_id, self.user, invite=self.invite,
                                  site_root=self.site_root(), language=self.language,
                                  time_zone=self.time_zone)
        # Counted in already (live/middleware.py), before the game is read.
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
        try:
            self.send_table()  # on every (re)connect: the whole table
        except ObjectDoesNotExist:  # the game went (or its rules) while the socket opened
            self.close(code=CLOSE_REFUSED)
            return
        self.chat_seen = render.last_chat_id(self.game_id)  # the page shows the chat so far

    def disconnect(self, code: int) -> None:
        self.leave_groups()

    # ------------------------------------------------------------ from the group
    async def dispatch(self, message: dict[str, Any]) -> None:
        """An anonymous watcher's push goes out from the event loop when another watcher
        of the same view in this process has been sent it: no thread, no context, no
        render. The first to need it makes it in the socket's thread while the others
        wait for it (a thousand watchers of one table hear of a move at once).
        Everything else as every socket of the site (SiteConsumer.dispatch)."""
        shared = (self.reader.shared_frame(message)  # group events come after connect
                  if message.get("type") == "game.changed" and not self.closing else None)
        if shared is None:
            await super().dispatch(message)
            return
        html = self.reader.take_watched(shared, self.csrf_token())
        if html is None and shared in _making:
            await asyncio.shield(_making[shared])  # another watcher is making it
            html = self.reader.take_watched(shared, self.csrf_token())
        if html is not None:
            try:
                frame: Any = {"type": "websocket.send", "text": html}  # as channels
                await self.loop_send(frame)
            except Disconnected:
                pass  # the client is gone; its disconnect event follows
            return
        if shared in _making:  # made by another and still not kept: the whole way
            await super().dispatch(message)
            return
        _making[shared] = made = asyncio.get_running_loop().create_future()
        try:
            await super().dispatch(message)
        finally:
            del _making[shared]
            made.set_result(None)

    def csrf_token(self) -> str:
        cookies = self.scope.get("cookies") or {}
        return str(cookies.get("csrftoken", ""))

    def game_changed(self, event: dict[str, Any]) -> None:
        if event.get("version", 0) > self.reader.sent_version:
            self.send_table(version=event.get("version"), carried=event.get("state"))

    def chat_message(self, event: dict[str, Any]) -> None:
        """A chat line was written: send it, and any earlier line this socket has missed,
        if this reader may read them (not muted, a seated player or a watcher of a public
        game)."""
        message_id = event.get("id")
        if isinstance(message_id, int):
            after = message_id if self.chat_seen is None else self.chat_seen
            self.send_chat(after, upto=message_id, also=message_id)

    def layer_reconnected(self, event: dict[str, Any]) -> None:
        """The channel layer was cut off from Redis: the group's events of that time are
        lost. Catch up from the database."""
        self.catch_up(self.reader.sent_version, self.chat_seen)

    # ------------------------------------------------------------ catching up
    chat_seen: int | None = None  # the last chat line the reader has (connect sets it)
    reader: TableReader  # what the reader has been sent (connect makes it)

    def catch_up(self, version: int, chat_after: int | None) -> None:
        """Send the table if it is newer than `version`, and the chat lines written after
        line `chat_after`."""
        now = Game.objects.filter(pk=self.game_id).values_list("version", flat=True).first()
        if now is not None and now > version:
            self.send_table()
        if chat_after is not None:
            self.send_chat(chat_after)

    def sync(self, data: dict[str, Any]) -> None:
        """The client asks for what it may have missed: `{"sync": true}` alone, the whole
        table; with `version` (the table it shows) and `chat_after` (the last chat line it
        shows), only what is newer."""
        def number(value: object) -> int | None:
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**62:
                return value
            return None

        version, chat_after = number(data.get("version")), number(data.get("chat_after"))
        if version is not None:  # the last whole table this socket sent, it has too
            # (a fragment frame it could not swap in, on top of the wrong version, it has not)
            self.catch_up(max(version, self.reader.whole_version), chat_after)
            return
        self.send_table()
        if chat_after is not None:
            self.send_chat(chat_after)

    def send_chat(self, after: int, upto: int | None = None, also: int | None = None) -> None:
        frames, last = render.chat_lines_after(self.game_id, self.user, self.invite, after=after,
                                              upto=upto, also=also, csrf_token=self.csrf_token())
        for frame in frames:
            self.send(text_data=frame)
        self.chat_seen = max(self.chat_seen or 0, last)

    # ------------------------------------------------------------ from the client
    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
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

    def receive_chat(self, data: dict[str, Any]) -> None:
        try:
            text, phrase = wire.chat_from_fields(data)
            services.chat.post(self.game_id, self.user, text=text, phrase=phrase)
        except services.GameError as exc:
            self.send(text_data=render.chat_error_html(exc.message))
            return
        self.send(text_data=render.chat_error_html(""))  # clears an earlier refusal
        # The group event brings the line to every reader, this socket too.

    # ------------------------------------------------------------ rendering
    _site_root: str | None = None

    def site_root(self) -> str:
        """The page's own origin ("http://host:port") for absolute links such as the
        invite link; live/middleware.py's SiteOriginValidator has checked it."""
        if self._site_root is None:
            origin = dict(self.scope.get("headers") or []).get(b"origin", b"").decode("latin-1")
            self._site_root = origin if origin.startswith(("http://", "https://")) else ""
        return self._site_root

    def send_table(self, message: str | None = None, version: int | None = None,
                   carried: object = None) -> None:
        """The reader's table at `version` (None: as it is now; `carried`, the rows the
        group event brought), as games.present.reader makes it."""
        frames = self.reader.frames(csrf_token=self.csrf_token(), message=message,
                                    version=version, carried=carried)
        if frames is None:
            self.close(code=CLOSE_REFUSED)
            return
        for html in frames:
            self.send(text_data=html)
