"""The information state (docs/design.md, "The engine's public API"): views carry the
bout's public state, `Deal.sample` imagines complete deals from a view, `deal.key`
identifies positions."""

from __future__ import annotations

import random

import pytest

from games.engine import Deal, ExchangeTrump, Rules
from tests.engine.decks import accounted_for, deal_from, endgame, pass_round, play
from tests.engine.randomplay import OPTIONS, SEATING, play_random_deal, random_rules

CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 8: 26.12,
            9: 27.88, 10: 29.59}  # chi-square critical values, p = 0.001


def random_positions(rng: random.Random, deals: int):
    """(rules, deal) at random moments of random deals under random options; exchanges
    are made out of turn now and then, so every R25-R27 state turns up."""
    for _ in range(deals):
        rules = random_rules(rng)
        deal = Deal.start(rules, seed=rng.randrange(10**9), dealer=rng.randrange(rules.players))
        stops = set(rng.sample(range(1, 120), 4))
        step = 0
        while not deal.is_over:
            step += 1
            if step in stops:
                yield rules, deal
            exchangers = [s for s in range(rules.players) if ExchangeTrump() in deal.legal_actions(s)]
            if exchangers and rng.random() < 0.5:
                deal.apply(rng.choice(exchangers), ExchangeTrump())
                continue
            deal.apply(deal.to_act, rng.choice(deal.legal_actions(deal.to_act)))


@pytest.mark.parametrize("chunk", range(4))
def test_a_sampled_deal_keeps_every_public_fact_of_the_view(chunk):
    rng = random.Random(f"sample/{chunk}")
    seen_rules: dict[str, set] = {k: set() for k in OPTIONS}
    seatings, positions = set(), 0
    for rules, deal in random_positions(rng, 300):
        positions += 1
        for k in OPTIONS:
            seen_rules[k].add(getattr(rules, k))
        seatings.add((rules.players, rules.teams))
        for seat in [None, *range(rules.players)]:
            view = deal.view(seat)
            imagined = Deal.sample(view, rng)
            assert accounted_for(imagined)
            for s in range(rules.players):
                assert set(view["known"][s]) <= {c.code for c in imagined.hand(s)}
                assert len(imagined.hand(s)) == view["hand_sizes"][s]
            if seat is not None:
                assert [c.code for c in imagined.hand(seat)] == view["hand"]
            assert imagined.talon_size == view["talon_size"]
            assert (imagined.trump_card.code if imagined.trump_card else None) == view["trump_card"]
            # Everything the viewer sees is the same in the imagined deal.
            assert imagined.view(seat) == view
        # An imagined deal continues like any deal, to its end.
        if positions % 5 == 0:
            imagined = Deal.sample(deal.view(deal.to_act), rng)
            while not imagined.is_over:
                imagined.apply(imagined.to_act, rng.choice(imagined.legal_actions(imagined.to_act)))
            assert accounted_for(imagined)
    assert positions > 600
    assert seatings == set(SEATING)
    assert all(seen_rules[k] == set(v) for k, v in OPTIONS.items()), seen_rules


def chi_square(counts: list[int], expected: list[float]) -> float:
    return sum((c - e) ** 2 / e for c, e in zip(counts, expected))


def landing_counts(deal: Deal, seat: int, card: str, samples: int, sampler) -> tuple[list[int], list[float]]:
    """Where an unknown `card` lands over `samples` imagined deals: each other seat's hand,
    then the talon; and where it should land if every free place were equally likely."""
    view = deal.view(seat)
    rng = random.Random(20261130)
    others = [s for s in range(deal.rules.players) if s != seat]
    counts = [0] * (len(others) + 1)
    for _ in range(samples):
        imagined = sampler(view, rng)
        for i, s in enumerate(others):
            if card in {c.code for c in imagined.hand(s)}:
                counts[i] += 1
                break
        else:
            counts[-1] += 1
    free = [view["hand_sizes"][s] - len(view["known"][s]) for s in others]
    free.append(view["talon_size"] - 1)  # the face-up card is known
    total = sum(free)
    return counts, [samples * f / total for f in free]


def picked_up_position() -> Deal:
    """Four players mid-deal: seat 1 has picked up two cards (known to all)."""
    deal = deal_from(Rules(players=4), dealer=3, opener=0,
                     hands={0: "7S 7C 9D JD QD KD", 1: "8H 9H TH JH QH KH"}, trump_card="AC")
    play(deal, "0 a 7S", "1 take", "0 a 7C")
    pass_round(deal)
    assert len(deal.view(0)["known"][1]) == 2
    return deal


def test_unknown_cards_land_uniformly_over_the_free_places():
    deal = picked_up_position()
    counts, expected = landing_counts(deal, 0, "AS", 6000, Deal.sample)
    assert chi_square(counts, expected) < CHI2_999[len(counts) - 1], (counts, expected)


