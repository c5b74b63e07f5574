"""Clicking a card plays it when it can do only one thing; a card that beats several
attack cards makes the table ask which one. Keyboard play works the same way. The game is
dealt from the stacked deck of test_choosing_cards (hearts are trump)."""

import pytest
from playwright.sync_api import expect

from games import services
from games.models import RulePreset
from tests.e2e.helpers import PASSWORD, open_table, send_move, wait_state
from tests.e2e.test_choosing_cards import log_in, stacked_game
from tests.e2e.test_screenshots import SIZES, shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def hand(page, code):
    return page.locator(f"#move fieldset.hand .pick:has([data-card='{code}'])")


def answered(person, click):
    version = person.version
    assert not send_move(person, click)["message"]
    state = wait_state(person, "(s, v) => s.version > v", version)
    assert not state["message"], state["message"]
    return state


def test_the_defender_beats_by_clicking_and_is_asked_which_card(
        new_page, django_user_model, monkeypatch):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    pia, person = log_in(new_page, django_user_model, "pia", viewport=SIZES["phone"],
                         is_mobile=True, has_touch=True)
    game = stacked_game(monkeypatch, olga, pia, RulePreset.objects.get(name="Classic"))
    game = services.play(game.pk, olga, ["attack:7S"], game.version)
    page = person.page
    open_table(person, game.pk, "(s) => s.mine")

    # 9♠ beats only the 7♠ on the table: one click plays it.
    state = answered(person, lambda: hand(page, "9S").click())
    assert state["table"] == ["7S", "9S"]
    expect(page.locator("#table .pairs .card.defence.last[data-card='9S']")).to_be_visible()
    expect(page.locator("#table .last-move")).to_contain_text("pia beats 7♠ with 9♠.")

    game = services.play(game.pk, olga, ["attack:7C", "attack:7D", "pass"],
                         state["version"])
    page.reload()
    wait_state(person, "(s) => s.mine")
    # The trump 8♥ beats either 7: the table asks which, and plays the one chosen.
    hand(page, "8H").click()
    ask = page.locator("#move .ask")
    expect(ask).to_contain_text("Which card do you beat?")
    expect(ask.get_by_role("button", name="Beat 7♣ with 8 of hearts")).to_be_visible()
    shoot(page, "table-ask-phone", SIZES["phone"])
    ask.get_by_role("button", name="Cancel").click()
    expect(ask).to_have_count(0)
    hand(page, "8H").click()
    state = answered(person, lambda: ask.get_by_role(
        "button", name="Beat 7♦ with 8 of hearts").click())
    assert "8H" in state["table"] and state["table"].index("8H") == state["table"].index("7D") + 1

    # Keyboard: Tab to the J♣ (it beats only the 7♣ now) and press Enter.
    hand(page, "JC").focus()
    state = answered(person, lambda: page.keyboard.press("Enter"))
    # Both beaten and olga has nothing to throw in: the bout's six cards are discarded.
    assert state["table"] == []
    expect(page.locator("#announcer")).to_contain_text("pia beats 7♣ with J♣.")
