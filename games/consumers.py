"""Live tables: one WebSocket per table page (`/ws/games/<id>/`).

The game's group carries small events ("game N is at version V"); each consumer renders
its own user's table (`deal.view(their seat)`) and pushes it with `hx-swap-oob`. Moves
sent over the socket (htmx `ws-send`) go through `services`, like HTTP posts.
"""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.utils.translation import gettext as _

from . import services, views
from .models import Game
from .notify import group_name

MAX_MESSAGE_BYTES = 8 * 1024  # a move is a few hundred bytes
RATE_PER_SECOND = 4.0  # messages a client may send, on average...
BURST = 12  # ...and in one burst; a flood beyond that closes the socket
CLOSE_REFUSED = 4403
CLOSE_FLOOD = 4429
CLOSE_TOO_BIG = 4413


class TableConsumer(WebsocketConsumer):
    def connect(self):
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.invite = (query.get("invite") or [""])[0][:64]
        self.sent_version = -1
        self.tokens, self.refilled = float(BURST), time.monotonic()
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None or not services.can_view(game, self.user, self.invite):
            self.close(code=CLOSE_REFUSED)
            return
        self.group = group_name(game.pk)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        self.send_table()  # on every (re)connect: the whole table

    def disconnect(self, code):
        if hasattr(self, "group"):
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    # ------------------------------------------------------------ from the group
    def game_changed(self, event):
        if event.get("version", 0) > self.sent_version:
            self.send_table()

    # ------------------------------------------------------------ from the client
    def _allow(self) -> bool:
        """Token bucket per connection."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE_PER_SECOND)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def receive(self, text_data=None, bytes_data=None):
        if not self._allow():
            self.close(code=CLOSE_FLOOD)
            return
        raw = text_data if text_data is not None else bytes_data or b""
        if len(raw) > MAX_MESSAGE_BYTES:
            self.send_table(message=_("That message is too large."))
            self.close(code=CLOSE_TOO_BIG)
            return
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict):
            self.send_table(message=_("That message is not a move."))
            return
        if data.get("sync") or data.get("type") == "sync":
            self.send_table()  # a client that saw a gap asks for the whole table
            return
        try:
            actions, version, seat = views.move_from_fields(data)
            services.play(self.game_id, self.user, actions, version, seat=seat)
        except services.GameError as exc:
            self.send_table(message=exc.message)
        # On success the group event brings the new table to everybody, this socket too.

    # ------------------------------------------------------------ rendering
    def site_root(self) -> str:
        """The page's own origin ("http://host:port") for absolute links such as the
        invite link; AllowedHostsOriginValidator has already checked it."""
        origin = dict(self.scope.get("headers") or []).get(b"origin", b"").decode("latin-1")
        return origin if origin.startswith(("http://", "https://")) else ""

    def send_table(self, message=None):
        game = Game.objects.select_related("preset", "created_by").filter(pk=self.game_id).first()
        if game is None:
            self.close(code=CLOSE_REFUSED)
            return
        cookies = self.scope.get("cookies") or {}
        html = views.table_html(game, self.user, invite=self.invite, message=message,
                                csrf_token=cookies.get("csrftoken", ""), oob=True,
                                site_root=self.site_root())
        self.sent_version = max(self.sent_version, game.version)
        self.send(text_data=html)
