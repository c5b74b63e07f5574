"""The coach: hints from a seat's view, and a review that finds a planted blunder."""

import functools
import random
import time

import pytest

from games.bots.coach import BLUNDER, Advice, chances, hint, review
from games.bots.heuristic import DEFAULT, heuristic_action
from games.bots.search import LOSS, WIN, Solver, nothing_hidden, playout
from games.engine import Card, Deal, Rules, Take, full_deck
from games.engine.cards import beats
from tests.bots.positions import random_positions


def _exact(deal, seat, action):
    """The exact value of `action` for `seat`'s side (both hands known, talon drawn)."""
    child = deal.copy()
    child.apply(seat, action)
    solver = Solver(child, deal.rules.team_of(seat), time.perf_counter() + 30)
    return solver.value(child)


def _planted_game(seed):
    """A 2-player deal from a shuffled full deck, played by the heuristic, with one
    blunder planted: at the first position with nothing hidden where the player to act
    has a move that wins by force and one that loses by force, they play the losing one.
    Returns (start, moves, index of the blunder, the seat, a winning move)."""
    rng = random.Random(seed)
    pack = full_deck(36)
    rng.shuffle(pack)
    start = Deal.start(Rules(players=2), deck=pack, dealer=0)
    deal = start.copy()
    moves, planted = [], None
    while not deal.is_over:
        seat = deal.to_act
        legal = deal.legal_actions(seat)
        action = heuristic_action(deal, seat, legal, DEFAULT)
        if planted is None and len(legal) > 1 and nothing_hidden(deal.view(seat)):
            values = {a: _exact(deal, seat, a) for a in legal}
            wins = [a for a, v in values.items() if v == WIN]
            losses = [a for a, v in values.items() if v == LOSS]
            if wins and losses:
                action = losses[0]
                planted = (len(moves), seat, wins)
        moves.append((seat, action))
        deal.apply(seat, action)
    return start, moves, planted


@functools.cache
def _first_planted():
    for seed in range(40):
        start, moves, planted = _planted_game(seed)
        if planted:
            return start, moves, planted
    raise AssertionError("no deal with a won and a lost move in 40 shuffles")


def test_review_finds_the_planted_blunder():
    start, moves, (index, seat, wins) = _first_planted()
    marks = review(start, moves, seats=[seat], worlds=8, seed=1)
    top = marks[0]
    assert (top.number, top.seat, top.played) == (index, seat, moves[index][1])
    assert top.exact and (top.before, top.after) == (WIN, LOSS)
    assert top.better in wins
    # No move that kept the result is marked as a blunder of that size.
    assert all(m.drop < 1.0 for m in marks[1:] if m.exact)


def test_review_of_the_same_deal_without_the_blunder_does_not_mark_it():
    start, moves, (index, seat, wins) = _first_planted()
    deal = start.copy()
    for s, a in moves[:index]:
        deal.apply(s, a)
    fixed = moves[:index] + [(seat, wins[0])]
    deal.apply(seat, wins[0])
    while not deal.is_over:
        s = deal.to_act
        a = heuristic_action(deal, s, deal.legal_actions(s), DEFAULT)
        fixed.append((s, a))
        deal.apply(s, a)
    marks = review(start, fixed, seats=[seat], worlds=8, seed=1)
    assert index not in [m.number for m in marks]


def _heuristic_deal(seed):
    """A 2-player deal from a shuffled full deck played by the heuristic for both seats."""
    rng = random.Random(seed)
    pack = full_deck(36)
    rng.shuffle(pack)
    start = Deal.start(Rules(players=2), deck=pack, dealer=0)
    deal, moves = start.copy(), []
    while not deal.is_over:
        seat = deal.to_act
        action = heuristic_action(deal, seat, deal.legal_actions(seat), DEFAULT)
        moves.append((seat, action))
        deal.apply(seat, action)
    return start, moves


def _gap_on_fresh_deals(view, better, worse, worlds=300):
    """The chance `better` keeps over `worse`, measured again on many other sampled deals."""
    seat = view["seat"]
    rng = random.Random("fresh")
    total = 0.0
    for _ in range(worlds):
        world = Deal.sample(view, rng)
        for sign, action in ((1, better), (-1, worse)):
            d = world.copy()
            d.apply(seat, action)
            total += sign * playout(d, seat, DEFAULT, rng)
    return total / worlds


