"""The full random-play sweep, a soak run outside the test tiers (docs/testing.md):

    python -m tests.engine.soak                 # 8 chunks x 256 deals, the fixed seeds
    python -m tests.engine.soak --seed 2026-12-04 --chunks 2 --deals 64 --jobs 2

Every chunk plays its deals at random seatings and options, each checked at every step,
and must cover every seating and every value of every option. Exits 1 on a failure, naming
the chunk's seed and the deal (replay one chunk with --seed and --chunks 1).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor

from tests.engine.randomplay import run_chunk


def one(seed: str, deals: int) -> tuple[str, dict[str, int] | str, float]:
    start = time.monotonic()
    try:
        result: dict[str, int] | str = dict(run_chunk(seed, deals))
    except Exception:  # reported, with the seed, by the parent
        result = traceback.format_exc()
    return seed, result, time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", default="random-play", help="chunk seeds: SEED/0, SEED/1, ...")
    parser.add_argument("--chunks", type=int, default=8)
    parser.add_argument("--deals", type=int, default=256, help="deals per chunk")
    parser.add_argument("--jobs", type=int, default=1, help="chunks played side by side")
    args = parser.parse_args(argv)
    seeds = [f"{args.seed}/{n}" for n in range(args.chunks)]
    failed = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for seed, result, took in pool.map(one, seeds, [args.deals] * len(seeds)):
            if isinstance(result, str):
                failed += 1
                print(f"chunk {seed!r}: FAILED in {took:.0f} s\n{result}", flush=True)
            else:
                print(f"chunk {seed!r}: {args.deals} deals ({result.get('lost', 0)} lost, "
                      f"{result.get('draw', 0)} drawn) in {took:.0f} s", flush=True)
    print(f"{args.chunks - failed} of {args.chunks} chunks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
