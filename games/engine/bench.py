"""Random-play benchmark: `python -m games.engine.bench [--seconds S]`.

Prints complete random deals per second for 2, 4 and 6 players, microseconds per
`legal_actions` + `apply`, and the cost of copying a deal mid-play. One core.
"""

from __future__ import annotations

import argparse
import random
import time

from .deal import Deal
from .rules import Rules

CASES = [
    ("2 players", Rules(players=2)),
    ("4 players", Rules(players=4)),
    ("6 players", Rules(players=6)),
    ("4 players 2x2 perevodnoy", Rules(players=4, teams="2x2", transfer=True)),
]


def play(rules: Rules, rng: random.Random) -> int:
    deal = Deal.start(rules, seed=rng.random())
    steps = 0
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        actions = deal.legal_actions(seat)
        deal.apply(seat, actions[rng.randrange(len(actions))])
        steps += 1
    return steps


def bench_deals(rules: Rules, seconds: float) -> tuple[float, float]:
    rng = random.Random(1)
    deals = steps = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += play(rules, rng)
        deals += 1
    return deals / elapsed, elapsed / steps * 1e6


def bench_copy(rules: Rules, count: int = 20000) -> float:
    rng = random.Random(2)
    deal = Deal.start(rules, seed=3)
    for _ in range(12):  # a position in mid-deal
        seat = deal.to_act
        assert seat is not None
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))
    start = time.perf_counter()
    for _ in range(count):
        deal.copy()
    return (time.perf_counter() - start) / count * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per case")
    args = parser.parse_args(argv)
    print(f"{'case':<28}{'deals/s':>10}{'us/step':>10}{'copy us':>10}")
    for name, rules in CASES:
        rate, per_step = bench_deals(rules, args.seconds)
        print(f"{name:<28}{rate:>10.0f}{per_step:>10.1f}{bench_copy(rules):>10.2f}")
    print("(step = one legal_actions + apply; copy = Deal.copy() in mid-deal)")


if __name__ == "__main__":
    main()
