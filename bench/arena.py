"""Bots against bots: `python -m bench.arena --bots hard,medium --deals 2000`.

Every deck is played once per distinct rotation of the line-up round the table (two
players: each bot gets each hand once), so luck in the deal cancels out. Deals run in
parallel on the machine's cores. Prints each bot's loss rate with a 95% Wilson interval
and its mean and 95th-percentile think time per decision (moves with a real choice).

A bot is `level` or `level:budget` (seconds), e.g. `--bots hard:0.2,medium`.
Think times are wall-clock, with the CPU time's 95th percentile beside them (what a
budget counts under --cpu-clock, and the wall time on a quiet machine); budgets are
wall-clock too, unless --cpu-clock. With fewer
bots than seats the line-up repeats (hard,medium at four seats: hard,medium,hard,medium;
with teams 2x2 that puts each bot on one team).

A long run can be played in parts: `--first-deck` starts at a later deck of the same
seed, `--save FILE` appends each deck's results as it finishes (a stopped run keeps its
finished decks), and `--tally FILE...` reports the saved parts together.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import random
import sys
import time
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NotRequired, TextIO, TypedDict

import games.bots
from games.bots import LEVELS, TRIAL_LEVELS, make_bot
from games.bots.arena import bot_label
from games.engine import Deal, Rules, full_deck

PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "perevodnoy": {"transfer": True},
    "prostoy": {"throw_in": "main_only"},
}

type BotSpec = tuple[str, float | None]  # level, budget (None: the level's default)


class DealResult(TypedDict):
    loser: int | None
    losing_team: int | None
    draw: bool
    times: list[list[float]]  # per seat: think times of the moves with a real choice
    cpu_times: NotRequired[list[list[float]]]  # the same moves' CPU times
    lineup: NotRequired[list[BotSpec]]  # added by _play_deck
    deck: NotRequired[int]  # added by _play_deck


class BotStats(TypedDict):
    units: int
    losses: int
    draws: int
    times: list[float]
    cpu_times: list[float]


# (rules, deck number, seed, line-ups, cpu_clock)
type DeckJob = tuple[dict[str, Any], int, str, list[list[BotSpec]], bool]


def parse_bot(spec: str) -> BotSpec:
    level, _, budget = spec.strip().partition(":")
    if level not in LEVELS + TRIAL_LEVELS:
        raise argparse.ArgumentTypeError(f"unknown bot {level!r}: use one of "
                                         f"{', '.join(LEVELS + TRIAL_LEVELS)}")
    return level, float(budget) if budget else None


def rotations[T](lineup: list[T]) -> list[list[T]]:
    """Distinct rotations of the line-up round the table."""
    seen: set[tuple[T, ...]] = set()
    out: list[list[T]] = []
    for k in range(len(lineup)):
        rot = lineup[k:] + lineup[:k]
        key = tuple(rot)
        if key not in seen:
            seen.add(key)
            out.append(rot)
    return out


# What the arena's bots are made of (a new module they use belongs here): the engine's
# modules, and these modules of the bots (not the coach).
BOT_MODULES = ("__init__.py", "base.py", "heuristic.py", "ismcts.py", "leaf.py", "search.py")


def bot_code() -> str:
    """A fingerprint of the sources the bots play by: the parts of one run must be played
    by the same bots. Files are named as `engine/deal.py`, `bots/search.py`, so the
    fingerprint does not depend on where the arena itself lives."""
    bots = Path(games.bots.__file__).resolve().parent
    engine = list((bots.parent / "engine").glob("*.py"))
    digest = hashlib.sha256()
    for path in sorted([*engine, *(bots / name for name in BOT_MODULES)]):
        digest.update(f"{path.parent.name}/{path.name}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def play_deal(rules: Rules, deck: list[str], dealer: int, lineup: list[BotSpec], seed: str,
              cpu_clock: bool = False) -> DealResult:
    """One deal; the line-up's bot at each seat. Result and think times per seat."""
    bots = [make_bot(level, seed=f"{seed}/{s}", budget=budget) for s, (level, budget) in enumerate(lineup)]
    if cpu_clock:
        for bot in bots:
            bot.clock = time.process_time  # budgets in CPU seconds (search bots)
    deal = Deal.start(rules, deck=deck, dealer=dealer)
    times: list[list[float]] = [[] for _ in lineup]
    cpu_times: list[list[float]] = [[] for _ in lineup]
    moves = 0
    while not deal.is_over:
        # R25-R27: an out-of-turn exchange is offered to whoever may make it.
        acted = False
        for s in range(rules.players):
            if s != deal.to_act and deal.legal_actions(s):
                deal.apply(s, bots[s].act(deal.view(s)))
                acted = True
        if acted:
            continue
        seat = deal.to_act
        assert seat is not None  # the deal is not over
        view = deal.view(seat)
        choice = len(view["legal_actions"]) > 1
        t0, c0 = time.perf_counter(), time.process_time()
        action = bots[seat].act(view)
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
        if choice:
            times[seat].append(elapsed)
            cpu_times[seat].append(cpu)
        deal.apply(seat, action)
        moves += 1
        if moves > 5000:  # pragma: no cover - the engine guarantees an end
            raise RuntimeError("deal does not end")
    return {"loser": deal.loser, "losing_team": deal.losing_team, "draw": deal.is_draw,
            "times": times, "cpu_times": cpu_times}


