"""A player's rating as people read it, next to a name: 1520 ±310, or 1480? while it is
provisional (the `{% rating %}` tag and the felt's templates, games.present.felt).

Individual play unless `teams` is true; nothing for a player without a rated game.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext

from ..models import Rating
from ..services.ratings import Shown, shown
from .cache import Kept

_marks: Kept[tuple[float, float, int, str | None], SafeString] = Kept(
    4096, name="present.rating.marks")


def rating_html(rating: Shown, games: int) -> SafeString:
    if rating.provisional:
        title = ngettext(
            "Provisional rating %(value)s after %(n)s rated game: it settles with more games",
            "Provisional rating %(value)s after %(n)s rated games: it settles with more games",
            games,
        ) % {"value": rating.value, "n": games}
        return format_html('<span class="rating provisional" title="{}">{}<small>?</small></span>',
                           title, rating.value)
    title = ngettext(
        "Rating %(value)s, give or take %(spread)s, after %(n)s rated game",
        "Rating %(value)s, give or take %(spread)s, after %(n)s rated games", games,
    ) % {"value": rating.value, "spread": rating.spread, "n": games}
    return format_html('<span class="rating" title="{}">{}&#8239;<small>±{}</small></span>',
                       title, rating.value, rating.spread)


def rating(player: Any, teams: bool = False) -> str:
    """The player's rating mark ("" for none or no player)."""
    if player is None or not getattr(player, "pk", None):
        return ""
    pool = Rating.Pool.TEAMS if teams else Rating.Pool.INDIVIDUAL
    kept = getattr(player, "kept_ratings", None)
    if kept is not None:  # read with the seats (games.present.snapshots): no query per seat
        row = next((r for r in kept if r.pool == pool), None)
    else:
        row = Rating.objects.filter(player=player, pool=pool).first()
    if row is None:
        return ""
    key = (row.mu, row.sigma, row.games, get_language())
    mark = _marks.get(key)  # a table shows the same marks after every move
    if mark is None:
        mark = rating_html(shown(row.mu, row.sigma), row.games)
        _marks.put(key, mark)
    return mark
