"""docs/rules.md section 7: the trump-6 exchange (R25-R27)."""

from games.engine import ExchangeTrump, Rules
from tests.engine.decks import cards, deal_from, hand, history, pass_round, play, refused

X = ExchangeTrump()

# Five players: 30 cards dealt, the talon is the face-up card and five more. Seat 0 leads
# three cards, seat 1 beats them, and the draw after the bout empties the talon:
# seat 0 draws the first three cards, seat 1 the last two and the face-up card.
FIVE_HANDS = {0: "6S 6D 6C 8S 9S TS", 1: "7S 7D 7C JS QS KS", 2: "AS 8H 9H TH JH QH"}
FIVE_BOUT = ("0 a 6S", "1 d 6S 7S", "0 a 6D", "0 a 6C", "1 d 6D 7D", "1 d 6C 7C")


def five(*, six_at: int | None = 3, talon="JD QD KD 8D 9D", face="AH", **options):
    hands = dict(FIVE_HANDS)
    if six_at is not None:
        hands[six_at] = "6H"
    return deal_from(Rules(players=5, **options), dealer=4, opener=0, hands=hands,
                     trump_card=face, talon=talon)


def exchanges(deal):
    return [s for s in range(deal.rules.players) if X in deal.legal_actions(s)]


# ---------------------------------------------------------------- R25
def test_r25_the_holder_of_the_trump_six_takes_the_face_up_card_out_of_turn():
    deal = five()
    assert deal.to_act == 0 and exchanges(deal) == [3]
    assert deal.legal_actions(3) == [X]
    play(deal, "3 x")
    assert "AH" in hand(deal, 3) and "6H" not in hand(deal, 3)
    assert str(deal.trump_card) == "6H" and deal.talon_size == 6 and deal.trump == "H"
    assert deal.to_act == 0  # the exchange changes nobody's turn
    assert history(deal, "exchange") == [
        {"type": "exchange", "seat": 3, "six": "6H", "card": "AH", "with_seat": None}]
    assert deal.view(0)["known"][3] == ["AH"] and deal.view(None)["trump_card"] == "6H"
    assert exchanges(deal) == []  # once only
    # The 6 lies where the face-up card was: it is drawn last.
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert hand(deal, 0) == cards("8S 9S TS JD QD KD")
    assert hand(deal, 1) == cards("JS QS KS 8D 9D 6H")
    assert deal.talon_size == 0


def test_r25_exchange_in_turn_and_in_the_middle_of_a_bout():
    deal = five(six_at=0)
    assert exchanges(deal) == [0]
    play(deal, "0 x", "0 a 6S")
    deal = five()
    play(deal, "0 a 6S")
    before = (deal.to_act, deal.table)
    play(deal, "3 x")
    assert (deal.to_act, deal.table) == before


def test_r25_only_while_the_face_up_card_is_in_the_talon():
    deal = five()
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert deal.talon_size == 0 and "6H" in hand(deal, 3)
    assert exchanges(deal) == []
    assert refused(deal, 3, X) == "The trump card is no longer in the talon (R25)."


def test_r25_only_the_holder_of_the_six_may_exchange():
    deal = five()
    assert refused(deal, 0, X) == "Only the holder of the 6♥ may exchange it for the trump card."


def test_r25_the_52_card_pack_uses_the_six_too():
    deal = deal_from(Rules(players=2, deck_size=52), dealer=1, opener=0, hands={1: "6S"},
                     trump_card="KS")
    assert exchanges(deal) == [1]
    play(deal, "1 x")
    assert "KS" in hand(deal, 1) and str(deal.trump_card) == "6S"


def test_r25_the_24_card_pack_has_no_six_and_no_exchange():
    deal = deal_from(Rules(players=2, deck_size=24), dealer=1, opener=0, hands={1: "9S"},
                     trump_card="AS")
    assert exchanges(deal) == []
    assert refused(deal, 1, X) == "The 24-card pack has no 6, so there is no trump exchange (R25)."


def test_r25_six_if_ace_only_for_the_trump_ace():
    deal = deal_from(Rules(players=2, trump_exchange="six_if_ace"), dealer=1, opener=0,
                     hands={1: "6S"}, trump_card="AS")
    assert exchanges(deal) == [1]
    deal = deal_from(Rules(players=2, trump_exchange="six_if_ace"), dealer=1, opener=0,
                     hands={1: "6S"}, trump_card="KS")
    assert exchanges(deal) == []
    assert refused(deal, 1, X) == "At this table the 6 may be exchanged only for the trump ace."


def test_r25_trump_exchange_off():
    deal = deal_from(Rules(players=2, trump_exchange="off"), dealer=1, opener=0,
                     hands={1: "6S"}, trump_card="AS")
    assert exchanges(deal) == []
    assert refused(deal, 1, X) == "The trump exchange is not played at this table."


