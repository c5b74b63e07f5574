"""A newcomer signs up, follows "Learn Durak in five minutes" from the lobby and plays the
lesson's deal by taps on a phone, the lesson's words changing with what happens; the
computer's moves come from the Celery worker."""

import random

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import (
    alone,
    choose_and_play,
    send_move,
    sign_up,
    tap_card,
    wait_my_turn_or_over,
    wait_state,
    wait_version_above,
    watch,
)
from tests.e2e.test_accessibility import serious

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def lesson_step(page) -> tuple[str, str]:
    lesson = page.locator("#lesson")
    return lesson.get_attribute("data-step") or "", lesson.inner_text()


def test_a_newcomer_learns_durak_from_the_lobby_by_playing_the_lesson(new_page):
    nina = watch(new_page(viewport=PHONE), "nina")
    page = nina.page
    sign_up(page, "nina")

    offer = page.locator("section.learn")
    expect(offer).to_contain_text("New to Durak?")
    assert serious(page) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "lesson-lobby-phone-390.png", animations="disabled")
    offer.get_by_role("button", name="Learn Durak in five minutes").click()
    page.wait_for_url("**/games/*/")
    table_url = page.url

    # The first words: your attack, the lowest trump, the trump card under the talon.
    lesson = page.locator("#lesson")
    expect(lesson).to_have_attribute("data-step", "lead-first")
    expect(lesson.locator("h2")).to_have_text("Your attack")
    expect(lesson).to_contain_text("You hold the lowest trump, 7♥, so you attack first.")
    expect(lesson).to_contain_text("The card under the talon, 6♥, sets the trump suit: hearts.")
    state = wait_my_turn_or_over(nina)
    assert sorted(state["hand"]) == sorted(["9S", "7H", "9D", "TD", "JD", "JC"])
    assert serious(page) == []
    page.screenshot(path=SCREENSHOTS / "lesson-phone-390.png", animations="disabled")
    box = lesson.bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["height"], "the lesson is on the first screen"
    page.set_viewport_size({"width": 1366, "height": 900})
    page.screenshot(path=SCREENSHOTS / "lesson-desktop-1366.png", animations="disabled")
    page.set_viewport_size(PHONE)

    # The same words in Russian, chosen with the header's language switcher (clicked by a
    # script: on a phone the switcher may sit behind the menu button).
    def choose_language(code):
        page.locator(f"form.languages button[value={code}]").evaluate("b => b.click()")
        page.wait_for_url(table_url)
        expect(page.locator("html")).to_have_attribute("lang", code)

    choose_language("ru")
    expect(lesson.locator("h2")).to_have_text("Ваша атака")
    expect(lesson).to_contain_text("У вас младший козырь, 7♥, поэтому вы ходите первым.")
    page.screenshot(path=SCREENSHOTS / "lesson-phone-390-ru.png", animations="disabled")
    choose_language("en")
    expect(lesson.locator("h2")).to_have_text("Your attack")

    # Tap 9♠: it plays at once. The computer beats it (in spades or with a trump) or takes
    # it; either way nina may throw in 9♦ now, and the lesson says so.
    def tap(card):
        """Tap a hand card: alone it plays at once, else it is chosen and played."""
        state = wait_my_turn_or_over(nina)
        label = page.locator("#table fieldset.hand label.pick").filter(
            has=page.locator(f'[data-card="{card}"]'))
        if alone(page):
            after = send_move(nina, lambda: tap_card(label))
        else:
            tap_card(label)
            expect(label.locator("input")).to_be_checked()
            after = send_move(nina, page.locator("#table").get_by_role(
                "button", name="Play selected", exact=True).click)
        assert not after["message"], after["message"]
        wait_version_above(nina, state["version"])

    tap("9S")
    state = wait_my_turn_or_over(nina)
    step, words = lesson_step(page)
    assert step in ("throw-in", "add-to-take"), (step, words)
    if step == "throw-in":
        assert "The computer beat 9♠ with" in words, words
        assert "You may throw in another card of a rank already on the table" in words, words
    else:
        assert "The computer takes the cards." in words, words
    seen = [step]

    # Throw in 9♦, then play the deal out as the page offers, noting each lesson's step.
    tap("9D")
    rng = random.Random(3)
    for _ in range(200):
        state = wait_my_turn_or_over(nina, timeout=20_000)
        step, words = lesson_step(page)
        if not seen or seen[-1] != step:
            seen.append(step)
        if state["over"]:
            break
        choose_and_play(nina, rng)
    assert seen[-1] == "end", seen
    assert {"defend", "must-take", "add-to-take"} & set(seen), seen  # beating or a take
    assert len(set(seen)) >= 4, seen

    # The end: who is the durak, and the way to a real game.
    expect(lesson).to_contain_text("durak")
    expect(lesson.get_by_role("link", name="Play a real game")).to_be_visible()
    wait_state(nina, "(s) => s.over")
    page.screenshot(path=SCREENSHOTS / "lesson-end-phone-390.png", animations="disabled")
    lesson.get_by_role("link", name="Play a real game").click()
    page.wait_for_url("**/#quick-title")
    page.goto("/learn/")  # the lesson's page, for anyone
    expect(page.get_by_role("heading", level=1)).to_have_text("Learn Durak in five minutes")
    assert serious(page) == []
    page.goto("/")
    # A finished game: the lobby no longer puts the lesson first, but it is still reachable.
    expect(page.locator("section.learn")).to_have_count(0)
    expect(page.get_by_role("link", name="Learn to play: one deal explained as you play it")
           ).to_be_visible()
