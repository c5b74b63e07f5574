"""The table as an app on a phone: on a table page the site's header is one slim row with
the menu behind a button, and at 390x844, on your turn, your whole hand and every button
you may press are on the first screen (6 players, and a 2x2 team game); the chat is one
tap away with a count of the lines you have not read, and on a desktop it sits in the side
column. Screenshots of the first screen (and of the whole page) go to
artifacts/screenshots/after/, with the measured positions in table-mode.json."""

import json

import pytest
from playwright.sync_api import expect

from games import services
from games.engine import Attack, Defend, Pass, Take
from tests.e2e import helpers
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import open_table
from tests.e2e.test_accessibility import serious
from tests.e2e.test_screenshots import SIZES, shoot
from tests.e2e.test_table_look import NAMES, bout_in_play

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AFTER = SCREENSHOTS / "after"
PHONE = {"viewport": SIZES["phone"], "is_mobile": True, "has_touch": True}
HEADER_MAX = 56  # px: the site's header on a table page, at most

# Where the parts of the decision are, in the first screen's pixels (boxes of what shows).
MEASURE_JS = """() => {
  const shown = e => e.checkVisibility() && e.getBoundingClientRect().width > 0;
  const boxes = sel => [...document.querySelectorAll(sel)].filter(shown)
    .map(e => e.getBoundingClientRect());
  const span = list => list.length ? {
    top: Math.round(Math.min(...list.map(b => b.top))),
    bottom: Math.round(Math.max(...list.map(b => b.bottom))),
    left: Math.round(Math.min(...list.map(b => b.left))),
    right: Math.round(Math.max(...list.map(b => b.right))), n: list.length} : null;
  return {
    header: Math.round(document.querySelector('.site-header').getBoundingClientRect().height),
    hand: span(boxes('#table fieldset.hand .card')),
    buttons: span(boxes('#table .buttons button')),
    button_names: [...document.querySelectorAll('#table .buttons button')].filter(shown)
      .map(b => b.innerText),
    bout: span(boxes('#table .pairs')),
    scrolled: window.scrollY,
    width: window.innerWidth, height: window.innerHeight,
  };
}"""


def defence_with_a_big_hand(monkeypatch, django_user_model, players: int, seed: int,
                            preset: str, hand: int):
    """A game where pia (seat 0) defends against three or more cards, at least one of them
    unbeaten, holding `hand` cards or more: the most a phone's screen has to hold. The
    seeds are chosen so that such a bout comes (pia takes often, to fill her hand)."""
    game, users, rng = helpers.seated_game(monkeypatch, django_user_model, names=NAMES[:players],
                                           seed=seed, label="mode", preset=preset)
    for _ in range(300):
        deal = game.match().deal
        seat = deal.to_act
        legal = deal.legal_actions(seat)
        take = next((a for a in legal if isinstance(a, Take)), None)
        if seat == 0 and take and len(deal.table) >= 3 and len(deal.hand(0)) >= hand:
            return game
        cards = [a for a in legal if isinstance(a, Attack | Defend)]
        if seat == 0 and take and rng.random() < 0.6:
            action = take
        elif cards and (any(isinstance(a, Defend) for a in cards) or rng.random() < 0.5):
            action = rng.choice(cards)
        else:
            action = next((a for a in legal if isinstance(a, Pass | Take)), legal[0])
        game = services.play(game.pk, users[seat], [action.token()], game.version)
    raise AssertionError("no such defence for pia")


def log_in(new_page, username, size):
    options = PHONE if size == "phone" else {"viewport": SIZES[size]}
    return helpers.log_in(new_page, username, **options)


def measure(page) -> dict:
    return page.evaluate(MEASURE_JS)


def save_screens(page, name: str, size: str, figures: dict) -> None:
    """The first screen as `name`.png, the whole page as `name`-full.png, and the figures."""
    AFTER.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=AFTER / f"{name}.png", animations="disabled")
    shoot(page, f"after/{name}-full", SIZES[size])
    record = AFTER / "table-mode.json"
    known = json.loads(record.read_text()) if record.exists() else {}
    known[name] = figures
    record.write_text(json.dumps(known, indent=1, sort_keys=True))


def off_screen(figures: dict) -> list[str]:
    """What of the hand and the buttons lies outside the first screen."""
    out = [] if figures["scrolled"] == 0 else [f"page scrolled by {figures['scrolled']}"]
    for part in ("hand", "buttons"):
        box = figures[part]
        if box is None:
            out.append(f"{part}: none shown")
        elif box["top"] < 0 or box["left"] < 0 or box["bottom"] > figures["height"] \
                or box["right"] > figures["width"]:
            out.append(f"{part}: {box} outside {figures['width']}x{figures['height']}")
    return out


