"""docs/rules.md sections 1 and 2: the pack, the players, dealing, the first attacker, beating."""

import json
import random
import re

import pytest

from games.engine import Attack, Card, Deal, Defend, ExchangeTrump, Rules, Take
from tests.engine.decks import cards, deal_from, hand, history, make_deck, play, refused

RANKS_36 = "6789TJQKA"


def shuffled(size, seed):
    pack = [r + s for s in "SHDC" for r in "23456789TJQKA"[13 - {24: 6, 36: 9, 52: 13}[size]:]]
    random.Random(seed).shuffle(pack)
    return pack


# ---------------------------------------------------------------- R1 deck
def test_r1_the_pack_has_36_cards_six_to_ace_in_four_suits():
    deck = shuffled(36, 1)
    assert sorted({c[0] for c in deck}) == sorted(RANKS_36)
    deal = Deal.start(Rules(players=3), deck=deck, dealer=0, opener=1)
    dealt = {c.code for s in range(3) for c in deal.hand(s)}
    assert len(dealt) == 18 and deal.talon_size == 18  # 36 in all, trump card included
    # A 2 is not in the 36-card pack; neither is a short or doubled pack accepted.
    with pytest.raises(ValueError, match="2S"):
        Deal.start(Rules(), deck=deck[:-1] + ["2S"])
    with pytest.raises(ValueError, match="36"):
        Deal.start(Rules(), deck=deck[:-1])
    with pytest.raises(ValueError, match="exactly once"):
        Deal.start(Rules(), deck=deck[:-1] + [deck[0]])


def test_r1_deck_size_24_is_nine_to_ace_and_52_is_two_to_ace():
    deal24 = Deal.start(Rules(players=2, deck_size=24), deck=shuffled(24, 2), opener=0)
    assert deal24.talon_size == 24 - 12
    assert min(c.rank for s in range(2) for c in deal24.hand(s)) >= 9
    with pytest.raises(ValueError):
        Deal.start(Rules(deck_size=24), deck=shuffled(36, 2))
    deal52 = Deal.start(Rules(players=2, deck_size=52), deck=shuffled(52, 3), opener=0)
    assert deal52.talon_size == 52 - 12
    with pytest.raises(ValueError, match="deck_size"):
        Rules(deck_size=32)


def test_r1_card_codes_and_rank_order_ace_high():
    ten = Card.parse("TH")
    assert (ten.rank, ten.suit, str(ten)) == (10, "H", "TH")
    assert [Card.parse(r + "S").rank for r in RANKS_36] == list(range(6, 15))
    assert Card.parse("2C").rank == 2 and Card.parse("AD").rank == 14
    assert Card.parse("JS").rank == 11 and Card.parse("QS").rank == 12 and Card.parse("KS").rank == 13
    # Ace is high: the A♠ beats the K♠ and not the other way round.
    rules = Rules(players=2)
    deal = deal_from(rules, dealer=1, opener=0, hands={0: "KS AS", 1: "QS 6D"}, trump_card="7H")
    play(deal, "0 a KS")
    assert Defend("KS", "QS") not in deal.legal_actions(1)
    deal2 = deal_from(rules, dealer=1, opener=0, hands={0: "AS", 1: "KS"}, trump_card="7H")
    play(deal2, "0 a AS")
    assert refused(deal2, 1, Defend("AS", "KS")).startswith("The K♠ can't beat the A♠")


# ---------------------------------------------------------------- R2 players
def test_r2_two_to_six_players():
    for n in range(2, 7):
        assert Rules(players=n).players == n
    for bad in (1, 7, 0):
        with pytest.raises(ValueError, match="players"):
            Rules(players=bad)


