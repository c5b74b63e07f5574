"""The table: small function views; every change goes to services (the lobby, My games
and challenges: games.views.lobby).

Each page is a full page on a normal request and a named partial on an htmx request.
A refused change answers 4xx with the current table (or form) and a message.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import guests, ratelimit
from accounts.forms import GuestForm
from accounts.views import browser_language

from .. import services, wire
from ..limits import limited
from ..models import Game
from ..present import orders as present_orders
from ..present import outcome, snapshots
from ..present.render import TABLE, chat_html, chat_lines_after, table_view
from ..services.access import seats_of


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


def _render_table(request, game: Game, *, message=None, status=200, seats=None):
    """The table as the reader sees it (games.present.render.table_view), with what is
    HTTP's: the site's root and time zone as this request has them, the request's CSRF
    token, and the whole page with the chat beside it or only the table (htmx). With
    `seats` (a games.present.snapshots table) an htmx answer's render is kept for the
    table's sockets."""
    view = table_view(game, request.user, invite=_invite(request), message=message,
                      seats=seats, site_root=f"{request.scheme}://{request.get_host()}",
                      zone=timezone.get_current_timezone_name())
    if wants_partial(request):
        return HttpResponse(view.html(csrf_token=get_token(request)), status=status)
    # The chat and the menu's friends are outside the live-swapped table.
    ctx = {**view.context, **outcome.chat_context(game, request.user, view.context["invite"]),
           "table_friends": outcome.table_friends(game, view.context["seats"],
                                                  view.context["me"])}
    return render(request, TABLE, ctx, status=status)


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
    # An overdue table is shown as it is: only the sweep and a move charge a timeout
    # (docs/design.md, "Clocks").
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
        found = snapshots.read(game.pk)
        if found is None:
            raise Http404  # gone since (an admin deleted it)
        game, seats = found
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


@limited("seat_changes")
@require_POST
@login_required
def join(request, game_id):
    return _with_chat(request, game_id, _change(
        request, game_id,
        lambda g: services.join_game(g.pk, request.user, invite_token=_invite(request),
                                     seat=request.POST.get("seat") or None)))


@limited("signup_ip", who=guests.newcomer, store=ratelimit.KEPT)
@require_POST
def play_as_guest(request, game_id):
    """An invite link's "Play as a guest": a name, and the seat is theirs (accounts.guests;
    docs/design.md, "Guests from a link"). Counted as a sign-up from the client's address."""
    game = _get_game(request, game_id)
    if request.user.is_authenticated:  # already someone: "Take a seat" is theirs to press
        return to_table(request, game)
    form = GuestForm(request.POST)
    if not form.is_valid():
        return _render_table(request, game, message=" ".join(str(e) for e in form.errors["name"]), status=400)
    if game.rated:  # before a guest is made: nothing to undo
        return _render_table(request, game, status=403, message=_(
            "Guests play casual games only, and this one is rated: log in or sign up to "
            "take a seat."))
    guest = guests.make_guest(form.cleaned_data["name"], language=browser_language(request))
    try:
        services.join_game(game.pk, guest, invite_token=_invite(request))
    except services.GameError as exc:  # full meanwhile, say: no guest is left behind
        guest.delete()
        return _render_table(request, _reread(game), message=exc.message, status=exc.status)
    guests.log_in(request, guest)
    return to_table(request, game)


@limited("seat_changes")
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
        return _render_table(request, game, seats=seats)  # the mover's socket reuses it
    return _changed(request, change.game)


@require_POST
@login_required
def orders(request, game_id):
    """Set your standing orders at this table (games.services.orders): the orders part,
    with "Saved." or the refusal (htmx), or back to the table. Only your own."""
    game = _get_game(request, game_id)
    answer: dict[str, object] = {"game": game}
    try:
        mine = services.set_orders(game.pk, request.user, seat=request.POST.get("seat"),
                                   auto_pass=request.POST.get("auto_pass"),
                                   auto_take=request.POST.get("auto_take"))
        answer.update(orders=present_orders.own_orders(game, mine), orders_saved=True)
        status = 200
    except services.GameError as exc:
        if not request.htmx:
            return _render_table(request, _reread(game), message=exc.message, status=exc.status)
        answer.update(orders=present_orders.own_orders(_reread(game),
                                                       services.seat_of(game, request.user)),
                      orders_message=exc.message)
        status = exc.status
    if not request.htmx:
        return to_table(request, game)
    return render(request, "games/table/_orders.html", answer, status=status)


# ----------------------------------------------------------------------------- after a deal
@require_GET
def deal_record(request, game_id, number):
    """A finished deal of the match: its result and its log (public: no hidden card)."""
    game = _get_game(request, game_id)
    record = game.deal_records.filter(number=number).first()
    if record is None:
        raise Http404(_("There is no such deal."))
    seats = seats_of(game)
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
    in_dialog = wants_partial(request)
    template = "games/resign.html" + ("#confirm" if in_dialog else "")
    return render(request, template, {"game": game, "meaning": outcome.resign_meaning(game),
                                      "in_dialog": in_dialog})


@require_POST
@login_required
def rematch(request, game_id):
    """Accept a rematch. Once it opens, every page that accepted follows the table's link to
    it (static/js/match.js); whoever completes it is sent there, page and address both
    (htmx: a redirect, not the old table under the new address)."""
    game = _get_game(request, game_id)
    try:
        game = services.accept_rematch(game.pk, request.user)
    except services.GameError as exc:
        return _render_table(request, game, message=exc.message, status=exc.status)
    if request.htmx and game.rematch_id is None:
        return _render_table(request, game)
    return to_table(request, Game(pk=game.rematch_id or game.pk))


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
    """Write to the table chat without the socket (the socket's way: games.live.table)."""
    game = _get_game(request, game_id)
    try:
        text, phrase = wire.chat_from_fields(request.POST)
        services.chat.post(game.pk, request.user, text=text, phrase=phrase)
    except services.GameError as exc:
        return _chat(request, game, message=exc.message, status=exc.status)
    return _chat(request, game)


@limited("mutes")
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

