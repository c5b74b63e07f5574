"""Random play under every option combination, checking the API's promises at each step."""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from collections import defaultdict
from datetime import UTC, datetime

from games.engine import (
    Attack,
    Card,
    Deal,
    Defend,
    ExchangeTrump,
    IllegalAction,
    Pass,
    Rules,
    Take,
    Transfer,
)
from games.engine.cards import beats, full_deck

CODE = re.compile(r"^[2-9TJQKA][SHDC]$")
QUOTED_CODE = re.compile(r'"([2-9TJQKA][SHDC])"')
OPTIONS = dict(
    deck_size=(24, 36, 52), hand_size=(5, 6), attack_limit=(1, 2, 4, 6), first_bout_limit=(5, 6),
    lead_multiple=(False, True), throw_in=("auto", "all", "neighbours", "main_only"),
    transfer=(False, True), trump_exchange=("off", "six", "six_if_ace"),
    next_deal_start=("dealer_left", "loser_right"),
)
SEATING = [(2, None), (3, None), (4, None), (5, None), (6, None), (4, "2x2"), (6, "2x3"), (6, "3x2")]


def random_rules(rng: random.Random, seating=None, force: dict | None = None) -> Rules:
    """Random rules (for `seating` if given), with the options in `force` as given."""
    while True:
        players, teams = seating or rng.choice(SEATING)
        opts = {k: rng.choice(v) for k, v in OPTIONS.items()} | (force or {})
        try:
            return Rules(players=players, teams=teams, **opts)
        except ValueError:
            continue


def playable_values(seating) -> dict[str, set]:
    """Each option's values that some valid rules for `seating` allow."""
    found: dict[str, set] = defaultdict(set)
    for rules in all_rule_combinations():
        if (rules.players, rules.teams) == seating:
            for name in OPTIONS:
                found[name].add(getattr(rules, name))
    return found


def random_play_seed() -> str:
    """The run's seed: $RANDOM_PLAY_SEED, else today's UTC date (a new chunk every day)."""
    return os.environ.get("RANDOM_PLAY_SEED") or datetime.now(UTC).date().isoformat()


def run_chunk(seed: str, deals: int, seating=None) -> dict[str, int]:
    """Play `deals` random deals from `seed`, each checked at every step. With `seating`,
    all at that seating, and until every playable value of every option has been played
    each deal forces one not yet played; without, the seating is random too and the
    chunk must cover every seating and value (the full sweep's check). Returns the count
    of drawn and lost deals. A failure names the deal's own seed."""
    rng = random.Random(seed)
    played: dict[str, set] = defaultdict(set)
    results: dict[str, int] = defaultdict(int)
    wanted = playable_values(seating) if seating else {k: set(v) for k, v in OPTIONS.items()}
    for number in range(deals):
        missing = [(k, v) for k, values in wanted.items() for v in values - played[k]]
        force = dict([rng.choice(sorted(missing, key=str))]) if seating and missing else None
        deal_seed = f"{seed}/{number}"
        deal_rng = random.Random(deal_seed)
        rules = random_rules(deal_rng, seating, force)
        try:
            deal = play_random_deal(rules, deal_rng)
        except BaseException as e:
            e.add_note(f"deal {number} of chunk {seed!r}: {rules}")
            raise
        played["seating"].add((rules.players, rules.teams))
        for name in OPTIONS:
            played[name].add(getattr(rules, name))
        results["draw" if deal.is_draw else "lost"] += 1
    if seating is None:
        assert played["seating"] == set(SEATING)
    for name, values in wanted.items():
        assert played[name] == values, name
    return results


def all_rule_combinations():
    """Every valid combination of seating and options (for coverage accounting)."""
    keys = list(OPTIONS)
    for (players, teams), values in itertools.product(SEATING, itertools.product(*OPTIONS.values())):
        try:
            yield Rules(players=players, teams=teams, **dict(zip(keys, values)))
        except ValueError:
            pass


