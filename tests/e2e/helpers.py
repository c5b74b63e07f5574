"""What a person does on the site, in Playwright: sign up, make a table, read the table,
and choose a move among the cards and buttons the page offers.

Moves are chosen from the DOM only (the clickable cards and buttons), never from the
database's hidden state.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from playwright.sync_api import Page, expect

PASSWORD = "e2e-Durak-pass-7351"  # good enough for Django's password validators
TIMEOUT_MS = 15_000  # Playwright's default for every action and wait in these tests

TABLE_URL = re.compile(r"/games/(\d+)/(\?.*)?$")

# One look at the table, read in one script run so that a swap can't tear it.
STATE_JS = """() => {
  const t = document.querySelector('#table');
  if (!t) return null;
  const turn = t.querySelector('.turn');
  const text = turn ? turn.innerText : '';
  return {
    // htmx marks swapped-in content htmx-added until it has wired up its forms: a click
    // before that (20 ms after an answer) would send a plain, non-htmx form.
    ready: !t.classList.contains('htmx-added') && !t.querySelector('.htmx-added'),
    // swapped since send_move's click: the whole table, or the felt a push after a move brings
    answered: !t.hasAttribute('data-before-move') && !t.querySelector('[data-before-move]'),
    version: Number(t.dataset.version),
    turn: text,
    mine: /Your turn\\./.test(text),
    over: /Game over\\./.test(text),
    message: (t.querySelector('[role=alert]') || {}).innerText || '',
    hand: [...t.querySelectorAll('fieldset.hand [data-card]')].map(c => c.dataset.card),
    table: [...t.querySelectorAll('.pairs .card.attack, .pairs .card.defence')].map(c => c.dataset.card),
    log: [...t.querySelectorAll('.log li')].map(li => li.innerText),
  };
}"""


@dataclass
class Person:
    """A browser context with its one page; `ws_versions` lists the table versions that
    reached this page over its WebSocket (parsed from the frames)."""

    page: Page
    username: str
    ws_versions: list = field(default_factory=list)
    navigations: list = field(default_factory=list)
    moves_sent: list = field(default_factory=list)  # moves sent over the table's socket
    move_posts: list = field(default_factory=list)  # moves posted over HTTP

    def state(self) -> dict:
        return self.page.evaluate(STATE_JS)

    @property
    def version(self) -> int:
        return self.state()["version"]


VERSION_IN_FRAME = re.compile(r'data-version="(\d+)"')


def quiet_notify(monkeypatch) -> None:
    """For moves made through the services in the test process: tell no socket.

    Nobody watches those tables live, and this thread runs Playwright's event loop, where
    the channel layer can't be reached synchronously (every try would log an error).
    """
    from games import notify

    monkeypatch.setattr(notify, "game_changed", lambda *args, **kwargs: None)
    monkeypatch.setattr(notify, "people_changed", lambda *args, **kwargs: None)


@contextmanager
def offline(page: Page) -> Iterator[None]:
    """The browser without a network for the block's steps, online again after."""
    page.context.set_offline(True)
    try:
        yield
    finally:
        page.context.set_offline(False)


def on_another_device(monkeypatch, call, *args):
    """`call(*args)`, a player's move through the services, as if made on another device:
    the navigation sockets are told, as the site tells them (the table's group stays
    quiet: the page hears of the move by its poll). It runs in a thread of its own, where
    the channel layer can be reached."""
    from django.db import connection

    from games import notify

    quiet = notify.people_changed
    monkeypatch.setattr(notify, "people_changed", _PEOPLE_CHANGED)
    result: list = []

    def run() -> None:
        try:
            result.append(call(*args))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(TIMEOUT_MS / 1000)
    monkeypatch.setattr(notify, "people_changed", quiet)
    assert result, "the move on another device did not finish"
    return result[0]


def _real_people_changed():
    from games import notify

    return notify.people_changed


_PEOPLE_CHANGED = _real_people_changed()  # before any test quiets it


def seated_game(monkeypatch, django_user_model, *, names: list[str], seed: int, label: str,
                preset: str = "Classic"):
    """A game of `names` (the first in seat 0) from a pack shuffled by `seed`, every seat
    taken, before any page opens; with the random source the caller plays on with."""
    from datetime import timedelta

    from games import services
    from games.engine.cards import full_deck
    from games.models import RulePreset
    from tests.stacking import stack_new_matches

    rng = random.Random(seed)
    deck = [c.code for c in full_deck(36)]
    rng.shuffle(deck)
    stack_new_matches(monkeypatch, deck, seed=f"{label}-{seed}")
    quiet_notify(monkeypatch)
    users = [django_user_model.objects.filter(username=n).first()
             or django_user_model.objects.create_user(username=n, password=PASSWORD)
             for n in names]
    game = services.create_game(users[0], RulePreset.objects.get(name=preset),
                                players=len(names), deals=1, move_time=timedelta(minutes=5))
    for user in users[1:]:
        game = services.join_game(game.pk, user)
    return game, users, rng


