"""Fit Expert's leaf evaluation (games/bots/leaf.py): `python -m bench.leaffit`.

Two-handed deals are played by the heuristic; from positions along them, Expert's noisy
playouts (its epsilon) run to the end on deals sampled from the view of the seat to act.
Every bout's start along a playout is a row: its `leaf.features` from each seat's side
and that seat's result. A logistic regression per stage of the talon (Newton's method)
gives the weights; the log loss against always saying the stage's mean is printed beside.
"""

from __future__ import annotations

import argparse
import math
import random

from games.bots.heuristic import card_values, heuristic_action
from games.bots.leaf import features as leaf_features
from games.bots.leaf import stage
from games.bots.search import EXCHANGE, EXPERT_EPSILON, outcome
from games.engine import Deal, ExchangeTrump, Rules

type Row = tuple[list[float], float]


def exchanged(deal: Deal) -> bool:
    """Make the trump exchange a seat may make out of turn (R25); True if one was made."""
    holder = deal.exchanger
    if holder is not None and holder != deal.to_act:
        deal.apply(holder, EXCHANGE)
        return True
    return False


def rows_of_playout(deal: Deal, rng: random.Random, epsilon: float) -> list[tuple[int, Row, int]]:
    """(stage, (features, placeholder), seat) at every bout start; results filled after."""
    vals = card_values(deal.trump, deal.rules.deck_size)
    marks: list[tuple[int, list[float], int]] = []
    steps = 0
    while not deal.is_over and steps < 2000:
        steps += 1
        if exchanged(deal):
            continue
        seat = deal.to_act
        assert seat is not None
        legal = deal.legal_actions(seat)
        if rng.random() < epsilon:
            action = legal[rng.randrange(len(legal))]
        else:
            action = heuristic_action(deal, seat, legal, vals=vals)
        deal.apply(seat, action)
        if not deal.table and not deal.is_over and type(action) is not ExchangeTrump:
            st = stage(deal.talon_size)
            for me in (0, 1):
                marks.append((st, leaf_features(deal, me, 1 - me, vals), me))
    if not deal.is_over:
        return []
    return [(st, (x, outcome(deal, me)), me) for st, x, me in marks]


def collect(rules: Rules, deals: int, seed: str, per_position: int) -> list[list[Row]]:
    rng = random.Random(seed)
    by_stage: list[list[Row]] = [[], [], []]
    for i in range(deals):
        deal = Deal.start(rules, seed=f"{seed}/{i}")
        while not deal.is_over:
            if exchanged(deal):
                continue
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if rng.random() < 0.3:
                for _ in range(per_position):
                    for st, row, _me in rows_of_playout(Deal.sample(view, rng), rng, EXPERT_EPSILON):
                        by_stage[st].append(row)
            deal.apply(seat, heuristic_action(deal, seat))
    return by_stage


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(rows: list[Row], ridge: float = 1e-3, rounds: int = 12) -> list[float]:
    k = len(rows[0][0])
    w = [0.0] * k
    for _ in range(rounds):
        grad = [0.0] * k
        hess = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in rows:
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))))
            g = p - y
            h = p * (1 - p)
            for i in range(k):
                grad[i] += g * x[i]
                hi = hess[i]
                for j in range(k):
                    hi[j] += h * x[i] * x[j]
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
    return w


def log_loss(rows: list[Row], w: list[float] | None) -> float:
    mean = sum(y for _, y in rows) / len(rows)
    total = 0.0
    for x, y in rows:
        p = mean if w is None else 1 / (1 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.leaffit", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--per-position", type=int, default=3)
    parser.add_argument("--seed", default="leaf")
    parser.add_argument("--preset", default="classic", choices=["classic", "perevodnoy"])
    args = parser.parse_args(argv)
    rules = Rules(players=2, transfer=args.preset == "perevodnoy")
    by_stage = collect(rules, args.deals, args.seed, args.per_position)
    print("WEIGHTS = (")
    for st, rows in enumerate(by_stage):
        half = len(rows) // 2  # fit on one half, judge on the other
        w = fit(rows[:half])
        print(f"    ({', '.join(f'{v:.3f}' for v in w)}),  # stage {st}: {len(rows)} rows, held-out "
              f"log loss {log_loss(rows[half:], w):.3f} (the mean alone {log_loss(rows[half:], None):.3f})")
    print(")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
