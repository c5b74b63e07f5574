"""What the leaderboards and a player's profile show: ratings as people read them, the
rating history as an SVG chart's points, and the player's games (read-only)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Exists, F, OuterRef, Q

from ..models import Game, Rating, RatingChange, RulePreset, Seat
from ..services.access import Someone
from ..services.ratings import (
    BRACKETS,
    MIN_GAMES,
    SCALE,
    SPREAD_SIGMAS,
    Shown,
    bracket_field,
    places,
    shown,
)

if TYPE_CHECKING:
    from accounts.models import Player

TEAMS = "teams"
BOARD_SIZE = 100


def leaderboard(bracket: str) -> list[dict[str, Any]]:
    """Players with at least MIN_GAMES rated games in the bracket, best first (by the
    rating less three times its uncertainty: a sure rating beats a lucky streak). The
    games are counted on the rating rows (Rating.games_2…), one query."""
    pool = Rating.Pool.TEAMS if bracket == TEAMS else Rating.Pool.INDIVIDUAL
    low, _high = BRACKETS.get(bracket, (2, 6))
    field = bracket_field(pool, low) or "games"
    found = (Rating.objects.filter(pool=pool, player__is_guest=False,
                                   **{f"{field}__gte": MIN_GAMES})
             .select_related("player")
             .order_by((F("mu") - 3 * F("sigma")).desc(), "player__username"))
    rows: list[dict[str, Any]] = [
        {"player": r.player, "rating": shown(r.mu, r.sigma), "games": getattr(r, field)}
        for r in found[:BOARD_SIZE]
    ]
    return rows


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
    """The profile's games: per rule preset played and lost (every finished game, counted
    from Seat.lost), games being played (those the viewer may see) and the ten latest
    results with their rating changes; a bounded number of queries whatever the count."""
    mine = viewer is not None and viewer.is_authenticated and (
        viewer.pk == player.pk or viewer.is_staff)
    seats = Seat.objects.filter(player=player)  # the game's facts read from the seat
    hidden = 0
    if not mine:  # a private game is listed for its own players (and staff) only
        shared = Q(game_private=False)
        if viewer is not None and viewer.is_authenticated:
            shared |= Q(Exists(Seat.objects.filter(player=viewer, game=OuterRef("game"))))
        hidden = seats.exclude(shared).count()
        seats = seats.filter(shared)
    done = seats.filter(lost__isnull=False)
    labels = {p.pk: p.label for p in RulePreset.objects.all()}
    presets = [{"name": labels.get(row["game_preset"], ""), "played": row["played"],
                "lost": row["lost"]}
               for row in done.values("game_preset").order_by()
               .annotate(played=Count("lost"), lost=Count("lost", filter=Q(lost=True)))]
    current = [s.game for s in seats.filter(game_status__in=(Game.Status.OPEN,
                                                             Game.Status.PLAYING))
               .select_related("game__preset").defer("game__state")
               .order_by("-game_id")[:20]]
    # Newest first by game id (as made), along the index on (player, game).
    latest = list(done.select_related("game__preset").order_by("-game_id")[:10])
    changes = {c.game_id: c for c in RatingChange.objects.filter(
        player=player, game__in=[s.game_id for s in latest])}
    recent = [{"game": s.game, "lost": s.lost,
               "drawn": len(set(places(s.game).values())) == 1,  # every side shares first
               "change": _signed(changes[s.game_id]) if s.game_id in changes else None}
              for s in latest]
    return {"presets": sorted(presets, key=lambda r: (-r["played"], r["name"])),
            "current": current, "recent": recent, "hidden": hidden}
