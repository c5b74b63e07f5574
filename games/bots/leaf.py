"""Expert's leaf evaluation: a two-handed deal's chances from the hands at a bout's start.

Expert's playouts stop a few bouts in (`search.HORIZON`) and score the position by
`win_chance` instead of playing to the end: more sampled deals fit the budget, and a
chance varies less than a 0/1 result. The weights are a logistic regression per stage of
the talon, fitted to the results of Expert's own noisy playouts (`python -m
bench.leaffit`, docs/arena/expert.md).
"""

from __future__ import annotations

import math

from games.engine import Deal

# Stages by the talon's size: empty, short (1-6), long (7 and more).
SHORT_TALON = 6
# Per stage: bias, hand sizes' difference, trumps' difference, high trumps' (Q and up)
# difference, mean card values' difference, attacking next (+1) or defending (-1).
WEIGHTS: tuple[tuple[float, ...], ...] = (  # bench.leaffit --deals 300 --seed leaf1
    (0.0, -0.351, 0.088, 0.024, 1.071, 0.649),
    (0.0, 0.021, -0.005, -0.022, 1.058, 0.129),
    (0.0, 0.018, 0.054, 0.063, 0.287, 0.056),
)


def stage(talon: int) -> int:
    return 0 if talon == 0 else 1 if talon <= SHORT_TALON else 2


def features(deal: Deal, me: int, other: int, vals: list[int]) -> list[float]:
    """The position's features from `me`'s side, at the start of a bout (table empty)."""
    trump = deal.trump
    out = [1.0]
    mine, theirs = deal.hand(me), deal.hand(other)
    out.append(float(len(mine) - len(theirs)))
    t_me = t_other = h_me = h_other = 0
    v_me = v_other = 0
    for c in mine:
        v_me += vals[c.index]
        if c.suit == trump:
            t_me += 1
            h_me += c.rank >= 12
    for c in theirs:
        v_other += vals[c.index]
        if c.suit == trump:
            t_other += 1
            h_other += c.rank >= 12
    out.append(float(t_me - t_other))
    out.append(float(h_me - h_other))
    mean_me = v_me / len(mine) if mine else 0.0
    mean_other = v_other / len(theirs) if theirs else 0.0
    out.append((mean_me - mean_other) / 4.0)
    out.append(1.0 if deal.to_act == me else -1.0)
    return out


def win_chance(deal: Deal, me: int, other: int, vals: list[int]) -> float:
    """`me`'s chance to win (not to be the durak), by the fitted weights."""
    x = features(deal, me, other, vals)
    w = WEIGHTS[stage(deal.talon_size)]
    z = sum(a * b for a, b in zip(w, x))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


__all__ = ["features", "win_chance", "stage", "WEIGHTS"]
