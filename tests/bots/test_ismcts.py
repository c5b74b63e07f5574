"""Expert's tree search at two hands (information-set MCTS, games/bots/ismcts.py)."""

import json
import random
import time

from bench.arena import parse_bot
from games.bots import LEVELS, TRIAL_LEVELS, make_bot
from games.bots.ismcts import ISMCTSBot
from games.bots.search import SearchBot
from games.engine import Deal, ExchangeTrump, Rules
from tests.bots.positions import random_positions


def test_expert_searches_a_tree_and_the_flat_expert_stays_for_the_arena():
    assert isinstance(make_bot("expert", seed=1), ISMCTSBot)
    flat = make_bot("expert-flat", seed=1)
    assert isinstance(flat, SearchBot) and not isinstance(flat, ISMCTSBot)
    assert "expert-flat" in TRIAL_LEVELS and "expert-flat" not in LEVELS  # not on the site
    assert parse_bot("expert-flat:0.09") == ("expert-flat", 0.09)


def test_expert_plays_legal_moves_under_every_option():
    """Random positions under random rules (two-handed ones searched by the tree, the
    others as Expert), the view through JSON first."""
    bot = make_bot("expert", seed=1, budget=0.01)
    rng = random.Random("expert-tree")
    searched = 0
    for n, (deal, seat) in enumerate(random_positions("legal/expert-tree", 40)):
        if rng.random() > 0.06:
            continue
        view = json.loads(json.dumps(deal.view(seat)))
        action = bot.act(view)
        assert action in deal.legal_actions(seat), n
        searched += "depth" in bot.last_stats
    assert searched > 0


def test_the_tree_searches_both_seats_within_the_budget():
    """A two-handed position early in a deal: the tree grows past the bot's own move (the
    opponent's replies are nodes too), the CPU spent stays near the budget, and a cap
    on the iterations (as the tests' `max_worlds`) is kept to."""
    for number in range(7, 40):  # a lead with a choice (no trump exchange)
        deal = Deal.start(Rules(players=2), seed=number)
        legal = deal.legal_actions(deal.to_act)
        if ExchangeTrump() not in legal and len(legal) > 1:
            break
    seat = deal.to_act
    bot = make_bot("expert", seed=3, budget=0.05)
    bot.clock = time.process_time
    c0 = time.process_time()
    action = bot.act(deal.view(seat))
    assert time.process_time() - c0 < 0.2
    assert action in deal.legal_actions(seat)
    stats = bot.last_stats
    assert stats["worlds"] > 10 and stats["depth"] > 1.0
    assert 0.0 <= stats["value"] <= 1.0

    bot = make_bot("expert", seed=3)
    bot.max_worlds = 200
    bot.act(deal.view(seat))
    assert bot.last_stats["worlds"] == 200
