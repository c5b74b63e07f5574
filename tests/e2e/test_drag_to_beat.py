"""Dragging a hand card onto an attack card beats it (static/js/drag.js), with a mouse or a
finger; a card dropped where it can't beat changes nothing and the table says why. The
transfer question leaves the hand in sight and names its choices in words. Dealt from the
stacked decks of test_choosing_cards and test_click_to_play (hearts are trump)."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import RulePreset
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import PASSWORD, open_table, quiet_notify, wait_state
from tests.e2e.test_choosing_cards import log_in, stacked_game
from tests.e2e.test_click_to_play import TRANSFER_DECK
from tests.e2e.test_screenshots import SIZES, shoot
from tests.stacking import stack_new_matches

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": SIZES["phone"], "is_mobile": True, "has_touch": True}


def hand(page, code):
    return page.locator(f"#move fieldset.hand [data-card='{code}']")


def attack(page, code):
    return page.locator(f"#table .pairs .card.attack[data-card='{code}']")


def spot(locator):
    """A point on the card that no neighbour covers: hand cards overlap from the right."""
    box = locator.bounding_box()
    return box["x"] + 9, box["y"] + box["height"] / 2


def drag_with_mouse(page, card, onto, picture=None):
    page.mouse.move(*spot(card))
    page.mouse.down()
    x, y = spot(onto)
    page.mouse.move(x, y, steps=8)
    ghost = page.locator("body > .drag-ghost").bounding_box()  # the card under the pointer
    assert ghost["x"] < x < ghost["x"] + ghost["width"] and ghost["y"] < y < ghost["y"] + ghost["height"]
    if picture:
        page.screenshot(path=SCREENSHOTS / f"{picture}.png")
    page.mouse.up()


def drag_with_finger(page, card, onto):
    """A touch drag, as a phone's touch screen sends it (Playwright has no touch drag)."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = spot(card), spot(onto)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 9):
        point = {"x": x0 + (x1 - x0) * i / 8, "y": y0 + (y1 - y0) * i / 8}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_card_dragged_onto_an_attack_card_beats_it(new_page, django_user_model, monkeypatch):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    pia, person = log_in(new_page, django_user_model, "pia", **PHONE)
    game = stacked_game(monkeypatch, olga, pia, RulePreset.objects.get(name="Classic"))
    game = services.play(game.pk, olga, ["attack:7S"], game.version)
    page = person.page
    state = open_table(person, game.pk, "(s) => s.mine")

    # With a finger: the 9♠ onto the 7♠.
    drag_with_finger(page, hand(page, "9S"), attack(page, "7S"))
    state = wait_state(person, "(s, v) => s.version > v", state["version"])
    assert state["table"] == ["7S", "9S"] and not state["message"]
    expect(page.locator("#table .pair:has(.attack[data-card='7S']) .defence[data-card='9S']")).to_be_visible()

    # Olga throws in both 7s. The J♠ can't beat the 7♣: the table says why, nothing is sent.
    game = services.play(game.pk, olga, ["attack:7C", "attack:7D", "pass"], state["version"])
    page.reload()
    state = wait_state(person, "(s) => s.mine")
    drag_with_mouse(page, hand(page, "JS"), attack(page, "7C"))
    note = page.locator("#move .drop-note")
    expect(note).to_have_text(
        "The J♠ can't beat the 7♣: it is neither a higher card of the same suit nor a trump.")
    expect(page.locator("#table .pair:has(.attack[data-card='7C'])")).to_have_class(
        re.compile(r"\bdrop-refused\b"))
    shoot(page, "table-drop-refused-phone", SIZES["phone"])
    assert person.version == state["version"] and len(person.moves_sent) == 1
    # A beaten card can't be beaten again either.
    drag_with_mouse(page, hand(page, "JC"), attack(page, "7S"))
    expect(note).to_have_text("The 7♠ is already beaten.")

    # With the mouse: the J♣ onto the 7♣ beats it; the 7♦ waits.
    drag_with_mouse(page, hand(page, "JC"), attack(page, "7C"), "table-dragging-phone")
    state = wait_state(person, "(s, v) => s.version > v", state["version"])
    assert not state["message"], state["message"]
    assert state["table"] == ["7S", "9S", "7C", "JC", "7D"]
    expect(page.locator("#move .drop-note")).to_have_count(0)


def test_the_transfer_question_leaves_the_hand_in_sight_and_says_beat_in_words(
        new_page, django_user_model, monkeypatch):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    pia, person = log_in(new_page, django_user_model, "pia", **PHONE)
    stack_new_matches(monkeypatch, TRANSFER_DECK, seed="e2e")
    quiet_notify(monkeypatch)
    game = services.create_game(olga, RulePreset.objects.get(name="Perevodnoy (transfer)"),
                                players=2, deals=1)
    game = services.join_game(game.pk, pia)
    game = services.play(game.pk, olga, ["attack:7S"], game.version)
    page = person.page
    open_table(person, game.pk, "(s) => s.mine")

    hand(page, "7H").click()
    ask = page.locator("#move .ask")
    expect(ask).to_contain_text("Transfer with this card, or beat a card with it?")
    beat = ask.get_by_role("button", name="Beat 7♠ with 7 of hearts")
    expect(beat.locator(".choice-words")).to_have_text("Beat 7♠")
    expect(ask.get_by_role("button", name="Transfer", exact=True)).to_be_visible()
    shoot(page, "table-transfer-ask-words-phone", SIZES["phone"])

    # Every hand card is still there to see and to touch: nothing of the question lies on it.
    box = ask.bounding_box()
    cards = page.locator("#move fieldset.hand .card[data-card]")
    for i in range(cards.count()):
        card = cards.nth(i).bounding_box()
        assert card["y"] >= box["y"] + box["height"] or card["y"] + card["height"] <= box["y"], (
            cards.nth(i).get_attribute("data-card"), card, box)
        x, y = card["x"] + 6, card["y"] + card["height"] / 2
        hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('fieldset.hand') !== null",
                            [x, y])
        assert hit, cards.nth(i).get_attribute("data-card")

    state = person.state()
    beat.click()
    state = wait_state(person, "(s, v) => s.version > v", state["version"])
    assert not state["message"] and "7H" not in state["hand"]
    # Beaten, and olga has nothing to throw in: the bout went to the discard pile.
    assert any("pia beats 7♠ with 7♥." in line for line in state["log"]), state["log"]
