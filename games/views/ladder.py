"""The computer players' ladder: how strong each level is and how it was measured
(docs/ladder.md)."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..present import ladder as present_ladder


@require_GET
def bot_ladder(request):
    """Each level's rating and the bot arena's figures, from the runs kept."""
    return render(request, "games/ladder.html", present_ladder.ladder())
