"""Bad input through the browser: a tampered move form and a replayed move are refused
with a clear message on the table (over the socket; 4xx over HTTP, never 500) and change
nothing."""

import random

import pytest
from playwright.sync_api import expect

from games.models import Game, Move
from tests.e2e.helpers import (
    choose_and_play,
    create_game,
    send_move,
    sign_up,
    wait_my_turn_or_over,
    wait_version_above,
    wait_ws_version,
    watch,
)
from tests.e2e.test_screenshots import SIZES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DECK36 = [rank + suit for suit in "SHDC" for rank in "6789TJQKA"]
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# A card input of the move form: a hand card (attack) or a beat option (defend).
CARD_INPUT = "#move input[value^='attack:'], #move input[value^='defend:']"

# Choose the first card input as a click would, without playing it at once.
CHOOSE_JS = """(selector) => {
    const input = document.querySelector(selector);
    input.checked = true;
    input.dispatchEvent(new Event('change', {bubbles: true}));
}"""


def label(code):
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


def recorded(game_id):
    game = Game.objects.get(pk=game_id)
    return game.version, Move.objects.filter(game=game).count(), game.state


def my_turn_with_cards(person, rng):
    """Play on (take or pass when that is all there is) until it is this person's turn
    with cards to choose in the move form."""
    for _ in range(30):
        state = wait_my_turn_or_over(person)
        assert not state["over"], "the deal ended before a turn with cards to choose"
        if person.page.locator(CARD_INPUT).count():
            # The socket is open (it sends the table on connecting): a move goes over it.
            wait_ws_version(person, state["version"])
            return state
        choose_and_play(person, rng)
    raise AssertionError("no turn with cards to choose")


def submit_refused(person, click) -> str:
    """Click, wait for the refusal; returns the message shown on the table."""
    page = person.page
    navigations = len(person.navigations)
    state = send_move(person, click)
    # The message is shown on the table, in the page as it was: no reload, no error page.
    assert state["message"]
    assert len(person.navigations) == navigations
    expect(page.locator(".site-header")).to_be_visible()
    expect(page.locator("#table fieldset.hand")).to_be_visible()
    return state["message"]


def test_a_tampered_form_and_a_replayed_move_are_refused_and_change_nothing(new_page):
    rng = random.Random(3)
    zoya = watch(new_page(), "zoya")
    sign_up(zoya.page, "zoya")

    # 0. The lobby's form with no seat left for zoya: the form comes back with the reason.
    page = zoya.page
    form = page.locator("#create-game")
    form.get_by_label("Players:", exact=True).select_option("2")
    # The page offers at most one computer player to a table for two: a tampered form.
    form.get_by_label("Computer players:", exact=True).evaluate(
        "s => { s.options[2].disabled = false; s.value = '2'; }")
    navigations = len(zoya.navigations)
    with page.expect_response(lambda r: r.url.endswith("/games/new/")) as answer:
        form.get_by_role("button", name="Make the table").click()
    assert answer.value.status == 400
    expect(page.locator("#create-game")).to_contain_text(
        "Leave a seat for yourself: at most 1 computer player.")
    expect(page.locator("#create-game .errorlist").first).to_be_in_viewport(ratio=1)
    expect(page.locator(".site-header")).to_be_visible()
    assert len(zoya.navigations) == navigations and not Game.objects.exists()

    game_id = create_game(zoya.page, preset="Classic", players=2, bots=1, level="easy")
    # The move form sent as "Play selected" sends it (that button is hidden where a tap
    # already plays the card).
    def play():
        page.evaluate("() => document.getElementById('move').requestSubmit()")

    # 1. A card value changed to a card zoya does not hold.
    state = my_turn_with_cards(zoya, rng)
    before = recorded(game_id)
    foreign = next(c for c in DECK36 if c not in state["hand"] and c not in state["table"])
    tampered = page.evaluate("""([foreign, selector]) => {
        const input = document.querySelector(selector);
        const parts = input.value.split(':');
        parts[parts.length - 1] = foreign;
        input.value = parts.join(':');
        input.checked = true;
        return input.value;
    }""", [foreign, CARD_INPUT])
    assert tampered.endswith(":" + foreign)
    message = submit_refused(zoya, play)
    assert not zoya.move_posts, "the move went over the table's socket"
    assert f"You don't hold the {label(foreign)}." in message
    after = zoya.state()
    assert (after["version"], after["hand"], after["table"]) == (
        state["version"], state["hand"], state["table"])
    assert recorded(game_id) == before, "nothing changed"

    # 2. A card code that is no card at all.
    page.evaluate("""(selector) => {
        const input = document.querySelector(selector);
        input.value = 'attack:1X';
        input.checked = true;
    }""", CARD_INPUT)
    message = submit_refused(zoya, play)
    assert "“attack:1X” is not a move." in message, message
    assert recorded(game_id) == before

    # 3. The version changed to a stale one, with a legal card chosen.
    page.evaluate("""() => {
        const v = document.querySelector('#move input[name=version]');
        v.value = String(Number(v.value) - 1);
    }""")
    # (Chosen, not clicked: a lone card clicked plays at once, static/js/table.js.)
    page.evaluate(CHOOSE_JS, CARD_INPUT)
    message = submit_refused(zoya, play)
    assert "The game has moved on" in message, message
    assert zoya.state()["version"] == state["version"]
    assert recorded(game_id) == before

    # The message goes away with the next good move, which is played normally.
    state = my_turn_with_cards(zoya, rng)
    page.evaluate(CHOOSE_JS, CARD_INPUT)
    form_data = page.evaluate(
        "() => [...new FormData(document.querySelector('#move')).entries()]")
    assert any(k == "action" or k.startswith("beat_") for k, v in form_data if v)
    assert not send_move(zoya, play)["message"]
    wait_version_above(zoya, state["version"])
    expect(page.locator("#table [role=alert]")).to_have_count(0)

    # 4. The same form data sent again: refused, nothing played twice.
    state = wait_my_turn_or_over(zoya)
    assert not state["over"]
    before = recorded(game_id)
    # Posted over HTTP this time (htmx.ajax, not the form): answered 409.
    with page.expect_response(lambda r: r.url.endswith("/play/")) as answer:
        message = submit_refused(zoya, lambda: page.evaluate(
        """([url, entries]) => {
            const values = {};
            for (const [k, v] of entries) (values[k] = values[k] || []).push(v);
            htmx.ajax('POST', url, {target: '#table', swap: 'outerHTML', values});
        }""", [f"/games/{game_id}/play/", form_data]))
    assert answer.value.status == 409 and "The game has moved on" in message, message
    assert zoya.state()["version"] == state["version"]
    assert recorded(game_id) == before, "the replayed move was not played again"


def test_a_refused_new_game_on_a_phone_shows_its_reason_on_the_screen(new_page):
    page = new_page(SIZES["phone"], is_mobile=True, has_touch=True)
    sign_up(page, "vera")
    form = page.locator("#create-game")
    form.get_by_label("Players:", exact=True).select_option("2")
    form.get_by_label("Computer players:", exact=True).evaluate(  # not offered: tampered
        "s => { s.options[3].disabled = false; s.value = '3'; }")
    form.get_by_role("button", name="Make the table").click()  # at the foot of a long form
    error = form.locator(".errorlist").first
    expect(error).to_contain_text("at most 1 computer player.")
    expect(error).to_be_in_viewport(ratio=1)  # scrolled to, not left above the screen
