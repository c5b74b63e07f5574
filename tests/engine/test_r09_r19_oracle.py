"""Random deals in individual play, checked bout by bout against an independent reading of
R9 (limit), R10/R11 (who may attack, in what order), R17 (drawing), R18/R19 (who attacks
next) and R21/R22 (the end). The expected values are computed here from docs/rules.md, not read
from the engine."""

import random

import pytest

from games.engine import Deal, Rules
from games.engine.cards import full_deck
from tests.engine.decks import history

SEATING = (2, 3, 4, 5, 6)


def next_active(seat, n, out):
    for k in range(1, n + 1):
        s = (seat + k) % n
        if s not in out:
            return s
    raise AssertionError("nobody left")


def previous_active(seat, n, out):
    for k in range(1, n + 1):
        s = (seat - k) % n
        if s not in out:
            return s
    raise AssertionError("nobody left")


def expected_eligible(rules, attacker, defender, out):
    n = rules.players
    mode = rules.throw_in
    if mode == "auto":
        mode = "neighbours" if n >= 5 else "all"
    if mode == "main_only":
        return (attacker,)
    others = [(defender + k) % n for k in range(1, n)]
    others = [s for s in others if s not in out and s not in (attacker, defender)]
    if mode == "neighbours":
        others = [s for s in others
                  if s in (next_active(defender, n, out), previous_active(defender, n, out))]
    return (attacker, *others)


def expected_limit(rules, deal, defender, bout):
    limit = min(rules.attack_limit, len(deal.hand(defender)))
    if bout == 1:
        limit = min(limit, rules.first_bout_limit)
    return limit


def expected_draws(rules, leader, defender, sizes, talon):
    n, size = rules.players, rules.hand_size
    order = [(leader + k) % n for k in range(n) if (leader + k) % n != defender] + [defender]
    draws = []
    for s in order:
        k = min(max(0, size - sizes[s]), talon)
        talon -= k
        if k:
            draws.append((s, k))
    return draws


def random_individual_rules(rng):
    while True:
        try:
            return Rules(
                players=rng.choice(SEATING), deck_size=rng.choice((24, 36, 52)),
                hand_size=rng.choice((5, 6)), attack_limit=rng.choice((2, 4, 6)),
                first_bout_limit=rng.choice((5, 6)), lead_multiple=rng.random() < 0.3,
                throw_in=rng.choice(("auto", "all", "neighbours", "main_only")),
                transfer=rng.random() < 0.4)
        except ValueError:
            continue


def check_bout_start(deal, rules):
    out = deal.out
    n = rules.players
    assert deal.defender == next_active(deal.attacker, n, out)  # R7: the defender is on the left
    assert deal.to_act == deal.attacker and not deal.table
    assert deal.limit == expected_limit(rules, deal, deal.defender, deal.bout)  # R9
    assert deal.eligible == expected_eligible(rules, deal.attacker, deal.defender, out)  # R10, R11


def play_checked_deal(rules, rng):
    pack = [c.code for c in full_deck(rules.deck_size)]
    rng.shuffle(pack)
    deal = Deal.start(rules, deck=pack, dealer=rng.randrange(rules.players),
                      opener=rng.randrange(rules.players))
    n = rules.players
    check_bout_start(deal, rules)
    leader, seen, was_out = deal.attacker, len(history(deal)), deal.out
    while not deal.is_over:
        seat = deal.to_act
        action = rng.choice(deal.legal_actions(seat))
        bout, defender, talon = deal.bout, deal.defender, deal.talon_size
        deal.apply(seat, action)
        if type(action).__name__ == "Transfer":  # R32: limit and eligible settled again
            assert deal.limit == expected_limit(rules, deal, deal.defender, deal.bout)
            assert deal.eligible == expected_eligible(rules, deal.attacker, deal.defender, deal.out)
        if deal.bout == bout and not deal.is_over:
            continue
        events = history(deal)[seen:]
        taken = any(e["type"] == "pick_up" for e in events)
        draws = [(e["seat"], e["count"]) for e in events if e["type"] == "draw"]
        drawn = {s: k for s, k in draws}
        sizes = [len(deal.hand(s)) - drawn.get(s, 0) for s in range(n)]
        assert draws == expected_draws(rules, leader, defender, sizes, talon)  # R17
        out = deal.out
        if deal.talon_size == 0:  # R19
            assert out == was_out | {s for s in range(n) if not deal.hand(s)}
        else:
            assert out == set()
        holders = [s for s in range(n) if s not in out]
        if len(holders) <= 1:  # R21, R22
            assert deal.is_over
            assert deal.is_draw == (not holders)
            assert deal.loser == (holders[0] if holders else None)
            return deal
        assert not deal.is_over
        if not taken and defender not in out:
            expected = defender  # R18: the successful defender attacks
        else:
            expected = next_active(defender, n, out)  # R18 skip, R19 out
        assert deal.attacker == expected
        check_bout_start(deal, rules)
        leader, seen, was_out = deal.attacker, len(history(deal)), deal.out
    raise AssertionError("the deal ended without reaching a bout end")  # pragma: no cover


