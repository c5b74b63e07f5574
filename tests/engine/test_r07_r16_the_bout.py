"""docs/rules.md section 3: the bout (R7-R16), with every hand known."""

from games.engine import Attack, Card, Defend, Pass, Rules, Take, Transfer
from tests.engine.decks import cards, deal_from, hand, history, pass_round, play, refused


def attacks_in(actions) -> set[str]:
    return {a.card.code for a in actions if isinstance(a, Attack)}


# ---------------------------------------------------------------- R7 lead
def test_r7_no_card_may_be_added_before_the_lead_is_beaten():
    deal = deal_from(Rules(players=3), dealer=2, opener=0,
                     hands={0: "8S 8H 6S 7S JS QS", 1: "9S 6H 7H JH QH KH", 2: "8D 6D 7D JD QD KD"},
                     trump_card="AC")
    play(deal, "0 a 8S")
    assert deal.to_act == 1  # R13: seat 0 can add nothing, so the initiative moved on
    assert deal.legal_actions(0) == [] and deal.legal_actions(2) == []
    assert refused(deal, 0, Attack("8H")) == "It is not your turn: seat 1 is to act."
    assert refused(deal, 2, Attack("8D")) == "It is not your turn: seat 1 is to act."
    play(deal, "1 d 8S 9S")
    assert deal.to_act == 0 and attacks_in(deal.legal_actions(0)) == {"8H"}


def test_r7_after_a_take_the_lead_may_be_joined():
    deal = deal_from(Rules(players=2), dealer=1, opener=0,
                     hands={0: "8S 8H 6S 7S JS QS", 1: "9S 6H 7H JH QH KH"}, trump_card="AC")
    play(deal, "0 a 8S", "1 take")
    assert deal.to_act == 0 and attacks_in(deal.legal_actions(0)) == {"8H"}
    play(deal, "0 a 8H")  # seat 0 has no more 8s: the take completes
    assert hand(deal, 1) == cards("9S 6H 7H JH QH KH 8S 8H")
    assert deal.attacker == 0  # R18: two players, the same attacker again


def test_r7_lead_multiple_lets_the_leader_add_cards_of_the_leads_rank():
    deal = deal_from(Rules(players=2, lead_multiple=True), dealer=1, opener=0,
                     hands={0: "8S 8H 8D 7S JS QS", 1: "9S 9H 9D JH QH KH"}, trump_card="AC")
    assert Pass() not in deal.legal_actions(0)  # the lead must contain a card
    assert refused(deal, 0, Pass()) == "You lead this bout: play a card first."
    play(deal, "0 a 8S")
    assert deal.to_act == 0
    assert attacks_in(deal.legal_actions(0)) == {"8H", "8D"}
    assert Pass() in deal.legal_actions(0)
    assert refused(deal, 0, Attack("7S")) == (
        "The 7♠ can't join the lead: every card led must have the lead's rank.")
    play(deal, "0 a 8H", "0 pass")
    assert deal.to_act == 1
    assert [str(a) for a, _ in deal.table] == ["8S", "8H"]


def test_r7_without_lead_multiple_the_lead_is_one_card():
    deal = deal_from(Rules(players=2), dealer=1, opener=0,
                     hands={0: "8S 8H 8D 7S JS QS", 1: "9S 9H 9D JH QH KH"}, trump_card="AC")
    assert Pass() not in deal.legal_actions(0)
    play(deal, "0 a 8S")
    assert deal.to_act == 1 and len(deal.table) == 1