def deck_for(rules: Rules, seed: str, index: int) -> tuple[list[str], int]:
    """The seed's deck number `index`: the pack (codes, top first) and the dealer."""
    rng = random.Random(f"{seed}/deck/{index}")
    pack = [c.code for c in full_deck(rules.deck_size)]
    rng.shuffle(pack)
    return pack, rng.randrange(rules.players)


def _play_deck(job: DeckJob) -> list[DealResult]:
    rules_dict, index, seed, lineups, cpu_clock = job
    rules = Rules.from_dict(rules_dict)
    pack, dealer = deck_for(rules, seed, index)
    results: list[DealResult] = []
    for r, lineup in enumerate(lineups):
        res = play_deal(rules, pack, dealer, lineup, f"{seed}/{index}/{r}", cpu_clock)
        res["lineup"] = lineup
        res["deck"] = index
        results.append(res)
    return results


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes out of n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    i = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[i]


def tally(rules: Rules, all_results: list[DealResult]) -> dict[str, BotStats]:
    """Per bot label: units (seat-deals, or team-deals in team play), losses, draws, times."""
    stats: defaultdict[str, BotStats] = defaultdict(
        lambda: {"units": 0, "losses": 0, "draws": 0, "times": [], "cpu_times": []}
    )
    for res in all_results:
        lineup = [bot_label(b) for b in res["lineup"]]
        if rules.teams:
            sides: defaultdict[int, list[int]] = defaultdict(list)
            for s in range(rules.players):
                sides[rules.team_of(s)].append(s)
            units = [(team, "+".join(sorted(set(lineup[s] for s in seats)))) for team, seats in sides.items()]
            lost = res["losing_team"]
        else:
            units = [(s, lineup[s]) for s in range(rules.players)]
            lost = res["loser"]
        for side, label in units:
            st = stats[label]
            st["units"] += 1
            st["losses"] += int(not res["draw"] and lost == side)
            st["draws"] += int(res["draw"])
        for s, times in enumerate(res["times"]):
            stats[lineup[s]]["times"].extend(times)
        for s, times in enumerate(res.get("cpu_times", [])):  # parts saved before it lack it
            stats[lineup[s]]["cpu_times"].extend(times)
    return stats


def report(rules: Rules, stats: Mapping[str, BotStats], deals: int, draws: int, elapsed: float | None,
           out: TextIO | None = None) -> None:
    out = out or sys.stdout
    sides = rules.team_count
    print(f"rules: {json.dumps(rules.to_dict(), separators=(',', ':'))}", file=out)
    took = "" if elapsed is None else f" in {elapsed:.0f} s"
    print(f"{deals} deals ({draws} drawn){took}; a fair share of losses is "
          f"1/{sides} = {1 / sides:.1%} per {'team' if rules.teams else 'seat'}", file=out)
    print(f"{'bot':<16}{'played':>8}{'lost':>7}{'loss rate':>11}{'95% CI':>17}"
          f"{'moves':>8}{'mean ms':>9}{'p95 ms':>9}{'max ms':>11}{'cpu p95':>9}", file=out)
    for label, st in sorted(stats.items()):
        n, k = st["units"], st["losses"]
        lo, hi = wilson(k, n)
        times = st["times"]
        mean = sum(times) / len(times) * 1000 if times else 0.0
        cpu = st["cpu_times"]
        cpu_p95 = f"{percentile(cpu, 0.95) * 1000:.1f}" if cpu else "-"
        print(f"{label:<16}{n:>8}{k:>7}{k / n if n else 0:>11.1%}{f'[{lo:.1%}, {hi:.1%}]':>17}"
              f"{len(times):>8}{mean:>9.1f}{percentile(times, 0.95) * 1000:>9.1f}"
              f"{(max(times) if times else 0) * 1000:>11.1f}{cpu_p95:>9}", file=out)