def watch(page: Page, username: str) -> Person:
    """Follow the page's WebSocket frames and its navigations."""
    person = Person(page, username)

    def on_ws(ws):
        def on_frame(payload):
            if isinstance(payload, str) and (m := VERSION_IN_FRAME.search(payload)):
                person.ws_versions.append(int(m.group(1)))

        def on_sent(payload):
            if isinstance(payload, str) and '"version"' in payload and '"sync"' not in payload:
                person.moves_sent.append(payload)

        ws.on("framereceived", on_frame)
        ws.on("framesent", on_sent)

    page.on("websocket", on_ws)
    page.on("request", lambda request: request.method == "POST" and "/play/" in request.url
            and person.move_posts.append(request.url))
    page.on("framenavigated", lambda frame: frame == page.main_frame
            and person.navigations.append(frame.url))
    return person


# ----------------------------------------------------------------------------- accounts
def sign_up(page: Page, username: str) -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator(".messages")).to_contain_text(f"Welcome, {username}!")
    expect(page.locator(".site-header")).to_contain_text(username)


def log_in(new_page, username: str, **options) -> Person:
    """A fresh browser context (`options`: viewport, timezone_id…) logged in as `username`."""
    person = watch(new_page(**options), username)
    page = person.page
    page.goto("/accounts/login/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Password:").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")
    return person


# ----------------------------------------------------------------------------- lobby
def create_game(page: Page, *, preset="Classic", players=2, bots=0, level="medium",
                deals=1, private=False, rated: bool | None = True) -> int:
    """Fill the lobby's "New game" form and make the table; returns the game's id.
    `rated=None`: the rating as the form chooses it (a private table casual)."""
    page.goto("/")
    rules = page.locator("#create-game").get_by_label("Rules:", exact=True)
    if rules.evaluate("s => s.options[s.selectedIndex].text") != preset:
        # Other rules bring the form again, fitted to them: wait for the new one.
        rules.evaluate("s => s.form.setAttribute('data-before', '')")
        rules.select_option(label=preset)
        page.wait_for_selector("#create-game:not([data-before])")
    form = page.locator("#create-game")
    form.get_by_label("Players:", exact=True).select_option(str(players))
    form.get_by_label("Computer players:", exact=True).select_option(str(bots))
    form.get_by_label("Computer level:", exact=True).select_option(level)
    form.get_by_label("a number of deals").check()
    form.get_by_label("How many:", exact=True).fill(str(deals))
    if private:
        form.get_by_label("Private:", exact=True).check()
    if rated is False:
        form.get_by_label("casual", exact=True).check()
    elif rated and private:  # a private table comes casual: rated is the maker's choice
        form.get_by_label("rated", exact=True).check()
    form.get_by_role("button", name="Make the table").click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table")
    return int(TABLE_URL.search(page.url).group(1))


# ----------------------------------------------------------------------------- the table
def wait_state(person: Person, predicate_js: str, arg=None, timeout=TIMEOUT_MS) -> dict:
    """Wait until the page's table is ready (htmx has wired it up) and
    `predicate_js(state, arg)` holds; returns the state."""
    person.page.wait_for_function(
        f"([arg]) => {{ const s = ({STATE_JS})(); return s && s.ready && ({predicate_js})(s, arg); }}",
        arg=[arg], timeout=timeout, polling=50)
    return person.state()


def send_move(person: Person, click) -> dict:
    """Click a move and wait for its answer. While the table's socket is open the move goes
    over it and the answer is the live table (static/js/table.js); without it the form
    posts. Either way the table is swapped, for a newer one or for the same one with a
    refusal's message, or with the parts a move changed (its felt); returns the state of
    the table that came."""
    person.page.evaluate("() => (document.querySelector('#table-felt') || document.querySelector('#table'))"
                         ".setAttribute('data-before-move', '')")
    click()
    return wait_state(person, "(s) => s.answered")


def wait_version_above(person: Person, version: int, timeout=TIMEOUT_MS) -> dict:
    return wait_state(person, "(s, v) => s.version > v", version, timeout)


def wait_my_turn_or_over(person: Person, timeout=TIMEOUT_MS) -> dict:
    return wait_state(person, "(s) => s.mine || s.over", None, timeout)


