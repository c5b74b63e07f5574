"""Pairing a round: Swiss at two-player tables, score groups at larger ones, round robin.
Randomized with fixed seeds; small fields are checked against every possible pairing."""

import random
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from games.tournament import History, Pairing, round_robin, score_group_tables, swiss_pairs
from games.tournament.pairing import pair_key, table_sizes

ROOT = Path(__file__).resolve().parents[2]


def play_swiss(n: int, rounds: int, rng: random.Random) -> list[Pairing]:
    points = Counter()
    history = History()
    done = []
    for _ in range(rounds):
        ranked = sorted(range(n), key=lambda p: (-points[p], p))
        pairing = swiss_pairs(ranked, history, points)
        check_round(pairing, range(n))
        history.record(pairing)
        done.append(pairing)
        for a, b in pairing.tables:
            points[rng.choice((a, b))] += 1
        for p in pairing.byes:
            points[p] += 1
    return done


def check_round(pairing: Pairing, players) -> None:
    everyone = pairing.players()
    assert sorted(everyone) == sorted(players), "every player one table (or bye) a round"


def rematch_free_exists(players: list[int], history: History) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(rematch_free_exists([p for p in rest if p != other], history)
               for other in rest if not history.meetings(first, other))


@pytest.mark.parametrize("seed", range(40))
def test_swiss_avoids_rematches_whenever_some_pairing_does(seed):
    rng = random.Random(seed)
    n = rng.choice([4, 6, 7, 8, 9, 10])
    history = History()
    players = list(range(n))
    for _ in range(rng.randint(1, n - 2)):  # random earlier rounds, rematches allowed
        rng.shuffle(players)
        tables = tuple(tuple(players[i:i + 2]) for i in range(0, n - 1, 2))
        history.record(Pairing(tables, tuple(players[n - 1:]) if n % 2 else ()))
    ranked = sorted(range(n), key=lambda p: rng.random())
    pairing = swiss_pairs(ranked, history)
    check_round(pairing, range(n))
    rest = [p for p in ranked if p not in pairing.byes]
    if any(rematch_free_exists([p for p in ranked if p != bye], history)
           for bye in (ranked if n % 2 else [None])):
        if rematch_free_exists(rest, history):
            assert pairing.repeats(history) == 0


@pytest.mark.parametrize("n", [16, 17, 30, 101])
def test_a_swiss_never_repeats_a_pairing_and_gives_each_bye_once(n):
    rounds = play_swiss(n, 6, random.Random(n))
    met = Counter(pair_key(*t) for r in rounds for t in r.tables)
    assert max(met.values()) == 1
    byes = Counter(p for r in rounds for p in r.byes)
    assert all(count == 1 for count in byes.values())
    assert len(byes) == (6 if n % 2 else 0)


def test_the_bye_goes_to_the_lowest_ranked_without_one():
    history = History()
    history.byes[4] = 1
    pairing = swiss_pairs([0, 1, 2, 3, 4], history)
    assert pairing.byes == (3,)
    assert swiss_pairs([0, 1, 2, 3, 4], History()).byes == (4,)


def test_swiss_folds_each_score_group_top_half_against_bottom_half():
    tables = swiss_pairs([5, 3, 9, 1, 7, 2, 8, 4], History()).tables
    assert [set(t) for t in tables] == [{5, 7}, {3, 2}, {9, 8}, {1, 4}]
    # Two groups: 1.0 for 5 3 9 1, 0.0 for 7 2 8 4.
    scores = {5: 1.0, 3: 1.0, 9: 1.0, 1: 1.0, 7: 0.0, 2: 0.0, 8: 0.0, 4: 0.0}
    tables = swiss_pairs([5, 3, 9, 1, 7, 2, 8, 4], History(), scores).tables
    assert [set(t) for t in tables] == [{5, 9}, {3, 1}, {7, 8}, {2, 4}]
    # An odd group floats its last player down to the top of the next.
    scores = {5: 2.0, 3: 1.0, 9: 1.0, 1: 1.0, 7: 0.0, 2: 0.0}
    tables = swiss_pairs([5, 3, 9, 1, 7, 2], History(), scores).tables
    assert [set(t) for t in tables] == [{5, 3}, {9, 1}, {7, 2}]
    # A fold partner already met: the next one down the group.
    history = History()
    history.met[pair_key(5, 7)] = 1
    tables = swiss_pairs([5, 3, 9, 1, 7, 2, 8, 4], history).tables
    assert set(tables[0]) == {5, 2}