@pytest.mark.parametrize("chunk", range(4))
def test_r09_r10_r11_r17_r18_r19_r21_r22_hold_bout_by_bout_in_random_deals(chunk):
    rng = random.Random(f"oracle/{chunk}")
    results = {"draw": 0, "lost": 0}
    for _ in range(50):
        rules = random_individual_rules(rng)
        deal = play_checked_deal(rules, rng)
        results["draw" if deal.is_draw else "lost"] += 1
    assert results["lost"] > 0


def next_member(rules, team, last, out):
    """R30: the team's next active member, in its clockwise order, after `last`."""
    members = rules.members(team)
    start = members.index(last) + 1
    for k in range(len(members)):
        person = members[(start + k) % len(members)]
        if person not in out:
            return person
    raise AssertionError("the whole team is out")


def play_checked_team_deal(rules, rng):
    pack = [c.code for c in full_deck(rules.deck_size)]
    rng.shuffle(pack)
    deal = Deal.start(rules, deck=pack, dealer=rng.randrange(rules.players))
    last = {}  # team -> the member who last filled one of its seats
    n = rules.players

    def filled(person):
        team = rules.team_of(person)
        if team in last:
            assert person == next_member(rules, team, last[team], deal.out), "R30 rotation"
        else:
            assert person == deal.attacker or person == deal.defender
        last[team] = person

    def bout_start(continuing):
        assert rules.team_of(deal.attacker) != rules.team_of(deal.defender)  # R28
        # R10, R29: every active player of the other teams may attack; no partner of the
        # defender, nobody out.
        expected = {s for s in range(n) if s not in deal.out
                    and rules.team_of(s) != rules.team_of(deal.defender)}
        assert set(deal.eligible) == expected and deal.eligible[0] == deal.attacker
        if not continuing:
            filled(deal.attacker)
        filled(deal.defender)

    bout_start(continuing=False)
    while not deal.is_over:
        seat = deal.to_act
        action = rng.choice(deal.legal_actions(seat))
        bout, defender = deal.bout, deal.defender
        seen = len(history(deal))
        deal.apply(seat, action)
        if type(action).__name__ == "Transfer":
            filled(deal.defender)
            assert deal.attacker == defender
        if deal.is_over:
            teams_left = {rules.team_of(s) for s in range(n) if s not in deal.out}
            assert len(teams_left) <= 1  # R21, R31
            assert deal.loser is None
            assert deal.losing_team == (teams_left.pop() if teams_left else None)
            return deal
        if deal.bout != bout:
            teams_left = {rules.team_of(s) for s in range(n) if s not in deal.out}
            assert len(teams_left) >= 2
            taken = any(e["type"] == "pick_up" for e in history(deal)[seen:])
            continuing = not taken and defender not in deal.out
            if continuing:
                assert deal.attacker == defender  # R18
            bout_start(continuing)
    return deal  # pragma: no cover


@pytest.mark.parametrize("teams", ["2x2", "2x3", "3x2"])
def test_r28_r29_r30_r31_hold_bout_by_bout_in_random_team_deals(teams):
    rng = random.Random(f"team-oracle/{teams}")
    players = {"2x2": 4, "2x3": 6, "3x2": 6}[teams]
    outs = 0
    for i in range(30):
        rules = Rules(players=players, teams=teams, transfer=i % 2 == 1,
                      deck_size=(24, 36, 52)[i % 3] if players == 4 else (36, 52)[i % 2],
                      hand_size=6 if players * 6 <= 36 or i % 3 else 5)
        deal = play_checked_team_deal(rules, rng)
        outs += len(deal.out)
    assert outs > 0
