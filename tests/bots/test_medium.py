"""The Medium bot's habits, one position each (two players, seat 0 leads)."""

from games.bots import choose_action
from games.engine import Attack, Deal, Defend, ExchangeTrump, Pass, Rules, Take, Transfer
from games.engine.cards import full_deck


def two_hands(hand0, hand1, face, rules=None):
    """A deal where seat 0 holds hand0, seat 1 hand1 and `face` is the trump card (R3:
    with seat 1 dealing, seat 0 gets cards 0, 2, 4..., seat 1 cards 1, 3, 5...)."""
    rules = rules or Rules(players=2)
    rest = [c.code for c in full_deck(36) if c.code not in {*hand0, *hand1, face}]
    deck = [c for pair in zip(hand0, hand1) for c in pair] + [face] + rest
    return Deal.start(rules, deck=deck, dealer=1, opener=0)


def medium(deal, seat):
    action = choose_action("medium", deal.view(seat), seed=1)
    assert action in deal.legal_actions(seat)
    return action


def test_leads_its_lowest_non_trump():
    deal = two_hands(["QC", "9D", "AS", "JS", "7H", "TC"], ["8C", "9C", "KD", "AD", "7D", "6D"], "8S")
    assert medium(deal, 0) == Attack("7H")


def test_defends_with_the_cheapest_beating_card():
    deal = two_hands(["9D", "QC", "AS", "JS", "7H", "TC"], ["KD", "TD", "7S", "AH", "8C", "9C"], "8S")
    deal.apply(0, Attack("9D"))
    assert medium(deal, 1) == Defend("9D", "TD")


def test_beats_with_the_lowest_trump_when_it_must():
    deal = two_hands(["9D", "QC", "AS", "JS", "7H", "TC"], ["KS", "7S", "AH", "8C", "9C", "6H"], "8S")
    deal.apply(0, Attack("9D"))
    assert medium(deal, 1) == Defend("9D", "7S")


def test_takes_rather_than_spend_a_high_trump_early():
    deal = two_hands(["9D", "QC", "AS", "JS", "7H", "TC"], ["QS", "KS", "AH", "8C", "9C", "6H"], "8S")
    deal.apply(0, Attack("9D"))
    assert medium(deal, 1) == Take()


def test_throws_in_cheap_cards_but_not_trumps():
    deal = two_hands(["9D", "9H", "TS", "JS", "QC", "TC"], ["TD", "KD", "7S", "AH", "8C", "7C"], "8S")
    deal.apply(0, Attack("9D"))
    deal.apply(1, Defend("9D", "TD"))
    assert medium(deal, 0) == Attack("9H")  # a cheap nine, not the ten of trumps
    deal.apply(0, Attack("9H"))
    assert medium(deal, 0) == Attack("TC")  # tens are on the table too
    deal.apply(0, Attack("TC"))
    assert medium(deal, 0) == Pass()  # only TS (a trump) is left to throw


def test_exchanges_the_trump_six():
    deal = two_hands(["9D", "QC", "AS", "6S", "7H", "TC"], ["KD", "TD", "7S", "AH", "8C", "9C"], "JS")
    assert ExchangeTrump() in deal.legal_actions(0)
    assert medium(deal, 0) == ExchangeTrump()


def test_transfers_with_a_plain_card_of_the_rank():
    rules = Rules(players=2, transfer=True)
    deal = two_hands(["9D", "QC", "AS", "JS", "7H", "TC"], ["KD", "TD", "9H", "AH", "8C", "7C"], "8S", rules)
    deal.apply(0, Attack("9D"))
    assert medium(deal, 1) == Transfer("9H")
