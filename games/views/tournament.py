"""Tournaments' pages: the list (open ones, and a form for a new one), a tournament's page
(its field, standings and rounds with their tables) and its buttons: join, leave, start,
cancel. Every change goes to games.services.tournament."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import guests, ratelimit
from accounts.forms import GuestForm
from accounts.views import browser_language

from .. import services
from ..forms import TournamentForm
from ..limits import limited
from ..models import Seat, Tournament
from .table import wants_partial

T = services.tournament


def listed():
    """Public tournaments open for entries or in play, soonest first."""
    return (Tournament.objects.filter(private=False, status__in=[
        Tournament.Status.OPEN, Tournament.Status.PLAYING])
        .select_related("preset").order_by("status", "starts_at", "-created_at")[:50])


@require_GET
def tournaments(request):
    return _list_page(request)


def _list_page(request, form=None, status=200):
    form = form or TournamentForm(user=request.user)
    if wants_partial(request) and request.htmx.target == "create-tournament":
        return render(request, "games/tournaments.html#create_tournament", {"form": form},
                      status=status)
    mine = (Tournament.objects.filter(entries__player=request.user).select_related("preset")
            .order_by("-created_at")[:20] if request.user.is_authenticated else [])
    return render(request, "games/tournaments.html", {
        "tournaments": listed(), "mine": mine, "form": form,
    }, status=status)


def _refitted_form(request) -> TournamentForm:
    """The form's own answers (sent when its preset or rating changes), fitted to them."""
    answers = {name: request.GET.get(name) for name in TournamentForm.base_fields
               if name != "once" and name in request.GET}
    for box in ("bots_fill", "public"):
        answers[box] = answers.get(box) == "on"
    return TournamentForm(initial=answers, user=request.user)


@require_http_methods(["GET", "POST"])
@limited("tournaments_made")
@login_required
def create(request):
    if request.method != "POST":
        return _list_page(request, _refitted_form(request))
    form = TournamentForm(request.POST, user=request.user)
    if not form.is_valid():
        return _list_page(request, form, status=400)
    try:
        made = T.create_tournament(request.user, form.cleaned_data["preset"],
                                   **form.tournament_options())
    except services.GameError as exc:
        form.add_error(None, exc.message)
        return _list_page(request, form, status=exc.status)
    return redirect(made.invite_url if made.private else made.get_absolute_url())


def _visible(request, tournament_id) -> Tournament:
    tournament = Tournament.objects.select_related("preset").filter(pk=tournament_id).first()
    token = request.GET.get("invite") or request.POST.get("invite")
    if tournament is None or not T.can_see(tournament, request.user, token):
        raise Http404
    return tournament


@require_GET
def tournament(request, tournament_id):
    return _page(request, _visible(request, tournament_id), request.GET.get("invite", ""))


def _page(request, t: Tournament, invite: str, status: int = 200):
    entries = list(t.entries.select_related("player"))
    people = {e.player_id: e for e in entries}
    standings = T.tournament_standings(t) if t.status != Tournament.Status.OPEN else []
    rounds = []
    seats: dict[int, list] = {}
    for seat in Seat.objects.filter(game__round_table__round__tournament=t).select_related(
            "player").order_by("game", "number"):
        seats.setdefault(seat.game_id, []).append(seat)
    for rnd in t.round_set.prefetch_related("tables__game").order_by("-number"):
        rounds.append({"round": rnd, "byes": [people[p].player for p in rnd.byes if p in people],
                       "tables": [(table, seats.get(table.game_id, []))
                                  for table in rnd.tables.all()]})
    me = people.get(request.user.pk) if request.user.is_authenticated else None
    user = request.user
    ctx = {
        "t": t, "entries": entries, "me": me, "rounds": rounds,
        "standings": [(s, people[s.player]) for s in standings if s.player in people],
        "invite": invite,
        "can_start": t.is_open and user.is_authenticated and (
            user.is_staff or (t.private and t.created_by_id == user.pk)),
        "live_page": "tournament", "live_tournament": t.pk,
    }
    return render(request, "games/tournament.html", ctx, status=status)


def _change(request, tournament_id, change):
    t = _visible(request, tournament_id)
    try:
        change(t)
    except services.GameError as exc:
        messages.error(request, exc.message)
    url = t.get_absolute_url()
    invite = request.POST.get("invite")
    return redirect(f"{url}?invite={invite}" if invite else url)


@require_POST
@limited("tournament_changes")
@login_required
def join(request, tournament_id):
    return _change(request, tournament_id, lambda t: T.join_tournament(
        t.pk, request.user, invite_token=request.POST.get("invite")))


@require_POST
@limited("signup_ip", who=guests.newcomer, store=ratelimit.KEPT)
def play_as_guest(request, tournament_id):
    """A tournament's invite link, "Play as a guest": a name, and they are entered
    (accounts.guests). Counted as a sign-up from the client's address; casual only."""
    t = _visible(request, tournament_id)
    invite = request.POST.get("invite")
    here = t.get_absolute_url() + (f"?invite={invite}" if invite else "")
    if request.user.is_authenticated:
        return redirect(here)
    form = GuestForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for e in form.errors["name"]))
        return _page(request, t, invite or "", status=400)
    if t.rated:
        messages.error(request, _("Guests play casual games only, and this tournament is "
                                  "rated: log in or sign up to enter."))
        return _page(request, t, invite or "", status=403)
    guest = guests.make_guest(form.cleaned_data["name"], language=browser_language(request))
    try:
        T.join_tournament(t.pk, guest, invite_token=invite)
    except services.GameError as exc:
        guest.delete()
        messages.error(request, exc.message)
        return _page(request, t, invite or "", status=exc.status)
    guests.log_in(request, guest)
    return redirect(t.get_absolute_url())


@require_POST
@limited("tournament_changes")
@login_required
def leave(request, tournament_id):
    return _change(request, tournament_id, lambda t: T.leave_tournament(t.pk, request.user))


@require_POST
@limited("tournament_changes")
@login_required
def start(request, tournament_id):
    return _change(request, tournament_id, lambda t: T.start_tournament(t.pk, request.user))


@require_POST
@limited("tournament_changes")
@login_required
def cancel(request, tournament_id):
    return _change(request, tournament_id, lambda t: T.cancel_tournament(t.pk, request.user))

