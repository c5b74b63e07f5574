"""The per-page socket (`/ws/me/`) that keeps the site live outside a table: how many games
wait for your move (in the navigation, on every page), "My games", and the lobby's open
tables. Events come from notify.people_changed; each socket renders its own reader's
fragments, in the reader's language, and pushes them with `hx-swap-oob`. A tournament's
page (`?page=tournament&tournament=<id>`) hears of its standings and rounds the same way."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from django.db.models import F, QuerySet
from django.template.loader import render_to_string
from django.utils import translation

from .. import services
from ..models import Game, Tournament
from ..notify import LOBBY_GROUP, nav_group, tournament_group, user_group
from . import sockets
from .base import (
    CLOSE_FLOOD,
    CLOSE_SIGNED_OUT,
    CLOSE_TRY_LATER,
    SiteConsumer,
    scope_user,
)

if TYPE_CHECKING:
    from accounts.models import Player

logger = logging.getLogger(__name__)
PAGES = ("lobby", "mine", "tournament", "friends")  # pages with a live list besides the navigation
FRIENDS_PAGES = ("lobby", "friends")  # pages with "Friends online"


def moves_waiting(user: Player) -> QuerySet[Game]:
    """Games in play whose move is this person's (not a computer's standing in)."""
    return Game.objects.filter(status=Game.Status.PLAYING, seats__player=user,
                               seats__number=F("turn_seat"), seats__bot_level="")


def waiting_for(user: Player) -> int:
    """Games in play whose move is this person's, and challenges and rematch offers
    waiting for their answer."""
    moves = moves_waiting(user).count()
    challenges = Game.objects.filter(status=Game.Status.OPEN, challenged=user).count()
    rematches = (Game.objects.filter(status=Game.Status.FINISHED, rematch__isnull=True,
                                     seats__player=user, seats__wants_rematch=False)
                 .filter(seats__wants_rematch=True).distinct().count())  # another asked
    return moves + challenges + rematches


class NavConsumer(SiteConsumer):
    def connect(self) -> None:
        self.user = scope_user(self.scope)
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        page = (query.get("page") or [""])[0]
        self.page = page if page in PAGES else ""
        self.sent_waiting: tuple[int, int] | None = None
        self.sent_friends: list[tuple[Any, ...]] | None = None
        # Counted in already, per address (live/middleware.py).
        self.groups_joined = [LOBBY_GROUP] if self.page == "lobby" else []
        self.tournament = self._tournament(query) if self.page == "tournament" else None
        if self.tournament is not None:
            self.groups_joined.append(tournament_group(self.tournament))
        if self.user is not None and self.user.is_authenticated:  # its news, the session's end
            self.groups_joined += [nav_group(self.user.pk), user_group(self.user.pk)]
        if not self.groups_joined:
            self.close()
            return
        try:
            for group in self.groups_joined:
                async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        except Exception:  # Redis is down: refuse cleanly rather than fail the handshake
            logger.warning("could not join the navigation's groups", exc_info=True)
            self.close(code=CLOSE_TRY_LATER)
            return
        self.accept()
        self.send_nav()
        self.send_friends()

    def _tournament(self, query: dict[str, list[str]]) -> int | None:
        """The tournament whose page this is, if the reader may see it."""
        number = (query.get("tournament") or [""])[0]
        found = Tournament.objects.filter(pk=number).first() if number.isdigit() else None
        if found is None or not services.tournament.can_see(found, self.user):
            return None
        return found.pk

    @property
    def signed_in(self) -> bool:
        return self.user is not None and self.user.is_authenticated

    def disconnect(self, code: int) -> None:
        self.leave_groups()

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing to say to this socket: what a client sends is dropped; a flood closes it
        (as a table's socket)."""
        if not self._allow():
            self.close(code=CLOSE_FLOOD)

    # ------------------------------------------------------------ from the groups
    def people_changed(self, event: dict[str, Any]) -> None:
        self.send_nav()

    def friends_changed(self, event: dict[str, Any]) -> None:
        self.send_friends()

    def lobby_changed(self, event: dict[str, Any]) -> None:
        self.send(text_data=self.render({"lobby": True}))

    def tournament_changed(self, event: dict[str, Any]) -> None:
        if self.tournament is not None:
            self.send(text_data=self.render({"tournament": self.tournament}))

    def layer_reconnected(self, event: dict[str, Any]) -> None:
        """The channel layer lost Redis for a while: what it said then is lost."""
        self.send_nav()
        self.send_friends()
        if self.page == "lobby":
            self.lobby_changed(event)
        self.tournament_changed(event)

    def render(self, context: dict[str, Any]) -> str:
        with translation.override(self.language):
            return render_to_string("games/_live.html", context)

    def send_nav(self) -> None:
        if self.user is None or not self.user.is_authenticated:  # not signed_in
            return
        if not self.session_valid():
            self.close(code=CLOSE_SIGNED_OUT)
            return
        waiting = waiting_for(self.user)
        moves = moves_waiting(self.user).count()  # a table's "Next game waiting (N)"
        mine = self.page == "mine"  # its list changes with every move: always told
        if (waiting, moves) == self.sent_waiting and not mine:
            return  # the badge already says so: nothing to render or send
        self.sent_waiting = (waiting, moves)
        self.send(text_data=self.render({"nav": True, "waiting": waiting, "moves": moves,
                                         "mine": mine}))

    def send_friends(self) -> None:
        """The reader's "Friends online" on the pages that show it, when it has changed:
        their mutual friends with a socket open now, and the table each sits at."""
        user = self.user
        if self.page not in FRIENDS_PAGES or user is None or not user.is_authenticated:
            return
        rows = friends_online(user)
        shown = [(row["player"].pk, row["player"].name, row["private"],
                  row["table"] and (row["table"].pk, row["table"].status)) for row in rows]
        if shown == self.sent_friends:
            return  # the list already says so: nothing to render or send
        self.sent_friends = shown
        cookies = self.scope.get("cookies") or {}  # the forms' token, as a page has it
        self.send(text_data=self.render({"friends_online": rows, "friends_oob": True,
                                         "csrf_token": str(cookies.get("csrftoken", ""))}))


def friends_online(user: Player) -> list[dict[str, Any]]:
    """The user's mutual friends who have a socket open (live/sockets.py counts each
    signed-in player's), by name, with the table each sits at (None: none, or one the
    user may not see, "private")."""
    friends = services.friends.mutual_friends(user)
    here = sockets.online([friend.pk for friend in friends])
    online = [friend for friend in friends if friend.pk in here]
    tables = services.friends.tables_of([friend.pk for friend in online], user)
    return [{"player": friend, "table": tables.get(friend.pk),
             "private": friend.pk in tables and tables[friend.pk] is None}
            for friend in online]
