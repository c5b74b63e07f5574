"""Pairing benchmark: `python -m bench.pairing [--players N] [--rounds R] [--size K]`.

Plays R rounds of a Swiss for N players with random results and prints the time each
round's pairing took (games.tournament.pairing), the slowest and the rematches. Two-player
tables by default; `--size 3..6` pairs score groups instead. One core.
"""

from __future__ import annotations

import argparse
import random
import time

from games.tournament import History, Pairing, score_group_tables, swiss_pairs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--size", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    players = list(range(1, args.players + 1))
    points = dict.fromkeys(players, 0.0)
    history = History()
    slowest = 0.0
    for number in range(1, args.rounds + 1):
        ranked = sorted(players, key=lambda p: (-points[p], p))
        start = time.perf_counter()
        if args.size == 2:
            pairing: Pairing = swiss_pairs(ranked, history, points)
        else:
            pairing = score_group_tables(ranked, history, args.size)
        took = time.perf_counter() - start
        slowest = max(slowest, took)
        print(f"round {number}: {len(pairing.tables)} tables, {len(pairing.byes)} byes, "
              f"{pairing.repeats(history)} repeated meetings, paired in {took * 1000:.1f} ms")
        history.record(pairing)
        for table in pairing.tables:
            order = list(table)
            rng.shuffle(order)
            for place, player in enumerate(order):
                points[player] += len(order) - 1 - place
        for player in pairing.byes:
            points[player] += 1
    print(f"slowest round for {args.players} players: {slowest * 1000:.1f} ms")


if __name__ == "__main__":
    main()