def wait_ws_version(person: Person, version: int, timeout=TIMEOUT_MS / 1000,
                    since: int = 0) -> None:
    """Wait until a table of at least `version` arrived over the page's WebSocket (among
    the frames after the first `since`: those of a page loaded since)."""
    end = time.monotonic() + timeout
    while not (person.ws_versions[since:] and max(person.ws_versions[since:]) >= version):
        assert time.monotonic() < end, (
            f"{person.username}'s page got no table of version {version} over its WebSocket "
            f"(got {person.ws_versions[-5:]})")
        person.page.wait_for_timeout(25)  # lets Playwright deliver events


def open_table(person: Person, game_id: int, predicate_js: str = "(s) => true") -> dict:
    """Go to the table and wait for `predicate_js` and for the live table that the socket
    sends on connecting (so that no socket is still connecting when a test ends)."""
    seen = len(person.ws_versions)  # a frame of the page before doesn't count
    person.page.goto(f"/games/{game_id}/")
    state = wait_state(person, predicate_js)
    wait_ws_version(person, state["version"], since=seen)
    return state


@dataclass
class Move:
    kind: str  # what was clicked: beat, attack, throw in, take, pass
    before: int  # the version the page showed
    after: int  # the version after the page's own answer


def alone(page: Page) -> bool:
    """Whether a hand card clicked now plays at once: it can only go alone (the form's
    data-max is 1) and no attack card is to be beaten."""
    return page.evaluate("""() => { const f = document.querySelector('#move');
        return !!f && f.dataset.max === '1' && !f.querySelector('fieldset.beat'); }""")


def tap_card(card) -> None:
    """Tap a card where a person would: near its left edge, which the next card of a
    fanned hand never covers (a long hand on a phone may hide its middle)."""
    box = card.bounding_box()
    if box is None:
        card.click()  # not laid out: the click's own wait says why
        return
    card.click(position={"x": min(8.0, box["width"] / 4), "y": box["height"] / 2})


def choose_and_play(person: Person, rng: random.Random) -> Move:
    """On this person's turn, click a legal move that the page offers and wait for the
    answer: a lead or throw-in with the first card offered, a beat of the first unbeaten
    card with the first card offered for it, or take / pass."""
    page = person.page
    table = page.locator("#table")
    state = wait_state(person, "(s) => true")
    assert state["mine"], f"{person.username}: not my turn: {state['turn']!r}"
    beats = table.locator("fieldset.beat")
    cards = table.locator("fieldset.hand label.pick")
    take = table.get_by_role("button", name="Take the cards")
    pass_ = table.get_by_role("button", name="Pass (no more cards)")
    play = table.get_by_role("button", name="Play selected", exact=True)
    if beats.count() and (not take.count() or rng.random() < 0.85):
        kind = "beat"
        option = beats.first.locator("label.pick:not(.none)").first
        tap_card(option)
        expect(option.locator("input")).to_be_checked()
        button = play
    elif cards.count() and (not state["table"] or not pass_.count() or rng.random() < 0.3):
        kind = "attack" if not state["table"] else "throw in"
        if alone(page):  # a card that can only go alone plays at once (static/js/table.js)
            after = send_move(person, lambda: tap_card(cards.first))
            return played(person, state, kind, after)
        tap_card(cards.first)
        expect(cards.first.locator("input")).to_be_checked()
        button = play
    elif take.count():
        kind, button = "take", take
    elif pass_.count():
        kind, button = "pass", pass_
    else:
        raise AssertionError(f"{person.username}'s turn offers nothing to click: {state}")
    return played(person, state, kind, send_move(person, button.click))


def played(person: Person, state: dict, kind: str, after: dict) -> Move:
    """The move sent from `state` was taken: the table shows a later version."""
    if after["message"]:
        raise AssertionError(f"{person.username}'s {kind} was refused: {after['message']}")
    after = wait_version_above(person, state["version"])
    return Move(kind, state["version"], after["version"])


def play_against_bots(person: Person, rng: random.Random, *, max_moves=300) -> list[Move]:
    """Play this person's turns until the game is over; the bots answer through the
    Celery worker and their moves arrive over the WebSocket. Bounded by moves, not by the
    clock: a busy machine is slower, not wrong."""
    moves = []
    for _ in range(max_moves):
        state = wait_my_turn_or_over(person, timeout=20_000)
        if state["over"]:
            return moves
        moves.append(choose_and_play(person, rng))
    raise AssertionError(f"no end after {max_moves} moves")


def finish_line(state: dict) -> str:
    """The end of the deal as the log says it: '<name> is the durak!' or the draw."""
    for line in state["log"]:
        if line.endswith("is the durak!") or "the deal is drawn" in line:
            return line
    raise AssertionError(f"no durak or draw in the log: {state['log'][:5]}")
