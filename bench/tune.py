"""Self-play tuning of the heuristic's knobs: `python -m bench.tune`.

Coordinate search: each knob in turn is nudged up and down, and a nudge is kept when the
nudged heuristic loses clearly less often than the current best over mirrored deals
(each deck played twice, seats swapped) against it. The result became EXPERT_PARAMS.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
from dataclasses import asdict, fields, replace
from typing import TYPE_CHECKING, Any

from games.bots.heuristic import DEFAULT, Params, heuristic_action
from games.bots.search import EXCHANGE
from games.engine import Deal, Rules

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

STEPS = {
    "pair_bonus": 1.0, "throw_rank_early": 1, "throw_rank_late": 1, "late_talon": 2,
    "take_talon": 2, "take_trumps": 1, "take_high_trump": 1, "transfer_trump_talon": 2,
    "lead_trump_penalty": 2.0,
}


def play(rules: Rules, seed: str, seat_params: list[Params]) -> Deal:
    deal = Deal.start(rules, seed=seed)
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        holder = deal.exchanger
        if holder is not None and holder != seat:
            deal.apply(holder, EXCHANGE)  # R25-R27, out of turn
            continue
        deal.apply(seat, heuristic_action(deal, seat, None, seat_params[seat]))
    return deal


# (rules, tuned knobs, other knobs, seed, first deck, number of decks); dicts pickle lightly.
type Job = tuple[dict[str, Any], dict[str, Any], dict[str, Any], str, int, int]


def _chunk(job: Job) -> tuple[int, int]:
    rules_dict, a, b, seed, start, count = job
    rules = Rules.from_dict(rules_dict)
    pa, pb = Params(**a), Params(**b)
    n = rules.players
    lost = played = 0
    for i in range(start, start + count):
        for k in range(n):  # rotate: the tuned knobs sit at each seat once
            seats = [pa if (s - k) % n == 0 else pb for s in range(n)]
            deal = play(rules, f"{seed}/{i}", seats)
            played += int(not deal.is_draw)  # draws say nothing about who plays better
            lost += int(not deal.is_draw and deal.losing_team == rules.team_of(k % n))
    return lost, played


def loss_rate(rules: Rules, a: Params, b: Params, decks: int, seed: str, pool: Pool) -> float:
    """A's share of the lost deals against B at a mirrored table (A at one seat, B at
    the others; draws left out): 1/players when they are equally good."""
    step = max(1, decks // 16)
    jobs: list[Job] = [(rules.to_dict(), asdict(a), asdict(b), seed, s, min(step, decks - s))
                       for s in range(0, decks, step)]
    results = pool.map(_chunk, jobs)
    played = sum(r[1] for r in results)
    if not played:  # only draws: nothing tells A from B
        return 1 / rules.team_count
    return sum(r[0] for r in results) / played


def tune(rules: Rules, decks: int, rounds: int, margin: float, workers: int, seed: str) -> Params:
    best = DEFAULT
    with multiprocessing.get_context("forkserver").Pool(workers) as pool:
        for r in range(rounds):
            improved = False
            for f in fields(Params):
                for sign in (+1, -1):
                    value = getattr(best, f.name) + sign * STEPS[f.name]
                    trial = replace(best, **{f.name: type(getattr(best, f.name))(value)})
                    rate = loss_rate(rules, trial, best, decks, f"{seed}/{r}/{f.name}/{sign}", pool)
                    fair = 1 / rules.team_count
                    print(f"round {r} {f.name}={value}: loss rate {rate:.3f} vs {fair:.3f}", flush=True)
                    if rate < fair - margin:
                        best, improved = trial, True
                        print(f"  kept: {best}", flush=True)
                        break
            if not improved:
                break
    return best


def _at_least_one(text: str) -> int:
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError("needs at least 1")
    return number


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tune", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--transfer", action="store_true")
    parser.add_argument("--decks", type=_at_least_one, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--margin", type=float, default=0.015)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", default=str(random.Random().random()))
    args = parser.parse_args(argv)
    rules = Rules(players=args.players, transfer=args.transfer)
    best = tune(rules, args.decks, args.rounds, args.margin, args.workers, args.seed)
    print("best:", best)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
