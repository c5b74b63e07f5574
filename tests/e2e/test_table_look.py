"""The table as a card table, seen in a browser: 2, 4 and 6 players at phone and desktop
size (screenshots in artifacts/screenshots/), the whole hand, the bout and the buttons on a
phone's screen at once, your turn in the tab's title and icon, the last move highlighted
and said in words (and to screen readers)."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.engine import Attack, Defend, Pass, Take
from games.models import RulePreset
from tests.e2e import helpers
from tests.e2e.helpers import PASSWORD, open_table, wait_state
from tests.e2e.test_screenshots import SIZES, shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["pia", "olga", "boris", "vera", "emil", "zoya"]


def bout_in_play(monkeypatch, django_user_model, players: int, seed: int,
                 preset: str = "Classic"):
    """A game of `players` people (pia in seat 0), played by the rules until pia is to act
    with at least two cards on the table. The moves are made here, before any page opens."""
    game, users, rng = helpers.seated_game(monkeypatch, django_user_model, names=NAMES[:players],
                                           seed=seed, label="look", preset=preset)
    for _ in range(200):
        deal = game.match().deal
        seat = deal.to_act
        if seat == 0 and len(deal.table) >= 2 and deal.legal_actions(0):
            return game, users
        legal = deal.legal_actions(seat)
        cards = [a for a in legal if isinstance(a, Attack | Defend)]
        # Keep the bout going: beat when possible, throw in now and then, rarely take.
        if cards and (any(isinstance(a, Defend) for a in cards) or rng.random() < 0.5):
            action = rng.choice(cards)
        else:
            action = next((a for a in legal if isinstance(a, Pass | Take)), legal[0])
        game = services.play(game.pk, users[seat], [action.token()], game.version)
    raise AssertionError("no bout with pia to act")


def log_in(new_page, username, size):
    extra = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    return helpers.log_in(new_page, username, viewport=SIZES[size], **extra)


ON_SCREEN_JS = """(selectors) => selectors.map(sel => {
  const boxes = [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect());
  if (!boxes.length) return sel + ': missing';
  const top = Math.min(...boxes.map(b => b.top)), bottom = Math.max(...boxes.map(b => b.bottom));
  return top >= 0 && bottom <= window.innerHeight ? '' : `${sel}: ${top}..${bottom} of ${window.innerHeight}`;
}).filter(Boolean)"""


SIDE_BY_SIDE_JS = """() => {
  const boxes = [...document.querySelectorAll('#table fieldset.hand .card')].map(e => e.getBoundingClientRect());
  return boxes.slice(1).map((b, i) => b.left - boxes[i].right);
}"""


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_table_at_phone_and_desktop_size(new_page, django_user_model, monkeypatch,
                                             players):
    game, _ = bout_in_play(monkeypatch, django_user_model, players, seed=players)
    for size in ("phone", "desktop"):
        person = log_in(new_page, "pia", size)
        page = person.page
        state = open_table(person, game.pk, "(s) => s.mine")
        table = page.locator("#table")
        # The other seats sit around the table with their card backs, in clockwise order
        # from pia's left; pia's own seat glows, since it is her move.
        others = table.locator(".seats .seat.opp")
        expect(others).to_have_count(players - 1)
        expect(others.first.locator(".name")).to_have_text(NAMES[1])
        expect(others.first.locator(".backs .card.back").first).to_be_visible()
        expect(table.locator(".seat.me.to-act")).to_be_visible()
        # The hand is sorted: trumps last.
        trump = page.locator(".deck .trump").inner_text()
        hand = state["hand"]
        suits = {"♠ spades": "S", "♥ hearts": "H", "♦ diamonds": "D", "♣ clubs": "C"}
        trump_suit = next(code for words, code in suits.items() if words in trump)
        flags = [card[1] == trump_suit for card in hand]
        assert flags == sorted(flags), f"trumps not last in {hand} (trump {trump_suit})"
        if size == "phone" and players == 6:
            # Hand, bout and buttons on a phone's screen at once, without scrolling.
            missing = page.evaluate(ON_SCREEN_JS, [
                "#table fieldset.hand .card", "#table .pairs", "#table .buttons button"])
            assert not missing, missing
        if size == "desktop" and len(hand) <= 6:
            # A wide screen lays a short hand side by side, no card under the next.
            gaps = page.evaluate(SIDE_BY_SIDE_JS)
            assert gaps and all(gap >= 0 for gap in gaps), gaps
        shoot(page, f"table-{players}p-{size}", SIZES[size])


def test_the_last_moves_cards_move_in_unless_motion_is_reduced(
        new_page, django_user_model, monkeypatch):
    game, _ = bout_in_play(monkeypatch, django_user_model, 2, seed=2)
    animation = "() => getComputedStyle(document.querySelector('#table .card.last')).animationName"
    for motion, expected in (("no-preference", "deal-in"), ("reduce", "none")):
        person = helpers.log_in(new_page, "pia", reduced_motion=motion)
        open_table(person, game.pk, "(s) => s.mine")
        assert person.page.evaluate(animation) == expected, motion


def test_the_waiting_room_and_my_games(new_page, django_user_model, monkeypatch):
    helpers.quiet_notify(monkeypatch)
    pia = django_user_model.objects.create_user(username="pia", password=PASSWORD)
    game = services.create_game(pia, RulePreset.objects.get(name="Classic"), players=3)
    person = log_in(new_page, "pia", "phone")
    page = person.page
    open_table(person, game.pk)
    expect(page.locator("#table .seat-list")).to_contain_text("empty seat")
    shoot(page, "table-waiting-phone", SIZES["phone"])
    bout_in_play(monkeypatch, django_user_model, 4, seed=4)
    page.goto("/games/mine/")
    expect(page.locator(".my-games li.waiting .countdown")).to_have_text(
        re.compile(r"^\d+ min, \d+ sec left$"))
    shoot(page, "my-games-phone", SIZES["phone"])


def test_the_turn_sound_is_off_until_switched_on_and_remembered(
        new_page, django_user_model, monkeypatch):
    game, _ = bout_in_play(monkeypatch, django_user_model, 2, seed=2)
    person = helpers.log_in(new_page, "pia")
    page = person.page
    open_table(person, game.pk, "(s) => s.mine")
    toggle = page.get_by_role("button", name="Sounds")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.reload()
    wait_state(person, "(s) => s.mine")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => localStorage.getItem('durak-sound')") == "on"