def test_who_deals_first_is_balanced():
    rounds = play_swiss(16, 8, random.Random(3))
    firsts = Counter(t[0] for r in rounds for t in r.tables)
    for player in range(16):
        assert abs(2 * firsts[player] - 8) <= 2, (player, firsts[player])


@pytest.mark.parametrize(("players", "size", "expected"), [
    (12, 3, ([3, 3, 3, 3], 0)),
    (13, 3, ([3, 3, 3, 2, 2], 0)),
    (14, 4, ([4, 4, 3, 3], 0)),
    (7, 2, ([2, 2, 2], 1)),
    (7, 6, ([6], 1)),  # two tables of five would be two players short
])
def test_table_sizes(players, size, expected):
    assert table_sizes(players, size) == expected


def test_table_sizes_without_smaller_tables_leave_players_out():
    assert table_sizes(13, 3, smaller_tables=False) == ([3, 3, 3, 3], 1)


def test_score_groups_seat_the_leaders_together_and_avoid_meetings():
    history = History()
    points = Counter()
    rng = random.Random(5)
    for round_number in range(3):
        ranked = sorted(range(12), key=lambda p: (-points[p], p))
        pairing = score_group_tables(ranked, history, 3)
        check_round(pairing, range(12))
        assert all(len(t) == 3 for t in pairing.tables)
        if round_number == 0:
            assert set(pairing.tables[0]) == {0, 1, 2}
        assert pairing.repeats(history) == 0
        history.record(pairing)
        for table in pairing.tables:
            order = list(table)
            rng.shuffle(order)
            for place, p in enumerate(order):
                points[p] += 2 - place


@pytest.mark.parametrize("seed", range(10))
def test_score_groups_pair_any_field_once_each(seed):
    rng = random.Random(seed)
    n, size = rng.randint(5, 40), rng.randint(3, 6)
    history = History()
    for _ in range(3):
        pairing = score_group_tables(rng.sample(range(n), n), history, size)
        check_round(pairing, range(n))
        assert all(2 <= len(t) <= size for t in pairing.tables)
        history.record(pairing)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 10])
def test_a_two_player_round_robin_meets_every_pair_once(n):
    schedule = round_robin(list(range(n)))
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)
    met = Counter(pair_key(*t) for r in schedule for t in r.tables)
    assert set(met) == {pair_key(a, b) for a, b in combinations(range(n), 2)}
    assert set(met.values()) == {1}
    for r in schedule:
        check_round(r, range(n))
    firsts = Counter(t[0] for r in schedule for t in r.tables)
    assert max(firsts.values()) - min(firsts[p] for p in range(n)) <= 2


@pytest.mark.parametrize(("n", "size", "rounds"), [(6, 3, 4), (9, 3, 4), (8, 4, 3), (12, 3, 7),
                                                  (7, 3, 5)])
def test_a_round_robin_at_larger_tables_meets_every_pair(n, size, rounds):
    """Six players at tables of three cannot all meet in three rounds (13 pairs at most,
    by search over every schedule): the round robin adds rounds until every pair has met."""
    schedule = round_robin(list(range(n)), size)
    met = Counter(pair_key(a, b) for r in schedule for t in r.tables
                  for a, b in combinations(t, 2))
    for r in schedule:
        check_round(r, range(n))
    assert set(met) == {pair_key(a, b) for a, b in combinations(range(n), 2)}, "everyone meets"
    assert len(schedule) == rounds
    if (n, size) == (9, 3):
        assert set(met.values()) == {1}  # a perfect schedule exists and is found


def test_the_pairing_package_never_imports_django():
    code = ("import sys\nfrom games.tournament import swiss_pairs, History\n"
            "swiss_pairs(list(range(9)), History())\n"
            "assert 'django' not in sys.modules, sorted(m for m in sys.modules if 'django' in m)\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
