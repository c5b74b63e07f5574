"""docs/rules.md section 6 and R33: matches, dealer rotation, tallies, who starts later deals."""

import random

import pytest

from games.engine import Match, Rules
from tests.engine.decks import (
    DRAW24_TALON,
    draw24_hands,
    draw24_moves,
    finish_randomly,
    history,
    install_deal,
    play,
)


def stacked_draw24(match, a):
    """Install the DRAW24 deal of decks.py (seat `a` leads) and play it to the last bout:
    seat `a` leads the Q♥, the other seat holds the A♥."""
    deal = install_deal(match, opener=a, hands=draw24_hands(a), trump_card="AH",
                        talon=DRAW24_TALON)
    play(deal, *draw24_moves(a), f"{a} a QH")
    return deal


def drawn(match, a=0):
    deal = stacked_draw24(match, a)
    play(deal, f"{1 - a} d QH AH")
    assert deal.is_draw


def lost_by(match, loser):
    a = 1 - loser
    deal = stacked_draw24(match, a)
    play(deal, f"{loser} take")
    assert deal.loser == loser


# ---------------------------------------------------------------- R23 dealer
def test_r23_the_first_dealer_is_chosen_at_random():
    dealers = {Match(Rules(players=4), seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    m = Match(Rules(players=4), seed=7)
    assert m.deal.view(None)["dealer"] == m.dealer
    assert Match(Rules(players=4), seed=7).dealer == m.dealer  # reproducible from the seed


def test_r23_the_loser_deals_the_next_deal_and_the_player_on_the_dealers_left_starts():
    rng = random.Random("r23")
    for players in (2, 3, 5):
        match = Match(Rules(players=players), deals=4, seed=f"r23/{players}")
        first = match.deal
        assert history(first, "lowest_trump") or first.attacker == (match.dealer + 1) % players
        while True:
            before = match.dealer
            deal = finish_randomly(match.deal, rng)
            if match.is_over:
                break
            new = match.next_deal()
            assert match.dealer == (before if deal.is_draw else deal.loser)
            assert new.view(None)["dealer"] == match.dealer
            # R5/R33: later deals start left of the dealer, no lowest trump shown.
            assert new.attacker == (match.dealer + 1) % players
            assert history(new, "lowest_trump") == []


def test_r23_after_a_drawn_deal_the_previous_loser_deals_again():
    rules = Rules(players=2, deck_size=24)
    match = Match(rules, deals=5, seed="r23-draw")
    first_dealer = match.dealer
    drawn(match)
    match.next_deal()
    assert match.dealer == first_dealer  # a drawn first deal: the same dealer again
    assert match.losses == {0: 0, 1: 0}
    lost_by(match, 1 - first_dealer)
    match.next_deal()
    assert match.dealer == 1 - first_dealer  # the loser deals
    drawn(match, a=first_dealer)
    match.next_deal()
    assert match.dealer == 1 - first_dealer  # the previous loser deals again
    assert match.deal.attacker == first_dealer  # left of the dealer
    assert match.losses == {first_dealer: 0, 1 - first_dealer: 1}


def test_r23_in_team_play_the_losing_teams_first_player_from_the_dealer_deals():
    rng = random.Random("r23-teams")
    seen = set()
    for rules in (Rules(players=4, teams="2x2"), Rules(players=6, teams="3x2")):
        match = Match(rules, deals=6, seed=f"teams/{rules.teams}")
        n = rules.players
        while True:
            before = match.dealer
            deal = finish_randomly(match.deal, rng)
            assert deal.is_draw or (deal.loser is None and deal.losing_team is not None)
            if match.is_over:
                break
            match.next_deal()
            if deal.is_draw:
                assert match.dealer == before
                continue
            expected = next((before + k) % n for k in range(n)
                            if rules.team_of((before + k) % n) == deal.losing_team)
            assert match.dealer == expected
            seen.add("dealer's team lost" if expected == before else "other team lost")
    assert seen == {"dealer's team lost", "other team lost"}


# ---------------------------------------------------------------- R24 tally and end
def test_r24_the_match_ends_after_the_agreed_number_of_deals():
    rng = random.Random("r24")
    match = Match(Rules(players=3), deals=3, seed="r24")
    losers = []
    for number in range(1, 4):
        assert not match.is_over
        deal = finish_randomly(match.deal, rng)
        losers.append(deal.loser)
        if number < 3:
            match.next_deal()
    assert match.is_over
    expected = {s: losers.count(s) for s in range(3)}
    assert match.losses == expected
    assert [losses for _, losses in match.standings] == sorted(expected.values())
    with pytest.raises(ValueError):
        match.next_deal()


def test_r24_the_match_ends_when_someone_reaches_the_loss_limit():
    rules = Rules(players=2, deck_size=24)
    match = Match(rules, loss_limit=2, seed="r24-limit")
    lost_by(match, 0)
    assert match.losses == {0: 1, 1: 0} and not match.is_over
    match.next_deal()
    drawn(match, a=1)
    assert not match.is_over
    match.next_deal()
    lost_by(match, 1)
    assert match.losses == {0: 1, 1: 1} and not match.is_over
    match.next_deal()
    lost_by(match, 0)
    assert match.losses == {0: 2, 1: 1} and match.is_over
    assert match.standings[0] == (1, 1)  # fewest losses first
    with pytest.raises(ValueError):
        match.next_deal()


def test_r24_a_deal_must_end_before_the_next_and_teams_are_tallied_by_team():
    match = Match(Rules(players=4, teams="2x2"), deals=2, seed="r24-teams")
    with pytest.raises(ValueError):
        match.next_deal()
    assert match.losses == {0: 0, 1: 0}
    deal = finish_randomly(match.deal, random.Random(5))
    if not deal.is_draw:
        assert match.losses[deal.losing_team] == 1 and sum(match.losses.values()) == 1


def test_r24_match_rejects_impossible_settings():
    for bad in ({"deals": 0}, {"loss_limit": -1}, {"deals": "3"}, {"loss_limit": True}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Match(Rules(), **bad)


# ---------------------------------------------------------------- R33 next_deal_start
def test_r33_loser_right_the_player_right_of_the_loser_attacks_the_loser():
    rng = random.Random("r33")
    rules = Rules(players=4, next_deal_start="loser_right")
    match = Match(rules, deals=5, seed="r33")
    previous_loser = None
    while True:
        deal = finish_randomly(match.deal, rng)
        if not deal.is_draw:
            previous_loser = deal.loser
        if match.is_over:
            break
        new = match.next_deal()
        if previous_loser is None:
            assert new.attacker == (match.dealer + 1) % 4
        else:
            assert new.attacker == (previous_loser - 1) % 4
            assert new.defender == previous_loser
            assert match.dealer == previous_loser


def test_r33_loser_right_after_a_draw_uses_the_previous_loser():
    rules = Rules(players=2, deck_size=24, next_deal_start="loser_right")
    match = Match(rules, deals=4, seed="r33-draw")
    lost_by(match, 1)
    new = match.next_deal()
    assert new.attacker == 0 and new.defender == 1 and match.dealer == 1
    drawn(match, a=0)
    new = match.next_deal()
    assert new.attacker == 0 and new.defender == 1 and match.dealer == 1


def test_r33_dealer_left_is_the_default():
    assert Rules().next_deal_start == "dealer_left"
    rules = Rules(players=2, deck_size=24)
    match = Match(rules, deals=3, seed="r33-left")
    lost_by(match, 1)
    new = match.next_deal()
    assert match.dealer == 1 and new.attacker == 0  # left of the dealer
    lost_by(match, 0)
    new = match.next_deal()
    assert match.dealer == 0 and new.attacker == 1
    with pytest.raises(ValueError, match="next_deal_start"):
        Rules(next_deal_start="winner_left")
