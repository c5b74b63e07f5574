"""games.describe: the deal's log and the card names in words."""

from datetime import timedelta

import pytest

from games import describe
from games.engine import Deal, Rules

NAMES = {0: "Anna", 1: "Bob", 2: "Carl", 3: "Dora"}


@pytest.mark.parametrize("event, words", [
    ({"type": "trump_card", "card": "KC"}, "The trump card is K♣."),
    ({"type": "trump_shown", "seat": 1, "card": "7S"}, "Bob shows the last card dealt, 7♠: it decides trump."),
    ({"type": "lowest_trump", "seat": 0, "card": "6C"}, "Anna holds the lowest trump, 6♣, and starts."),
    ({"type": "attack", "seat": 0, "card": "7H"}, "Anna attacks with 7♥."),
    ({"type": "defend", "seat": 1, "attack": "7H", "card": "9H"}, "Bob beats 7♥ with 9♥."),
    ({"type": "transfer", "seat": 1, "card": "7D"}, "Bob transfers with 7♦."),
    ({"type": "take", "seat": 1}, "Bob takes."),
    ({"type": "pass", "seat": 0}, "Anna passes."),
    ({"type": "pick_up", "seat": 1, "cards": ["7H", "9H", "TH"]}, "Bob picks up 3 cards: 7♥, 9♥, 10♥."),
    ({"type": "pick_up", "seat": 1, "cards": ["7H"]}, "Bob picks up 1 card: 7♥."),
    ({"type": "discard", "cards": ["7H", "9H"]}, "Beaten off: 2 cards go to the discard pile."),
    ({"type": "draw", "seat": 2, "count": 1}, "Carl draws 1 card."),
    ({"type": "exchange", "seat": 3, "six": "6C", "card": "KC", "with_seat": None}, "Dora exchanges 6♣ for K♣."),
    ({"type": "out", "seat": 2}, "Carl has no cards left and is out."),
    ({"type": "durak", "seat": 1, "team": 1}, "Bob is the durak!"),
    ({"type": "durak", "seat": None, "team": 1}, "Team B loses the deal."),
    ({"type": "draw_game"}, "Nobody holds cards: the deal is drawn."),
])
def test_it_describes_every_event(event, words):
    assert describe.event(event, NAMES.get) == words


def test_unknown_events_are_skipped():
    assert describe.history([{"type": "mystery"}, {"type": "take", "seat": 0}],
                            NAMES.get) == ["Anna takes."]


def test_every_event_of_real_deals_is_described():
    from games.engine import Pass

    for seed in range(20):
        deal = Deal.start(Rules(players=4, teams="2x2", transfer=True), seed=seed)
        while not deal.is_over:
            seat = deal.to_act
            legal = deal.legal_actions(seat)
            deal.apply(seat, legal[-1] if Pass() in legal and seed % 2 else legal[0])
        for e in deal.history:
            assert describe.event(e, NAMES.get), e


def test_card_names():
    assert describe.label("TH") == "10♥"
    assert describe.spoken("TH") == "10 of hearts"
    assert describe.spoken("QS") == "queen of spades"
    assert describe.spoken("AD") == "ace of diamonds"


@pytest.mark.parametrize("td, words", [
    (timedelta(minutes=1), "1 minute"),
    (timedelta(minutes=5), "5 minutes"),
    (timedelta(hours=1), "1 hour"),
    (timedelta(hours=2, minutes=30), "2 hours 30 minutes"),
    (timedelta(days=7), "7 days"),
    (timedelta(days=1), "1 day"),
])
def test_durations(td, words):
    assert describe.duration(td) == words
