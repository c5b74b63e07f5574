"""The computer players' ladder (docs/ladder.md): each level's rating on the people's scale,
moved by the bot arena's deals (here) and by their rated games against people
(services.ratings), and the arena's runs kept with their figures for the ladder page."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction

from ..bots import LEVELS
from ..bots.arena import ArenaDeal, Played, percentile, play_pairs
from ..models import ArenaRun, BotRating, Rating
from .ratings import MODEL, locked_bot_ratings


def figures(played: Played) -> dict[str, Any]:
    """What a run keeps: per pair of levels (in the order given) deals, losses and draws;
    per level its decisions and their CPU seconds (the total and the 95th percentile)."""
    pairs: dict[str, dict[str, Any]] = {}
    for deal in played.deals:
        a, b = sorted(deal.levels, key=LEVELS.index)
        pair = pairs.setdefault(f"{a}-{b}", {"levels": [a, b], "deals": 0, "lost": [0, 0],
                                             "drawn": 0})
        pair["deals"] += 1
        if deal.loser is None:
            pair["drawn"] += 1
        else:
            pair["lost"][[a, b].index(deal.levels[deal.loser])] += 1
    cpu = {level: {"decisions": len(times), "seconds": sum(times),
                   "p95": percentile(times, 0.95)}
           for level, times in played.cpu.items()}
    return {"pairs": list(pairs.values()), "cpu": cpu}


def rate_arena(deals: Sequence[ArenaDeal]) -> dict[str, BotRating]:
    """Each arena deal rates its two levels against each other (the durak places last; a
    draw shares the place), in the individual pool; returns the rows as saved."""
    pool = Rating.Pool.INDIVIDUAL
    with transaction.atomic():
        rows = locked_bot_ratings([level for deal in deals for level in deal.levels], pool)
        for deal in deals:
            first, second = (rows[level] for level in deal.levels)
            ranks = [1.0, 1.0] if deal.loser is None else [2.0 if deal.loser == 0 else 1.0,
                                                            2.0 if deal.loser == 1 else 1.0]
            [[a], [b]] = MODEL.rate([[MODEL.rating(mu=first.mu, sigma=first.sigma)],
                                     [MODEL.rating(mu=second.mu, sigma=second.sigma)]],
                                    ranks=ranks)
            first.mu, first.sigma = a.mu, a.sigma
            second.mu, second.sigma = b.mu, b.sigma
            first.arena_deals += 1
            second.arena_deals += 1
        for row in rows.values():
            row.save(update_fields=["mu", "sigma", "arena_deals"])
    return rows


def run_arena(*, deals: int, levels: Sequence[str] = LEVELS, budget: float | None = None,
              seed: str | None = None,
              progress: Callable[[ArenaDeal], None] | None = None) -> ArenaRun:
    """Play the arena (`deals` for each pair of levels), rate the levels by it and keep the
    run's figures. The seed is secret-random unless given (a run is then repeatable)."""
    if deals < 1:
        raise ValueError("deals must be at least 1.")
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or len(set(levels)) < 2:
        raise ValueError(f"Give two or more of the levels {', '.join(LEVELS)}.")
    seed = seed or secrets.token_hex(8)
    start = time.monotonic()
    played = play_pairs(levels, deals=deals, seed=seed, budget=budget, progress=progress)
    seconds = time.monotonic() - start
    rate_arena(played.deals)
    return ArenaRun.objects.create(deals=len(played.deals), budget=budget, seed=seed,
                                   seconds=seconds, figures=figures(played))