def test_a_sampled_mark_holds_on_fresh_deals():
    """Eight sampled deals only screen: a move is marked when fresh deals bear the gap out,
    so a mark is not the luck of a few playouts (a good lead read as a 44-point blunder)."""
    start, moves = _heuristic_deal(0)
    marks = [m for m in review(start, moves, worlds=8, seed=1) if not m.exact]
    assert marks  # the heuristic does blunder now and then
    for mark in marks:
        deal = start.copy()
        for s, a in moves[:mark.number]:
            deal.apply(s, a)
        gap = _gap_on_fresh_deals(deal.view(mark.seat), mark.better, mark.played)
        assert gap >= BLUNDER / 2, (mark, gap)


def test_a_hint_leaves_the_heuristics_move_only_for_a_surely_better_one():
    departures = 0
    for n, (deal, seat) in enumerate(random_positions("coach-departs", 4)):
        legal = deal.legal_actions(seat)
        if n % 5 or len(legal) < 3 or nothing_hidden(deal.view(seat)):
            continue
        view = deal.view(seat)
        advice = hint(view, worlds=8, seed=n)
        mine = heuristic_action(Deal.sample(view, random.Random(0)), seat, None, DEFAULT)
        if advice.action != mine:
            departures += 1
            assert _gap_on_fresh_deals(view, advice.action, mine) > 0, (advice, mine)
    assert departures <= 6


def test_hint_is_a_legal_move_with_a_reason():
    seen = set()
    for n, (deal, seat) in enumerate(random_positions("coach", 3)):
        if n % 5 or len(deal.legal_actions(seat)) < 2:
            continue
        advice = hint(deal.view(seat), worlds=4, confirm=6, seed=n)
        assert isinstance(advice, Advice)
        assert advice.action in deal.legal_actions(seat)
        assert 0.0 <= advice.chance <= 1.0
        assert advice.reason in {"wins", "exchange", "take", "stop", "pass", "transfer",
                                 "keeps_trumps", "cheapest", "beat", "throw_in", "lowest",
                                 "lead", "must_take"}
        seen.add(advice.reason)
    assert len(seen) >= 3


def test_a_forced_take_says_nothing_beats_the_cards():
    """Not "beating would cost more": when a card on the table beats everything in the
    hand, the hint says so."""
    forced = 0
    for n, (deal, seat) in enumerate(random_positions("coach", 3)):
        view = deal.view(seat)
        hand = [Card.parse(c) for c in view["hand"] or []]
        unbeaten = [Card.parse(a) for a, d in view["table"] if d is None]
        beatable = [any(beats(c, a, view["trump"]) for c in hand) for a in unbeaten]
        if all(beatable) or Take() not in deal.legal_actions(seat):
            continue
        forced += 1
        advice = hint(view, worlds=4, confirm=6, seed=n)
        assert isinstance(advice.action, Take) and advice.reason == "must_take"
    assert forced >= 5


def test_hint_plays_a_forced_win():
    start, moves, (index, seat, wins) = _first_planted()
    deal = start.copy()
    for s, a in moves[:index]:
        deal.apply(s, a)
    advice = hint(deal.view(seat), worlds=4)
    assert advice.action in wins and advice.chance == WIN and advice.reason == "wins"


def test_hint_sees_only_the_view():
    """The same view with other hidden cards behind it gets the same hint."""
    rng = random.Random(3)
    for deal, seat in random_positions("coach-twins", 2):
        if len(deal.legal_actions(seat)) < 2 or rng.random() < 0.8:
            continue
        view = deal.view(seat)
        twin = Deal.sample(view, random.Random(rng.random()))
        assert twin.view(seat) == view
        assert (hint(view, worlds=3, confirm=6, seed=9)
                == hint(twin.view(seat), worlds=3, confirm=6, seed=9))


def test_spectators_get_no_hint():
    deal = Deal.start(Rules(players=2), seed=1)
    with pytest.raises(ValueError, match="spectator"):
        chances(deal.view(None))
