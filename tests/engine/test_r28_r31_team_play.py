"""docs/rules.md section 8: team play (R28-R31), with worked examples (R30's among them)."""

import pytest

from games.engine import Rules
from tests.engine.decks import deal_from, endgame, hand, history, pass_round, play

# ---------------------------------------------------------------- 2x2
# A, B, C, D sit clockwise; A & C are partners, so are B & D. With 24 cards everything is
# dealt (R4): who runs out is out at once.
A, B, C, D = 0, 1, 2, 3
ABCD = {A: "9S 9H TC QD 9C AD", B: "TS TH TD QC KD AS", C: "9D KS JS QS JH QH",
        D: "KH AH JD JC KC AC"}
ABCD_BOUT1 = ("0 a 9S", "1 d 9S TS", "0 a 9H", "0 pass", "1 d 9H TH", "0 a TC", "0 pass",
              "1 d TC QC", "0 a QD", "0 pass", "1 d QD KD", "0 pass", "2 a 9D", "2 a KS",
              "1 d 9D TD", "1 d KS AS")


def two_by_two():
    deal = deal_from(Rules(players=4, teams="2x2", deck_size=24), dealer=3, opener=0,
                     hands=ABCD, trump_card="AC")
    assert deal.trump == "C" and deal.talon_size == 0
    return deal


def test_r30_two_by_two_example_the_partner_stands_in_for_the_player_who_is_out():
    deal = two_by_two()
    assert (deal.attacker, deal.defender, deal.eligible) == (A, B, (A, C))
    play(deal, *ABCD_BOUT1)
    # B beat everything and has no cards: it would be B's turn to attack C; D stands in.
    assert deal.out == {B}
    assert (deal.attacker, deal.defender) == (D, C)
    play(deal, "3 a KH", "2 take")
    pass_round(deal)
    # D succeeded: the turn passes from B over C to D, who now attacks A.
    assert (deal.attacker, deal.defender) == (D, A)
    play(deal, "3 a JD", "0 d JD AD")
    pass_round(deal)
    # A beat it off and attacks next: B's seat, where D defends again.
    assert (deal.attacker, deal.defender) == (A, D)
    assert deal.loser is None and not deal.is_over


def test_r31_a_team_loses_when_only_its_players_hold_cards():
    deal = two_by_two()
    play(deal, *ABCD_BOUT1, "3 a KH", "2 take")
    pass_round(deal)
    play(deal, "3 a JD", "0 d JD AD")
    pass_round(deal)
    assert hand(deal, A) == "9C" and hand(deal, D) == "AC AH JC KC"
    play(deal, "0 a 9C", "3 d 9C JC")  # A's last card; C may still throw in
    assert deal.to_act == C
    play(deal, "2 a JS", "2 pass", "3 d JS AC")
    pass_round(deal)
    assert deal.out == {A, B}
    assert (deal.attacker, deal.defender) == (D, C)  # D beat it off: D attacks C
    play(deal, "3 a KC", "2 take")
    pass_round(deal)
    assert (deal.attacker, deal.defender) == (D, C)  # C took: D's seat attacks A's seat
    play(deal, "3 a AH", "2 take")
    pass_round(deal)
    # B and D are out: only team 0 (C; A is out too) still holds cards.
    assert deal.is_over and not deal.is_draw
    assert deal.losing_team == Rules(players=4, teams="2x2").team_of(C) == 0
    assert deal.loser is None
    assert history(deal, "durak") == [{"type": "durak", "seat": None, "team": 0}]


# ---------------------------------------------------------------- 2x3 (R30's example)
# Seats A1 B1 A2 B2 A3 B3; everything is dealt (R4).
A1, B1, A2, B2, A3, B3 = range(6)
SIX = {A1: "6S 6H 7D 8S", B1: "7S 7H 8D 9S 9H 9D", A2: "TS TH TD JS", B2: "QS JH", A3: "JD",
       B3: "QH"}