def codes_in(obj) -> set[str]:  # noqa: C901
    found = set()
    if isinstance(obj, str):
        if CODE.match(obj):
            found.add(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            found |= codes_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            found |= codes_in(v)
    return found


def initially_public(deal: Deal, deck: list[Card], opener_given: bool) -> set[str]:
    """Cards face up at the start: the trump card (R3), the dealer's last card (R4), and the
    lowest trump shown by the first attacker (R5). Worked out here, not read from the engine."""
    rules = deal.rules
    dealt = rules.players * rules.hand_size
    public = {deck[dealt - 1].code if dealt == len(deck) else deck[dealt].code}
    if not opener_given:
        trumps = [c for c in deck[:dealt] if c.suit == deal.trump]
        if trumps:
            public.add(min(trumps, key=lambda c: c.rank).code)
    return public


def cards_of(action) -> set[str]:
    return {str(getattr(action, name)) for name in ("card", "attack") if hasattr(action, name)}


def check_invariants(deal: Deal, pack: set[Card], public: set[str], seen: list[int]) -> None:
    """`seen[0]`: history events already checked (the history only grows, and what is public
    only grows, so each event needs checking once, against the public cards of its time)."""
    n = deal.rules.players
    everywhere = [c for s in range(n) for c in deal.hand(s)] + deal.talon[:] + deal.discard[:]
    everywhere += [c for pair in deal.table for c in pair if c is not None]
    assert len(everywhere) == len(pack) and set(everywhere) == pack, "cards lost or duplicated"
    for attack, defence in deal.table:
        if defence is not None:
            assert beats(defence, attack, deal.trump)
    assert len(deal.table) <= deal.limit
    for s in range(n):
        acts = deal.legal_actions(s)
        if s != deal.to_act:
            assert all(isinstance(a, ExchangeTrump) for a in acts), (s, acts)
    if deal.is_over:
        assert deal.to_act is None
    else:
        assert deal.legal_actions(deal.to_act)
    history = None
    for seat in [None, *range(n)]:
        view = deal.view(seat)
        if history is None:
            history = view["history"]
        assert len(view.pop("history")) == len(history), "everybody sees the same history"
        allowed = public | ({c.code for c in deal.hand(seat)} if seat is not None else set())
        leaked = set(QUOTED_CODE.findall(json.dumps(view))) - allowed
        assert not leaked, f"view of {seat} leaks {leaked}"
    leaked = set(QUOTED_CODE.findall(json.dumps(history[seen[0]:]))) - public
    assert not leaked, f"public history leaks {leaked}"
    seen[0] = len(history)


def random_action(rng: random.Random, pack: list[Card]):
    kind = rng.randrange(6)
    card = rng.choice(pack)
    if kind == 0:
        return Attack(card)
    if kind == 1:
        return Defend(rng.choice(pack), card)
    if kind == 2:
        return Transfer(card)
    return (Take(), Pass(), ExchangeTrump())[kind - 3]


def play_random_deal(rules: Rules, rng: random.Random, *, check_every: int = 1,
                     illegal_probes: int = 2, max_steps: int = 3000) -> Deal:
    opener = rng.choice([None, rng.randrange(rules.players)])
    pack = full_deck(rules.deck_size)
    deck = pack[:]
    rng.shuffle(deck)
    deal = Deal.start(rules, deck=[c.code for c in deck], dealer=rng.randrange(rules.players),
                      opener=opener)
    public = initially_public(deal, deck, opener is not None)
    pack_set = set(pack)
    seen = [0]
    fork_at = rng.randrange(1, 40)
    twin = None
    steps = 0
    while not deal.is_over:
        steps += 1
        assert steps < max_steps, "deal does not end"
        if steps % check_every == 0:
            check_invariants(deal, pack_set, public, seen)
        if steps == fork_at:
            twin = Deal.from_json(deal.to_json())
            assert twin == deal
        before = deal.copy()
        seat = deal.to_act
        legal = deal.legal_actions(seat)
        # Every listed action applies (on a copy).
        if steps % check_every == 0:
            for a in legal:
                deal.copy().apply(seat, a)
        # Random illegal actions are refused and change nothing.
        for _ in range(illegal_probes):
            s = rng.randrange(rules.players)
            a = random_action(rng, pack)
            if a in deal.legal_actions(s):
                continue
            try:
                deal.apply(s, a)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"illegal {a} by {s} was applied")
            assert deal == before, f"refused {a} by {s} changed the deal"
        # Someone with an exchange right sometimes uses it out of turn.
        others = [s for s in range(rules.players) if ExchangeTrump() in deal.legal_actions(s)]
        if others and rng.random() < 0.5:
            s = rng.choice(others)
            public.add(deal.trump_six.code)  # the 6 is shown; the card it takes was face up
            deal.apply(s, ExchangeTrump())
            if twin is not None:
                twin.apply(s, ExchangeTrump())
            continue
        action = rng.choice(legal)
        public |= cards_of(action)
        if isinstance(action, ExchangeTrump):
            public.add(deal.trump_six.code)
        deal.apply(seat, action)
        if twin is not None:
            twin.apply(seat, action)
    check_invariants(deal, pack_set, public, seen)
    if twin is not None:
        assert twin.to_json() == deal.to_json(), "restored deal diverged"
    assert deal.is_draw or deal.losing_team is not None
    return deal
