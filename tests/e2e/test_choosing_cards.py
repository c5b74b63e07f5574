"""Choosing the cards of a move in the browser: a card picked to beat one attack card
can't be picked for another (R12), and cards that can't go together in this move are
dimmed and disabled (R7-R9). The games are dealt from stacked decks."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import RulePreset
from tests.e2e import helpers
from tests.e2e.helpers import PASSWORD, quiet_notify, send_move, wait_state
from tests.e2e.test_screenshots import SIZES, shoot
from tests.stacking import stack_new_matches

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Seat 0 holds 7S 7C 7D QS QC QD, seat 1 9S 8H 9D JS JC JD; hearts are trump, seat 0 leads.
DECK = ["7S", "9S", "7C", "8H", "7D", "9D", "QS", "JS", "QC", "JC", "QD", "JD", "6H"]


def stacked_game(monkeypatch, first, second, preset):
    stack_new_matches(monkeypatch, DECK, seed="e2e")
    quiet_notify(monkeypatch)  # moves made here, before the page opens, need no live update
    game = services.create_game(first, preset, players=2, deals=1)
    return services.join_game(game.pk, second)


def log_in(new_page, django_user_model, username, **options):
    user = django_user_model.objects.create_user(username=username, password=PASSWORD)
    return user, helpers.log_in(new_page, username, **options)


def hand_card(page, code):
    return page.locator(f"#move fieldset.hand label.pick:has([data-card='{code}'])")


def play(person):
    page = person.page
    version = person.version
    answer = send_move(person, page.locator("#table").get_by_role(
        "button", name="Play selected", exact=True).click)
    assert not answer["message"], answer["message"]
    return wait_state(person, "(s, v) => s.version > v", version)


def test_a_card_picked_to_beat_one_card_cannot_be_picked_for_another(
        new_page, django_user_model, monkeypatch):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    pia, person = log_in(new_page, django_user_model, "pia", viewport=SIZES["phone"],
                         is_mobile=True, has_touch=True)
    game = stacked_game(monkeypatch, olga, pia, RulePreset.objects.get(name="Classic"))
    game = services.play(game.pk, olga, ["attack:7S"], game.version)
    game = services.play(game.pk, pia, ["defend:7S:9S"], game.version)
    game = services.play(game.pk, olga, ["attack:7C", "attack:7D"], game.version)
    page = person.page
    page.goto(f"/games/{game.pk}/")
    wait_state(person, "(s) => s.mine")

    def option(attack, code):
        return page.locator(f"#move fieldset.beat:has(input[name='beat_{attack}']) "
                            f"label.pick:has([data-card='{code}'])")

    # The trump 8♥ beats either 7; picked for the 7♣ it is taken for the 7♦.
    option("7C", "8H").click()
    expect(option("7C", "8H").locator("input")).to_be_checked()
    expect(option("7D", "8H").locator("input")).to_be_disabled()
    expect(option("7D", "8H")).to_have_class(re.compile(r"\btaken\b"))
    expect(option("7D", "8H")).to_contain_text("chosen for another card")
    expect(option("7D", "9D").locator("input")).to_be_enabled()
    shoot(page, "table-beat-taken-phone", SIZES["phone"])

    # Tapped again for the 7♦, it moves there: the 7♣ is back to "not yet". (force: for
    # Playwright a label of a disabled radio is not clickable; for a finger it is.)
    option("7D", "8H").tap(force=True)
    expect(option("7D", "8H").locator("input")).to_be_checked()
    expect(option("7C", "8H").locator("input")).not_to_be_checked()
    expect(option("7C", "8H").locator("input")).to_be_disabled()
    expect(page.locator("#move input[name=beat_7C][value='']")).to_be_checked()
    values = page.evaluate("() => [...new FormData(document.querySelector('#move'))"
                           ".entries()].filter(([k, v]) => k.startsWith('beat_') && v)")
    assert values == [["beat_7D", "defend:7D:8H"]]

    option("7C", "JC").click()
    after = play(person)
    assert not after["message"]
    # Both beaten, and olga has no rank to throw in: the bout's six cards are discarded.
    assert after["table"] == []
    expect(page.locator("#table .deck")).to_contain_text("Discard pile: 6")


def test_leading_one_card_the_card_clicked_plays_alone(
        new_page, django_user_model, monkeypatch):
    pia, person = log_in(new_page, django_user_model, "pia")
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    game = stacked_game(monkeypatch, pia, olga, RulePreset.objects.get(name="Classic"))
    page = person.page
    page.goto(f"/games/{game.pk}/")
    state = wait_state(person, "(s) => s.mine")

    # R7: the lead is one card, so nothing can go with it: the card clicked plays at once.
    assert not send_move(person, hand_card(page, "QS").click)["message"]
    after = wait_state(person, "(s, v) => s.version > v", state["version"])
    assert after["table"] == ["QS"] and not after["message"]
    assert sorted(after["hand"]) == sorted(c for c in state["hand"] if c != "QS")


def test_with_lead_multiple_cards_of_one_rank_are_led_together(
        new_page, django_user_model, monkeypatch):
    preset = RulePreset.objects.create(name="Several leads", min_players=2, max_players=2,
                                       lead_multiple=True)
    pia, person = log_in(new_page, django_user_model, "pia")
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    game = stacked_game(monkeypatch, pia, olga, preset)
    page = person.page
    page.goto(f"/games/{game.pk}/")
    wait_state(person, "(s) => s.mine")

    hand_card(page, "7S").click()
    for code in ["7C", "7D"]:  # the lead's rank stays
        expect(hand_card(page, code).locator("input")).to_be_enabled()
    for code in ["QS", "QC", "QD"]:
        expect(hand_card(page, code).locator("input")).to_be_disabled()
    hand_card(page, "7C").click()
    expect(hand_card(page, "7C").locator("input")).to_be_checked()
    after = play(person)
    assert after["table"] == ["7S", "7C"] and not after["message"]
    # R13: pia keeps the turn and may add her last 7 to the lead, nothing else.
    expect(hand_card(page, "7D").locator("input")).to_be_enabled()
    expect(hand_card(page, "QS")).to_have_count(0)