@pytest.mark.parametrize("label", ["2p", "4p", "6p", "2x2"])
def test_the_table_at_phone_and_desktop_size(new_page, django_user_model, monkeypatch, label):
    if label == "6p":  # a defence against three cards holding nine
        game = defence_with_a_big_hand(monkeypatch, django_user_model, 6, 297, "Classic", 9)
    elif label == "2x2":  # a defence against three cards holding twelve
        game = defence_with_a_big_hand(monkeypatch, django_user_model, 4, 40, "Pairs 2x2", 12)
    else:  # in the middle of a bout, to throw in or pass
        game, _ = bout_in_play(monkeypatch, django_user_model, int(label[0]), seed=int(label[0]))
    for size in ("phone", "desktop"):
        person = log_in(new_page, "pia", size)
        page = person.page
        open_table(person, game.pk, "(s) => s.mine")
        page.wait_for_timeout(300)  # cards at rest
        figures = measure(page)
        save_screens(page, f"table-{label}-{size}", size, figures)
        if size == "phone" and label in ("6p", "2x2"):
            assert figures["header"] <= HEADER_MAX, figures
            assert not off_screen(figures), (off_screen(figures), figures)
            assert figures["hand"]["n"] == len(person.state()["hand"]), figures
            assert figures["buttons"]["n"] >= 1, figures
        if size == "desktop":
            # The chat beside the felt, in the side column, its box to write in on screen.
            felt = page.locator("#table .felt").bounding_box()
            chat = page.locator("#chat").bounding_box()
            assert chat["x"] >= felt["x"] + felt["width"], (chat, felt)
            writing = page.locator("#chat-text").bounding_box()
            assert writing["y"] + writing["height"] <= SIZES["desktop"]["height"], writing


def test_the_header_of_a_table_is_one_slim_row_with_the_menu_behind_a_button(
        new_page, django_user_model, monkeypatch):
    game, _ = bout_in_play(monkeypatch, django_user_model, 2, seed=2)
    person = log_in(new_page, "pia", "phone")
    page = person.page
    open_table(person, game.pk, "(s) => s.mine")
    header = page.locator(".site-header")
    assert header.bounding_box()["height"] <= HEADER_MAX
    mine = header.get_by_role("link", name="My games")
    expect(mine).to_be_hidden()
    header.locator("summary", has_text="Menu").tap()
    expect(mine).to_be_visible()
    expect(header.get_by_role("button", name="Suomi")).to_be_visible()
    AFTER.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=AFTER / "table-menu-open-phone.png", animations="disabled")
    assert serious(page) == []  # axe-core, with the menu open
    mine.tap()
    page.wait_for_url("**/games/mine/")
    # Other pages keep the whole header: its links in sight at once.
    expect(page.locator(".site-header").get_by_role("link", name="Lobby")).to_be_visible()
    # On a desktop the table's header shows its links too, with no menu button.
    desktop = log_in(new_page, "pia", "desktop")
    open_table(desktop, game.pk, "(s) => s.mine")
    header = desktop.page.locator(".site-header")
    expect(header.get_by_role("link", name="My games")).to_be_visible()
    expect(header.get_by_role("button", name="Suomi")).to_be_visible()
    expect(header.locator("summary", has_text="Menu")).to_be_hidden()
    expect(header.locator(".chat-toggle")).to_be_hidden()
    assert header.bounding_box()["height"] <= HEADER_MAX


def test_the_chat_is_one_tap_away_on_a_phone_and_counts_unread_lines(
        new_page, django_user_model, monkeypatch):
    game, _ = bout_in_play(monkeypatch, django_user_model, 2, seed=2)
    pia = log_in(new_page, "pia", "phone")
    open_table(pia, game.pk, "(s) => s.mine")
    page = pia.page
    toggle = page.locator(".site-header .chat-toggle")
    expect(toggle).to_be_visible()
    expect(page.locator("#chat")).to_be_hidden()
    expect(toggle.locator(".unread")).to_be_hidden()

    olga = log_in(new_page, "olga", "desktop")
    open_table(olga, game.pk)
    olga.page.locator("#chat-text").fill("good luck, pia")
    olga.page.locator("#chat-form").get_by_role("button", name="Send").click()
    expect(olga.page.locator("#chat-lines")).to_contain_text("good luck, pia")

    expect(toggle.locator(".unread")).to_have_text("1")
    expect(toggle).to_have_accessible_name("Chat, 1 unread")
    toggle.tap()
    expect(page.locator("#chat")).to_be_visible()
    expect(page.locator("#chat-lines")).to_contain_text("good luck, pia")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(toggle.locator(".unread")).to_be_hidden()
    AFTER.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=AFTER / "table-chat-open-phone.png", animations="disabled")
    assert serious(page) == []  # axe-core, with the chat open over the table
    # While it is open, a new line is read at once: no count when it closes.
    olga.page.locator("#chat-text").fill("your move")
    olga.page.locator("#chat-form").get_by_role("button", name="Send").click()
    expect(page.locator("#chat-lines")).to_contain_text("your move")
    toggle.tap()
    expect(page.locator("#chat")).to_be_hidden()
    expect(toggle.locator(".unread")).to_be_hidden()