def test_r30_two_by_three_example_stand_ins_rotate_evenly_inside_each_team():
    rules = Rules(players=6, teams="2x3")
    deal = deal_from(rules, dealer=B3, opener=A1, hands=SIX, trump_card="AC")
    roles = []

    def bout_roles():
        assert rules.team_of(deal.attacker) != rules.team_of(deal.defender)  # R28
        assert all(rules.team_of(s) == rules.team_of(deal.attacker) for s in deal.eligible)
        roles.append((deal.attacker, deal.defender))

    # Getting B1 out: B1 beats A1's three cards, then leads his last three at A2.
    bout_roles()
    play(deal, "0 a 6S", "1 d 6S 7S", "0 a 6H", "0 a 7D", "1 d 6H 7H", "1 d 7D 8D")
    pass_round(deal)
    bout_roles()
    play(deal, "1 a 9S", "2 d 9S TS", "1 a 9H", "1 a 9D", "2 d 9H TH", "2 d 9D TD")
    pass_round(deal)
    assert deal.out == {B1}
    bout_roles()
    play(deal, "2 a JS", "3 take")  # A2 attacks B2, B2 takes
    pass_round(deal)
    bout_roles()
    play(deal, "4 a JD", "5 take")  # A3 attacks B3, B3 takes
    pass_round(deal)
    assert roles == [(A1, B1), (B1, A2), (A2, B2), (A3, B3)]
    # The example: A1 attacks B1's seat, so B2 defends.
    assert (deal.attacker, deal.defender) == (A1, B2)
    play(deal, "0 a 8S", "3 d 8S QS")
    pass_round(deal)
    # B2 beats off and attacks A2.
    assert (deal.attacker, deal.defender) == (B2, A2)
    play(deal, "3 a JH", "2 take")
    pass_round(deal)
    # A2 takes, so B3 attacks A3.
    assert (deal.attacker, deal.defender) == (B3, A3)
    play(deal, "5 a QH", "4 take")
    pass_round(deal)
    # A3 takes, so B2 stands in for B1's turn, attacking A1.
    assert (deal.attacker, deal.defender) == (B2, A1)
    assert deal.out == {B1} and not deal.is_over


def test_r30_while_everyone_is_in_each_seat_is_filled_by_its_own_player():
    rules = Rules(players=4, teams="2x2")
    deal = deal_from(rules, dealer=3, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "9S 6H 7H TH JH QH",
                            2: "6D 7D TD JD QD KD", 3: "AS AH AD 9H 9D 8C"})
    play(deal, "0 a 8S", "1 d 8S 9S")
    pass_round(deal)
    assert (deal.attacker, deal.defender) == (1, 2)
    play(deal, "1 a 6H", "2 take")
    pass_round(deal)
    assert (deal.attacker, deal.defender) == (3, 0)


# ---------------------------------------------------------------- 3x2: a team all out
def test_r30_a_seat_whose_whole_team_is_out_is_skipped():
    # Teams: 0&3, 1&4, 2&5. Seats 0 and 3 throw all their cards away; 1 and 2 run out
    # defending. Then seats 0 and 3 (team 0, all out) are skipped.
    rules = Rules(players=6, teams="3x2")
    deal = deal_from(rules, dealer=5, opener=0, trump_card="AD", hands={
        0: "6S 6C 7C TH TC QS", 1: "7D 8H 8C 8S 9H 9C", 2: "JS QH QC KH KC KS",
        3: "6H 7S 7H JH JC AS", 4: "TS", 5: "9S"})
    assert deal.eligible == (0, 2, 3, 5)  # seat 4, the defender's partner, sits out (R28)
    play(deal, "0 a 6S", "1 d 6S 7D", "0 a 6C", "0 a 7C", "1 d 6C 8C", "1 d 7C 9C",
         "3 a 6H", "3 a 7S", "3 a 7H", "1 d 6H 8H", "1 d 7S 8S", "1 d 7H 9H")
    assert deal.out == {1}
    assert (deal.attacker, deal.defender, deal.eligible) == (4, 2, (4, 3, 0))
    play(deal, "4 a TS", "2 d TS JS", "4 pass", "3 a JH", "3 a JC", "2 d JH KH", "2 d JC KC",
         "4 pass", "0 a TH", "0 a TC", "2 d TH QH", "2 d TC QC", "4 pass", "0 a QS",
         "2 d QS KS")
    assert deal.out == {0, 1, 2}
    assert (deal.attacker, deal.defender) == (5, 3)
    play(deal, "5 a 9S", "3 d 9S AS")
    assert deal.out == {0, 1, 2, 3} and not deal.is_over
    assert (deal.attacker, deal.defender) == (4, 5)
    play(deal, "4 a AH", "5 d AH JD")
    assert (deal.attacker, deal.defender) == (5, 4)


