"""{% rating player %}: a player's rating, as people read it (1520 ±310, or 1480? while it
is provisional), next to a name; {% reliability_of player %}: their reliability.

Individual play unless `teams` is true; nothing for a player without a rated game.
"""

from django import template

from ..models import Rating
from ..present import standings
from ..present.rating import rating, rating_html
from ..services import reliability
from ..services.ratings import Shown, shown

register = template.Library()


register.simple_tag(rating, name="rating")


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
