"""Pages about games played: the replay of a finished game, its export, leaderboards."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import notify, review, services
from ..models import Game, Rating
from ..present import ladder, replay, standings
from ..services import coach
from ..services.ratings import BRACKETS, MIN_GAMES

MOVE_DIGITS = 6  # ?move= longer than this is not a move number


def _visible_game(request, game_id) -> Game:
    """A game the reader could see (private: its players, the invite link, staff)."""
    game = Game.objects.select_related("preset").filter(pk=game_id).first()
    invite = request.GET.get("invite", "")[:64]
    if game is None or not services.can_view(game, request.user, invite):
        raise Http404(_("There is no such game."))
    return game


def _refused(request, game, message, status):
    return render(request, "games/replay.html", {"game": game, "message": message},
                  status=status)


@require_GET
def replay_page(request, game_id):
    """The table after move ?move=N (0: as dealt), with links to every other move."""
    game = _visible_game(request, game_id)
    raw = request.GET.get("move", "0").strip()
    if not raw.isdigit() or len(raw) > MOVE_DIGITS:
        return _refused(request, game, _("“%(move)s” is not a move number.") % {
            "move": raw[:12]}, 400)
    mine = services.seat_of(game, request.user)
    try:
        frame = replay.step(game, int(raw), mine.number if mine is not None else None)
    except replay.NoReplay as exc:
        return _refused(request, game, str(exc), 409)
    invite = request.GET.get("invite", "")[:64]

    def link(number):
        query = {"move": number} | ({"invite": invite} if invite else {})
        return f"{reverse('replay', args=[game.pk])}?{urlencode(query)}"

    number, last = frame["number"], frame["last"]
    saved = game.match()  # over: its seed and salt are published (docs/fairness.md)
    query = f"?{urlencode({'invite': invite})}" if invite else ""
    return render(request, "games/replay.html", {
        "game": game, "frame": frame,
        "first_url": link(0), "last_url": link(last),
        "prev_url": link(number - 1) if number > 0 else "",
        "next_url": link(number + 1) if number < last else "",
        "export_url": reverse("export_game", args=[game.pk]) + query,
        "check_url": reverse("check_game", args=[game.pk]) + query,
        "seed": saved.seed if saved is not None else None,
        "salt": saved.salt if saved is not None else None,
        "review": (marks := _review_marks(game, link, number)),
        "review_pending": marks is None and review.pending(game),
        "here_url": link(number),
        "move_number": number,
        "may_ask_review": mine is not None or request.user.is_staff,
    })


def _review_marks(game, link, shown: int):
    """The coach's marks in words, each linked to the replay step of the move it is about,
    so that the link, the page's "Move N" and the note speak of one move (the table the
    player chose at is one step back). None: no review yet. `shown`: the page's step."""
    marks = review.kept(game)
    if marks is None:
        return None
    seats = {s.number: s.name for s in game.seats.select_related("player")}
    marks = sorted(marks, key=lambda m: m["step"])  # in the order they were played
    return [{**m, "name": seats.get(m["seat"], "?"), "url": link(m["step"]),
             "at": m["step"], "current": m["step"] == shown,
             "played_words": review.action_words(m["played"]),
             "better_words": review.action_words(m["better"])} for m in marks]


@require_POST
@login_required
def ask_review(request, game_id):
    """A player of a finished game asks the coach to review it (a Celery task)."""
    game = _visible_game(request, game_id)
    if not game.is_over:
        return _refused(request, game, _("The coach reviews a game once it has ended."), 409)
    if services.seat_of(game, request.user) is None and not request.user.is_staff:
        return _refused(request, game, _("Only the game's players can ask for its review."), 403)
    if review.kept(game) is None and review.mark_pending(game):  # else: on its way
        if not coach.take_allowance("review", request.user.pk):
            review.unmark_pending(game)
            return _refused(request, game, coach.too_many_reviews().message, 429)
        notify.queue_review(game.pk)
    move = request.POST.get("move", "")  # back to the move the player was looking at
    query = f"?{urlencode({'move': move})}" if move.isdigit() and len(move) <= MOVE_DIGITS else ""
    return redirect(reverse("replay", args=[game.pk]) + query + "#review")


@require_GET
def export_game(request, game_id):
    """The finished game as JSON (rules, each deal's pack, the moves): the engine's
    games.engine.replay.replay plays it back."""
    game = _visible_game(request, game_id)
    try:
        data = replay.record(game)
    except replay.NoReplay as exc:
        return JsonResponse({"error": str(exc)}, status=409)
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="durak-game-{game.pk}.json"'
    return response


@require_GET
def leaderboards(request):
    """One leaderboard per player count (2, 3–4, 5–6) and one for team play."""
    names = {"2": _("Two players"), "3-4": _("3–4 players"), "5-6": _("5–6 players"),
             standings.TEAMS: _("Teams")}
    bracket = request.GET.get("players", "2")
    if bracket not in names:
        bracket = "2"
    return render(request, "games/leaderboards.html", {
        "brackets": [(key, names[key]) for key in (*BRACKETS, standings.TEAMS)],
        "bracket": bracket, "bracket_name": names[bracket],
        "rows": standings.leaderboard(bracket), "min_games": MIN_GAMES,
        "bots": ladder.board_rows(Rating.Pool.TEAMS if bracket == standings.TEAMS
                                  else Rating.Pool.INDIVIDUAL),
    })
