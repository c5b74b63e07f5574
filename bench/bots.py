"""Playout benchmark: `python -m bench.bots [--seconds S]`.

Prints heuristic playouts per second, the search bots' inner loop: from the deal's start
(`playout` of a fresh deal), and from mid-deal as the search runs them (`Deal.sample` of
the acting seat's view, `copy`, then `playout`). One core.
"""

from __future__ import annotations

import argparse
import random
import time

from games.bots.search import playout
from games.engine import Deal, Rules

CASES = [
    ("2 players", Rules(players=2)),
    ("4 players", Rules(players=4)),
    ("4 players 2x2 perevodnoy", Rules(players=4, teams="2x2", transfer=True)),
]


def bench_start(rules: Rules, seconds: float) -> float:
    """Full playouts per second from the deal's start."""
    rng = random.Random(1)
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        playout(Deal.start(rules, seed=rng.random()), 0)
        count += 1
    return count / elapsed


def bench_search(rules: Rules, seconds: float) -> float:
    """Sample + copy + playout per second from a position in mid-deal."""
    rng = random.Random(2)
    deal = Deal.start(rules, seed=3)
    for _ in range(12):  # the engine bench's position in mid-deal
        seat = deal.to_act
        assert seat is not None
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))
    rng = random.Random(4)
    seat = deal.to_act
    assert seat is not None
    view, team = deal.view(seat), rules.team_of(seat)
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        playout(Deal.sample(view, rng).copy(), team)
        count += 1
    return count / elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    args = parser.parse_args(argv)
    print(f"{'case':<28}{'playouts/s':>12}{'mid-deal/s':>12}")
    for name, rules in CASES:
        print(f"{name:<28}{bench_start(rules, args.seconds):>12.0f}"
              f"{bench_search(rules, args.seconds):>12.0f}")
    print("(playouts/s: heuristic playouts of fresh deals; mid-deal/s: Deal.sample of the"
          " acting seat's view + copy + playout, as the search runs them)")


if __name__ == "__main__":
    main()
