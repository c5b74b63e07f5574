"""Points by place (the durak 0), a match's places, byes and the tiebreaks, checked by hand."""

import pytest

from games.tournament import (
    RoundResult,
    TableResult,
    bye_points,
    places_from_deal,
    places_from_losses,
    standings,
)


def test_points_by_place_give_the_durak_nothing():
    table = TableResult(places=((3,), (1,), (2,)))
    assert table.points() == {3: 2.0, 1: 1.0, 2: 0.0}


def test_a_drawn_deal_shares_the_points():
    assert TableResult(places=((1, 2),)).points() == {1: 0.5, 2: 0.5}
    # Four players: one went out, the last three went out together (R20).
    assert TableResult(places=((4,), (1, 2, 3))).points() == {4: 3.0, 1: 1.0, 2: 1.0, 3: 1.0}


def test_a_deals_places_come_from_who_went_out_and_the_durak():
    assert places_from_deal([1, 2, 3, 4], went_out=[3, 1], last=[4]) == ((3,), (1,), (2,), (4,))
    # A forfeit mid-deal: who went out keeps their place, the rest share the middle.
    assert places_from_deal([1, 2, 3, 4], went_out=[2], last=[3]) == ((2,), (1, 4), (3,))
    assert places_from_deal([1, 2], went_out=[], last=[]) == ((1, 2),)  # a draw


def test_a_matchs_places_come_from_deals_lost():
    assert places_from_losses({1: 2, 2: 0, 3: 2}) == ((2,), (1, 3))
    assert places_from_losses({1: 0, 2: 1}, last=[1]) == ((2,), (1,))


@pytest.mark.parametrize(("size", "points"), [(2, 1.0), (3, 1.0), (4, 1.5), (6, 2.5)])
def test_a_bye_scores_a_two_player_win_or_an_average_place(size, points):
    assert bye_points(size) == points


def win(a, b, lost_a=0, lost_b=1):
    return TableResult(places=((a,), (b,)), deals_lost={a: lost_a, b: lost_b})


def test_a_small_swiss_by_hand():
    """Five players, three rounds (A=1 ... E=5 seeded in that order):

    round 1: A beats B, C beats D, E bye
    round 2: A beats C, E beats B, D bye
    round 3: E beats A, D beats B, C bye

    Points: A 2, B 0, C 2 (a win and a bye), D 2 (a win and a bye), E 3 (two wins, a bye).
    Buchholz (the points of those met; a bye adds none): A = B0 + C2 + E3 = 5,
    C = D2 + A2 = 4, D = C2 + B0 = 2, E = B0 + A2 = 2, B = A2 + E3 + D2 = 7.
    So E 3; then A (5), C (4), D (2) on 2 points; B last.
    """
    rounds = [
        RoundResult(tables=(win(1, 2), win(3, 4)), byes=(5,)),
        RoundResult(tables=(win(1, 3), win(5, 2)), byes=(4,)),
        RoundResult(tables=(win(5, 1), win(4, 2)), byes=(3,)),
    ]
    table = standings([1, 2, 3, 4, 5], rounds)
    assert [(s.player, s.points, s.buchholz) for s in table] == [
        (5, 3.0, 2.0), (1, 2.0, 5.0), (3, 2.0, 4.0), (4, 2.0, 2.0), (2, 0.0, 7.0)]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]
    assert [s.played for s in table] == [2, 3, 2, 2, 3]


def test_head_to_head_then_fewest_deals_lost_then_the_seeding():
    # Round robin of three (no Buchholz): everyone wins once, head-to-head cannot split
    # a cycle; deals lost do (3 lost fewest); then the seeding (1 before 2).
    rounds = [
        RoundResult(tables=(win(1, 2, 1, 2),)),
        RoundResult(tables=(win(2, 3, 1, 2),)),
        RoundResult(tables=(win(3, 1, 0, 2),)),
    ]
    table = standings([1, 2, 3], rounds, buchholz=False)
    assert [(s.player, s.head_to_head, s.deals_lost) for s in table] == [
        (3, 1.0, 2), (1, 1.0, 3), (2, 1.0, 3)]

    # 2 beat 1, and both are on a point: head-to-head puts 2 first though 2 lost more deals.
    rounds = [
        RoundResult(tables=(win(2, 1, 1, 2), win(4, 3, 0, 1))),
        RoundResult(tables=(win(1, 3, 0, 1), win(4, 2, 0, 9))),
    ]
    table = standings([1, 2, 3, 4], rounds, buchholz=False)
    assert [(s.player, s.points, s.head_to_head, s.deals_lost) for s in table] == [
        (4, 2.0, 0.0, 0), (2, 1.0, 1.0, 10), (1, 1.0, 0.0, 2), (3, 0.0, 0.0, 2)]

    # With nothing to split them the seeding decides.
    even = [RoundResult(tables=(TableResult(places=((1, 2),)),))]
    assert [s.player for s in standings([2, 1], even)] == [2, 1]


def test_head_to_head_at_larger_tables_counts_who_finished_ahead():
    rounds = [RoundResult(tables=(TableResult(places=((7,), (8,), (9,))),
                                  TableResult(places=((1,), (2,), (3,)))))]
    # 8 and 2 are tied (1 point each, Buchholz 2 each); they never met: seeding.
    table = standings([1, 2, 3, 7, 8, 9], rounds, table_size=3)
    assert [s.player for s in table] == [1, 7, 2, 8, 3, 9]


def test_at_team_tables_the_winning_team_scores_and_the_losing_team_gets_nothing():
    pairs = TableResult(places=((1, 3), (2, 4)), team_size=2)
    assert pairs.points() == {1: 1.0, 3: 1.0, 2: 0.0, 4: 0.0}
    three_pairs = TableResult(places=((1, 4, 2, 5), (3, 6)), team_size=2)  # 3x2: two share
    assert three_pairs.points() == {1: 1.5, 4: 1.5, 2: 1.5, 5: 1.5, 3: 0.0, 6: 0.0}
