"""The lobby (make a table, quick match, challenges), My games and vacation: small function
views; every change goes to services, and a table made or found is shown by games.views.table."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, prefetch_related_objects
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import once, services
from ..forms import ChallengeForm, CreateGameForm, LobbyFilterForm, QuickMatchForm
from ..limits import limited
from ..models import Game, Seat
from ..present import outcome
from .table import to_table, wants_partial
from .tournament import listed


# ----------------------------------------------------------------------------- lobby
def _open_games(request, filters: LobbyFilterForm):
    """Open public tables, newest first; the reader's friends' tables before the others
    (marked), and none where a block stands between them and a seated player."""
    games = (
        Game.objects.filter(status=Game.Status.OPEN, private=False)
        .select_related("preset", "created_by")
        # the makers' ratings beside their names ({% rating %}): one query, not one a table
        .prefetch_related(Prefetch("created_by__ratings", to_attr="kept_ratings"))
        .annotate(taken=Count("seats", filter=Q(seats__player__isnull=False)
                              | ~Q(seats__bot_level="")))
    )
    friends = services.friends.friend_ids(request.user)
    if request.user.is_authenticated:
        apart = services.friends.kept_apart(request.user.pk)
        games = games.exclude(seats__player_id__in=apart) if apart else games
    if friends:
        with_friend = Seat.objects.filter(game=OuterRef("pk"), player_id__in=friends)
        games = games.annotate(friends_here=Exists(with_friend)).order_by(
            "-friends_here", "-created_at")
    else:
        games = games.order_by("-created_at")
    if filters.is_valid():
        if filters.cleaned_data.get("preset"):
            games = games.filter(preset=filters.cleaned_data["preset"])
        if filters.cleaned_data.get("players"):
            games = games.filter(players=filters.cleaned_data["players"])
    return games[:100]


def _lobby(request, form=None, status=200, *, quick=None, challenge=None):
    template = "games/lobby.html"
    if wants_partial(request) and request.htmx.target == "create-game":
        # The form alone, fitted to the rules just chosen: nothing else is made.
        return render(request, template + "#create_form", {"form": form or CreateGameForm()},
                      status=status)
    filters = LobbyFilterForm(request.GET or None, auto_id="filter_%s")
    ctx = {"filters": filters, "games": _open_games(request, filters),
           "friends_online": None}  # the socket fills friends in (games.live.nav)
    if wants_partial(request) and request.htmx.target == "open-games":
        return render(request, template + "#open_games", ctx, status=status)
    ctx.update({
        "form": form or CreateGameForm(),
        "quick": quick or QuickMatchForm(),
        "challenge": challenge or ChallengeForm(),
        "live_page": "lobby",  # games.live.nav refreshes the open tables
        "tournaments": listed(),
    })
    # The whole page: a newcomer finds the lesson on top.
    ctx["learn"] = services.offers_lesson(request.user)
    ctx["lesson"] = services.unfinished_lesson(request.user) if ctx["learn"] else None
    return render(request, template, ctx, status=status)


def _once(request, kind: str, form, make, *, busy: str) -> tuple[int | None, int]:
    """`make()` run once per form token, so that the form sent twice (a double click)
    makes one game: (its id, 200), or (None, status) with the refusal on the form."""
    try:
        return once.run(kind, request.user.pk, form.cleaned_data["once"], make), 200
    except once.Busy:
        form.add_error(None, busy)
        return None, 409
    except services.GameError as exc:
        form.add_error(None, exc.message)
        return None, exc.status


@require_GET
def lobby(request):
    return _lobby(request)


def _new_game_form(request) -> CreateGameForm:
    """The make-a-table form; `?from=<game>` fills it in with that game's rules, and the
    form's own answers (sent when its preset changes) come back fitted to the new preset."""
    if "preset" in request.GET:
        answers = {name: request.GET.get(name) for name in CreateGameForm.base_fields
                   if name != "once" and name in request.GET}
        answers["private"] = answers.get("private") == "on"
        return CreateGameForm(initial=answers)
    source = Game.objects.filter(pk=request.GET.get("from", "")).first() if (
        request.GET.get("from", "").isdigit()) else None
    if source is None or not services.can_view(source, request.user):
        return CreateGameForm()
    return CreateGameForm(initial=services.new_game_answers(source))


