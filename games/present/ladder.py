"""What the ladder page and the leaderboards show of the computer players (docs/ladder.md):
each level's rating with its uncertainty, and the arena's figures from the runs kept."""

from __future__ import annotations

from typing import Any

from ..bots import LEVELS
from ..bots.arena import wilson
from ..models import BOT_LEVELS, ArenaRun, Rating
from ..services.ratings import bot_rating, shown

LABELS = dict(BOT_LEVELS)


def _percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def _share(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"k": k, "n": n, "rate": _percent(k / n) if n else "–", "low": _percent(low),
            "high": _percent(high)}


def board_rows(pool: str) -> list[dict[str, Any]]:
    """The levels as the leaderboard lists them: name, rating, games against people."""
    rows = []
    for level in LEVELS:
        row = bot_rating(level, pool)
        rows.append({"level": level, "name": LABELS[level], "rating": shown(row.mu, row.sigma),
                     "games": row.games, "arena_deals": row.arena_deals})
    return rows


def ladder() -> dict[str, Any]:
    """Every level with its ratings and the arena's figures summed over every run kept:
    deals, wins with their 95% interval, the CPU time of a decision; and each pair."""
    runs = list(ArenaRun.objects.all())  # newest first
    played = {level: {"deals": 0, "won": 0, "lost": 0, "drawn": 0} for level in LEVELS}
    pairs: dict[tuple[str, str], dict[str, int]] = {}
    decided = dict.fromkeys(LEVELS, 0)  # decisions with a real choice, and their CPU time
    seconds = dict.fromkeys(LEVELS, 0.0)
    p95: dict[str, float] = {}  # the newest run's
    for run in runs:
        for pair in run.figures.get("pairs", []):
            a, b = pair["levels"]
            kept = pairs.setdefault((a, b), {"deals": 0, "a": 0, "b": 0, "drawn": 0})
            kept["deals"] += pair["deals"]
            kept["drawn"] += pair["drawn"]
            kept["a"] += pair["lost"][1]  # a won when b lost
            kept["b"] += pair["lost"][0]
            for level, won, lost in ((a, pair["lost"][1], pair["lost"][0]),
                                     (b, pair["lost"][0], pair["lost"][1])):
                played[level]["deals"] += pair["deals"]
                played[level]["won"] += won
                played[level]["lost"] += lost
                played[level]["drawn"] += pair["drawn"]
        for level, figures in run.figures.get("cpu", {}).items():
            if level in decided:
                decided[level] += figures["decisions"]
                seconds[level] += figures["seconds"]
                p95.setdefault(level, figures["p95"])
    levels = []
    for level in LEVELS:
        alone, teams = bot_rating(level, Rating.Pool.INDIVIDUAL), bot_rating(level, Rating.Pool.TEAMS)
        mine, decisions = played[level], decided[level]
        levels.append({
            "level": level, "name": LABELS[level],
            "rating": shown(alone.mu, alone.sigma), "games": alone.games,
            "team_rating": shown(teams.mu, teams.sigma), "team_games": teams.games,
            "arena_deals": mine["deals"], "won": _share(mine["won"], mine["deals"]),
            "lost": mine["lost"], "drawn": mine["drawn"], "decisions": decisions,
            "cpu_mean": f"{seconds[level] / decisions * 1000:.1f}" if decisions else "–",
            "cpu_p95": f"{p95[level] * 1000:.1f}" if level in p95 else "–",
        })
    return {
        "levels": levels,
        "pairs": [{"a": LABELS[a], "b": LABELS[b], "deals": p["deals"], "drawn": p["drawn"],
                   "a_won": _share(p["a"], p["deals"])} for (a, b), p in pairs.items()],
        "runs": len(runs), "deals": sum(run.deals for run in runs),
        "latest": runs[0] if runs else None,
        "budgets": sorted({run.budget for run in runs if run.budget is not None}),
        "own_budgets": any(run.budget is None for run in runs),
    }
