"""A match replays from its record (each deal's pack, dealer, first attacker and moves) to
exactly the state it was played to, under random rules; the pack is the seed's shuffle."""

import json
import random

import pytest

from games.engine import Deal, IllegalAction, Match, Rules
from games.engine.replay import export, pack, play_through, positions, replay

from .randomplay import random_rules


def play_randomly(match: Match, rng: random.Random, max_moves=20000) -> list:
    """Moves of one or two actions (a bout's attack then pass, as the site sends them)."""
    moves = []
    for _ in range(max_moves):
        if match.deal.is_over:
            if match.is_over:
                return moves
            match.next_deal()
        deal = match.deal
        seat = deal.to_act
        action = rng.choice(deal.legal_actions(seat))
        deal.apply(seat, action)
        tokens = [action.token()]
        if not deal.is_over and deal.to_act == seat and rng.random() < 0.3:
            more = rng.choice(deal.legal_actions(seat))
            deal.apply(seat, more)
            tokens.append(more.token())
        moves.append((seat, tokens))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("seed", range(40))
def test_a_record_replays_to_the_same_match(seed):
    rng = random.Random(seed)
    rules = random_rules(rng)
    options = rng.choice([{"deals": 3, "loss_limit": None}, {"deals": None, "loss_limit": 2},
                          {"deals": None, "loss_limit": None}])
    played = Match(rules, seed=f"m{seed}", **options)
    moves = play_randomly(played, rng)

    record = json.loads(json.dumps(export(rules, seed=f"m{seed}", moves=moves, **options)))
    assert len(record["dealt"]) == played.deal_number
    assert sum(len(d["moves"]) for d in record["dealt"]) == len(moves)
    again = replay(record)
    assert again.to_json() == played.to_json()
    assert again.is_over and again.losses == played.losses
    # The seed is not needed: each deal is dealt from its recorded pack.
    assert replay(record | {"seed": None}).deal.to_json() == played.deal.to_json()
    # And the site's way: the seeded match played through the moves.
    fresh = Match(rules, seed=f"m{seed}", **options)
    assert play_through(fresh, moves).to_json() == played.to_json()


def test_the_pack_is_the_seeds_shuffle():
    for seed in range(30):
        rules = random_rules(random.Random(seed))
        dealer = seed % rules.players
        assert (Deal.start(rules, deck=pack(rules, seed), dealer=dealer).to_json()
                == Deal.start(rules, seed=seed, dealer=dealer).to_json())


def test_positions_show_an_ended_deal_until_the_next_move():
    rules = Rules(players=2)
    played = Match(rules, deals=2, seed="p")
    moves = play_randomly(played, random.Random(5))
    numbers = [(m.deal_number, m.deal.is_over) for m in positions(Match(rules, deals=2, seed="p"),
                                                                  moves)]
    first_end = numbers.index((1, True))
    assert numbers[first_end + 1] == (2, False)
    assert numbers[-1] == (2, True)


def test_a_wrong_record_is_refused():
    rules = Rules(players=2)
    played = Match(rules, seed="w")
    record = export(rules, deals=None, loss_limit=None, seed="w",
                    moves=play_randomly(played, random.Random(1)))
    with pytest.raises(ValueError):
        replay({"format": "something else"})
    with pytest.raises(ValueError):
        replay({k: v for k, v in record.items() if k != "dealt"})
    first = record["dealt"][0]["moves"][0]
    record["dealt"][0]["moves"][0] = {"seat": 1 - first["seat"], "actions": first["actions"]}
    with pytest.raises(IllegalAction):
        replay(record)
