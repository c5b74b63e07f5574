"""How much a bot's choices give up against well-measured values: `python -m bench.regret`.

A quick yardstick beside the arena, whose mirrored deals need thousands to tell a few
points apart. Positions are taken along heuristic two-handed deals (something hidden, two
cards or more in the talon, a real choice). Each candidate move is valued once, by many
whole playouts on sampled deals common to all candidates (`--epsilon`: the noise of
Expert's playouts, 0 for Hard's). Then the bot chooses from each position's view, under
the CPU clock, once per `--seeds`; its regret is the best value less its choice's value.

    python -m bench.regret --positions 200 --samples 600 --save positions.json
    python -m bench.regret --load positions.json --bot expert:0.09 --seeds 2

The values favour whole playouts (they are made of them), so the yardstick compares
versions of one bot (a new evaluation, a new horizon), not Expert with Hard.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any, TypedDict

from games.bots import make_bot
from games.bots.heuristic import heuristic_action
from games.bots.leaf import stage
from games.bots.search import EXPERT_EPSILON, playout
from games.engine import Deal, Rules, View

from .leaffit import exchanged

STAGES = ("talon empty", "talon 1-6", "talon 7+")


class Position(TypedDict):
    view: View
    legal: list[str]  # the candidates' tokens
    values: list[float]  # each candidate's value for the seat to act
    talon: int


def positions(count: int, samples: int, epsilon: float, seed: str = "regret",
              share: float = 0.15) -> list[Position]:
    """`count` positions from heuristic deals (a `share` of the eligible moves), valued."""
    rng = random.Random(seed)
    out: list[Position] = []
    number = 0
    while len(out) < count:
        deal = Deal.start(Rules(players=2), seed=f"{seed}/{number}")
        number += 1
        while not deal.is_over and len(out) < count:
            if exchanged(deal):  # R25, out of turn
                continue
            seat = deal.to_act
            assert seat is not None
            legal = deal.legal_actions(seat)
            if len(legal) > 1 and deal.talon_size > 1 and rng.random() < share:
                view = deal.view(seat)
                totals = [0.0] * len(legal)
                for _ in range(samples):
                    world = Deal.sample(view, rng)
                    for i, action in enumerate(legal):
                        child = world.copy()
                        child.apply(seat, action)
                        totals[i] += playout(child, seat, rng=rng, epsilon=epsilon)
                out.append({"view": view, "legal": [a.token() for a in legal],
                            "values": [t / samples for t in totals], "talon": deal.talon_size})
            deal.apply(seat, heuristic_action(deal, seat, legal))
    return out


def regrets(items: list[Position], level: str, budget: float | None, seeds: int,
            first_seed: int = 0) -> dict[str, Any]:
    """The bot's mean regret over every position and seed, and by stage of the talon."""
    by_stage: list[list[float]] = [[], [], []]
    for item in items:
        top = max(item["values"])
        for s in range(first_seed, first_seed + seeds):
            bot = make_bot(level, seed=s, budget=budget)
            bot.clock = time.process_time
            token = bot.act(item["view"]).token()
            by_stage[stage(item["talon"])].append(top - item["values"][item["legal"].index(token)])
    every = [r for rows in by_stage for r in rows]
    return {"choices": len(every), "mean": sum(every) / len(every),
            "near_best": sum(r < 0.02 for r in every),
            "stages": {name: (sum(rows) / len(rows), len(rows))
                       for name, rows in zip(STAGES, by_stage) if rows}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.regret", description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--samples", type=int, default=300, help="playouts per candidate")
    parser.add_argument("--epsilon", type=float, default=EXPERT_EPSILON)
    parser.add_argument("--seed", default="regret")
    parser.add_argument("--save", metavar="FILE", help="keep the valued positions")
    parser.add_argument("--load", metavar="FILE", help="valued positions kept before")
    parser.add_argument("--bot", default="expert:0.09", help="level:budget (seconds of CPU)")
    parser.add_argument("--seeds", type=int, default=2, help="choices per position")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.load:
        with open(args.load) as f:
            items: list[Position] = json.load(f)
    else:
        items = positions(args.positions, args.samples, args.epsilon, args.seed)
        if args.save:
            with open(args.save, "w") as f:
                json.dump(items, f)
    level, _, budget = args.bot.partition(":")
    found = regrets(items, level, float(budget) if budget else None, args.seeds, args.first_seed)
    print(f"{args.bot}: mean regret {found['mean']:.4f} over {found['choices']} choices "
          f"({len(items)} positions), {found['near_best']} within 0.02 of the best")
    for name, (mean, n) in found["stages"].items():
        print(f"  {name}: {mean:.4f} over {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
