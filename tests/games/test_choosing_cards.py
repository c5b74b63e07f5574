"""Cards chosen together in one move: a card picked twice is refused in a player's words
and changes nothing; the table tells the page which cards can go together (R7-R9)."""

import re

import pytest

from games import services
from games.models import RulePreset
from tests.stacking import stack_new_matches

from .conftest import client_for, post_move, refused, snapshot

pytestmark = pytest.mark.django_db

# Seat 0 holds 7S 7C 7D QS QC QD, seat 1 9S 8H 9D JS JC JD; hearts are trump, seat 0 leads.
TRUMP_DECK = ["7S", "9S", "7C", "8H", "7D", "9D", "QS", "JS", "QC", "JC", "QD", "JD", "6H"]


@pytest.fixture
def trump_deal(monkeypatch):
    stack_new_matches(monkeypatch, TRUMP_DECK)


def two_to_beat(alice, bob, preset):
    """bob defends 7♣ and 7♦, both unbeaten; his 8♥ (a trump) beats either."""
    game = services.create_game(alice, preset, players=2)
    game = services.join_game(game.pk, bob)
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    game = services.play(game.pk, bob, ["defend:7S:9S"], game.version)
    game = services.play(game.pk, alice, ["attack:7C", "attack:7D"], game.version)
    assert game.match().deal.to_act == 1
    return game


def test_the_same_card_picked_to_beat_two_cards_is_refused_and_changes_nothing(
        alice, bob, classic, trump_deal):
    game = two_to_beat(alice, bob, classic)
    before = snapshot(game)
    r = client_for(bob).post(f"/games/{game.pk}/play/", {
        "beat_7C": "defend:7C:8H", "beat_7D": "defend:7D:8H", "version": game.version,
    }, headers={"HX-Request": "true"})
    assert r.status_code == 400
    body = r.content.decode()
    assert "You chose the 8♥ for two cards; each card can beat only one." in body
    assert "don't hold" not in body
    assert snapshot(game) == before


def test_the_same_card_played_twice_is_refused_in_a_players_words(alice, bob, classic, trump_deal):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    r = post_move(client_for(alice), game, ["attack:7S", "attack:7S"])
    assert r.status_code == 400
    assert "You chose the 7♠ twice; each card can be played only once." in r.content.decode()
    message = refused(game, lambda: services.play(
        game.pk, alice, ["attack:7S", "transfer:7S"], game.version), services.IllegalMove, 400)
    assert message == "You chose the 7♠ twice; each card can be played only once."


def test_a_lead_of_two_cards_where_one_is_allowed_says_so(alice, bob, classic, trump_deal):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    message = refused(game, lambda: services.play(
        game.pk, alice, ["attack:7S", "attack:7C"], game.version), services.IllegalMove, 400)
    assert message == ("Only one card may lead a bout at this table; more can be thrown in "
                       "once bob has beaten it or taken it. Nothing was played.")


def form_data(alice_client, game):
    body = alice_client.get(f"/games/{game.pk}/").content.decode()
    form = re.search(r'<form id="move"[^>]*>', body).group(0)
    ranks = dict(re.findall(r'value="attack:(\w\w)" data-rank="(\w)"', body))
    return form, ranks


def test_the_table_says_which_cards_can_go_together(alice, bob, classic, trump_deal):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    alice_client = client_for(alice)
    form, ranks = form_data(alice_client, game)  # R7: one card leads
    assert 'data-max="1"' in form and 'data-ranks=""' in form and "data-same-rank" not in form
    assert ranks == {"7S": "7", "7C": "7", "7D": "7", "QS": "Q", "QC": "Q", "QD": "Q"}

    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    game = services.play(game.pk, bob, ["defend:7S:9S"], game.version)
    form, ranks = form_data(alice_client, game)  # R8, R9: ranks on the table, limit 6 - 1
    assert 'data-max="5"' in form and 'data-ranks="7 9"' in form
    assert set(ranks) == {"7C", "7D"}


def test_with_lead_multiple_cards_of_one_rank_lead_together(alice, bob, trump_deal):
    preset = RulePreset.objects.create(name="Many leads", min_players=2, max_players=2,
                                       lead_multiple=True)
    game = services.create_game(alice, preset, players=2)
    game = services.join_game(game.pk, bob)
    form, _ = form_data(client_for(alice), game)
    assert 'data-max="6"' in form and "data-same-rank" in form
    game = services.play(game.pk, alice, ["attack:7S", "attack:7C"], game.version)
    assert [str(a) for a, _ in game.match().deal.table] == ["7S", "7C"]


def test_picking_each_card_once_beats_both(alice, bob, classic, trump_deal):
    game = two_to_beat(alice, bob, classic)
    r = client_for(bob).post(f"/games/{game.pk}/play/", {
        "beat_7C": "defend:7C:JC", "beat_7D": "defend:7D:8H", "version": game.version,
    }, headers={"HX-Request": "true"})
    assert r.status_code == 200
    body = r.content.decode()
    assert 'data-beat-with' not in body and 'role="alert"' not in body


def _hand_cards(html: str) -> dict[str, str]:
    """The hand's cards: code -> the classes of its card."""
    hand = html[html.index('<fieldset class="hand'):]
    hand = hand[:hand.index("</fieldset>")]
    return {code: classes for classes, code in
            re.findall(r'<span class="card ([^"]*)" data-card="(\w+)"', hand)}


def test_on_your_move_the_cards_that_cannot_be_played_are_dimmed(alice, bob, classic, trump_deal):
    game = two_to_beat(alice, bob, classic)
    hand = _hand_cards(client_for(bob).get(f"/games/{game.pk}/").content.decode())
    # 8♥ (a trump) beats either 7, the 9♦ and J♦ the 7♦, the J♣ the 7♣; the J♠ nothing.
    assert {c for c, classes in hand.items() if "idle" in classes} == {"JS"}
    assert set(hand) == {"8H", "9D", "JS", "JC", "JD"}
    waiting = _hand_cards(client_for(alice).get(f"/games/{game.pk}/").content.decode())
    assert waiting and not any("idle" in classes for classes in waiting.values())  # not her move


def test_after_a_throw_in_the_attacker_is_told_the_defender_waits_for_a_pass(
        alice, bob, classic, trump_deal):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    game = services.play(game.pk, bob, ["defend:7S:9S"], game.version)
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert "Throw in more cards" not in page  # nothing unbeaten: bob waits for nothing
    game = services.play(game.pk, alice, ["attack:7C"], game.version)
    assert game.match().deal.to_act == 0  # R13: alice keeps the turn until she passes
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert "Throw in more cards, or pass: then bob answers." in page
    assert "Throw in more cards" not in client_for(bob).get(f"/games/{game.pk}/").content.decode()
