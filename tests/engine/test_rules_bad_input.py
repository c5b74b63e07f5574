"""Bad input is refused with a message for a person and changes nothing (docs/design.md, Habits)."""

import pytest

from games.engine import (
    Attack,
    Card,
    Deal,
    Defend,
    ExchangeTrump,
    IllegalAction,
    Match,
    Pass,
    Rules,
    Take,
    Transfer,
    action_from_dict,
)
from tests.engine.decks import deal_from, draw_game_deal, play, refused


def fresh():
    return deal_from(Rules(players=3), dealer=2, opener=0, trump_card="AC",
                     hands={0: "8S 6S 7S JS QS KS", 1: "9S 6H 7H TH JH QH", 2: "8D 7D TD JD QD KD"})


def unchanged_after(deal, call, exc=ValueError):
    before = deal.to_json()
    with pytest.raises(exc) as info:
        call()
    assert deal.to_json() == before
    return str(info.value)


def test_illegal_action_is_a_value_error():
    assert issubclass(IllegalAction, ValueError)


@pytest.mark.parametrize("code", ["1X", "", "S8", "11H", "6Z", "Joker"])
def test_unknown_card_codes_are_refused_when_the_action_is_made(code):
    for make in (Attack, Transfer, lambda c: Defend("8S", c), lambda c: Defend(c, "8S")):
        with pytest.raises(ValueError, match="card code"):
            make(code)


@pytest.mark.parametrize("thing", [None, 8, 3.5, ["8S"], b"8S"])
def test_card_arguments_must_be_codes_or_cards(thing):
    with pytest.raises(ValueError):
        Attack(thing)


def test_codes_are_read_leniently_but_exactly():
    assert Attack("th") == Attack("TH") == Attack(Card.parse("TH")) == Attack(" 10H ")


def test_a_card_the_seat_does_not_hold():
    deal = fresh()
    assert refused(deal, 0, Attack("AS")) == "You don't hold the A♠."
    assert refused(deal, 0, Attack("2S")) == "You don't hold the 2♠."  # not even in the pack
    play(deal, "0 a 8S")
    assert refused(deal, 1, Defend("8S", "AS")) == "You don't hold the A♠."


def test_another_seats_turn():
    deal = fresh()
    assert refused(deal, 1, Take()) == "It is not your turn: seat 0 is to act."
    assert refused(deal, 2, Attack("8D")) == "It is not your turn: seat 0 is to act."
    assert refused(deal, 2, Pass()) == "It is not your turn: seat 0 is to act."
    play(deal, "0 a 8S")
    assert refused(deal, 0, Pass()) == "It is not your turn: seat 1 is to act."
    assert refused(deal, 2, Defend("8S", "TD")) == "It is not your turn: seat 1 is to act."


def test_a_finished_deal_accepts_nothing():
    deal = draw_game_deal()
    assert deal.is_over
    for seat in (0, 1):
        assert deal.legal_actions(seat) == []
        for action in (Attack("QH"), Pass(), Take(), Defend("QH", "AH"), Transfer("QH"),
                       ExchangeTrump()):
            assert refused(deal, seat, action) == "The deal is over."


@pytest.mark.parametrize("garbage", ["attack", None, 0, {"type": "take"}, Take, object(),
                                     [Take()], ("attack", "8S")])
def test_garbage_actions_are_refused(garbage):
    deal = fresh()
    message = refused(deal, 0, garbage)
    assert "not an action" in message


@pytest.mark.parametrize("seat", ["x", 7, 3, -1, None, True, 1.0, "0"])
def test_garbage_seats_are_refused(seat):
    deal = fresh()
    message = unchanged_after(deal, lambda: deal.apply(seat, Take()))
    assert "seat" in message
    unchanged_after(deal, lambda: deal.legal_actions(seat))
    if seat is not None:
        unchanged_after(deal, lambda: deal.view(seat))
        unchanged_after(deal, lambda: deal.hand(seat))


@pytest.mark.parametrize("options, name", [
    ({"players": 7}, "players"),
    ({"players": 1}, "players"),
    ({"players": "4"}, "players"),
    ({"players": 3, "teams": "2x2"}, "teams"),
    ({"players": 4, "teams": "2x3"}, "teams"),
    ({"players": 6, "teams": "6x1"}, "teams"),
    ({"players": 5, "deck_size": 24}, "hand_size"),
    ({"players": 6, "deck_size": 24, "hand_size": 5}, "hand_size"),
    ({"hand_size": 7}, "hand_size"),
    ({"hand_size": 4}, "hand_size"),
    ({"deck_size": 32}, "deck_size"),
    ({"attack_limit": 0}, "attack_limit"),
    ({"attack_limit": 7}, "attack_limit"),
    ({"first_bout_limit": 4}, "first_bout_limit"),
    ({"lead_multiple": "yes"}, "lead_multiple"),
    ({"transfer": 1}, "transfer"),
    ({"throw_in": "everyone"}, "throw_in"),
    ({"players": 4, "teams": "2x2", "throw_in": "neighbours"}, "throw_in"),
    ({"trump_exchange": "always"}, "trump_exchange"),
    ({"next_deal_start": "winner_left"}, "next_deal_start"),
])
def test_impossible_rules_name_the_option(options, name):
    with pytest.raises(ValueError, match=name):
        Rules(**options)
    with pytest.raises(ValueError, match=name):
        Rules.from_dict(options)


def test_rules_round_trip_and_unknown_options():
    rules = Rules(players=6, teams="3x2", transfer=True, trump_exchange="six_if_ace")
    assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(ValueError, match="colour"):
        Rules.from_dict({"players": 2, "colour": "red"})
    with pytest.raises(ValueError):
        Rules.from_dict(["players", 2])


def test_deal_start_refuses_bad_arguments():
    with pytest.raises(ValueError, match="rules"):
        Deal.start({"players": 2})
    with pytest.raises(ValueError, match="dealer"):
        Deal.start(Rules(players=2), dealer=2)
    with pytest.raises(ValueError, match="opener"):
        Deal.start(Rules(players=2), opener=5)
    with pytest.raises(ValueError, match="deck"):
        Deal.start(Rules(players=2), deck="6S 7S 8S")
    with pytest.raises(ValueError, match="card code"):
        Deal.start(Rules(players=2), deck=["XX"] * 36)


def test_bad_saved_state_is_refused():
    for bad in ("", "{}", "[1, 2]", '{"rules": {"players": 9}}', "not json"):
        with pytest.raises(ValueError):
            Deal.from_json(bad)
    with pytest.raises(ValueError):
        Match.from_json("{}")


def test_action_from_dict_refuses_garbage():
    assert action_from_dict({"type": "defend", "attack": "9S", "card": "TS"}) == Defend("9S", "TS")
    for bad in (None, [], {"type": "fold"}, {"type": "attack"}, {"type": "attack", "card": "1X"}):
        with pytest.raises(ValueError):
            action_from_dict(bad)


def test_every_refusal_in_a_bout_leaves_the_deal_as_it_was():
    deal = fresh()
    play(deal, "0 a 8S")
    for seat in range(3):
        for action in (Attack("8D"), Attack("9S"), Pass(), Take(), Defend("8S", "6H"),
                       Defend("9S", "TH"), Transfer("8D"), ExchangeTrump()):
            if action in deal.legal_actions(seat):
                continue
            refused(deal, seat, action)
    assert deal.to_act == 1 and deal.legal_actions(1)