def test_r2_team_seating_partners_opposite():
    r22 = Rules(players=4, teams="2x2")
    assert [r22.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    r23 = Rules(players=6, teams="2x3")
    assert [r23.team_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    r32 = Rules(players=6, teams="3x2")
    assert [r32.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    solo = Rules(players=5)
    assert [solo.team_of(s) for s in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="teams"):
        Rules(players=3, teams="2x2")
    with pytest.raises(ValueError, match="teams"):
        Rules(players=6, teams="2x2")
    with pytest.raises(ValueError, match="teams"):
        Rules(players=4, teams="4x1")


def test_r2_left_of_a_seat_is_the_next_seat_clockwise():
    rules = Rules(players=4)
    for opener, defender in ((0, 1), (2, 3), (3, 0)):
        deal = Deal.start(rules, deck=shuffled(36, 4), dealer=0, opener=opener)
        assert (deal.attacker, deal.defender, deal.to_act) == (opener, defender, opener)


# ---------------------------------------------------------------- R3 dealing
def test_r3_cards_dealt_one_at_a_time_from_the_dealers_left_then_trump_card():
    deck = shuffled(36, 5)
    for dealer in range(4):
        deal = Deal.start(Rules(players=4), deck=deck, dealer=dealer, opener=0)
        for seat in range(4):
            expected = [deck[i] for i in range(24) if (dealer + 1 + i) % 4 == seat]
            assert hand(deal, seat) == cards(" ".join(expected))
        assert str(deal.trump_card) == deck[24]
        assert deal.trump == deck[24][1]
        assert deal.talon_size == 12
        assert history(deal, "trump_card") == [{"type": "trump_card", "card": deck[24]}]


def test_r3_talon_is_drawn_from_the_front_and_the_trump_card_last():
    # 5 players: 30 cards dealt, the talon is the trump card and 5 more.
    rules = Rules(players=5)
    deal = deal_from(rules, dealer=4, opener=0,
                     hands={0: "6S 6H 6C 8S 9S TS", 1: "7S 7H 7C JS QS KS"},
                     trump_card="AD", talon="JD QD KD 6D 7D")
    deck = make_deck(rules, 4, hands={0: "6S 6H 6C 8S 9S TS", 1: "7S 7H 7C JS QS KS"},
                     trump_card="AD", talon="JD QD KD 6D 7D")
    assert deck[30:] == ["AD", "JD", "QD", "KD", "6D", "7D"]
    play(deal, "0 a 6S", "1 d 6S 7S", "0 a 6H", "0 a 6C", "1 d 6H 7H", "1 d 6C 7C")
    # Seat 0 could add nothing after the 6♣, so the initiative went to the defender (R13).
    # The seats allowed to throw in (0 and 2) hold nothing of rank 6 or 7: the bout is over.
    assert deal.attacker == 1 and deal.discard_size == 6
    assert hand(deal, 0) == cards("8S 9S TS JD QD KD")  # the leader draws first (R17)
    assert hand(deal, 1) == cards("JS QS KS 6D 7D AD")  # the defender last: the trump card
    assert deal.talon_size == 0 and deal.trump_card is None and deal.trump == "D"
    # The face-up card was seen by all: everybody knows who holds it now.
    assert all(deal.view(s)["known"][1] == ["AD"] for s in (None, 0, 2, 3, 4))


# ---------------------------------------------------------------- R4 no talon
def test_r4_six_players_the_dealers_last_card_decides_trump_and_stays_in_hand():
    deck = shuffled(36, 6)
    for dealer in (0, 2, 5):
        deal = Deal.start(Rules(players=6), deck=deck, dealer=dealer, opener=0)
        last = deck[35]
        assert (dealer + 1 + 35) % 6 == dealer
        assert deal.trump == last[1]
        assert last in hand(deal, dealer).split()
        assert deal.talon_size == 0 and deal.trump_card is None
        assert history(deal, "trump_shown") == [{"type": "trump_shown", "seat": dealer, "card": last}]
        for seat in (None, *range(6)):  # shown to everyone
            assert deal.view(seat)["known"][dealer] == [last]


def test_r4_no_talon_means_no_trump_exchange():
    rules = Rules(players=6)
    deal = deal_from(rules, dealer=5, opener=0, hands={2: "6C"}, trump_card="AC")
    assert deal.trump == "C" and "6C" in hand(deal, 2)
    for seat in range(6):
        assert ExchangeTrump() not in deal.legal_actions(seat)
    refused(deal, 2, ExchangeTrump())


# ---------------------------------------------------------------- R5 first attacker
def test_r5_lowest_trump_starts_and_is_shown_to_everyone():
    rules = Rules(players=3)
    deal = deal_from(rules, dealer=2, hands={0: "AS KS QS JS TS 9S", 1: "8H AD KD QD JD TD",
                                               2: "7H AC KC QC JC TC"}, trump_card="6H")
    assert (deal.attacker, deal.defender, deal.to_act) == (2, 0, 2)
    assert history(deal, "lowest_trump") == [{"type": "lowest_trump", "seat": 2, "card": "7H"}]
    for seat in (None, 0, 1, 2):
        assert deal.view(seat)["known"][2] == ["7H"]
    # ... and may lead any card, not only the low trump.
    assert {a.card.code for a in deal.legal_actions(2) if isinstance(a, Attack)} == set(hand(deal, 2).split())
    play(deal, "2 a AC")
    assert deal.table == [(Card.parse("AC"), None)]


def test_r5_the_trump_six_beats_a_seven_to_the_first_lead():
    rules = Rules(players=4)
    deal = deal_from(rules, dealer=0, hands={1: "7S", 3: "6S"}, trump_card="AS")
    assert deal.attacker == 3 and deal.defender == 0
    assert history(deal, "lowest_trump")[0]["card"] == "6S"


def test_r5_nobody_holds_a_trump_the_player_left_of_the_dealer_starts():
    rules = Rules(players=2)
    for dealer, opener in ((0, 1), (1, 0)):
        deal = deal_from(rules, dealer=dealer, hands={0: "6S 7S 8S 9S TS JS", 1: "6D 7D 8D 9D TD JD"},
                         trump_card="6H")
        assert deal.attacker == opener and deal.to_act == opener
        assert history(deal, "lowest_trump") == []


def test_r5_a_given_opener_attacks_first_and_shows_nothing():
    rules = Rules(players=3)
    deal = deal_from(rules, dealer=0, opener=0, hands={1: "6H"}, trump_card="AH")
    assert deal.attacker == 0 and history(deal, "lowest_trump") == []
    assert deal.view(None)["known"] == [[], [], []]


# ---------------------------------------------------------------- R6 beating
def test_r6_a_plain_card_is_beaten_by_a_higher_card_of_its_suit_or_any_trump():
    rules = Rules(players=2)
    deal = deal_from(rules, dealer=1, opener=0, hands={0: "9S", 1: "8S TS AS 6H AD 7C"},
                     trump_card="KH")
    play(deal, "0 a 9S")
    defences = {a.card.code for a in deal.legal_actions(1) if isinstance(a, Defend)}
    assert defences == {"TS", "AS", "6H"}
    assert Take() in deal.legal_actions(1)
    assert refused(deal, 1, Defend("9S", "8S")) == (
        "The 8♠ can't beat the 9♠: it is neither a higher spade nor a trump.")
    assert refused(deal, 1, Defend("9S", "AD")) == (
        "The A♦ can't beat the 9♠: it is neither a higher spade nor a trump.")


def test_r6_a_trump_is_beaten_only_by_a_higher_trump():
    rules = Rules(players=2)
    deal = deal_from(rules, dealer=1, opener=0, hands={0: "9H", 1: "8H TH AS 6C AD 7C"},
                     trump_card="KH")
    play(deal, "0 a 9H")
    defences = {a.card.code for a in deal.legal_actions(1) if isinstance(a, Defend)}
    assert defences == {"TH"}
    assert refused(deal, 1, Defend("9H", "8H")) == (
        "The 8♥ can't beat the 9♥: a trump is beaten only by a higher trump.")
    assert refused(deal, 1, Defend("9H", "AS")) == (
        "The A♠ can't beat the 9♥: a trump is beaten only by a higher trump.")


def test_r6_following_suit_is_never_required():
    rules = Rules(players=2)
    deal = deal_from(rules, dealer=1, opener=0, hands={0: "9S", 1: "TS 6H"}, trump_card="KH")
    play(deal, "0 a 9S", "1 d 9S 6H")
    assert deal.table == [(Card.parse("9S"), Card.parse("6H"))]


def test_r6_the_player_facing_message_for_a_wrong_suit():
    rules = Rules(players=2)
    deal = deal_from(rules, dealer=1, opener=0, hands={0: "QH", 1: "9S"}, trump_card="KD")
    play(deal, "0 a QH")
    assert refused(deal, 1, Defend("QH", "9S")) == (
        "The 9♠ can't beat the Q♥: it is neither a higher heart nor a trump.")


def test_r3_each_view_shows_its_own_hand_and_never_the_talon_or_other_hands():
    deck = shuffled(36, 8)
    deal = Deal.start(Rules(players=3), deck=deck, dealer=0, opener=1)
    for seat in (None, 0, 1, 2):
        view = deal.view(seat)
        codes = set(re.findall(r'"([2-9TJQKA][SHDC])"', json.dumps(view)))
        own = set(hand(deal, seat).split()) if seat is not None else set()
        assert codes == own | {deck[18]}  # the own hand and the face-up trump card
        assert view["hand"] == (None if seat is None else sorted(own, key=lambda c: Card.parse(c)))
        assert view["hand_sizes"] == [6, 6, 6] and view["talon_size"] == 18
        assert view["trump_card"] == deck[18] and view["trump"] == deck[18][1]
        assert view["to_act"] == 1 and view["attacker"] == 1 and view["defender"] == 2
