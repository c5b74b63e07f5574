"""Determinization: deals built from one seat's view agree with everything it has seen."""

import json
import random

import pytest

from games.bots.determinize import Determinizer, bout_state
from games.engine import Deal, Rules
from games.engine.cards import full_deck
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


def public_cards(view):
    return {c for pair in view["table"] for c in pair if c} | set(view["discarded"]) | (
        {view["trump_card"]} if view["trump_card"] else set())


@pytest.mark.parametrize("chunk", range(3))
def test_samples_agree_with_the_view(chunk):
    rng = random.Random(chunk)
    for deal, seat in random_positions(f"det/{chunk}", 60):
        view = deal.view(seat)
        det = Determinizer(view)
        sample = det.sample(rng)
        # Own hand fixed, every hand's size, the talon's size and face-up card.
        assert sample.hand(seat) == deal.hand(seat)
        assert [len(h) for h in sample.hands] == view["hand_sizes"]
        assert sample.talon_size == view["talon_size"]
        assert (str(sample.trump_card) if sample.trump_card else None) == view["trump_card"]
        # Cards everybody knows stay with their holders; table and discard as seen.
        # (A trump 6 shown (R5) and then exchanged stays marked known with the exchanger as
        # well as with its new holder: the engine's stale mark, reported; one holds it.)
        public = public_cards(view)
        for card in {c for known in view["known"] for c in known} - public:
            holders = [s for s, known in enumerate(view["known"]) if card in known]
            assert any(card in {c.code for c in sample.hand(s)} for s in holders)
            if len(holders) == 1:
                assert card in {c.code for c in sample.hand(holders[0])}
        assert [[str(a), str(d) if d else None] for a, d in sample.table] == view["table"]
        assert sorted(map(str, sample.discard)) == sorted(view["discarded"])
        # The same 36 (24, 52) cards, each once.
        everywhere = [c for h in sample.hands for c in h] + sample.talon + sample.discard
        everywhere += [c for pair in sample.table for c in pair if c]
        assert len(everywhere) == len(set(everywhere)) == deal.rules.deck_size
        # The sampled deal offers the seat exactly the same actions.
        assert sample.legal_actions(seat) == deal.legal_actions(seat)


@pytest.mark.parametrize("chunk", range(3))
def test_with_the_true_cards_the_rebuilt_deal_is_the_deal(chunk):
    """Given the hidden cards the bot can't see, the bout state it derived from public
    events (leader, passes, the take queue, team stand-ins) is the engine's own."""
    for n, (deal, seat) in enumerate(random_positions(f"rebuild/{chunk}", 50)):
        det = Determinizer(deal.view(seat))
        rebuilt = det.base.copy()
        rebuilt.hands = [h[:] for h in deal.hands]
        rebuilt.talon = deal.talon[:]
        det.settle_six_right(rebuilt)
        mine, real = rebuilt._state(), deal._state()
        for state in (mine, real):
            state.pop("history")
            state.pop("six_right")  # compared through the legal actions below
            state.pop("known")  # the engine keeps a stale mark on an exchanged, shown 6
            if seat == deal.defender or deal.taking:
                state.pop("passed")  # R14: forgotten before any attacker acts again
            if not deal.taking:
                state.pop("take_idx")
            if deal.late and deal.late[0] != seat:
                state.pop("late")  # another seat's late claim (R27) shows only when made
        assert mine == real
        for s in range(deal.rules.players):
            if not (deal.late and deal.late[0] == s != seat):
                assert rebuilt.legal_actions(s) == deal.legal_actions(s)
        if n % 10 or deal.late:
            continue
        # ... and it plays on identically.
        a, b = rebuilt.copy(), deal.copy()
        rng = random.Random(len(deal.history))
        while not a.is_over:
            action = rng.choice(a.legal_actions(a.to_act))
            a.apply(a.to_act, action)
            b.apply(b.to_act, action)
        assert (a.loser, a.losing_team, a.is_draw) == (b.loser, b.losing_team, b.is_draw)


def test_bout_state_after_a_take_and_passes():
    rules = Rules(players=3)
    deal = Deal.start(rules, seed=11, opener=0)
    view = deal.view(0)
    assert bout_state(view)["leader"] == 0
    state = bout_state(json.loads(json.dumps(view)))
    assert state["passed"] == 0 and state["take_idx"] == 0


def test_determinizer_uses_only_the_view():
    """Two deals that look the same from seat 0 (the hidden cards dealt differently) give
    the same view and the same samples."""
    rules = Rules(players=2)
    rng = random.Random(9)
    pack = [c.code for c in full_deck(36)]
    rng.shuffle(pack)
    dealer = 1
    mine = {i for i in range(12) if (dealer + 1 + i) % 2 == 0} | {12}  # seat 0's and the face-up card
    hidden = [i for i in range(36) if i not in mine]
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    other = pack[:]
    for i, j in zip(hidden, shuffled):
        other[i] = pack[j]
    a = Deal.start(rules, deck=pack, dealer=dealer, opener=0)
    b = Deal.start(rules, deck=other, dealer=dealer, opener=0)
    assert a.hand(0) == b.hand(0) and a.hand(1) != b.hand(1)
    assert a.view(0) == b.view(0)
    s1 = Determinizer(a.view(0)).sample(random.Random(1))
    s2 = Determinizer(b.view(0)).sample(random.Random(1))
    assert s1 == s2


def test_a_finished_deal_has_nothing_to_determinize():
    deal = Deal.start(Rules(players=2), seed=1)
    rng = random.Random(1)
    while not deal.is_over:
        deal.apply(deal.to_act, rng.choice(deal.legal_actions(deal.to_act)))
    with pytest.raises(ValueError):
        Determinizer(deal.view(0))