# ---------------------------------------------------------------- R26
def test_r26_a_six_picked_up_in_a_take_gives_no_right():
    deal = deal_from(Rules(players=2), dealer=1, opener=0, trump_card="AH",
                     hands={0: "6H 7S 8S 9S TS JS", 1: "6D 7D 8D 9D TD JD"})
    assert exchanges(deal) == [0]
    play(deal, "0 a 6H", "1 take")
    assert "6H" in hand(deal, 1) and str(deal.trump_card) == "AH"
    assert exchanges(deal) == []
    assert refused(deal, 1, X) == (
        "You have no right to exchange the 6♥: a 6 picked up in a take gives none (R26).")
    assert refused(deal, 0, X) == "Only the holder of the 6♥ may exchange it for the trump card."


def test_r26_a_six_drawn_from_the_talon_gives_the_right():
    deal = deal_from(Rules(players=2), dealer=1, opener=0, trump_card="AH", talon="6H",
                     hands={0: "8S 7S 6D TD JD QC", 1: "9S 7D 8D QD KD AD"})
    assert exchanges(deal) == []
    play(deal, "0 a 8S", "1 d 8S 9S")
    assert "6H" in hand(deal, 0) and deal.to_act == 1
    assert exchanges(deal) == [0]  # out of turn: seat 1 attacks now
    play(deal, "0 x")
    assert "AH" in hand(deal, 0) and str(deal.trump_card) == "6H"


# ---------------------------------------------------------------- R27
def test_r27_late_claim_when_the_six_is_drawn_in_the_draw_that_empties_the_talon():
    deal = five(six_at=None, talon="6H QD KD 8D 9D")
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert deal.talon_size == 0 and deal.trump_card is None
    assert "6H" in hand(deal, 0) and "AH" in hand(deal, 1)
    assert (deal.attacker, deal.to_act) == (1, 1)
    assert exchanges(deal) == [0]
    play(deal, "0 x")
    assert hand(deal, 0) == cards("8S 9S TS AH QD KD")
    assert hand(deal, 1) == cards("JS QS KS 8D 9D 6H")
    assert history(deal, "exchange")[-1] == {
        "type": "exchange", "seat": 0, "six": "6H", "card": "AH", "with_seat": 1}
    view = deal.view(2)
    assert "AH" in view["known"][0] and "6H" in view["known"][1]
    assert exchanges(deal) == []


def test_r27_the_late_claim_lapses_at_the_next_lead():
    deal = five(six_at=None, talon="6H QD KD 8D 9D")
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert exchanges(deal) == [0]
    play(deal, "1 a JS")
    assert exchanges(deal) == []
    refused(deal, 0, X)
    assert "6H" in hand(deal, 0) and "AH" in hand(deal, 1)


def test_r27_no_late_claim_with_oneself():
    deal = five(six_at=None, talon="JD QD KD 8D 6H")  # seat 1 draws the 6 and the A♥
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert "6H" in hand(deal, 1) and "AH" in hand(deal, 1)
    assert exchanges(deal) == []


def test_r27_late_claim_follows_the_option():
    deal = five(six_at=None, talon="6H QD KD 8D 9D", face="KH", trump_exchange="six_if_ace")
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert "6H" in hand(deal, 0) and exchanges(deal) == []
    deal = five(six_at=None, talon="6H QD KD 8D 9D", trump_exchange="six_if_ace")
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert exchanges(deal) == [0]
    deal = five(six_at=None, talon="6H QD KD 8D 9D", trump_exchange="off")
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert exchanges(deal) == []


def test_r27_no_exchange_when_the_face_up_card_is_the_six():
    deal = five(six_at=None, face="6H")
    assert str(deal.trump_card) == "6H"
    assert exchanges(deal) == []
    for seat in range(5):
        refused(deal, seat, X)
    play(deal, *FIVE_BOUT)
    pass_round(deal)
    assert "6H" in hand(deal, 1) and exchanges(deal) == []


def test_r27_no_exchange_without_a_talon():
    deal = deal_from(Rules(players=6), dealer=5, opener=0, hands={3: "6S"}, trump_card="AS")
    assert deal.trump == "S" and exchanges(deal) == []
    refused(deal, 3, X)


def test_r25_an_exchanged_six_is_no_longer_known_in_the_exchangers_hand():
    from games.engine import Deal, ExchangeTrump, Rules

    for seed in range(40):
        deal = Deal.start(Rules(players=2), seed=seed)
        seat = next((s for s in range(2) if ExchangeTrump() in deal.legal_actions(s)), None)
        if seat is None:
            continue
        six = deal.trump_six
        deal.apply(seat, ExchangeTrump())
        assert six.code not in deal.view(None)["known"][seat]
        assert deal.trump_card == six
