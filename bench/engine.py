"""Random-play benchmark: `python -m bench.engine [--seconds S]`.

Prints complete random deals per second for 2, 4 and 6 players, microseconds per
`legal_actions` + `apply`, and the costs a search pays per imagined deal in mid-play:
`Deal.copy()`, `Deal.sample(view)` and `deal.key()`. One core.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from games.engine import Deal, Rules

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


def mid_deal(rules: Rules) -> Deal:
    rng = random.Random(2)
    deal = Deal.start(rules, seed=3)
    for _ in range(12):  # a position in mid-deal
        seat = deal.to_act
        assert seat is not None
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))
    return deal


def per_call_us(fn: Callable[[], object], count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        fn()
    return (time.perf_counter() - start) / count * 1e6


def bench_copy(rules: Rules, count: int = 20000) -> float:
    return per_call_us(mid_deal(rules).copy, count)


def bench_sample(rules: Rules, count: int = 5000) -> float:
    deal = mid_deal(rules)
    view, rng = deal.view(deal.to_act), random.Random(4)
    return per_call_us(lambda: Deal.sample(view, rng), count)


def bench_key(rules: Rules, count: int = 20000) -> float:
    return per_call_us(mid_deal(rules).key, count)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per case")
    args = parser.parse_args(argv)
    print(f"{'case':<28}{'deals/s':>10}{'us/step':>10}{'copy us':>10}{'sample us':>11}{'key us':>9}")
    for name, rules in CASES:
        rate, per_step = bench_deals(rules, args.seconds)
        print(f"{name:<28}{rate:>10.0f}{per_step:>10.1f}{bench_copy(rules):>10.2f}"
              f"{bench_sample(rules):>11.1f}{bench_key(rules):>9.2f}")
    print("(step = one legal_actions + apply; copy, sample (Deal.sample of the acting seat's"
          " view) and key in mid-deal)")


if __name__ == "__main__":
    main()
