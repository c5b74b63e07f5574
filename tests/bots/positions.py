"""Random positions for bot tests: every step of random deals under random rules."""

import random

from games.engine import Deal
from tests.engine.randomplay import random_rules


def random_positions(seed: str, deals: int, exchange_rate: float = 0.5):
    """(deal, seat to act) at every step of random deals under random rules; out-of-turn
    exchanges are taken half the time."""
    rng = random.Random(seed)
    for _ in range(deals):
        rules = random_rules(rng)
        deal = Deal.start(rules, seed=rng.random(), dealer=rng.randrange(rules.players),
                          opener=rng.choice([None, rng.randrange(rules.players)]))
        while not deal.is_over:
            yield deal, deal.to_act
            others = [s for s in range(rules.players) if s != deal.to_act and deal.legal_actions(s)]
            if others and rng.random() < exchange_rate:
                s = rng.choice(others)
                deal.apply(s, deal.legal_actions(s)[0])
                continue
            deal.apply(deal.to_act, rng.choice(deal.legal_actions(deal.to_act)))
