"""The end of a deal and of a match, played in Chromium: the result panel between deals and
at the end (with an accessibility scan), earlier deals to read, a new game with the same
rules, a rematch; two people chatting, one resigning, both taking the rematch live."""

from __future__ import annotations

import random
import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from games.models import Game
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import (
    TABLE_URL,
    choose_and_play,
    create_game,
    sign_up,
    wait_state,
    watch,
)
from tests.games.leaks import assert_frames_no_leak

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PANEL = "#table .result-panel"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def play_until(person, rng, selector: str, max_moves=300) -> None:
    """Play this person's turns (the bot answers) until `selector` is on the page."""
    for _ in range(max_moves):
        wait_state(person, "(s, sel) => s.mine || s.over || !!document.querySelector(sel)",
                   selector, timeout=30_000)
        if person.page.locator(selector).count():
            return
        choose_and_play(person, rng)
    raise AssertionError(f"no {selector} after {max_moves} moves")


def assert_accessible(page, selector: str) -> None:
    """axe-core finds no serious or critical violation in the part of the page."""
    results = Axe().run(page, context=selector)
    bad = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, results.generate_report()


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


def frames_of(page) -> list[str]:
    """Every text frame the page's table socket receives, from now on."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: isinstance(payload, str) and frames.append(payload)))
    return frames


def another_table(game_id: int) -> re.Pattern[str]:
    """The address of a table other than this game's: where a person lands on a rematch."""
    return re.compile(rf"/games/(?!{game_id}/)\d+/(\?.*)?$")


def navigations_to(person, url: str) -> int:
    """How many times this person's page arrived at the address (no second trip there)."""
    return person.navigations.count(url)


def test_a_match_ends_with_the_result_panel_and_a_rematch(new_page, short_preset):
    mila = watch(new_page(DESKTOP), "mila")
    page = mila.page
    sign_up(page, "mila")
    game_id = create_game(page, preset=short_preset, players=2, bots=1, level="easy", deals=2)
    bot = page.locator("#table .seats .seat").filter(has_not_text="(you)").locator(".name")
    bot_name = bot.inner_text()
    rng = random.Random(11)
    navigations = len(mila.navigations)

    # Deal 1 ends, deal 2 starts at once; the panel says how deal 1 ended.
    play_until(mila, rng, PANEL)
    panel = page.locator(PANEL)
    expect(panel).to_contain_text("Deal 1 is over")
    verdict = panel.locator(".deal-verdict").inner_text()
    assert re.fullmatch(rf"Deal 1: ({re.escape(bot_name)}|mila) is the durak\.|"
                        r"Deal 1 was drawn: nobody holds cards\.", verdict), verdict
    expect(panel.locator("ol.out-order li").first).to_be_visible()  # who went out, in order
    if "durak" in verdict:
        durak = verdict.removeprefix("Deal 1: ").removesuffix(" is the durak.")
        expect(page.locator("#table .tally tbody tr").filter(has_text=durak)
               .locator("td").nth(1)).to_have_text("1")
    assert len(mila.navigations) == navigations, "no reload between the deals"
    assert_accessible(page, PANEL)
    shoot(page, "result-deal-desktop")

    # Deal 1's log stays readable while deal 2 runs.
    panel.get_by_role("link", name="Deal 1").click()
    dialog = page.locator("#match-dialog")
    expect(dialog).to_contain_text("How the deal went")
    expect(dialog.locator(".record-log li").first).to_be_visible()
    last_line = dialog.locator(".record-log li").last.inner_text()
    assert last_line.endswith("is the durak!") or "drawn" in last_line, last_line
    dialog.get_by_role("link", name="Back to the table").click()
    expect(dialog).to_be_empty()

    # Deal 2 to the end of the match.
    play_until(mila, rng, f"{PANEL}.match-over")
    expect(panel).to_contain_text("The match is over")
    expect(panel.locator(".final-tally tbody tr")).to_have_count(2)
    expect(panel).to_contain_text("2 deals played")
    expect(panel.locator(".match-verdict")).to_contain_text(
        re.compile(r"loses the match\.|the last place is shared"))
    shared = "the last place is shared" in panel.locator(".match-verdict").inner_text()
    expect(page.locator("#table .turn")).to_contain_text(  # the table's line says it too
        "Game over. The match is drawn." if shared else "Game over. Fewest deals lost: ")
    expect(panel.locator(".deal-records a")).to_have_text(["Deal 1", "Deal 2"])
    assert_accessible(page, PANEL)
    shoot(page, "result-match-desktop")
    page.set_viewport_size(PHONE)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the result page is {overflow}px wider than a phone"
    # The result, then the table as it ended (its top on the first screen), then the moves
    felt, log = (page.locator(s).evaluate("e => e.getBoundingClientRect().top + scrollY")
                 for s in ("#table .felt", "#table .log"))
    assert felt < min(log, PHONE["height"]), (felt, log)
    shoot(page, "result-match-phone")
    page.set_viewport_size(DESKTOP)

    # A new game with these rules: the lobby's form, filled in.
    panel.get_by_role("link", name="New game with these rules").click()
    form = page.locator("#create-game")
    expect(form.get_by_label("Players:", exact=True)).to_have_value("2")
    expect(form.get_by_label("Computer players:", exact=True)).to_have_value("1")
    expect(form.get_by_label("Computer level:", exact=True)).to_have_value("easy")
    expect(form.get_by_label("How many:", exact=True)).to_have_value("2")
    page.go_back()

    # Rematch: the bot accepts at once, so the new table opens straight away, seats turned.
    page.locator(PANEL).get_by_role("button", name="Rematch").click()
    expect(page).to_have_url(another_table(game_id))
    assert navigations_to(mila, page.url) == 1, mila.navigations
    new_id = int(TABLE_URL.search(page.url).group(1))
    assert new_id != game_id
    seats = page.locator("#table .seats .seat")
    expect(seats.nth(1)).to_contain_text("mila (you)")
    expect(seats.nth(0)).to_contain_text(bot_name)  # the bot keeps its name in its new seat
    expect(page.locator("#table fieldset.hand .card")).to_have_count(6)

    # The old table can still be read later: it links to the rematch, and stays put.
    page.goto(f"/games/{game_id}/")
    page.wait_for_timeout(800)
    assert page.url.endswith(f"/games/{game_id}/")
    expect(page.locator(PANEL).get_by_role("link", name="Go to the rematch")).to_have_attribute(
        "href", f"/games/{new_id}/")


