"""The standing arena of the computer players (docs/ladder.md): every pair of levels plays
two-player deals of the classic rules, each pack twice with the seats swapped so that the
luck of the deal cancels out, and the CPU time of every decision with a real choice is
measured (the search levels' budgets count CPU time, as the bench arena's --cpu-clock).
Pure: the site's `manage.py bot_ladder` stores the results and rates the levels.

>>> played = play_pairs(["easy", "medium"], deals=2, seed="doc", budget=0.0)
>>> [(d.levels, d.loser is None or d.loser in (0, 1)) for d in played.deals]
[(('easy', 'medium'), True), (('medium', 'easy'), True)]
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games.engine import Deal, Rules, full_deck

from . import make_bot

RULES = Rules(players=2)  # the classic rules, two players
MAX_ACTIONS = 5000  # a deal ends long before (the engine guarantees an end)


def bot_label(spec: tuple[str, float | None]) -> str:
    """A player of an arena's line-up as its results name it: `hard`, `expert:0.09` (a
    level and its budget, none for the level's own; bench/arena.py and the ladder)."""
    level, budget = spec
    return level if budget is None else f"{level}:{budget:g}"


@dataclass(frozen=True)
class ArenaDeal:
    """One deal: the level at each seat, the losing seat (None: drawn)."""

    levels: tuple[str, str]
    loser: int | None


@dataclass
class Played:
    """An arena's deals in the order played, and each level's CPU seconds per decision."""

    deals: list[ArenaDeal] = field(default_factory=list)
    cpu: dict[str, list[float]] = field(default_factory=dict)


def play_deal(levels: tuple[str, str], deck: list[str], dealer: int, seed: str,
              budget: float | None, cpu: dict[str, list[float]]) -> ArenaDeal:
    """One deal between the levels at seats 0 and 1; adds each decision's CPU time to `cpu`."""
    bots = [make_bot(level, seed=f"{seed}/{s}", budget=budget) for s, level in enumerate(levels)]
    for bot in bots:  # budgets in CPU seconds: other load on the machine weakens no level
        bot.clock = time.process_time
    deal = Deal.start(RULES, deck=deck, dealer=dealer)
    for _ in range(MAX_ACTIONS):
        if deal.is_over:
            return ArenaDeal(levels, None if deal.is_draw else deal.loser)
        # R25-R27: an out-of-turn exchange is offered to whoever may make it.
        seat = next((s for s in range(2) if s != deal.to_act and deal.legal_actions(s)),
                    deal.to_act)
        assert seat is not None  # the deal is not over
        view = deal.view(seat)
        start = time.process_time()
        action = bots[seat].act(view)
        if len(view["legal_actions"]) > 1:
            cpu.setdefault(levels[seat], []).append(time.process_time() - start)
        deal.apply(seat, action)
    raise RuntimeError("the deal did not end")  # pragma: no cover


def play_pairs(levels: Sequence[str], *, deals: int, seed: str, budget: float | None = None,
               progress: Callable[[ArenaDeal], None] | None = None) -> Played:
    """`deals` deals (rounded up to even) for each pair of `levels`, each pack from the seed
    played twice with the seats swapped; `budget`: seconds a move for the search levels
    (None: each level's own)."""
    played = Played()
    for a, b in itertools.combinations(levels, 2):
        for n in range(math.ceil(deals / 2)):
            rng = random.Random(f"{seed}/{a}-{b}/{n}")
            deck = [c.code for c in full_deck(RULES.deck_size)]
            rng.shuffle(deck)
            dealer = rng.randrange(2)
            for pair in ((a, b), (b, a)):
                result = play_deal(pair, deck, dealer, f"{seed}/{a}-{b}/{n}/{pair[0]}",
                                   budget, played.cpu)
                played.deals.append(result)
                if progress is not None:
                    progress(result)
    return played


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes out of n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]
