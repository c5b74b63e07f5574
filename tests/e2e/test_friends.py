"""Friends in a browser: two people add each other from their profiles; one sees the other
come online on the friends page, live, and challenges them with one tap from "Friends
online" (a form the navigation socket rendered, with the page's CSRF token)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import sign_up, watch
from tests.e2e.test_accessibility import serious

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_friend_comes_online_live_and_is_challenged_in_one_tap(new_page):
    anna = watch(new_page(), "anna")
    boris = watch(new_page(), "boris")
    sign_up(anna.page, "anna")
    sign_up(boris.page, "boris")
    for person, other in ((anna, "boris"), (boris, "anna")):
        person.page.goto(f"/accounts/u/{other}/")
        person.page.get_by_role("button", name=f"Add {other} as a friend").click()
        expect(person.page.locator(".messages")).to_contain_text(
            f"{other} is now one of your friends.")
    assert serious(anna.page) == []  # the profile with its friend buttons
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    anna.page.screenshot(path=SCREENSHOTS / "friend-profile.png")

    boris.page.goto("about:blank")  # boris leaves the site: no socket of his is open
    anna.page.goto("/friends/")
    online = anna.page.locator("#friends-online")
    expect(online).to_contain_text("None of your friends is online")
    navigations = len(anna.navigations)

    boris.page.goto("/")  # he comes back: anna's list says so without a reload
    expect(online.get_by_role("link", name="boris")).to_be_visible()
    assert len(anna.navigations) == navigations
    anna.page.screenshot(path=SCREENSHOTS / "friends-online.png", full_page=True)
    assert serious(anna.page) == []

    online.get_by_role("button", name="Challenge").click()
    anna.page.wait_for_url("**/games/*/")
    expect(boris.page.locator("#nav-mine .badge")).to_have_text("1")  # the challenge, live
    boris.page.goto("/games/mine/")
    expect(boris.page.locator("#challenges")).to_contain_text("anna challenges you")