# ---------------------------------------------------------------- R8 throw-in rank
def test_r8_thrown_in_cards_match_the_rank_of_an_attack_or_defence_card():
    deal = deal_from(Rules(players=2), dealer=1, opener=0,
                     hands={0: "8S 8H JD 9H 6S 7S", 1: "JS 6H 7H TH QH KH"}, trump_card="AC")
    play(deal, "0 a 8S", "1 d 8S JS")
    assert attacks_in(deal.legal_actions(0)) == {"8H", "JD"}  # 8 attacked, J defended
    assert refused(deal, 0, Attack("9H")) == (
        "The 9♥ can't be thrown in: no card of its rank is on the table (R8).")
    play(deal, "0 a JD")
    assert [str(a) for a, _ in deal.table] == ["8S", "JD"]


# ---------------------------------------------------------------- R9 limit
HANDS_SIX_ATTACKS = {0: "6S 6D 6C 7S 7D 7C", 1: "7H 8S 8D 8C 9D TS", 2: "9S 8H JS QS KS AS"}


def test_r9_at_most_six_attack_cards_defence_cards_do_not_count():
    deal = deal_from(Rules(players=3), dealer=2, opener=0, hands=HANDS_SIX_ATTACKS, trump_card="AH")
    assert deal.limit == 6
    play(deal, "0 a 6S", "1 d 6S 7H", "0 a 6D", "0 a 6C", "0 a 7S", "0 a 7D", "0 pass",
         "1 d 6D 8D", "1 d 6C 8C", "1 d 7S 8S", "1 d 7D 9D")
    assert len(deal.table) == 5  # ten cards on the table, five of them attack cards
    play(deal, "0 pass", "2 a 9S")
    # The sixth attack card: seat 0 still holds the 7♣ and seat 2 the 8♥, but no more.
    assert deal.to_act == 1 and len(deal.table) == 6
    assert attacks_in(deal.legal_actions(0)) == set() and attacks_in(deal.legal_actions(2)) == set()
    play(deal, "1 d 9S TS")
    assert deal.discard_size == 12 and deal.attacker == 1  # R16: the limit ends the bout
    assert "7C" in hand(deal, 0) and "8H" in hand(deal, 2)


def test_r9_limit_is_the_defenders_hand_at_the_start_and_does_not_grow_on_a_take():
    # Six players, no talon (R4): hands shrink and are not refilled.
    rules = Rules(players=6)
    deal = deal_from(rules, dealer=5, opener=0, trump_card="AC", hands={
        0: "6S 8S 9S JS QS KS", 1: "7S 8H 7D 9H TS TD", 2: "6H 6D 7H AS JH QH", 3: "TH TC"})
    play(deal, "0 a 6S", "1 d 6S 7S", "2 a 6H", "2 a 6D", "2 a 7H",
         "1 d 6H 8H", "1 d 6D 7D", "1 d 7H 9H")
    pass_round(deal)
    assert (deal.attacker, deal.defender) == (1, 2)
    assert len(deal.hand(2)) == 3 and deal.limit == 3  # min(6, 3)
    play(deal, "1 a TS", "2 take")
    assert deal.limit == 3
    play(deal, "1 a TD", "3 a TH")  # the third and last card; seat 3 keeps the 10♣
    assert "TC" in hand(deal, 3)
    assert hand(deal, 2) == cards("AS JH QH TS TD TH")
    assert set(history(deal, "pick_up")[-1]["cards"]) == {"TS", "TD", "TH"}


def test_r9_first_bout_limit_five_caps_only_the_first_bout():
    rules = Rules(players=4, first_bout_limit=5)
    deal = deal_from(rules, dealer=3, opener=0, hands=HANDS_SIX_ATTACKS, trump_card="AH")
    assert deal.limit == 5
    play(deal, "0 a 6S", "1 d 6S 7H", "0 a 6D", "0 a 6C", "0 a 7S", "0 a 7D")
    assert deal.to_act == 1 and attacks_in(deal.legal_actions(0)) == set()  # the 7♣ stays
    play(deal, "1 d 6D 8D", "1 d 6C 8C", "1 d 7S 8S", "1 d 7D 9D")
    assert deal.bout == 2 and deal.discard_size == 10
    assert (deal.attacker, deal.defender, deal.limit) == (1, 2, 6)


