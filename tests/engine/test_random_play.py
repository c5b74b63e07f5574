"""OpenSpiel-style random simulation: 2,000+ deals under every option, checked at every step."""

import random
from collections import defaultdict

import pytest

from tests.engine.randomplay import OPTIONS, SEATING, play_random_deal, random_rules

CHUNKS = 8
DEALS_PER_CHUNK = 256  # 8 x 256 = 2,048 deals


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_deals_keep_every_promise(chunk):
    rng = random.Random(f"random-play/{chunk}")
    played = defaultdict(set)
    results = defaultdict(int)
    for _ in range(DEALS_PER_CHUNK):
        rules = random_rules(rng)
        deal = play_random_deal(rules, rng)
        played["seating"].add((rules.players, rules.teams))
        for name in OPTIONS:
            played[name].add(getattr(rules, name))
        results["draw" if deal.is_draw else "lost"] += 1
    # Each chunk covers every seating and every value of every option.
    assert played["seating"] == set(SEATING)
    for name, values in OPTIONS.items():
        assert played[name] == set(values), name
    assert results["lost"] > 0