def test_the_chi_square_check_catches_a_sampler_that_prefers_hands_to_the_talon():
    def biased(view, rng):
        imagined = Deal.sample(view, rng)
        # Swap the card into seat 2's hand a fifth of the time when it lies in the talon.
        talon = imagined.talon
        if rng.random() < 0.2 and any(c.code == "AS" for c in talon[1:]):
            i = next(i for i, c in enumerate(talon) if c.code == "AS")
            hand = imagined.hands[2]
            j = next(j for j, c in enumerate(hand) if c.code not in view["known"][2])
            talon[i], hand[j] = hand[j], talon[i]
        return imagined

    deal = picked_up_position()
    counts, expected = landing_counts(deal, 0, "AS", 6000, biased)
    assert chi_square(counts, expected) > CHI2_999[len(counts) - 1]


def test_the_view_carries_the_bout_and_the_seating():
    deal = deal_from(Rules(players=4), dealer=3, opener=0,
                     hands={0: "7S 7C 9D JD QD KD", 1: "8S 9H TH JH QH KH", 2: "7D"},
                     trump_card="AC")
    play(deal, "0 a 7S", "1 d 7S 8S", "0 pass")
    view = deal.view(3)
    assert (view["leader"], view["attack_seat"], view["defend_seat"]) == (0, 0, 1)
    assert view["passed"] == [0] and view["to_act"] == 2 and view["next_fillers"] is None
    assert view["exchange_open"] is True  # the trump 6 is unseen: somebody may hold it
    assert view["legal_actions"] == [] and "attack:7D" in deal.view(2)["legal_actions"]


def test_a_reader_who_changes_its_view_leaves_the_deal_as_it_was():
    rng = random.Random("view-copy")
    deal = play_random_deal(Rules(players=3), rng)
    before = deal.to_json()
    view = deal.view(0)
    cards = [e for e in view["history"] if "cards" in e]
    assert cards  # a bout ended: a discard or a pick-up
    cards[0]["cards"].append("AS")
    view["history"][0]["type"] = "changed"
    view["history"].clear()
    assert deal.to_json() == before and deal.view(0)["history"]


def test_next_fillers_name_who_stands_in_for_a_team():
    # 2x2: seats 0 and 2 against 1 and 3. Seat 0 attacks seat 1, so each team's next seat
    # is filled by the partner (R30): seat 2 and seat 3.
    deal = Deal.start(Rules(players=4, teams="2x2"), seed=5, opener=0)
    assert deal.view(None)["next_fillers"] == [2, 3]


def test_key_is_equal_exactly_when_deals_continue_alike():
    deal = Deal.start(Rules(players=3, transfer=True), seed=11)
    twin = Deal.from_json(deal.to_json())
    assert deal.key() == twin.key() and hash(deal.key()) == hash(twin.key())
    seat = deal.to_act
    deal.apply(seat, deal.legal_actions(seat)[0])
    assert deal.key() != twin.key()
    twin.apply(seat, twin.legal_actions(seat)[0])
    assert deal.key() == twin.key()


def test_with_nothing_hidden_a_sample_is_the_deal_itself():
    deal = endgame(Rules(players=2), {0: "7H 8H QS", 1: "9S AH"}, trump="S", attacker=0)
    imagined = Deal.sample(deal.view(0), random.Random(1))
    assert imagined.key() == deal.key()
    # ... and it continues identically.
    for _ in range(3):
        seat = deal.to_act
        action = deal.legal_actions(seat)[0]
        deal.apply(seat, action)
        imagined.apply(seat, action)
        assert imagined.key() == deal.key()


def test_a_finished_deal_has_nothing_to_sample():
    deal = endgame(Rules(players=2), {0: "7H", 1: "9S AH"}, trump="S", attacker=0)
    play(deal, "0 a 7H", "1 d 7H AH")
    assert deal.is_over
    with pytest.raises(ValueError):
        Deal.sample(deal.view(0), random.Random(1))


def test_a_late_claim_of_the_trump_six_survives_sampling():
    from tests.engine.test_r25_r27_trump_exchange import FIVE_BOUT, five

    deal = five(six_at=None, talon="6H QD KD 8D 9D")
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert deal.exchanger == 0  # R27: seat 0 drew the 6 as the talon emptied
    rng = random.Random(3)
    for seat in [None, 0, 1, 2, 3, 4]:
        view = deal.view(seat)
        assert view["exchange_open"] is True
        imagined = Deal.sample(view, rng)
        assert imagined.view(seat) == view
    assert Deal.sample(deal.view(0), rng).exchanger == 0
    # Others imagine the 6 somewhere, and a late claim only where it may have been drawn.
    claims = {Deal.sample(deal.view(2), rng).exchanger for _ in range(200)}
    assert 0 in claims and None in claims and 1 not in claims
    play(deal, "1 a JS")
    assert deal.view(2)["exchange_open"] is False