@limited("games_made")
@login_required
def create(request):
    if request.method != "POST":
        return _lobby(request, _new_game_form(request))
    form = CreateGameForm(request.POST)
    if not form.is_valid():
        return _lobby(request, form, status=400)
    game_id, status = _once(
        request, "create_game", form,
        lambda: services.create_game(request.user, form.cleaned_data["preset"],
                                     **form.game_options()).pk,
        busy=_("Your table is still being made: wait a moment and reload."))
    if game_id is None:
        return _lobby(request, form, status=status)
    return to_table(request, Game(pk=game_id))


@limited("lessons")
def learn(request):
    """The lesson ("Learn Durak in five minutes"). GET: what it is, with its start button
    (a visitor is asked to sign up or log in first); POST: the lesson's table, the
    unfinished one if there is one."""
    if request.method not in ("GET", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    if request.method == "POST" and request.user.is_authenticated:
        try:
            return to_table(request, services.start_lesson(request.user))
        except services.GameError as exc:
            return render(request, "games/learn.html", {"error": exc.message},
                          status=exc.status)
    if request.method == "POST":
        return redirect_to_login(reverse("learn"))
    here = reverse("learn")
    return render(request, "games/learn.html", {
        "resume": services.unfinished_lesson(request.user),
        "login_url": f"{reverse('login')}?{urlencode({'next': here})}",
        "signup_url": f"{reverse('signup')}?{urlencode({'next': here})}",
    })


@require_POST
@limited("games_made")
@login_required
def quick_match(request):
    """Quick match: a seat at the first open table with these rules and clock, or a new one."""
    form = QuickMatchForm(request.POST)
    if not form.is_valid():
        return _lobby(request, quick=form, status=400)
    game_id, status = _once(
        request, "quick_match", form,
        lambda: services.quick_match(request.user, form.cleaned_data["preset"],
                                     **form.clock_options()).pk,
        busy=_("Your seat is still being found: wait a moment and reload."))
    if game_id is None:
        return _lobby(request, quick=form, status=status)
    return to_table(request, Game(pk=game_id))


def _challenge_page(request, form, status=200):
    return render(request, "games/challenge.html", {"challenge": form}, status=status)


def _challenged(request) -> int | None:
    """Whom a challenge is for, counted in "challenges_received" (none if nobody)."""
    try:
        return services.find_player(request.POST.get("opponent", "")[:150]).pk
    except services.GameError:
        return None


@limited("challenges_sent")
@limited("challenges_received", who=_challenged)
@login_required
def challenge(request):
    """GET: the challenge form (`?to=<user name>` fills in the player); POST: make the
    private table and tell the challenged player."""
    if request.method != "POST":
        to = request.GET.get("to", "")[:150]
        return _challenge_page(request, ChallengeForm(initial={"opponent": to} if to else None))
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        return _challenge_page(request, form, status=400)

    def make() -> int:
        opponent = services.find_player(form.cleaned_data["opponent"])
        return services.challenge(request.user, opponent, form.cleaned_data["preset"],
                                  rated=form.cleaned_data["rated"], **form.clock_options()).pk

    game_id, status = _once(
        request, "challenge", form, make,
        busy=_("Your challenge is still being made: wait a moment and reload."))
    if game_id is None:
        return _challenge_page(request, form, status=status)
    # The table's waiting room says whom it waits for; a message above it would outlast
    # the challenge (the table goes live when it is accepted).
    return to_table(request, Game(pk=game_id))


@require_POST
@limited("challenge_answers")
@login_required
def answer_challenge(request, game_id):
    """The challenged player accepts (`accept`: they take the seat) or declines."""
    try:
        if request.POST.get("answer") == "accept":
            game = services.accept_challenge(game_id, request.user)
            return to_table(request, game)
        if request.POST.get("answer") != "decline":
            raise services.BadRequest(_("Accept or decline the challenge."))
        services.decline_challenge(game_id, request.user)
    except services.GameError as exc:
        return _my_games(request, message=exc.message, status=exc.status)
    messages.success(request, _("Challenge declined."))
    return redirect("my_games")


@require_POST
@limited("vacations")
@login_required
def vacation(request):
    """Start a vacation ("days") or come back ("back"), from the profile page."""
    try:
        if request.POST.get("back"):
            services.end_vacation(request.user)
            messages.success(request, _("Welcome back: your clocks are running again."))
        else:
            try:
                days = int(request.POST.get("days", ""))
            except ValueError:
                raise services.BadRequest(_("Say how many days, as a whole number.")) from None
            services.start_vacation(request.user, days)
            messages.success(request, _("Have a good vacation: your clocks have stopped."))
    except services.GameError as exc:
        return render(request, "games/vacation_refused.html", {"message": exc.message},
                      status=exc.status)
    return redirect("profile")


@login_required
@require_GET
def my_games(request):
    return _my_games(request)


FINISHED_PAGE = 20  # finished games per page of My games, newest first


def _my_games(request, *, message=None, status=200):
    """Challenges for you; your move (least time left first); the others' moves and tables
    still filling; finished games with who lost, FINISHED_PAGE at a time (keyset: `?before=`
    the last game shown). Cancelled tables are left out."""
    # The player's seats carry their games' status and finish time (Seat.facts_of): the
    # index on them lists the games without reading every game the player sat at.
    going = list(Game.objects.filter(
        seats__player=request.user,
        seats__game_status__in=(Game.Status.OPEN, Game.Status.PLAYING))
        .select_related("preset", "challenged").prefetch_related("seats__player")
        .defer("state").order_by("-created_at")[:200])
    done = Seat.objects.filter(player=request.user, game_status=Game.Status.FINISHED)
    before = request.GET.get("before", "")
    if before:
        last = (done.filter(game_id=int(before)).values_list("game_finished_at", flat=True)
                .first() if before.isascii() and before.isdigit() and len(before) < 19
                else None)
        if last is None:
            message, status = _("There is no such page of finished games."), 400
        else:
            done = done.filter(Q(game_finished_at__lt=last)
                               | Q(game_finished_at=last, game_id__lt=int(before)))
    page = [s.game for s in done.select_related("game__preset", "game__challenged")
            .order_by("-game_finished_at", "-game_id")[:FINISHED_PAGE + 1]]
    prefetch_related_objects(page, "seats__player")
    yours: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    finished: list[dict[str, Any]] = []
    for game in going + page[:FINISHED_PAGE]:
        seats = sorted(game.seats.all(), key=lambda s: s.number)
        mine_seat = next(s for s in seats if s.player_id == request.user.pk)
        waiting = game.is_playing and game.turn_seat == mine_seat.number and not mine_seat.is_bot
        to_act = next((s.name for s in seats if s.number == game.turn_seat), "")
        row: dict[str, Any] = {"game": game, "seat": mine_seat, "waiting": waiting,
                               "to_act": to_act,
                               "opponents": [s for s in seats if s.pk != mine_seat.pk]}
        if game.status == Game.Status.FINISHED:
            row["verdict"] = outcome.match_verdict(game, seats)
            if game.rematch_id is None and not mine_seat.wants_rematch:  # an offer to answer
                row["rematch_by"] = [s.name for s in seats if s.wants_rematch]
            finished.append(row)
        else:
            (yours if waiting else others).append(row)
    far = timezone.now() + timedelta(days=3650)
    yours.sort(key=lambda r: r["game"].deadline or far)
    others.sort(key=lambda r: (not r["game"].is_playing, r["game"].deadline or far))
    finished.sort(key=lambda r: not r.get("rematch_by"))  # offers to answer first
    older = (f"{reverse('my_games')}?{urlencode({'before': page[FINISHED_PAGE - 1].pk})}"
             "#finished" if len(page) > FINISHED_PAGE else "")
    ctx = {"yours": yours, "others": others, "finished": finished, "refusal": message,
           "older_url": older, "newest_url": reverse("my_games") if before else "",
           "challenges": list(services.open_challenges(request.user)), "live_page": "mine"}
    return render(request, "games/my_games.html", ctx, status=status)


# ----------------------------------------------------------------------------- next game
@require_GET
@login_required
def next_game(request):
    """The table's "Next game waiting": the game waiting for your move with the least time
    left (not the one you come from), else My games."""
    after = request.GET.get("after", "")
    games = Game.objects.filter(status=Game.Status.PLAYING, seats__player=request.user,
                                seats__number=F("turn_seat"), seats__bot_level="")
    if after.isascii() and after.isdigit() and len(after) < 19:
        games = games.exclude(pk=int(after))
    game = games.order_by(F("deadline").asc(nulls_last=True), "pk").first()
    return redirect(game.get_absolute_url() if game else "my_games")
