"""docs/rules.md sections 4 and 5: drawing, the next bout, out, the end of a deal (R17-R22)."""

from games.engine import Rules
from tests.engine.decks import cards, deal_from, draw24, hand, history, pass_round, play


# ---------------------------------------------------------------- R17 drawing
def test_r17_the_leader_draws_first_then_clockwise_and_the_defender_last():
    deal = deal_from(Rules(players=4), dealer=3, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "9S 9H 9D AS AH AD",
                            2: "8H 6H 7H JH QH KH", 3: "8D 6D 7D JD QD KD"},
                     talon="6C 7C 8C 9C TC JC QC KC TS TH TD")
    play(deal, "0 a 8S", "1 d 8S 9S", "2 a 8H", "1 d 8H 9H", "3 a 8D", "1 d 8D 9D")
    assert deal.bout == 2
    draws = [(e["seat"], e["count"]) for e in history(deal, "draw")]
    assert draws == [(0, 1), (2, 1), (3, 1), (1, 3)]
    assert "6C" in hand(deal, 0) and "7C" in hand(deal, 2) and "8C" in hand(deal, 3)
    assert hand(deal, 1) == cards("AS AH AD 9C TC JC")
    assert deal.talon_size == 12 - 6


def test_r17_a_player_with_a_full_hand_draws_nothing():
    deal = deal_from(Rules(players=3), dealer=2, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "6H 7H 9H TH JH QH",
                            2: "6D 7D TD JD QD KD"},
                     talon="6C 7C 8C")
    play(deal, "0 a 8S", "1 take")
    assert [(e["seat"], e["count"]) for e in history(deal, "draw")] == [(0, 1)]
    assert len(deal.hand(1)) == 7 and len(deal.hand(2)) == 6
    assert "6C" in hand(deal, 0)


def test_r17_when_the_talon_runs_out_mid_draw_the_rest_draw_nothing():
    # Four players, 24 cards, five each: the talon is the face-up A♥ and three more.
    rules = Rules(players=4, deck_size=24, hand_size=5)
    deal = deal_from(rules, dealer=3, opener=0, trump_card="AH", talon="9H TH JH", hands={
        0: "9S 9C KS AS KC", 1: "TS TC JD QS QC", 2: "9D AC KD AD QD", 3: "JS JC KH QH TD"})
    assert deal.talon_size == 4 and deal.limit == 5
    play(deal, "0 a 9S", "1 d 9S TS", "0 a 9C", "1 d 9C TC", "2 a 9D", "1 d 9D JD",
         "3 a JS", "3 a JC", "1 d JS QS", "1 d JC QC")
    draws = [(e["seat"], e["count"]) for e in history(deal, "draw")]
    assert draws == [(0, 2), (2, 1), (3, 1)]  # seat 3 wanted two; the defender gets none
    assert hand(deal, 0) == cards("KS AS KC 9H TH")
    assert hand(deal, 2) == cards("AC KD AD QD JH")
    assert hand(deal, 3) == cards("KH QH TD AH")
    assert deal.hand(1) == [] and deal.talon_size == 0
    # R19: the successful defender has no cards and the talon is empty: out, and skipped.
    assert deal.out == {1}
    assert (deal.attacker, deal.defender) == (2, 3)


def test_r17_the_defender_draws_last_even_when_a_transfer_made_the_leader_defend():
    deal = deal_from(Rules(players=2, transfer=True), dealer=1, opener=0, trump_card="AC",
                     hands={0: "8S 9S 9H 6D 7D JD", 1: "8H 6S 7S JS QS KS"},
                     talon="6C 7C 8C 9C TC")
    play(deal, "0 a 8S", "1 t 8H")
    assert (deal.attacker, deal.defender, deal.to_act) == (1, 0, 0)
    play(deal, "0 d 8S 9S", "0 d 8H 9H")
    pass_round(deal)
    assert [(e["seat"], e["count"]) for e in history(deal, "draw")] == [(1, 1), (0, 3)]
    assert "6C" in hand(deal, 1)
    assert hand(deal, 0) == cards("6D 7D JD 7C 8C 9C")
    assert (deal.attacker, deal.defender) == (0, 1)  # R18: the last defender attacks


# ---------------------------------------------------------------- R18 next bout
def test_r18_after_a_successful_defence_the_defender_attacks():
    deal = deal_from(Rules(players=3), dealer=2, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "9S 6H 7H TH JH QH", 2: "6D 7D TD JD QD KD"})
    play(deal, "0 a 8S", "1 d 8S 9S")
    assert (deal.bout, deal.attacker, deal.defender, deal.to_act) == (2, 1, 2, 1)


def test_r18_after_a_take_the_defender_is_skipped():
    # Anna (0), Ville (1) and Cecilia (2): Anna attacks Ville; Ville takes; Cecilia attacks.
    deal = deal_from(Rules(players=3), dealer=2, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "9S 6H 7H TH JH QH", 2: "6D 7D TD JD QD KD"})
    play(deal, "0 a 8S", "1 take")
    assert (deal.bout, deal.attacker, deal.defender, deal.to_act) == (2, 2, 0, 2)