def test_r9_attack_limit_option():
    rules = Rules(players=2, attack_limit=2)
    two = {0: HANDS_SIX_ATTACKS[0], 1: HANDS_SIX_ATTACKS[1]}
    deal = deal_from(rules, dealer=1, opener=0, hands=two, trump_card="AH")
    assert deal.limit == 2
    play(deal, "0 a 6S", "1 d 6S 7H", "0 a 6D", "1 d 6D 8D")
    assert deal.bout == 2 and deal.attacker == 1 and deal.limit == 2
    assert "6C" in hand(deal, 0)


# ---------------------------------------------------------------- R10 who may attack
FIVE = {0: "8S 6S 7S TS JS QS", 1: "9S 9H AS 6H 7H TH", 2: "8H JH QH AH 6D 7D",
        3: "8D JD QD KD 6C 7C", 4: "8C JC QC AC TD 9C"}


def test_r10_with_five_players_only_the_defenders_neighbours_attack():
    deal = deal_from(Rules(players=5), dealer=4, opener=0, hands=FIVE, trump_card="KS")
    assert deal.eligible == (0, 2)
    play(deal, "0 a 8S", "1 d 8S 9S")
    assert deal.to_act == 2  # seat 0 has no 8 or 9
    assert deal.legal_actions(3) == [] and deal.legal_actions(4) == []
    play(deal, "2 a 8H", "1 d 8H 9H")
    # Seats 3 and 4 hold an 8 but are not the defender's neighbours: the bout is over.
    assert deal.bout == 2 and deal.attacker == 1
    assert "8D" in hand(deal, 3) and "8C" in hand(deal, 4)


def test_r10_with_six_players_only_the_defenders_neighbours_attack():
    deal = deal_from(Rules(players=6), dealer=5, opener=0, trump_card="AC")
    assert (deal.attacker, deal.defender, deal.eligible) == (0, 1, (0, 2))
    deal = deal_from(Rules(players=6), dealer=5, opener=4, trump_card="AC")
    assert (deal.attacker, deal.defender, deal.eligible) == (4, 5, (4, 0))


def test_r10_throw_in_all_lets_everyone_but_the_defender_attack_at_five_players():
    deal = deal_from(Rules(players=5, throw_in="all"), dealer=4, opener=0, hands=FIVE,
                     trump_card="KS")
    assert deal.eligible == (0, 2, 3, 4)
    play(deal, "0 a 8S", "1 d 8S 9S", "2 pass", "3 a 8D", "1 d 8D AS")
    assert deal.to_act == 2  # passes forgotten (R14)
    play(deal, "2 pass")
    assert deal.to_act == 4  # not a neighbour of the defender, yet asked
    play(deal, "4 a 8C")
    assert [str(a) for a, _ in deal.table] == ["8S", "8D", "8C"]


def test_r10_throw_in_neighbours_at_four_players_leaves_out_the_player_opposite():
    deal = deal_from(Rules(players=4, throw_in="neighbours"), dealer=3, opener=0, trump_card="AC")
    assert deal.eligible == (0, 2)
    deal = deal_from(Rules(players=4), dealer=3, opener=0, trump_card="AC")
    assert deal.eligible == (0, 2, 3)


def test_r10_main_only_prostoy_only_the_main_attacker_attacks():
    rules = Rules(players=4, hand_size=5, throw_in="main_only")
    deal = deal_from(rules, dealer=3, opener=0, trump_card="KD",
                     hands={0: "8S 6S 7S JS QS", 1: "9S AS 6H 7H TH", 2: "8H JH QH AH 6C",
                            3: "8C JC QC AC 9C"})
    assert [len(deal.hand(s)) for s in range(4)] == [5, 5, 5, 5]  # prostoy: five cards
    assert deal.talon_size == 36 - 20
    assert deal.eligible == (0,)
    play(deal, "0 a 8S", "1 d 8S 9S")
    assert deal.bout == 2  # seats 2 and 3 hold an 8 and a 9 but may not throw in
    assert "8H" in hand(deal, 2) and "9C" in hand(deal, 3)


