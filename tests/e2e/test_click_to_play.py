"""Clicking a card plays it when it can do only one thing; a card that beats several
attack cards makes the table ask which one. Keyboard play works the same way. The game is
dealt from the stacked deck of test_choosing_cards (hearts are trump)."""

import pytest
from playwright.sync_api import expect

from games import services
from games.models import RulePreset
from tests.e2e.helpers import PASSWORD, open_table, quiet_notify, send_move, wait_state
from tests.e2e.test_choosing_cards import log_in, stacked_game
from tests.e2e.test_screenshots import SIZES, shoot
from tests.stacking import stack_new_matches

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

    # Pia leads now. The update kept focus in her hand (not the top of the page), and
    # Space on a card leads it, as a click does.
    state = wait_state(person, "(s) => s.mine")
    page.wait_for_function("() => document.activeElement.closest('#move fieldset.hand')")
    lead = page.evaluate("() => document.activeElement.value")
    assert lead.startswith("attack:")
    state = answered(person, lambda: page.keyboard.press("Space"))
    assert state["table"] == [lead.split(":")[1]]


# Pia (seat 1) holds 7♥ (a trump: it may beat the 7♠ or transfer) and 7♣ (it may only
# transfer); hearts are trump; olga leads the 7♠.
TRANSFER_DECK = ["7S", "7H", "QS", "7C", "QC", "9D", "QD", "JS", "KS", "JC", "KC", "JD", "6H"]


def test_a_transfer_plays_on_one_click_or_asks_when_the_card_also_beats(
        new_page, django_user_model, monkeypatch):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    pia, person = log_in(new_page, django_user_model, "pia", viewport=SIZES["phone"],
                         is_mobile=True, has_touch=True)
    page = person.page
    perevodnoy = RulePreset.objects.get(name="Perevodnoy (transfer)")

    def attacked():
        stack_new_matches(monkeypatch, TRANSFER_DECK, seed="e2e")
        quiet_notify(monkeypatch)
        game = services.create_game(olga, perevodnoy, players=2, deals=1)
        game = services.join_game(game.pk, pia)
        game = services.play(game.pk, olga, ["attack:7S"], game.version)
        open_table(person, game.pk, "(s) => s.mine")

    # The 7♣ can only transfer: one click transfers it, and olga defends both.
    attacked()
    state = answered(person, lambda: hand(page, "7C").click())
    assert state["table"] == ["7S", "7C"] and not state["mine"]
    expect(page.locator("#table .last-move")).to_contain_text("pia transfers with 7♣.")

    # The 7♥ could transfer or beat the 7♠: the table asks, and "Transfer" transfers.
    attacked()
    hand(page, "7H").click()
    ask = page.locator("#move .ask")
    expect(ask).to_contain_text("Transfer with this card, or beat a card with it?")
    expect(ask.get_by_role("button", name="Beat 7♠ with 7 of hearts")).to_be_visible()
    shoot(page, "table-transfer-ask-phone", SIZES["phone"])
    state = answered(person, lambda: ask.get_by_role("button", name="Transfer",
                                                     exact=True).click())
    assert state["table"] == ["7S", "7H"] and not state["mine"]
    expect(page.locator("#table .last-move")).to_contain_text("pia transfers with 7♥.")
