"""The HTML of a table and its chat for one reader, for a page, an htmx answer or a
socket frame (views and live both send what is built here).

`table_view` is what one reader sees of a table: the page (games.views.table) takes its
context and adds what is HTTP (the request's CSRF token, the chat beside it); an htmx
answer and a socket (games.live.table) take its HTML.

One render of a table per version and reader is kept a little while. After a move the
table is rendered for the mover's answer and pushed to every socket of the table; the
mover's own socket, their other tabs and every anonymous spectator would render the same
view again. A TableView keeps each render here under the game, its version and who reads
it (the user, or every anonymous reader of that invite alike), so each distinct view is
rendered once per version in a process.

The parts that differ between requests and sockets are left as marks and put in by
`fill`: the reader's CSRF token, and whether the table swaps itself in out of band
(`hx-swap-oob`, the sockets) or answers an htmx request. A version never changes once
written; renders are still dropped after RENDER_SECONDS, so that the words that tell the
time ("59 minutes left") are never old.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cached_property
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Q
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import get_language

from accounts.middleware import valid_time_zone

from .. import services
from ..models import ChatMessage, Game, Seat
from ..services.access import Someone, is_guest, seats_of
from . import outcome
from .cache import Kept, memo
from .lesson import lesson_context
from .orders import orders_key, own_orders
from .table import table_context, tournament_of

CSRF_MARK = "csrf-token-of-this-reader"  # replaced by each reader's own token
SWAP_MARK = "data-swap-of-this-reader"  # replaced by hx-swap-oob="true" on a socket
SWAP_OOB = 'hx-swap-oob="true"'
MAX_KEPT = 1024  # renders kept: the newest versions of many tables (least recently used out)
RENDER_SECONDS = 30.0
TABLE = "games/table.html"

_rendered: Kept[Hashable, str] = Kept(MAX_KEPT, seconds=RENDER_SECONDS,
                                       name="present.render.rendered")


def get(key: Hashable | None) -> str | None:
    """The kept render for `key`, or None."""
    return None if key is None else _rendered.get(key)


def put(key: Hashable | None, html: str) -> None:
    if key is not None:
        _rendered.put(key, html)


def fill(html: str, *, csrf_token: str, oob: bool) -> str:
    """The render for one reader: their CSRF token, swapped in out of band or not."""
    return (html.replace(CSRF_MARK, escape(csrf_token))
            .replace(SWAP_MARK, SWAP_OOB if oob else "", 1))


def render_part(template: str, ctx: dict[str, Any]) -> str:
    """A part of the table (games.present.fragments), rendered as the table is."""
    return render_to_string(template, ctx)


def forget() -> None:
    """Drop every kept render (tests)."""
    _rendered.clear()


def reader_context(game: Game, user: Someone, *, invite: str, message: str | None = None,
                   seats: list[Seat] | None = None) -> dict[str, Any]:
    """What the table shows to `user` (seated: their own view; anyone else: a spectator's).
    `game` is read fresh by the caller (with its preset): no refresh here."""
    if seats is None:  # games.present.snapshots reads them with the players' ratings
        seats = seats_of(game)
    me = next((s for s in seats if user is not None and user.is_authenticated
               and s.player_id == user.pk), None)
    match = game.match()  # parsed once for the whole table
    ctx = table_context(game, seats, me, match)
    ctx.update(lesson_context(game, me, ctx["view"]))
    ctx["orders"] = own_orders(game, me)  # the reader's own, seen by nobody else
    ctx.update(outcome.result_context(game, seats, me, ctx, match))
    ctx["tournament_table"] = tournament_of(game)
    ctx.update(_helpers(game, seats, me, ctx))
    invite = invite if game.private and invite == game.invite_token else ""
    login_url, signup_url = _way_back(game.pk, invite, get_script_prefix())
    can_cancel = (game.is_open and user is not None and user.is_authenticated
                  and (user.is_staff or game.created_by_id == user.pk))
    challenged_me = (game.is_open and game.challenged_id is not None and user is not None
                     and game.challenged_id == user.pk)  # they answer; they don't join
    ctx.update({
        "message": message,
        "invite": invite,
        "login_url": login_url,
        "signup_url": signup_url,
        "can_cancel": can_cancel,
        # A challenge waits for its player: no computer may take their seat by a start.
        "can_start": can_cancel and game.challenged_id is None,
        "can_join": game.is_open and me is None and user is not None and user.is_authenticated
        and any(s.is_empty for s in seats) and not challenged_me
        and not (game.rated and is_guest(user)),
        # "Play as a guest" (docs/design.md, "Guests from a link"): a visitor who came by
        # the link, at a table with a seat free; a rated one says why not.
        "can_guest": game.is_open and not (user is not None and user.is_authenticated)
        and game.challenged_id is None and any(s.is_empty for s in seats)
        and (bool(invite) or not game.private),
        "guest_refused": game.is_open and me is None and game.rated and is_guest(user),
        "challenged_me": challenged_me,
        "now": timezone.now(),
        "user": user,
    })
    return ctx


@memo("present.render.way_back", maxsize=4096)
def _way_back(game_id: int, invite: str, prefix: str) -> tuple[str, str]:
    """The log-in and sign-up links that come back to this table, its invite kept (one
    reverse per table, not per render)."""
    here = reverse("table", args=[game_id]) + (f"?{urlencode({'invite': invite})}" if invite else "")
    return (f"{reverse('login')}?{urlencode({'next': here})}",
            f"{reverse('signup')}?{urlencode({'next': here})}")


def _helpers(game: Game, seats: list[Seat], me: Seat | None,
             ctx: dict[str, Any]) -> dict[str, Any]:
    """The coach's hint (casual games, when you have something to do), a claim against an
    absent opponent, and who is on vacation."""
    now = timezone.now()
    playing_me = bool(game.is_playing and me is not None and me.player_id and not me.bot_level)
    rules = ctx.get("rules")
    return {
        "can_hint": playing_me and not game.rated and any((ctx.get("moves") or {}).values()),
        "can_claim": playing_me and me is not None and rules is not None and any(
            services.claimable(game, s) and rules.team_of(s.number) != rules.team_of(me.number)
            for s in seats),
        "on_vacation": {s.number for s in seats if s.player is not None
                        and s.player.vacation_until is not None and s.player.vacation_until > now},
    }


class TableView:
    """What one reader sees of a table at one version (made by `table_view`): `context`
    for the whole page, `html()` for an htmx answer or a socket frame.

    The context is built only when asked for: a kept render of the same view (the mover's
    answer, another tab, every anonymous spectator) needs none.
    """

    def __init__(self, game: Game, user: Someone, *, invite: str, message: str | None,
                 seats: list[Seat] | None, site_root: str, zone: str) -> None:
        self.game, self.user, self.invite, self.message = game, user, invite, message
        self.seats, self.site_root, self.zone = seats, site_root, zone

    @cached_property
    def context(self) -> dict[str, Any]:
        """The template's context for templates/games/table.html (reader_context, and the
        site's root for absolute links such as the invite link)."""
        ctx = reader_context(self.game, self.user, invite=self.invite, message=self.message,
                             seats=self.seats)
        ctx["site_root"] = self.site_root
        return ctx

    def key(self) -> Hashable | None:
        """The kept render's name: with `seats` (a games.present.snapshots table) and no
        message, one render per game, version, reader (the user, or every anonymous
        reader of that invite alike), site, language, time zone and the reader's own
        standing orders (set without a new version)."""
        if self.message is not None or self.seats is None:
            return None
        user = self.user
        reader = user.pk if user is not None and user.is_authenticated else None
        return (self.game.pk, self.game.version, reader, self.invite, self.site_root,
                get_language(), self.zone, orders_key(self.seats, reader))

    def html(self, *, csrf_token: str = "", oob: bool = False) -> str:
        """The table partial for one reader: `oob` for a socket (swapped in by id,
        `hx-swap-oob`), else an htmx answer; with the reader's CSRF token."""
        key = self.key()
        html = get(key)
        if html is None:
            ctx = {**self.context, "csrf_token": CSRF_MARK, "oob": SWAP_MARK}
            with timezone.override(ZoneInfo(self.zone)):
                html = render_to_string(TABLE + "#table", ctx)
            put(key, html)
        return fill(html, csrf_token=csrf_token, oob=oob)


def table_view(game: Game, user: Someone, *, invite: str = "", message: str | None = None,
               seats: list[Seat] | None = None, site_root: str = "",
               zone: str | None = None) -> TableView:
    """What `user` sees of the table (seated: their own view; anyone else: a
    spectator's), for a page (the view adds the request's CSRF token and the chat beside
    it) or a socket. `game` is read fresh by the caller (with its preset). `site_root`
    ("https://host": the request's or the socket's origin; "": SITE_URL) makes the invite
    link absolute; `zone`, the time zone of the times shown (None: the user's own, there
    may be no request here); `seats` (a games.present.snapshots table) lets the render be
    kept for the next reader of the same view at this version.
    """
    site_root = site_root or settings.SITE_URL.rstrip("/")
    if zone is None:  # no middleware here: the player's own time zone (accounts)
        zone = valid_time_zone(getattr(user, "time_zone", ""))
    return TableView(game, user, invite=invite, message=message, seats=seats,
                     site_root=site_root, zone=zone or settings.TIME_ZONE)


def table_html(game: Game, user: Someone, *, invite: str = "", message: str | None = None,
               csrf_token: str = "", oob: bool = False, site_root: str = "",
               seats: list[Seat] | None = None, zone: str | None = None) -> str:
    """The table partial for one reader (table_view(...).html(...))."""
    return table_view(game, user, invite=invite, message=message, seats=seats,
                      site_root=site_root, zone=zone).html(csrf_token=csrf_token, oob=oob)


def chat_html(game: Game, user: Someone, invite: str = "", *,
              request: HttpRequest | None = None, csrf_token: str = "") -> str:
    """The chat beside the table, swapped in by id (`hx-swap-oob`)."""
    ctx = {"game": game, "chat_oob": True, **outcome.chat_context(game, user, invite)}
    if request is None:
        ctx["csrf_token"] = csrf_token
    return render_to_string("games/_chat.html", ctx, request=request)


def chat_line_html(message: ChatMessage, reader: Someone, csrf_token: str = "") -> str:
    """One chat line as `reader`'s WebSocket frame: appended to the chat's list
    (`hx-swap-oob`)."""
    message.shown = services.chat.phrase_text(message)
    line = render_to_string("games/_chat_line.html", {
        "line": message, "game": message.game, "reader": reader, "csrf_token": csrf_token})
    return f'<ol hx-swap-oob="beforeend:#chat-lines">{line}</ol>'


def last_chat_id(game_id: int) -> int:
    """The id of the game's last chat line (0: none yet)."""
    return (ChatMessage.objects.filter(game_id=game_id).order_by("-pk")
            .values_list("pk", flat=True).first() or 0)


def chat_lines_after(game_id: int, reader: Someone, invite: str = "", *, after: int,
                     upto: int | None = None, also: int | None = None,
                     csrf_token: str = "") -> tuple[list[str], int]:
    """For a socket or a poll that may have missed chat lines: the lines of the game after
    id `after` (up to `upto`, and line `also` in any case) that `reader` may read, oldest
    first and at most the chat's history, each as chat_line_html; and the highest id
    among them (0: none)."""
    span = Q(pk__gt=after) if upto is None else Q(pk__gt=after, pk__lte=upto)
    if also is not None:
        span |= Q(pk=also)
    rows = list(ChatMessage.objects.filter(span, game_id=game_id).select_related("author", "game")
                .order_by("-pk")[:services.chat.HISTORY])
    if not rows:
        return [], 0
    last = rows[0].pk
    if not services.chat.can_read(rows[0].game, reader, invite):
        return [], last
    muted = services.chat.muted_ids(reader)
    return [chat_line_html(m, reader, csrf_token) for m in reversed(rows)
            if m.author_id not in muted], last


def chat_error_html(text: str) -> str:
    """A refused chat message, for the writer only."""
    ctx = {"chat_error": text}
    return render_to_string("games/_chat_error.html", ctx)