def test_r10_others_join_after_the_first_card_is_beaten_or_taken():
    hands = {0: "8S 6S 7S TS JS QS", 1: "9S 6H 7H TH JH QH", 2: "8D 6D 7D TD JD QD"}
    deal = deal_from(Rules(players=3), dealer=2, opener=0, hands=hands, trump_card="AC")
    play(deal, "0 a 8S")
    assert deal.legal_actions(2) == []
    play(deal, "1 d 8S 9S")
    assert deal.to_act == 2 and attacks_in(deal.legal_actions(2)) == {"8D"}
    deal = deal_from(Rules(players=3), dealer=2, opener=0, hands=hands, trump_card="AC")
    play(deal, "0 a 8S", "1 take")
    assert deal.to_act == 2 and attacks_in(deal.legal_actions(2)) == {"8D"}


# ---------------------------------------------------------------- R11 priority
FOUR = {0: "8S 8H 6S 7S JS QS", 1: "9S 9H TC AS AH 6H", 2: "8C 6C 7C JC QC KC",
        3: "9C JH QH KH 7H AC"}


def test_r11_main_attacker_first_then_left_of_the_defender_before_the_player_opposite():
    deal = deal_from(Rules(players=4), dealer=3, opener=0, hands=FOUR, trump_card="KD")
    assert deal.eligible == (0, 2, 3)
    play(deal, "0 a 8S", "1 d 8S 9S")
    assert deal.to_act == 0
    play(deal, "0 pass")
    assert deal.to_act == 2
    play(deal, "2 pass")
    assert deal.to_act == 3
    play(deal, "3 a 9C", "1 d 9C TC")
    assert deal.to_act == 0  # R14: passes forgotten, the main attacker has priority again


def test_r11_priority_is_counted_from_the_defender_not_from_seat_zero():
    deal = deal_from(Rules(players=4), dealer=3, opener=2, trump_card="AC")
    assert (deal.attacker, deal.defender, deal.eligible) == (2, 3, (2, 0, 1))
    deal = deal_from(Rules(players=5, throw_in="all"), dealer=3, opener=3, trump_card="AC")
    assert (deal.attacker, deal.defender, deal.eligible) == (3, 4, (3, 0, 1, 2))


# ---------------------------------------------------------------- R12 defending
def test_r12_only_the_defender_defends_one_card_at_a_time_in_any_order():
    deal = deal_from(Rules(players=3, lead_multiple=True), dealer=2, opener=0,
                     hands={0: "6S 6H 8S 9S TS JS", 1: "7S 7H 8H 9H TH JH", 2: "7D"},
                     trump_card="AC")
    play(deal, "0 a 6S")
    assert refused(deal, 0, Defend("6S", "7S")) == "Only the defender (seat 1) may do that."
    play(deal, "0 a 6H")  # no third 6: seat 0 is passed over
    assert refused(deal, 2, Defend("6S", "7D")) == "It is not your turn: seat 1 is to act."
    play(deal, "1 d 6H 7H")  # the second card first
    assert deal.to_act == 1
    assert deal.table == [(Card.parse("6S"), None), (Card.parse("6H"), Card.parse("7H"))]
    assert refused(deal, 1, Defend("6H", "8H")) == "The 6♥ is already beaten."
    assert refused(deal, 1, Defend("9S", "TS")) == "The 9♠ is not on the table."
    assert refused(deal, 1, Defend("6S", "8S")) == "You don't hold the 8♠."
    play(deal, "1 d 6S 7S")
    assert deal.to_act == 2  # seat 0 has no 6 or 7; seat 2 holds the 7♦


