"""Outside the table the site is live too: a new table appears in another person's lobby,
and the navigation counts the games waiting for your move, without a reload."""

import time

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import create_game, sign_up, watch

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


# The tab is in the background, and notifications are recorded instead of shown; no web
# push in this browser, so the profile offers notices while the site is open instead.
BACKGROUND_TAB = """
delete window.PushManager;
Object.defineProperty(document, "hidden", {get: () => true});
window.shown = [];
window.Notification = class { constructor(title, options) { window.shown.push([title, options.body]); } };
window.Notification.permission = "granted";
window.Notification.requestPermission = async () => "granted";
"""


def test_the_lobby_and_the_navigation_update_by_themselves(new_page):
    vera = watch(new_page(), "vera")
    oleg = watch(new_page(), "oleg")
    for person in (vera, oleg):
        person.page.add_init_script(BACKGROUND_TAB)
        sign_up(person.page, person.username)
        # Each asks for notifications on their profile (the browser asks first).
        person.page.goto("/accounts/profile/")
        person.page.get_by_role("button", name="Tell me while the site is open in a tab").click()
        switch = person.page.get_by_role(
            "button", name="Notices while the site is open are on: turn them off")
        expect(switch).to_have_attribute("aria-pressed", "true")
    oleg.page.goto("/")
    expect(oleg.page.locator("#nav-mine")).to_have_attribute("data-waiting", "0")
    joins = oleg.page.get_by_role("link", name="Look and join")
    before = joins.count()
    oleg_navigations = len(oleg.navigations)

    game_id = create_game(vera.page, preset="Classic", players=2, bots=0)
    # oleg's lobby shows the new table by itself.
    expect(oleg.page.locator(f'#open-games a[href="/games/{game_id}/"]')).to_be_visible()
    assert joins.count() == before + 1
    assert len(oleg.navigations) == oleg_navigations  # no reload

    # oleg joins from another tab's view of the table; the deal starts, and whoever is to
    # move sees "My games" count it, on whatever page they are.
    tab = oleg.page.context.new_page()  # the lobby stays open in oleg's first tab
    tab.goto(f"/games/{game_id}/")
    tab.get_by_role("button", name="Take a seat").click()
    expect(tab.locator("#table fieldset.hand .card")).to_have_count(6)
    tab.close()
    badges = [p.page.locator("#nav-mine .badge") for p in (vera, oleg)]
    deadline = time.monotonic() + 10
    while sum(b.count() for b in badges) != 1 and time.monotonic() < deadline:
        vera.page.wait_for_timeout(100)
    shown = [b.count() for b in badges]
    assert sorted(shown) == [0, 1], shown  # exactly the player to move has a badge
    expect(badges[shown.index(1)]).to_have_text("1")
    mover, other = (vera, oleg) if shown[0] else (oleg, vera)
    assert mover.page.evaluate("window.shown") == [["Your move — Durak", "1 game waits for you."]]
    assert other.page.evaluate("window.shown") == []
    assert mover.page.title().startswith("(1) ") or mover.page.locator("#table").count()
    vera.page.screenshot(path="artifacts/screenshots/nav-live-desktop.png")
