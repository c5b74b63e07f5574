"""The "Check this deal" page (docs/fairness.md): an export pasted or uploaded, or a
finished game's own, checked against its seed and salt by the engine."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from .. import services
from ..limits import limited
from ..models import Game
from ..present import checker, fairness, replay
from ..wire import read_json

MAX_EXPORT = 1024 * 1024  # bytes: a match of 99 deals fits
EXPORT_DEPTH = 12  # an export nests its deals, their moves and cards six deep
TEMPLATE = "games/check_deal.html"


def _checker(request) -> object:
    """Checks are counted per player, and per client address for visitors."""
    user = request.user
    return user.pk if user.is_authenticated else f"address {request.META.get('REMOTE_ADDR')}"


def _refused(request, message: str, status: int = 400):
    return render(request, TEMPLATE, {"message": message}, status=status)


@require_http_methods(["GET", "POST"])
@limited("deal_checks", who=_checker)
def check_deal(request):
    """GET: the form; POST: the check of the export pasted (`export`), uploaded (`file`) or
    sent as the body (`curl -H 'Content-Type: application/json' --data @export.json`)."""
    if request.method == "GET":
        return render(request, TEMPLATE, {})
    upload = request.FILES.get("file")
    if request.content_type == "application/json":
        raw = request.body
    elif upload is not None:
        if upload.size > MAX_EXPORT:
            return _refused(request, _("That file is too big to be a game's export."), 413)
        raw = upload.read()
    else:
        raw = request.POST.get("export", "").encode()
    if len(raw) > MAX_EXPORT:
        return _refused(request, _("That file is too big to be a game's export."), 413)
    if not raw.strip():
        return _refused(request, _("Paste a game's export, or choose its file."))
    try:
        record = read_json(raw, MAX_EXPORT, EXPORT_DEPTH)
    except ValueError:
        return _refused(request, _("That is not a game's export: it is not JSON."))
    if not fairness.looks_like_export(record):
        return _refused(request, _("That is not a game's export."))
    return render(request, TEMPLATE, fairness.check_context(record))


@require_GET
def check_game(request, game_id):
    """A finished game's own export, checked (the link on its replay)."""
    game = Game.objects.select_related("preset").filter(pk=game_id).first()
    invite = request.GET.get("invite", "")[:64]
    if game is None or not services.can_view(game, request.user, invite):
        raise Http404(_("There is no such game."))
    try:
        record = replay.record(game)
    except replay.NoReplay as exc:
        return render(request, TEMPLATE, {"message": str(exc), "game": game}, status=409)
    return render(request, TEMPLATE, {**fairness.check_context(record), "game": game})


@require_GET
def checker_download(request):
    """The checker to run at home: the engine in a zip (present/checker.py)."""
    response = HttpResponse(checker.checker_zip(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{checker.NAME}"'
    return response
