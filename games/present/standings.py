"""What the leaderboards and a player's profile show: ratings as people read them, the
rating history as an SVG chart's points, and the player's games (read-only)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q

from ..models import Game, Rating, RatingChange, Seat
from ..services.access import Someone
from ..services.ratings import BRACKETS, MIN_GAMES, SCALE, SPREAD_SIGMAS, Shown, places, shown

if TYPE_CHECKING:
    from accounts.models import Player

TEAMS = "teams"
BOARD_SIZE = 100


def bracket_filter(bracket: str) -> Q:
    """Rated games of a leaderboard: individual play by player count, or team play."""
    if bracket == TEAMS:
        return Q(pool=Rating.Pool.TEAMS)
    low, high = BRACKETS[bracket]
    return Q(pool=Rating.Pool.INDIVIDUAL, players__gte=low, players__lte=high)


def leaderboard(bracket: str) -> list[dict[str, Any]]:
    """Players with at least MIN_GAMES rated games in the bracket, best first (by the
    rating less three times its uncertainty: a sure rating beats a lucky streak)."""
    counts = dict(
        RatingChange.objects.filter(bracket_filter(bracket), player__is_guest=False)
        .values("player")
        .annotate(n=Count("id")).filter(n__gte=MIN_GAMES).values_list("player", "n"))
    pool = Rating.Pool.TEAMS if bracket == TEAMS else Rating.Pool.INDIVIDUAL
    rows: list[dict[str, Any]] = [
        {"player": r.player, "rating": shown(r.mu, r.sigma), "games": counts[r.player_id]}
        for r in Rating.objects.filter(pool=pool, player__in=counts).select_related("player")
    ]
    rows.sort(key=lambda row: (-row["rating"].ordinal, row["player"].username))
    return rows[:BOARD_SIZE]


def ratings_of(player: Player) -> dict[str, Shown]:
    """The player's ratings by pool (only pools they have played rated games in)."""
    return {r.pool: shown(r.mu, r.sigma) for r in Rating.objects.filter(player=player)}


@dataclass
class Chart:
    """An SVG line chart of a rating over its rated games, with the uncertainty as a band."""

    width: int
    height: int
    line: str  # polyline points
    band: str  # polygon points: value + spread, then value - spread backwards
    ticks: list[tuple[int, int]]  # (y, rating) for the grid lines
    last: tuple[float, float]  # the last point, marked


WIDTH, HEIGHT, PAD = 600, 200, 12


def chart(player: Player, pool: str) -> Chart | None:
    """The rating after each rated game in the pool, oldest first; None before any."""
    changes = list(RatingChange.objects.filter(player=player, pool=pool).order_by("at", "pk")
                   .values_list("mu_before", "sigma_before", "mu_after", "sigma_after")[:500])
    if not changes:
        return None
    points = [(changes[0][0], changes[0][1])] + [(mu, sigma) for _, _, mu, sigma in changes]
    values = [(mu * SCALE, SPREAD_SIGMAS * sigma * SCALE) for mu, sigma in points]
    top = max(v + s for v, s in values)
    bottom = min(v - s for v, s in values)
    span = max(top - bottom, 1.0)
    step = (WIDTH - 2 * PAD) / max(len(values) - 1, 1)

    def x(i: int) -> float:
        return round(PAD + i * step, 1)

    def y(value: float) -> float:
        return round(PAD + (top - value) / span * (HEIGHT - 2 * PAD), 1)

    line = " ".join(f"{x(i)},{y(v)}" for i, (v, _s) in enumerate(values))
    upper = [f"{x(i)},{y(v + s)}" for i, (v, s) in enumerate(values)]
    lower = [f"{x(i)},{y(v - s)}" for i, (v, s) in enumerate(values)]
    grid = 500 if span > 1500 else 100
    ticks = [(round(y(t)), t) for t in range(int(bottom // grid + 1) * grid, int(top) + 1, grid)]
    last = (x(len(values) - 1), y(values[-1][0]))
    return Chart(WIDTH, HEIGHT, line, " ".join(upper + lower[::-1]), ticks, last)


def seat_lost(game: Game, seat: Seat) -> bool:
    """The seat's side came last in a finished game (not a full draw)."""
    place = places(game)
    worst = max(place.values())
    return len(set(place.values())) > 1 and place[game.get_rules().team_of(seat.number)] == worst


def _signed(change: RatingChange) -> str:
    """+12, −8 (a minus sign, not a hyphen), 0."""
    delta = round((change.mu_after - change.mu_before) * SCALE)
    return f"{delta:+d}".replace("-", "\u2212") if delta else "0"


def record(player: Player, viewer: Someone) -> dict[str, Any]:
    """The profile's games: per rule preset played and lost, games being played (those
    the viewer may see), and the recent results with their rating changes."""
    seats = list(Seat.objects.filter(player=player).select_related("game__preset")
                 .order_by("-game__created_at")[:500])
    mine = viewer is not None and viewer.is_authenticated and (
        viewer.pk == player.pk or viewer.is_staff)
    presets: dict[str, dict[str, Any]] = {}
    current: list[Game] = []
    recent: list[dict[str, Any]] = []
    changes = {c.game_id: c for c in RatingChange.objects.filter(player=player)}
    # A private game is listed for its own players (and staff), not for the rest.
    shared = set() if mine or viewer is None or not viewer.is_authenticated else set(
        Seat.objects.filter(player=viewer, game__in=[s.game_id for s in seats])
        .values_list("game_id", flat=True))
    hidden = 0
    for seat in seats:
        game = seat.game
        if game.private and not mine and game.pk not in shared:
            hidden += 1
            continue
        if game.status in (Game.Status.OPEN, Game.Status.PLAYING):
            current.append(game)
            continue
        if game.status != Game.Status.FINISHED or not game.state:
            continue
        lost = seat_lost(game, seat)
        drawn = len(set(places(game).values())) == 1  # every side shares first place
        row = presets.setdefault(game.preset.name, {"name": game.preset.label, "played": 0,
                                                    "lost": 0})
        row["played"] += 1
        row["lost"] += int(lost)
        if len(recent) < 10:
            change = changes.get(game.pk)
            recent.append({
                "game": game, "lost": lost, "drawn": drawn,
                "change": _signed(change) if change else None,
            })
    return {"presets": sorted(presets.values(), key=lambda r: (-r["played"], r["name"])),
            "current": current[:20], "recent": recent, "hidden": hidden}