def tally_files(paths: list[str], out: TextIO | None = None) -> int:
    """Report saved parts of runs together. They must share the rules and the bots' code
    (parts saved before the code was recorded are taken as they are); a deck saved twice
    (same seed and deck) counts once."""
    rules: dict[str, Any] | None = None
    codes: set[str] = set()
    seen: set[tuple[str, int]] = set()
    results: list[DealResult] = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, text in enumerate(f, 1):
                if not text.strip():
                    continue
                line = json.loads(text)
                if rules is None:
                    rules = line["rules"]
                elif line["rules"] != rules:
                    print(f"{path}:{n}: other rules than the first file's; not tallied", file=sys.stderr)
                    return 2
                if line.get("code"):
                    codes.add(line["code"])
                    if len(codes) > 1:
                        print(f"{path}:{n}: played by other bots than the lines before "
                              f"({', '.join(sorted(codes))}); not tallied", file=sys.stderr)
                        return 2
                key = (str(line["seed"]), int(line["deck"]))
                if key in seen:
                    continue
                seen.add(key)
                for res in line["results"]:
                    res["lineup"] = [(level, budget) for level, budget in res["lineup"]]
                    results.append(res)
    if rules is None:
        print("no saved results in those files", file=sys.stderr)
        return 2
    parsed = Rules.from_dict(rules)
    report(parsed, tally(parsed, results), len(results), sum(r["draw"] for r in results), None, out)
    seeds = sorted({s for s, _ in seen})
    print(f"{len(seen)} decks from seed(s) {', '.join(seeds)}; bots' code "
          f"{', '.join(sorted(codes)) or 'not recorded'} (now {bot_code()})", file=out or sys.stdout)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog="\n".join(__doc__.splitlines()[2:]),
    )
    parser.add_argument("--bots", default="hard,medium", help="line-up, e.g. hard:0.2,medium")
    parser.add_argument("--deals", type=int, default=200, help="deals in all (rounded up to whole mirrored sets)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", default=None, help="2x2, 2x3 or 3x2")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--rule", action="append", default=[], metavar="OPTION=VALUE",
                        help="any rule option of docs/rules.md section 9, e.g. --rule deck_size=24")
    parser.add_argument("--budget", type=float, default=None,
                        help="thinking time per move in seconds for bots without their own")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--first-deck", type=int, default=0,
                        help="play the seed's decks from this one on (to play a run in parts)")
    parser.add_argument("--save", metavar="FILE", default=None,
                        help="append each deck's results to FILE (JSON lines) as it finishes")
    parser.add_argument("--tally", metavar="FILE", nargs="+", default=None,
                        help="play nothing: report the results saved in these files together")
    parser.add_argument("--cpu-clock", action="store_true",
                        help="count budgets in CPU seconds of the bot's process (think times "
                             "are still wall-clock): other load on the machine then does not "
                             "weaken the search bots")
    args = parser.parse_args(argv)
    if args.tally:
        return tally_files(args.tally)

    options: dict[str, Any] = dict(PRESETS[args.preset], players=args.players, teams=args.teams)
    for item in args.rule:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    rules = Rules.from_dict(options)
    specs = [parse_bot(s) for s in args.bots.split(",") if s.strip()]
    specs = [(lvl, b if b is not None else args.budget) for lvl, b in specs]
    lineup = [specs[s % len(specs)] for s in range(rules.players)]
    lineups = rotations(lineup)
    decks = max(1, math.ceil(args.deals / len(lineups)))
    first = max(0, args.first_deck)
    jobs = [(rules.to_dict(), i, args.seed, lineups, args.cpu_clock) for i in range(first, first + decks)]
    start = time.perf_counter()
    results: list[DealResult] = []
    save = open(args.save, "a", encoding="utf-8") if args.save else None
    code = bot_code()

    def keep(batch: list[DealResult]) -> None:
        results.extend(batch)
        if save:
            deck = batch[0]["deck"] if batch else None
            line = {"rules": rules.to_dict(), "seed": args.seed, "deck": deck,
                    "cpu_clock": args.cpu_clock, "code": code, "results": batch}
            save.write(json.dumps(line, separators=(",", ":")) + "\n")
            save.flush()

    try:
        if args.workers > 1:
            # forkserver: forking a multi-threaded process (a test runner) may deadlock.
            with multiprocessing.get_context("forkserver").Pool(args.workers) as pool:
                for batch in pool.imap_unordered(_play_deck, jobs):
                    keep(batch)
        else:
            for job in jobs:
                keep(_play_deck(job))
    finally:
        if save:
            save.close()
    elapsed = time.perf_counter() - start
    stats = tally(rules, results)
    report(rules, stats, len(results), sum(r["draw"] for r in results), elapsed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
