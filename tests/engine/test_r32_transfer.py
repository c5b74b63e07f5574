"""docs/rules.md R32: the transfer of perevodnoy."""

from games.engine import IllegalAction, Rules, Transfer
from tests.engine.decks import (
    cards,
    deal_from,
    endgame,
    hand,
    history,
    pass_round,
    play,
    refused,
)

THREE = {0: "8S 6S 7S JS QS KS", 1: "8H 9S 6H 7H JH QH", 2: "8D 9H 9D TS TH TD"}


def transfers(deal, seat):
    return {a.card.code for a in deal.legal_actions(seat) if isinstance(a, Transfer)}


def test_r32_the_defender_passes_the_attack_on_with_a_card_of_the_same_rank():
    deal = deal_from(Rules(players=3, transfer=True), dealer=2, opener=0, hands=THREE,
                     trump_card="AC")
    play(deal, "0 a 8S")
    assert transfers(deal, 1) == {"8H"}
    assert refused(deal, 1, Transfer("9S")) == (
        "To transfer, add a card of the attack's rank; the 9♠ is not.")
    play(deal, "1 t 8H")
    # The defender became the main attacker; the next player defends and must act.
    assert (deal.attacker, deal.defender, deal.to_act) == (1, 2, 2)
    assert [(str(a), d) for a, d in deal.table] == [("8S", None), ("8H", None)]
    assert deal.eligible == (1, 0) and deal.limit == 6
    assert history(deal, "transfer") == [{"type": "transfer", "seat": 1, "card": "8H"}]
    play(deal, "2 d 8S TS", "2 d 8H 9H")
    pass_round(deal)
    # R18: after transfers the last defender, if successful, attacks next.
    assert (deal.attacker, deal.defender) == (2, 0)


def test_r32_after_a_take_the_last_defender_is_skipped():
    deal = deal_from(Rules(players=3, transfer=True), dealer=2, opener=0, hands=THREE,
                     trump_card="AC")
    play(deal, "0 a 8S", "1 t 8H", "2 take")
    pass_round(deal)
    assert "8S" in hand(deal, 2) and "8H" in hand(deal, 2)
    assert (deal.attacker, deal.defender) == (0, 1)


def test_r32_a_transfer_may_be_transferred_again():
    deal = deal_from(Rules(players=3, transfer=True), dealer=2, opener=0, hands=THREE,
                     trump_card="AC")
    play(deal, "0 a 8S", "1 t 8H", "2 t 8D")
    assert (deal.attacker, deal.defender, deal.to_act) == (2, 0, 0)
    assert len(deal.table) == 3 and deal.limit == 5  # seat 0 has five cards left
    assert deal.eligible == (2, 1)


def test_r32_transfer_back_to_the_leader_with_two_players_and_the_limit_recomputed():
    deal = deal_from(Rules(players=2, transfer=True), dealer=1, opener=0, trump_card="AC",
                     hands={0: "8S 8D 6S 7S JS QS", 1: "8H 9S 6H 7H JH QH"})
    assert deal.limit == 6
    play(deal, "0 a 8S", "1 t 8H")
    assert (deal.attacker, deal.defender, deal.to_act) == (1, 0, 0)
    assert deal.limit == 5  # computed for the new defender: five cards in hand
    assert transfers(deal, 0) == {"8D"}
    play(deal, "0 t 8D")
    assert (deal.attacker, deal.defender, deal.to_act) == (0, 1, 1)
    assert deal.limit == 5 and len(deal.table) == 3


def test_r32_the_next_player_must_hold_as_many_cards_as_there_would_be_attack_cards():
    rules = Rules(players=2, transfer=True, lead_multiple=True)
    hands = {0: "8S 8H 8D 6S 7S JS", 1: "8C 9S 6H 7H JH QH"}
    deal = deal_from(rules, dealer=1, opener=0, hands=hands, trump_card="AD")
    play(deal, "0 a 8S", "0 a 8H", "0 a 8D")  # three led; seat 0 keeps three cards
    assert deal.to_act == 1
    assert transfers(deal, 1) == set()
    assert refused(deal, 1, Transfer("8C")) == (
        "You can't transfer: seat 0 would have to beat 4 cards but may be given at most 3.")
    deal = deal_from(rules, dealer=1, opener=0, hands=hands, trump_card="AD")
    play(deal, "0 a 8S", "0 a 8H", "0 pass")  # two led; seat 0 keeps four cards
    assert transfers(deal, 1) == {"8C"}
    play(deal, "1 t 8C")
    assert deal.defender == 0 and len(deal.table) == 3 and deal.limit == 4