# ---------------------------------------------------------------- R28 partners
def test_r28_the_defenders_partner_takes_no_part():
    rules = Rules(players=4, teams="2x2")
    deal = deal_from(rules, dealer=3, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "9S 6H 7H TH JH QH",
                            2: "6D 7D TD JD QD KD", 3: "8H 8D 9H 9D AS AH"})
    assert deal.eligible == (0, 2)
    play(deal, "0 a 8S")
    assert deal.legal_actions(3) == []
    play(deal, "1 d 8S 9S")
    # Seat 3 holds 8s and 9s, but it is the defender's partner: the bout is over.
    assert deal.bout == 2 and "8H" in hand(deal, 3)


def test_r28_with_three_teams_everyone_but_the_defending_team_attacks():
    deal = deal_from(Rules(players=6, teams="3x2"), dealer=5, opener=0, trump_card="AC")
    assert (deal.attacker, deal.defender, deal.eligible) == (0, 1, (0, 2, 3, 5))
    deal = deal_from(Rules(players=6, teams="3x2"), dealer=5, opener=2, trump_card="AC")
    assert (deal.attacker, deal.defender, deal.eligible) == (2, 3, (2, 4, 5, 1))


# ---------------------------------------------------------------- R29 the whole side
def test_r29_anyone_of_the_attacking_side_may_throw_in():
    rules = Rules(players=6, teams="2x3")
    deal = deal_from(rules, dealer=5, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "9S 9H 7H TH JH QH",
                            2: "6D 7D TD JD QD KD", 4: "8H"})
    assert deal.eligible == (0, 2, 4)  # seat 4 is not the defender's neighbour
    play(deal, "0 a 8S", "1 d 8S 9S")
    assert deal.to_act == 4
    play(deal, "4 a 8H")
    assert [str(a) for a, _ in deal.table] == ["8S", "8H"]


def test_r29_neighbours_only_is_not_for_team_play():
    with pytest.raises(ValueError, match="throw_in"):
        Rules(players=6, teams="2x3", throw_in="neighbours")
    with pytest.raises(ValueError, match="throw_in"):
        Rules(players=4, teams="2x2", throw_in="neighbours")
    assert Rules(players=6, teams="2x3").effective_throw_in == "all"


def test_r11_in_team_play_priority_counts_from_the_defending_seats_left():
    # 2x3: A1 B1 A2 B2 A3 B3 at seats 0-5; B1 is out, so B2 stands in for B1's seat.
    # The count starts left of the defending seat (seat 1): A2 before A3, although
    # counting from the stand-in (seat 3) would put A3 first.
    deal = endgame(Rules(players=6, teams="2x3"),
                   {0: "7S 9D", 2: "7H TD", 3: "8S 8H AS", 4: "7D JD", 5: "QC"},
                   trump="C", attacker=0, out=(1,))
    assert (deal.attacker, deal.defender) == (0, 3)
    view = deal.view(None)
    assert (view["attack_seat"], view["defend_seat"]) == (0, 1)
    assert view["eligible"] == [0, 2, 4]
    play(deal, "0 a 7S", "3 d 7S 8S")  # seat 0 has nothing to throw in: passed over
    assert deal.to_act == 2  # A2 may throw in its 7♥ before A3 its 7♦