def test_two_people_chat_one_resigns_and_both_take_the_rematch(new_page):
    anna = watch(new_page(), "anna")
    boris = watch(new_page(), "boris")
    sign_up(anna.page, "anna")
    sign_up(boris.page, "boris")
    frames = {"anna": frames_of(anna.page), "boris": frames_of(boris.page)}
    game_id = create_game(anna.page, preset="Classic", players=2, bots=0, deals=3)
    boris.page.goto(f"/games/{game_id}/")
    boris.page.get_by_role("button", name="Take a seat").click()
    for person in (anna, boris):
        expect(person.page.locator("#table fieldset.hand .card")).to_have_count(6)

    # Chat, live both ways, escaped; the box empties after sending.
    anna.page.get_by_label("Message").fill("Hi boris <b>good luck</b>")
    anna.page.locator("#chat").get_by_role("button", name="Send").click()
    expect(boris.page.locator("#chat-lines")).to_contain_text("anna Hi boris <b>good luck</b>")
    expect(anna.page.get_by_label("Message")).to_have_value("")
    assert not boris.page.locator("#chat-lines b").count(), "the message is text, not markup"
    boris.page.locator(".chat-phrases").get_by_role("button", name="Good game").click()
    expect(anna.page.locator("#chat-lines")).to_contain_text("boris Good game")

    # anna mutes boris (from his line): his next line reaches him, not her.
    anna.page.locator("#chat-lines").get_by_role("button", name="Mute boris").first.click()
    expect(anna.page.locator("#chat-lines")).not_to_contain_text("Good game")
    expect(anna.page.get_by_role("button", name="Unmute boris")).to_be_visible()
    boris.page.get_by_label("Message").fill("Can you read this?")
    boris.page.keyboard.press("Enter")
    expect(boris.page.locator("#chat-lines")).to_contain_text("Can you read this?")
    anna.page.wait_for_timeout(700)
    expect(anna.page.locator("#chat-lines")).not_to_contain_text("Can you read this?")

    # boris resigns, after a confirmation that says what it means.
    boris.page.locator("#table").get_by_role("link", name="Resign…").click()
    dialog = boris.page.locator("#match-dialog")
    expect(dialog).to_contain_text("You lose the match")
    shoot(boris.page, "resign-confirm-desktop")
    dialog.get_by_role("button", name="Yes, resign").click()
    expect(dialog).to_be_empty()
    for person in (anna, boris):
        panel = person.page.locator(PANEL)
        expect(panel).to_contain_text("boris resigned and loses the match.")
        expect(panel).to_contain_text("Deal 1: boris gave up and lost.")
        expect(person.page.locator("#table .log li").first).to_have_text("boris resigned.")
        expect(person.page.locator("#table .turn")).to_contain_text("Game over.")
    assert_accessible(anna.page, PANEL)
    shoot(anna.page, "result-resigned-desktop")

    # No chat or result frame carried a card its reader may not see.
    final = Game.objects.get(pk=game_id).match().deal
    seen = {name: assert_frames_no_leak(frames[name], final, seat)
            for name, seat in (("anna", 0), ("boris", 1))}
    assert seen["anna"]["chat"] >= 2 and seen["anna"]["result"] >= 1, seen
    assert seen["boris"]["chat"] >= 3 and seen["boris"]["result"] >= 1, seen

    # The rematch: anna accepts and waits; boris accepts, and both are at the new table.
    anna.page.locator(PANEL).get_by_role("button", name="Rematch").click()
    expect(anna.page.locator(PANEL)).to_contain_text("Waiting for: boris.")
    boris.page.locator(PANEL).get_by_role("button", name="Rematch").click()
    for person in (boris, anna):  # anna's page follows by itself
        expect(person.page).to_have_url(another_table(game_id))
        assert navigations_to(person, person.page.url) == 1, person.navigations
    new_ids = {int(TABLE_URL.search(p.page.url).group(1)) for p in (anna, boris)}
    assert len(new_ids) == 1 and game_id not in new_ids
    new = Game.objects.get(pk=new_ids.pop())
    assert [s.player.username for s in new.seats.order_by("number")] == ["boris", "anna"]
    for person, other in ((anna, "boris"), (boris, "anna")):  # the others first, you last
        seats = person.page.locator("#table .seats .seat .name")
        expect(seats).to_have_text([other, f"{person.username} (you)"])
        expect(person.page.locator("#table fieldset.hand .card")).to_have_count(6)