# ---------------------------------------------------------------- R13 attacker's turn
def test_r13_an_attacker_who_cannot_play_is_passed_over_automatically():
    hands = {0: "8S 6S 7S JS QS KS", 1: "9S 6H 7H TH JH TD", 2: "8D 6D 7D KD JD QD"}
    deal = deal_from(Rules(players=3), dealer=2, opener=0, hands=hands, trump_card="AC")
    play(deal, "0 a 8S", "1 d 8S 9S")
    assert deal.to_act == 2  # seat 0 holds no 8 or 9
    assert history(deal, "pass") == []  # an automatic pass-over is not a declared pass
    play(deal, "2 a 8D", "1 d 8D TD")
    assert deal.bout == 2  # nobody can add an 8, 9 or 10: the bout ends by itself


def test_r13_attackers_play_several_cards_then_pass_and_the_bout_ends_when_all_passed():
    hands = {0: "8S 8H 8D 6S 7S TS", 1: "9S 9H 9D JS JH JD", 2: "9C QS QH QD KS KH"}
    deal = deal_from(Rules(players=3), dealer=2, opener=0, hands=hands, trump_card="AC")
    play(deal, "0 a 8S", "1 d 8S 9S", "0 a 8H")
    assert deal.to_act == 0  # may go on: the 8♦ is playable
    play(deal, "0 pass")
    assert deal.to_act == 1  # an unbeaten card: the initiative goes to the defender
    play(deal, "1 d 8H 9H")
    assert deal.to_act == 0
    play(deal, "0 pass")
    assert deal.to_act == 2
    play(deal, "2 pass")
    assert deal.bout == 2 and deal.discard_size == 4
    assert "8D" in hand(deal, 0) and "9C" in hand(deal, 2)
    assert [(e["seat"]) for e in history(deal, "pass")] == [0, 0, 2]


# ---------------------------------------------------------------- R14 defender's turn
def test_r14_defender_keeps_the_initiative_while_cards_are_unbeaten():
    hands = {0: "8S 8H 8D 6S 7S TS", 1: "9S 9H 9D JS JH JD", 2: "QS QH QD KS KH AS"}
    deal = deal_from(Rules(players=3), dealer=2, opener=0, hands=hands, trump_card="AC")
    play(deal, "0 a 8S", "1 d 8S 9S", "0 a 8H", "0 a 8D")
    assert deal.to_act == 1
    play(deal, "1 d 8H 9H")
    assert deal.to_act == 1 and deal.legal_actions(0) == []


def test_r14_passes_are_forgotten_when_the_last_card_is_beaten():
    hands = {0: "8S 8H 6S 7S TS JS", 1: "9S 9D 6H 7H TH JH", 2: "8D 6D 7D TD JD QD"}
    deal = deal_from(Rules(players=3), dealer=2, opener=0, hands=hands, trump_card="AC")
    play(deal, "0 a 8S", "1 d 8S 9S", "0 pass", "2 a 8D", "1 d 8D 9D")
    assert deal.to_act == 0  # seat 0 passed before, and is asked again
    assert attacks_in(deal.legal_actions(0)) == {"8H"}


def test_r14_the_defender_may_take_even_when_a_defence_is_possible():
    deal = deal_from(Rules(players=2), dealer=1, opener=0,
                     hands={0: "8S 6S 7S TS JS QS", 1: "9S 6H 7H TH JH QH"}, trump_card="AC")
    play(deal, "0 a 8S")
    assert Defend("8S", "9S") in deal.legal_actions(1) and Take() in deal.legal_actions(1)
    assert refused(deal, 1, Pass()) == "The defender can't pass: beat the cards or take them."
    assert refused(deal, 1, Attack("6H")) == "You are defending: beat the cards, or take them."
    assert refused(deal, 1, Transfer("8H")) == "Transfers are not played at this table."
    play(deal, "1 take")
    assert "8S" in hand(deal, 1)