def test_r32_no_transfer_once_an_attack_card_is_beaten():
    deal = deal_from(Rules(players=3, transfer=True), dealer=2, opener=0, trump_card="AC",
                     hands={0: "8S 8D 6S 7S JS QS", 1: "8H 9S 6H 7H JH QH"})
    play(deal, "0 a 8S", "1 d 8S 9S", "0 a 8D")
    assert deal.to_act == 1 and transfers(deal, 1) == set()
    assert refused(deal, 1, Transfer("8H")) == (
        "You can only transfer before any attack card has been beaten (R32).")
    deal = deal_from(Rules(players=3, transfer=True, lead_multiple=True), dealer=2, opener=0,
                     trump_card="AC", hands={0: "8S 8D 6S 7S JS QS", 1: "8H 9S 6H 7H JH QH"})
    play(deal, "0 a 8S", "0 a 8D", "1 d 8S 9S")
    assert transfers(deal, 1) == set()


def test_r32_transfers_are_off_unless_chosen():
    deal = deal_from(Rules(players=3), dealer=2, opener=0, hands=THREE, trump_card="AC")
    play(deal, "0 a 8S")
    assert transfers(deal, 1) == set()
    assert refused(deal, 1, Transfer("8H")) == "Transfers are not played at this table."


def test_r32_only_the_defender_transfers():
    deal = deal_from(Rules(players=2, transfer=True, lead_multiple=True), dealer=1, opener=0,
                     trump_card="AC", hands={0: "8S 8D 6S 7S JS QS", 1: "8H 9S 6H 7H JH QH"})
    play(deal, "0 a 8S")
    assert refused(deal, 0, Transfer("8D")) == "Only the defender (seat 1) may do that."


def test_r32_in_team_play_the_next_seat_is_filled_by_its_team():
    rules = Rules(players=4, teams="2x2", transfer=True)
    deal = deal_from(rules, dealer=3, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "8H 9S 6H 7H JH QH"})
    play(deal, "0 a 8S", "1 t 8H")
    assert (deal.attacker, deal.defender) == (1, 2)
    assert deal.eligible == (1, 3)  # seat 0 is now the defender's partner (R28)


def test_r32_when_the_attack_comes_back_to_the_leader_the_others_draw_first():
    deal = deal_from(Rules(players=3, transfer=True), dealer=2, opener=0, hands=THREE,
                     trump_card="AC", talon="6D 7D 8C")
    play(deal, "0 a 8S", "1 t 8H", "2 t 8D", "0 take")
    pass_round(deal)
    assert [(e["seat"], e["count"]) for e in history(deal, "draw")] == [(1, 1), (2, 1)]
    assert hand(deal, 1) == cards("9S 6H 7H JH QH 6D")
    assert hand(deal, 2) == cards("9H 9D TS TH TD 7D")


def test_r32_r19_a_seat_that_led_its_last_card_is_passed_over_by_a_transfer():
    # Three players, talon empty: seat 2 leads its last card against seat 0, who transfers
    # to seat 1. Seat 2 is out at once (R19), so seat 1 may transfer on to seat 0.
    deal = endgame(Rules(players=3, transfer=True),
                   {0: "KS 7H 8H 9H TH", 1: "KH 6D", 2: "KC"}, trump="S", attacker=2)
    play(deal, "2 a KC", "0 t KS")
    assert (deal.attacker, deal.defender, deal.to_act) == (0, 1, 1)
    assert transfers(deal, 1) == {"KH"}
    play(deal, "1 t KH")
    assert (deal.attacker, deal.defender, deal.to_act) == (1, 0, 0)
    assert deal.limit == 4 and len(deal.table) == 3


def test_r32_r19_the_same_at_five_players():
    # Seats 3 and 4 are out; seat 1 leads its last card against seat 2, who transfers to
    # seat 0; seat 0 transfers past the empty seat 1 back to seat 2.
    deal = endgame(Rules(players=5, transfer=True),
                   {0: "KH 6D 7D", 1: "KC", 2: "KS 7H 8H 9H TH"}, trump="S", attacker=1,
                   out=(3, 4))
    play(deal, "1 a KC", "2 t KS")
    assert (deal.attacker, deal.defender) == (2, 0)
    assert transfers(deal, 0) == {"KH"}
    play(deal, "0 t KH")
    assert (deal.attacker, deal.defender, deal.to_act) == (0, 2, 2)


def test_r32_a_transfer_that_would_give_too_many_cards_names_the_limit():
    deal = endgame(Rules(players=3, transfer=True),
                   {0: "KS 7H 8H", 1: "KH 6D", 2: "KC"}, trump="S", attacker=2)
    play(deal, "2 a KC", "0 t KS")
    # Seat 0 would come next (seat 2 is out) but holds two cards, not three.
    assert deal.defender == 1 and transfers(deal, 1) == set()
    try:
        deal.apply(1, Transfer("KH"))
    except IllegalAction as exc:
        assert exc.code == "transfer_too_many" and exc.params == {"seat": 0, "count": 3, "limit": 2}
    else:
        raise AssertionError("the transfer was accepted")
