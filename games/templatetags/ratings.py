"""{% rating player %}: a player's rating, as people read it (1520 ±310, or 1480? while it
is provisional), next to a name; {% reliability_of player %}: their reliability.

Individual play unless `teams` is true; nothing for a player without a rated game.
"""

from django import template
from django.utils.html import format_html
from django.utils.translation import ngettext

from ..models import Rating
from ..present import standings
from ..services import reliability
from ..services.ratings import Shown, shown

register = template.Library()


def rating_html(rating: Shown, games: int) -> str:
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


@register.simple_tag
def rating(player, teams=False):
    if player is None or not getattr(player, "pk", None):
        return ""
    pool = Rating.Pool.TEAMS if teams else Rating.Pool.INDIVIDUAL
    kept = getattr(player, "_prefetched_objects_cache", {}).get("ratings")
    if kept is not None:  # read with the seats (games.present.snapshots): no query per seat
        row = next((r for r in kept if r.pool == pool), None)
    else:
        row = Rating.objects.filter(player=player, pool=pool).first()
    if row is None:
        return ""
    return rating_html(shown(row.mu, row.sigma), row.games)


@register.simple_tag
def shown_rating(rating: Shown, games: int):
    return rating_html(rating, games)


@register.simple_tag
def profile_of(player, viewer):
    """{% profile_of player request.user as p %}: a profile's ratings (with their charts)
    and games, as games.present.standings reads them."""
    rows = {r.pool: r for r in Rating.objects.filter(player=player)}
    pools = [{
        "name": Rating.Pool(pool).label,
        "rating": shown(row.mu, row.sigma), "games": row.games,
        "chart": standings.chart(player, pool),
    } for pool, row in sorted(rows.items())]
    return {"ratings": pools, **standings.record(player, viewer)}


@register.simple_tag
def reliability_of(player):
    """{% reliability_of player as r %}: the share of the player's recent games finished
    without a timeout (games.services.reliability), or None."""
    return reliability.reliability(player)
