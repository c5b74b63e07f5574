"""The outcome of a match (R24, section 10): why it ended (`Termination`), who lost it, the
tally, and the seat that gave it up; None while the match is played."""

import dataclasses
import json
import random

import pytest

from games.engine import Match, Outcome, Rules, Termination
from tests.engine.decks import (
    DRAW24_TALON,
    draw24_hands,
    draw24_moves,
    finish_randomly,
    install_deal,
    play,
)

DUEL = Rules(players=2, deck_size=24)  # the stacked DRAW24 deal of decks.py
TEAMS = Rules(players=4, teams="2x2")


def last_bout(match, a):
    """The DRAW24 deal up to its last bout: seat `a` leads the Q♥, the other holds the A♥."""
    deal = install_deal(match, opener=a, hands=draw24_hands(a), trump_card="AH",
                        talon=DRAW24_TALON)
    play(deal, *draw24_moves(a), f"{a} a QH")
    return deal


def lost_by(match, loser):
    play(last_bout(match, 1 - loser), f"{loser} take")
    assert match.deal.loser == loser


def drawn(match):
    play(last_bout(match, 0), "1 d QH AH")
    assert match.deal.is_draw


def played(match, *deals):
    """Play the deals in turn: a seat number loses that deal, None draws it."""
    for number, loser in enumerate(deals):
        if number:
            match.next_deal()
        if loser is None:
            drawn(match)
        else:
            lost_by(match, loser)
    return match


def saved(match):
    return Match.from_json(match.to_json())


def test_no_outcome_while_the_match_is_played():
    match = Match(DUEL, deals=3, seed="playing")
    assert match.outcome() is None
    played(match, 1, 0)
    assert not match.is_over and match.outcome() is None


def test_a_single_deal_lost_is_a_match_lost():
    outcome = played(Match(DUEL, seed="one"), 1).outcome()
    assert outcome == Outcome(Termination.DEALS_PLAYED, loser=1, losses=(0, 1), deals=1)
    assert not outcome.is_draw and not outcome.given_up and outcome.winners == (0,)


def test_r22_a_single_deal_drawn_is_a_drawn_match():
    outcome = played(Match(DUEL, seed="one-drawn"), None).outcome()
    assert outcome == Outcome(Termination.DEALS_PLAYED, loser=None, losses=(0, 0), deals=1)
    assert outcome.is_draw and outcome.winners == (0, 1)


def test_r24_after_the_agreed_deals_the_most_losses_lose_the_match():
    outcome = played(Match(DUEL, deals=3, seed="three"), 0, None, 0).outcome()
    assert outcome == Outcome(Termination.DEALS_PLAYED, loser=0, losses=(2, 0), deals=3)
    assert outcome.winners == (1,)


def test_r24_a_shared_last_place_is_a_draw():
    match = played(Match(DUEL, deals=2, seed="shared"), 0, 1)
    outcome = match.outcome()
    assert outcome == Outcome(Termination.DEALS_PLAYED, loser=None, losses=(1, 1), deals=2)
    assert outcome.is_draw and match.loser is None


def test_r24_a_side_reaching_the_loss_limit_ends_the_match():
    match = played(Match(DUEL, loss_limit=2, seed="limit"), 1, None, 0, 1)
    assert match.outcome() == Outcome(Termination.LOSS_LIMIT, loser=1, losses=(1, 2), deals=4)
    # With both agreed, the limit reached first ends the match before its deals.
    early = played(Match(DUEL, deals=5, loss_limit=1, seed="both"), 0)
    assert early.outcome() == Outcome(Termination.LOSS_LIMIT, loser=0, losses=(1, 0), deals=1)


def test_r24_a_resigning_player_loses_and_the_deal_in_play_counts():
    match = played(Match(DUEL, deals=5, seed="resign"), 1, 1)
    match.next_deal()
    match.resign(0)
    outcome = match.outcome()
    assert outcome == Outcome(Termination.RESIGNATION, loser=0, losses=(1, 2), deals=3, seat=0)
    assert outcome.given_up and not outcome.is_draw and outcome.winners == (1,)
    assert match.loser == 0  # not the side with the most losses


