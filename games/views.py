"""The table: small function views; every change goes to services (the lobby, My games
and challenges: games.lobby_views).

Each page is a full page on a normal request and a named partial on an htmx request.
A refused change answers 4xx with the current table (or form) and a message.
"""

from __future__ import annotations

from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.middleware import valid_time_zone

from . import outcome, renders, services, snapshots, wire
from .models import ChatMessage, Game
from .table import table_context

TABLE = "games/table.html"


def wants_partial(request) -> bool:
    """An htmx request wants a named partial; a history restore wants the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


@login_required
def hint(request, game_id):
    """POST asks the coach (casual games, your own seat); GET ?version= collects its hint."""
    if request.method not in ("GET", "POST"):
        return HttpResponse(status=405)
    context = {"game_id": game_id}
    try:
        if request.method == "POST":
            context["version"], _seat = services.ask_hint(game_id, request.user)
        else:
            context["version"] = services.parse_version(request.GET.get("version"))
        context["hint"] = services.hint_for(game_id, request.user, context["version"])
    except services.GameError as exc:
        return render(request, "games/_hint.html", {"message": exc.message}, status=exc.status)
    return render(request, "games/_hint.html", context)


# ----------------------------------------------------------------------------- table
def _get_game(request, game_id) -> Game:
    game = Game.objects.select_related("preset", "created_by").filter(pk=game_id).first()
    if game is None or not services.can_view(game, request.user, _invite(request)):
        raise Http404(_("There is no such game."))
    return game


def _reread(game: Game) -> Game:
    """The game as it is now, with what the table shows of it, in one query."""
    return Game.objects.select_related("preset", "created_by").get(pk=game.pk)


def _invite(request) -> str:
    return (request.POST.get("invite") or request.GET.get("invite") or "")[:64]


def _table_context(game: Game, user, *, invite: str, message=None, seats=None) -> dict:
    """What the table shows to `user` (seated: their own view; anyone else: a spectator's).
    `game` is read fresh by the caller (with its preset): no refresh here."""
    if seats is None:  # games.snapshots reads them with the players' ratings
        seats = list(game.seats.select_related("player").order_by("number"))
    me = next((s for s in seats if user is not None and user.is_authenticated
               and s.player_id == user.pk), None)
    match = game.match()  # parsed once for the whole table
    ctx = table_context(game, seats, me, match)
    ctx.update(outcome.result_context(game, seats, me, ctx, match))
    ctx.update(_helpers(game, seats, me, ctx))
    invite = invite if game.private and invite == game.invite_token else ""
    here = reverse("table", args=[game.pk]) + (f"?{urlencode({'invite': invite})}" if invite else "")
    can_cancel = (game.is_open and user is not None and user.is_authenticated
                  and (user.is_staff or game.created_by_id == user.pk))
    challenged_me = (game.is_open and game.challenged_id is not None and user is not None
                     and game.challenged_id == user.pk)  # they answer; they don't join
    ctx.update({
        "message": message,
        "invite": invite,
        "login_url": f"{reverse('login')}?{urlencode({'next': here})}",  # back here, invite kept
        "signup_url": f"{reverse('signup')}?{urlencode({'next': here})}",
        "can_cancel": can_cancel,
        # A challenge waits for its player: no computer may take their seat by a start.
        "can_start": can_cancel and game.challenged_id is None,
        "can_join": game.is_open and me is None and user is not None and user.is_authenticated
        and any(s.is_empty for s in seats) and not challenged_me,
        "challenged_me": challenged_me,
        "now": timezone.now(),
        "user": user,
    })
    return ctx


def _helpers(game: Game, seats, me, ctx: dict) -> dict:
    """The coach's hint (casual games, when you have something to do), a claim against an
    absent opponent, and who is on vacation."""
    now = timezone.now()
    playing_me = bool(game.is_playing and me is not None and me.player_id and not me.bot_level)
    rules = ctx.get("rules")
    return {
        "can_hint": playing_me and not game.rated and any((ctx.get("moves") or {}).values()),
        "can_claim": playing_me and rules is not None and any(
            services.claimable(game, s) and rules.team_of(s.number) != rules.team_of(me.number)
            for s in seats),
        "on_vacation": {s.number for s in seats if s.player_id is not None
                        and s.player.vacation_until is not None and s.player.vacation_until > now},
    }


def table_html(game: Game, user, *, invite="", message=None, csrf_token="", oob=False,
               site_root="", seats=None, zone=None) -> str:
    """The table partial: for a WebSocket (`oob`: swapped in by id, `hx-swap-oob`) or an
    htmx answer. `site_root` ("https://host") makes the invite link absolute; `zone`, the
    time zone of the times shown (None: the user's own; there may be no request here).

    With `seats` (a games.snapshots table) and no message, the render is kept for the
    next reader of the same view at this version (games.renders).
    """
    site_root = site_root or settings.SITE_URL.rstrip("/")
    if zone is None:  # no middleware here: the player's own time zone (accounts)
        zone = valid_time_zone(getattr(user, "time_zone", ""))
    zone = zone or settings.TIME_ZONE
    reader = user.pk if user is not None and user.is_authenticated else None
    key = None if message is not None or seats is None else (
        game.pk, game.version, reader, invite, site_root, get_language(), zone)
    html = renders.get(key)
    if html is None:
        ctx = _table_context(game, user, invite=invite, message=message, seats=seats)
        ctx.update({"csrf_token": renders.CSRF_MARK, "oob": renders.SWAP_MARK,
                    "site_root": site_root})
        with timezone.override(ZoneInfo(zone)):
            html = render_to_string(TABLE + "#table", ctx)
        renders.put(key, html)
    return renders.fill(html, csrf_token=csrf_token, oob=oob)


def _render_table(request, game: Game, *, message=None, status=200, seats=None):
    ctx = _table_context(game, request.user, invite=_invite(request), message=message,
                         seats=seats)
    ctx["site_root"] = f"{request.scheme}://{request.get_host()}"
    template = TABLE + "#table" if wants_partial(request) else TABLE
    if not wants_partial(request):  # the chat is outside the live-swapped table
        ctx.update(outcome.chat_context(game, request.user, ctx["invite"]))
    return render(request, template, ctx, status=status)


def to_table(request, game):
    url = reverse("table", args=[game.pk])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_GET
def table(request, game_id):
    try:
        game = _get_game(request, game_id)
    except Http404:
        if request.user.is_authenticated or not Game.objects.filter(pk=game_id).exists():
            raise
        # Logged out (here or in another tab) from a game only its players see: the
        # login, and back to the table, rather than "not found".
        url = f"{reverse('login')}?{urlencode({'next': reverse('table', args=[game_id])})}"
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    if game.is_playing and game.deadline and game.deadline <= timezone.now():
        # Without a sweeper running, whoever looks at an overdue table triggers the timeout.
        try:
            services.timeout(game.pk, game.version)
        except services.GameError:
            pass
        game.refresh_from_db()
    since = request.GET.get("since")
    missed = _missed_chat(request, game)
    if request.htmx and since is not None and since == str(game.version):
        if not missed:
            return HttpResponse(status=204)  # polling: nothing new
        return HttpResponse(missed, headers={"HX-Reswap": "none"})  # only the chat lines
    response = _render_table(request, game)
    response.content += missed.encode()
    return response


def _missed_chat(request, game: Game) -> str:
    """The table's poll (htmx) says with `chat_after` the last chat line the page shows:
    the lines after it that its socket did not bring (static/js/catchup.js)."""
    after = request.GET.get("chat_after", "")
    if not request.htmx or not (after.isascii() and after.isdigit() and len(after) < 19):
        return ""
    frames, _ = chat_lines_after(game.pk, request.user, _invite(request), after=int(after),
                                 csrf_token=get_token(request))
    return "".join(frames)


def _change(request, game_id, do):
    """Run a service; answer with the table, or the table and the refusal (4xx)."""
    game = _get_game(request, game_id)
    try:
        do(game)
    except services.GameError as exc:  # a timeout may have been played meanwhile
        return _render_table(request, _reread(game), message=exc.message, status=exc.status)
    return _changed(request, game)


def _changed(request, game: Game):
    """The answer to a change that was made: the table, read once for this answer and
    the pushes to the table's sockets (htmx), or back to the table."""
    if request.htmx:
        game, seats = snapshots.read(game.pk)
        return _render_table(request, game, seats=seats)
    return to_table(request, game)


def _with_chat(request, game_id, response):
    """Taking or leaving a seat changes whether the chat beside the table is yours to write
    in: an htmx answer brings it along (`hx-swap-oob`)."""
    if request.htmx and response.status_code == 200:
        game = Game.objects.get(pk=game_id)
        response.content += chat_html(game, request.user, _invite(request),
                                      request=request).encode()
    return response


def chat_html(game: Game, user, invite="", *, request=None, csrf_token="") -> str:
    """The chat beside the table, swapped in by id (`hx-swap-oob`)."""
    ctx = {"game": game, "chat_oob": True, **outcome.chat_context(game, user, invite)}
    if request is None:
        ctx["csrf_token"] = csrf_token
    return render_to_string("games/_chat.html", ctx, request=request)


@require_POST
@login_required
def join(request, game_id):
    return _with_chat(request, game_id, _change(
        request, game_id,
        lambda g: services.join_game(g.pk, request.user, invite_token=_invite(request),
                                     seat=request.POST.get("seat") or None)))


@require_POST
@login_required
def leave(request, game_id):
    return _with_chat(request, game_id, _change(
        request, game_id, lambda g: services.leave_game(g.pk, request.user)))


@require_POST
@login_required
def start(request, game_id):
    return _change(request, game_id, lambda g: services.start_game(g.pk, request.user))


@require_POST
@login_required
def abort(request, game_id):
    return _change(request, game_id, lambda g: services.abort_game(g.pk, request.user))


@require_POST
@login_required
def resume(request, game_id):
    return _change(request, game_id, lambda g: services.resume_seat(g.pk, request.user))


@require_POST
@login_required
def claim(request, game_id):
    """End the match against a player who keeps running out of time (they lose it)."""
    return _change(request, game_id, lambda g: services.claim_match(g.pk, request.user))


@require_POST
@login_required
def play(request, game_id):
    """A move. The service checks who may see and play the game, so the game is read
    here only for a refusal's answer (404 for a game the user may not see); the answer
    to a move is made from the rows the move has just written, not read again."""
    try:
        actions, version, seat = wire.move_from_request(request)
        change = services.play_change(game_id, request.user, actions, version, seat=seat)
    except services.GameError as exc:  # a timeout may have been played meanwhile
        return _render_table(request, _get_game(request, game_id), message=exc.message,
                             status=exc.status)
    if wants_partial(request):
        game, seats = snapshots.keep(change.game, change.seats)
        return HttpResponse(table_html(
            game, request.user, invite=_invite(request), csrf_token=get_token(request),
            site_root=f"{request.scheme}://{request.get_host()}", seats=seats,
            zone=timezone.get_current_timezone_name()))  # the mover's socket reuses it
    return _changed(request, change.game)


# ----------------------------------------------------------------------------- after a deal
@require_GET
def deal_record(request, game_id, number):
    """A finished deal of the match: its result and its log (public: no hidden card)."""
    game = _get_game(request, game_id)
    record = game.deal_records.filter(number=number).first()
    if record is None:
        raise Http404(_("There is no such deal."))
    seats = list(game.seats.select_related("player").order_by("number"))
    ctx = outcome.record_context(record, game.get_rules(), seats)
    invite = _invite(request)
    ctx.update({"game": game,
                "invite": invite if game.private and invite == game.invite_token else ""})
    template = "games/deal_record.html" + ("#record" if wants_partial(request) else "")
    return render(request, template, ctx)


CLOSE_DIALOG = '<div id="match-dialog" class="match-dialog" aria-live="polite" hx-swap-oob="true"></div>'


@require_http_methods(["GET", "POST"])
@login_required
def resign(request, game_id):
    """GET: what resigning means here, and a confirmation; POST: resign."""
    if request.method == "POST":
        response = _change(request, game_id, lambda g: services.resign(g.pk, request.user))
        if request.htmx:  # the confirmation closes with the answer
            response.content += CLOSE_DIALOG.encode()
        return response
    game = _get_game(request, game_id)
    if services.seat_of(game, request.user) is None or not game.is_playing:
        return to_table(request, game)
    template = "games/resign.html" + ("#confirm" if wants_partial(request) else "")
    return render(request, template, {"game": game, "meaning": outcome.resign_meaning(game)})


@require_POST
@login_required
def rematch(request, game_id):
    """Accept a rematch. Once it opens, every page that accepted follows the table's link to
    it (static/js/match.js); without scripts, whoever completes it is sent there."""
    game = _get_game(request, game_id)
    try:
        game = services.accept_rematch(game.pk, request.user)
    except services.GameError as exc:
        return _render_table(request, game, message=exc.message, status=exc.status)
    if request.htmx:
        return _render_table(request, game)
    return redirect(reverse("table", args=[game.rematch_id or game.pk]))


def _chat(request, game, *, message=None, status=200):
    """The chat section (htmx), or back to the table."""
    if not request.htmx:
        if message:
            return _render_table(request, game, message=message, status=status)
        return to_table(request, game)
    ctx = {"game": game, **outcome.chat_context(game, request.user, _invite(request)),
           "chat_error": message}
    return render(request, "games/_chat.html", ctx, status=status)


@require_POST
@login_required
def chat(request, game_id):
    """Write to the table chat without the socket (the socket's way: consumers.py)."""
    game = _get_game(request, game_id)
    try:
        text, phrase = wire.chat_from_fields(request.POST)
        services.chat.post(game.pk, request.user, text=text, phrase=phrase)
    except services.GameError as exc:
        return _chat(request, game, message=exc.message, status=exc.status)
    return _chat(request, game)


@require_POST
@login_required
def mute(request, game_id):
    game = _get_game(request, game_id)
    try:
        services.chat.set_mute(request.user, game.pk, request.POST.get("player"),
                               request.POST.get("muted") == "1")
    except services.GameError as exc:
        return _chat(request, game, message=exc.message, status=exc.status)
    return _chat(request, game)


def chat_line_html(message, reader, csrf_token="") -> str:
    """One chat line as `reader`'s WebSocket frame: appended to the chat's list
    (`hx-swap-oob`)."""
    message.shown = services.chat.phrase_text(message)
    line = render_to_string("games/_chat_line.html", {
        "line": message, "game": message.game, "reader": reader, "csrf_token": csrf_token})
    return f'<ol hx-swap-oob="beforeend:#chat-lines">{line}</ol>'


def last_chat_id(game_id) -> int:
    """The id of the game's last chat line (0: none yet)."""
    return (ChatMessage.objects.filter(game_id=game_id).order_by("-pk")
            .values_list("pk", flat=True).first() or 0)


def chat_lines_after(game_id, reader, invite="", *, after, upto=None, also=None,
                     csrf_token="") -> tuple[list[str], int]:
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