def test_r14_no_take_once_everything_is_beaten():
    deal = deal_from(Rules(players=2), dealer=1, opener=0,
                     hands={0: "8S 8H 7S TS JS QS", 1: "9S 6H 7H TH JH QH"}, trump_card="AC")
    play(deal, "0 a 8S", "1 d 8S 9S")
    assert deal.to_act == 0
    assert refused(deal, 0, Take()) == "Only the defender can take the cards."


# ---------------------------------------------------------------- R15 take
TAKE4 = {0: "8S 9D 6S 7S JS QS", 1: "9S AS KS 6H 7H TD", 2: "8H 9C JH QH KH AH",
         3: "8C 6D 7D JD QD KD"}


def test_r15_attackers_throw_in_after_a_take():
    deal = deal_from(Rules(players=4), dealer=3, opener=0, hands=TAKE4, trump_card="AC")
    play(deal, "0 a 8S", "1 d 8S 9S", "0 pass", "2 a 8H", "2 pass", "1 take")
    # In priority order from the main attacker, each once.
    assert deal.to_act == 0
    play(deal, "0 pass")
    assert deal.to_act == 2
    play(deal, "2 a 9C")
    assert deal.to_act == 3  # seat 0 still holds the 9♦ but is not asked twice
    play(deal, "3 a 8C")
    # The defender picks up every card on the table, attack and defence cards alike.
    pick_up = history(deal, "pick_up")[-1]
    assert pick_up["seat"] == 1 and set(pick_up["cards"]) == {"8S", "8H", "9C", "8C", "9S"}
    assert hand(deal, 1) == cards("AS KS 6H 7H TD 8S 9S 8H 9C 8C")
    assert "9D" in hand(deal, 0)
    for seat in (None, 0, 2, 3):  # the picked-up cards are known to everybody
        assert set(deal.view(seat)["known"][1]) == {"8S", "9S", "8H", "9C", "8C"}
    assert deal.table == [] and deal.discard_size == 0
    assert (deal.attacker, deal.defender) == (2, 3)  # R18: the taker is skipped


def test_r15_a_take_right_after_the_lead():
    deal = deal_from(Rules(players=4), dealer=3, opener=0, hands=TAKE4, trump_card="AC")
    play(deal, "0 a 8S", "1 take")
    assert deal.to_act == 2  # seat 0 holds no 8: passed over; seat 2 holds the 8♥
    play(deal, "2 a 8H", "3 a 8C")
    assert set(history(deal, "pick_up")[-1]["cards"]) == {"8S", "8H", "8C"}


# ---------------------------------------------------------------- R16 success
def test_r16_all_beaten_and_all_passed_cards_go_to_the_discard_pile():
    deal = deal_from(Rules(players=2), dealer=1, opener=0,
                     hands={0: "8S 8H 7S TS JS QS", 1: "9S 6H 7H TH JH QH"}, trump_card="AC")
    play(deal, "0 a 8S", "1 d 8S 9S", "0 pass")
    assert deal.bout == 2 and deal.table == [] and deal.discard_size == 2
    assert set(history(deal, "discard")[-1]["cards"]) == {"8S", "9S"}
    assert all(deal.view(s)["table"] == [] for s in (None, 0, 1))
    assert (deal.attacker, deal.defender) == (1, 0)


def test_r16_the_bout_ends_when_the_limit_is_reached_even_if_attackers_could_go_on():
    deal = deal_from(Rules(players=3, attack_limit=2), dealer=2, opener=0,
                     hands={0: "8S 8H 8D 7S TS JS", 1: "9S 9H 6H 7H JH QH", 2: "8C"},
                     trump_card="AD")
    play(deal, "0 a 8S", "1 d 8S 9S", "0 a 8H", "1 d 8H 9H")
    assert deal.bout == 2 and deal.attacker == 1
    assert "8D" in hand(deal, 0) and "8C" in hand(deal, 2)
