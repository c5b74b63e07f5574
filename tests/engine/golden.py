"""A golden trace of the engine and the heuristic: deals played at fixed seeds under many rule
sets, by the heuristic (as the search's playouts run it), by a tweaked heuristic, and by
random legal moves, hashing at every step every seat's `legal_actions`, the acting seat's
`view()` JSON, `key()`, the refusal of a random action, a `Deal.sample`, and the final state.

The digests below were computed from the engine before it was optimized for speed: any
change of behaviour changes them. `python -m tests.engine.golden
[--deals N]` prints the digest (the full check: `--deals 300`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

from games.bots.heuristic import Params, heuristic_action
from games.engine import (
    ALL_CARDS,
    Attack,
    Deal,
    Defend,
    ExchangeTrump,
    IllegalAction,
    Pass,
    Rules,
    Take,
    Transfer,
)

RULE_SETS = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=4, teams="2x2", transfer=True),
    Rules(players=6),
    Rules(players=6, teams="2x3"),
    Rules(players=6, teams="3x2", transfer=True, throw_in="main_only"),
    Rules(players=2, deck_size=24),
    Rules(players=4, deck_size=24),  # every card dealt: the dealer's last card is trump (R4)
    Rules(players=2, trump_exchange="off"),
    Rules(players=3, trump_exchange="six_if_ace", transfer=True),
    Rules(players=2, deck_size=52, lead_multiple=True, attack_limit=4, first_bout_limit=5),
    Rules(players=5, hand_size=5, throw_in="all", next_deal_start="loser_right"),
    Rules(players=3, throw_in="neighbours", lead_multiple=True, transfer=True),
]
TWEAKED = Params(pair_bonus=0.5, throw_rank_early=12, take_trumps=1, take_high_trump=10,
                 transfer_trump_talon=4, lead_trump_penalty=3.0)
POLICIES = ("heuristic", "tweaked", "random")
MAX_STEPS = 2000
SIMPLE = (Take(), Pass(), ExchangeTrump())

# sha256 of `digest(FAST_DEALS)` and `digest(300)`, from main's engine before its speed
# optimizations (commit 758e37d).
FAST_DEALS = 4
FAST_DIGEST = "26109aacdc1008e9c6d7593f4b17bf3c22f2b4154abf545790c6ffe38af03f91"
FULL_DIGEST = "29899ac62e54b5991fafe670f5dfaf128fb8db11ecf654c210097c2e1e2ded5d"


def random_action(rng: random.Random, deal: Deal) -> object:
    """Any action at all, mostly illegal: a card from anywhere in the pack."""
    kind = rng.randrange(6)
    card = ALL_CARDS[rng.randrange(len(ALL_CARDS))]
    if kind == 0:
        return Attack(card)
    if kind == 1:
        attacks = [a for a, _ in deal.table] or [ALL_CARDS[rng.randrange(len(ALL_CARDS))]]
        return Defend(attacks[rng.randrange(len(attacks))], card)
    if kind == 2:
        return Transfer(card)
    return SIMPLE[kind - 3]


def play(rules: Rules, policy: str, seed: int, h: hashlib._Hash) -> None:
    rng = random.Random(seed)
    deal = Deal.start(rules, seed=seed, dealer=seed % rules.players,
                      opener=None if seed % 3 else seed % rules.players)
    params = TWEAKED if policy == "tweaked" else Params()
    steps = 0
    while not deal.is_over and steps < MAX_STEPS:
        steps += 1
        seat = deal.to_act
        assert seat is not None
        for s in range(rules.players):
            h.update(" ".join(a.token() for a in deal.legal_actions(s)).encode())
        h.update(repr(deal.key()).encode())
        h.update(repr(deal.exchanger).encode())
        view = deal.view(seat)
        h.update(json.dumps(view).encode())
        if steps % 5 == 0:
            h.update(json.dumps(deal.view(None)).encode())
        if steps % 7 == 0:  # an imagined deal from this view
            h.update(Deal.sample(view, random.Random(steps)).to_json().encode())
        trial = deal.copy()
        action = random_action(rng, deal)
        actor = rng.randrange(rules.players) if rng.random() < 0.2 else seat
        try:
            trial.apply(actor, action)  # type: ignore[arg-type]
            h.update(b"ok" + repr(trial.key()).encode())
        except IllegalAction as exc:
            h.update(f"{exc.code} {exc.params} {exc}".encode())
            assert trial == deal, "a refused action changed the deal"
        if steps % 3 == 0:
            deal = deal.copy()  # the rest of the deal is played on a copy
        holder = deal.exchanger
        if policy == "random":
            if holder is not None and rng.random() < 0.5:
                deal.apply(holder, ExchangeTrump())
                continue
            legal = deal.legal_actions(seat)
            deal.apply(seat, legal[rng.randrange(len(legal))])
            continue
        if holder is not None and holder != seat:
            deal.apply(holder, ExchangeTrump())  # as the search's playouts do
            continue
        deal.apply(seat, heuristic_action(deal, seat, None, params))
    h.update(deal.to_json().encode())
    h.update(repr((deal.loser, deal.losing_team, deal.is_draw, sorted(deal.out))).encode())


def digest(deals: int) -> str:
    h = hashlib.sha256()
    for r, rules in enumerate(RULE_SETS):
        for policy in POLICIES:
            for i in range(deals):
                play(rules, policy, 1000 * r + i, h)
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description="The engine's golden digest.")
    parser.add_argument("--deals", type=int, default=FAST_DEALS, help="deals per rule set and policy")
    args = parser.parse_args()
    start = time.perf_counter()
    value = digest(args.deals)
    expected = {FAST_DEALS: FAST_DIGEST, 300: FULL_DIGEST}.get(args.deals)
    verdict = "" if expected is None else (" (as before)" if value == expected else " CHANGED")
    print(f"{value}{verdict}  {time.perf_counter() - start:.1f} s")
    if verdict == " CHANGED":
        raise SystemExit(1)


if __name__ == "__main__":
    main()