def test_r24_in_team_play_a_team_resigns_as_one():
    match = Match(TEAMS, deals=3, seed="resign-teams")
    match.resign(1)
    assert match.outcome() == Outcome(Termination.RESIGNATION, loser=1, losses=(0, 1),
                                      deals=1, seat=None)


def test_section_10_a_forfeit_loses_the_match_for_the_seats_side():
    match = Match(Rules(players=3), deals=4, seed="forfeit")
    match.forfeit(2)
    outcome = match.outcome()
    assert outcome == Outcome(Termination.FORFEIT, loser=2, losses=(0, 0, 1), deals=1, seat=2)
    assert outcome.given_up and outcome.winners == (0, 1)
    assert match.is_over and match.resigned == 2 and match.forfeited == 2


def test_section_10_in_team_play_a_forfeit_loses_for_the_team_and_names_the_seat():
    match = Match(TEAMS, deals=2, seed="forfeit-teams")
    match.forfeit(3)
    assert match.outcome() == Outcome(Termination.FORFEIT, loser=TEAMS.team_of(3),
                                      losses=(0, 1), deals=1, seat=3)


def test_a_forfeit_is_refused_for_a_bad_seat_or_a_match_that_is_over():
    match = Match(TEAMS, seed="forfeit-bad")
    for bad in (4, -1, "0", True, None):
        with pytest.raises(ValueError, match="seat number"):
            match.forfeit(bad)
    assert match.outcome() is None
    match.forfeit(1)
    with pytest.raises(ValueError, match="over"):
        match.forfeit(0)
    with pytest.raises(ValueError, match="over"):
        match.resign(0)
    assert match.outcome().termination is Termination.FORFEIT


def test_random_team_matches_end_as_the_tally_says():
    rng = random.Random("teams")
    for rules in (TEAMS, Rules(players=6, teams="3x2")):
        for seed in range(6):
            match = Match(rules, deals=3, seed=f"{rules.teams}/{seed}")
            lost = [0] * rules.team_count
            while True:
                deal = finish_randomly(match.deal, rng)
                if deal.losing_team is not None:
                    lost[deal.losing_team] += 1
                if match.is_over:
                    break
                match.next_deal()
            worst = [team for team, count in enumerate(lost) if count == max(lost)]
            outcome = match.outcome()
            assert outcome.termination is Termination.DEALS_PLAYED and outcome.deals == 3
            assert outcome.losses == tuple(lost)
            assert outcome.loser == (worst[0] if len(worst) == 1 else None) == match.loser
            assert outcome == saved(match).outcome()


def test_every_outcome_survives_saving():
    ends = {
        Termination.DEALS_PLAYED: played(Match(DUEL, deals=2, seed="j1"), 0, None),
        Termination.LOSS_LIMIT: played(Match(DUEL, loss_limit=1, seed="j2"), 1),
        Termination.RESIGNATION: Match(DUEL, deals=2, seed="j3"),
        Termination.FORFEIT: Match(TEAMS, deals=2, seed="j4"),
    }
    ends[Termination.RESIGNATION].resign(1)
    ends[Termination.FORFEIT].forfeit(2)
    for termination, match in ends.items():
        again = saved(match)
        assert again == match
        assert again.outcome() == match.outcome() and again.outcome().termination is termination
    playing = Match(DUEL, deals=2, seed="j5")
    assert saved(playing).outcome() is None


def test_a_match_saved_before_forfeits_loads_without_one():
    match = Match(DUEL, seed="old")
    match.resign(0)
    old = json.loads(match.to_json())
    del old["forfeited"]
    assert Match.from_json(json.dumps(old)).outcome().termination is Termination.RESIGNATION


def test_an_outcome_is_a_value():
    outcome = played(Match(DUEL, seed="value"), 0).outcome()
    assert outcome == played(Match(DUEL, seed="value"), 0).outcome()
    assert len({outcome, dataclasses.replace(outcome)}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.loser = 1
