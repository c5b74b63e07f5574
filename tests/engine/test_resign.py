"""Resigning a match (a site rule next to section 10's forfeit): the side that resigns
loses the match, and the deal left unfinished counts as lost by it (R24's tally)."""

import json
import random

import pytest

from games.engine import Match, Rules
from tests.engine.decks import finish_randomly


def test_a_resigning_seat_loses_the_match_and_the_unfinished_deal():
    match = Match(Rules(players=3), deals=5, seed="resign")
    assert not match.is_over and match.loser is None
    match.resign(1)
    assert match.is_over
    assert match.loser == 1 and match.resigned == 1
    assert match.losses == {0: 0, 1: 1, 2: 0}
    assert match.standings[-1] == (1, 1)
    with pytest.raises(ValueError, match="over"):
        match.next_deal()


def test_a_resignation_after_finished_deals_keeps_their_results():
    rng = random.Random("resign-later")
    match = Match(Rules(players=2), deals=9, seed="resign-later")
    finish_randomly(match.deal, rng)
    first = match.deal.losing_team
    match.next_deal()
    match.resign(0)
    expected = {0: 1, 1: 0}
    if first is not None:
        expected[first] += 1
    assert match.losses == expected
    assert match.loser == 0


def test_in_team_play_a_team_resigns():
    match = Match(Rules(players=4, teams="2x2"), deals=3, seed="resign-teams")
    match.resign(1)
    assert match.losses == {0: 0, 1: 1} and match.loser == 1


def test_resigning_is_refused_for_a_bad_side_or_a_match_that_is_over():
    match = Match(Rules(players=2), seed="resign-bad")
    for bad in (2, -1, "0", True, None):
        with pytest.raises(ValueError, match="seat number"):
            match.resign(bad)
    assert not match.is_over
    match.resign(0)
    with pytest.raises(ValueError, match="over"):
        match.resign(1)


def test_the_loser_of_a_finished_match_has_the_most_losses():
    rng = random.Random("loser")
    match = Match(Rules(players=2), deals=3, seed="loser")
    while True:
        finish_randomly(match.deal, rng)
        if match.is_over:
            break
        match.next_deal()
    most = max(match.losses.values())
    worst = [side for side, count in match.losses.items() if count == most]
    assert match.loser == (worst[0] if len(worst) == 1 else None)


def test_a_resignation_survives_saving_and_old_saves_still_load():
    match = Match(Rules(players=2), deals=2, seed="resign-json")
    match.resign(1)
    again = Match.from_json(match.to_json())
    assert again == match and again.is_over and again.loser == 1
    old = json.loads(Match(Rules(players=2), seed="old").to_json())
    del old["resigned"]
    assert Match.from_json(json.dumps(old)).resigned is None