def test_r18_with_two_players_a_take_means_the_same_attacker_again():
    deal = deal_from(Rules(players=2), dealer=1, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "9S 6H 7H TH JH QH"})
    play(deal, "0 a 8S", "1 take")
    assert (deal.bout, deal.attacker, deal.defender, deal.to_act) == (2, 0, 1, 0)


# ---------------------------------------------------------------- R19 out
ABCD = {0: "9S 9H TC QD 9C AD", 1: "TS TH TD QC KD AS", 2: "9D KS JS QS JH QH",
        3: "KH AH JD JC KC AC"}
ABCD_BOUT1 = ("0 a 9S", "1 d 9S TS", "0 a 9H", "0 pass", "1 d 9H TH", "0 a TC", "0 pass",
              "1 d TC QC", "0 a QD", "0 pass", "1 d QD KD", "0 pass", "2 a 9D", "2 a KS",
              "1 d 9D TD", "1 d KS AS")


def test_r19_a_player_without_cards_is_out_and_skipped():
    # Seed 000: A, B, C, D. A attacks B, B beats it off but loses all his cards: the turn
    # would be B's, but B is out, so C attacks D.
    rules = Rules(players=4, deck_size=24)
    deal = deal_from(rules, dealer=3, opener=0, hands=ABCD, trump_card="AC")
    assert deal.talon_size == 0 and deal.trump == "C"
    play(deal, *ABCD_BOUT1)
    assert deal.out == {1}
    assert history(deal, "out") == [{"type": "out", "seat": 1}]
    assert (deal.attacker, deal.defender) == (2, 3)
    assert deal.view(0)["out"] == [1]
    # D takes; the next attacker is A, and the next active player on A's left is C.
    play(deal, "2 a JS", "3 take")
    pass_round(deal)
    assert (deal.attacker, deal.defender) == (0, 2)
    assert 1 not in deal.eligible


# ---------------------------------------------------------------- R20 result at bout end
def test_r20_empty_hands_mid_bout_decide_nothing_while_the_talon_refills_them():
    deal = deal_from(Rules(players=2), dealer=1, opener=0, trump_card="AH",
                     hands={0: "6S 6D 6C 7S 7D 7C", 1: "7H 8S 8D 8C 9D 9C"})
    play(deal, "0 a 6S", "1 d 6S 7H", "0 a 6D", "0 a 6C", "0 a 7S", "0 a 7D", "0 a 7C")
    assert deal.hand(0) == [] and not deal.is_over and deal.out == set()
    play(deal, "1 d 6D 8D", "1 d 6C 8C", "1 d 7S 8S", "1 d 7D 9D", "1 d 7C 9C")
    # Both hands were empty at the end of the bout, but drawing came first (R17).
    assert not deal.is_over and not deal.is_draw and deal.out == set()
    assert len(deal.hand(0)) == 6 and len(deal.hand(1)) == 6 and deal.talon_size == 12


def test_r20_the_last_card_led_does_not_end_the_deal_until_the_bout_ends():
    deal = draw24()
    play(deal, "0 a QH")
    assert deal.hand(0) == [] and not deal.is_over and deal.to_act == 1
    assert deal.out == set()


# ---------------------------------------------------------------- R21 loser
def test_r21_the_last_player_holding_cards_is_the_durak():
    deal = draw24()
    play(deal, "0 a QH", "1 take")
    assert deal.is_over and not deal.is_draw
    assert deal.loser == 1 and deal.losing_team == 1
    assert deal.to_act is None and deal.legal_actions(1) == []
    assert history(deal, "durak") == [{"type": "durak", "seat": 1, "team": 1}]
    assert deal.view(None)["loser"] == 1 and deal.out == {0}


def test_r21_the_deal_goes_on_while_two_or_more_players_hold_cards():
    rules = Rules(players=6)  # no talon: going out is immediate
    deal = deal_from(rules, dealer=5, opener=0, trump_card="AC",
                     hands={0: "6S 6H 6D 7S 7H 7D", 1: "7C 8S 8H 8D 9H 9D"})
    play(deal, "0 a 6S", "1 d 6S 7C", "0 a 6H", "0 a 6D", "0 a 7S", "0 a 7H", "0 a 7D",
         "1 d 6H 8H", "1 d 6D 8D", "1 d 7S 8S", "1 d 7H 9H", "1 d 7D 9D")
    # Both the attacker and the defender ran out in the same bout.
    assert deal.out == {0, 1} and not deal.is_over
    assert (deal.attacker, deal.defender) == (2, 3)


# ---------------------------------------------------------------- R22 draw
def test_r22_nobody_holding_cards_at_the_end_of_a_bout_is_a_draw():
    deal = draw24()
    play(deal, "0 a QH", "1 d QH AH")
    assert deal.is_over and deal.is_draw
    assert deal.loser is None and deal.losing_team is None
    assert deal.out == {0, 1} and deal.to_act is None
    assert history(deal, "draw_game") == [{"type": "draw_game"}]
    assert history(deal, "durak") == []
