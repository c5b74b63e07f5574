"""A private tournament among friends in the browser: anna makes it, boris joins by its
link, anna starts it, both reach their table from the tournament's page, boris resigns and
anna's tournament page shows the standings without a reload."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import TABLE_URL, sign_up, watch
from tests.e2e.test_match_end import assert_accessible

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TOURNAMENT_URL = re.compile(r"/tournaments/(\d+)/(\?.*)?$")


def test_two_friends_play_a_tournament_and_see_the_standings_live(new_page):
    anna = watch(new_page(), "anna")
    boris = watch(new_page(), "boris")
    sign_up(anna.page, "anna")
    sign_up(boris.page, "boris")

    anna.page.goto("/tournaments/")
    form = anna.page.locator("#create-tournament")
    form.get_by_label("Name:", exact=True).fill("Friday cup")
    # The rules bring the form again, fitted to them: fill it in once it is back.
    form.evaluate("f => f.setAttribute('data-before', '')")
    form.get_by_label("Rules:", exact=True).select_option(label="Classic")
    anna.page.wait_for_selector("#create-tournament:not([data-before])")
    form.get_by_label("Rounds:", exact=True).fill("1")
    form.get_by_role("button", name="Make the tournament").click()
    anna.page.wait_for_url(TOURNAMENT_URL)
    invite = anna.page.url
    expect(anna.page.locator("main")).to_contain_text("1 player entered")
    assert_accessible(anna.page, "main")

    boris.page.goto(invite)
    boris.page.get_by_role("button", name="Join the tournament").click()
    expect(boris.page.get_by_role("button", name="Leave the tournament")).to_be_visible()
    anna.page.reload()
    anna.page.get_by_role("button", name="Start now").click()

    # The round has started: boris's page shows its table without a reload.
    navigations = len(boris.navigations)
    expect(boris.page.locator("#tournament-live")).to_contain_text("Round 1", timeout=15_000)
    assert len(boris.navigations) == navigations
    tournament_page = anna.page.url
    for person in (anna, boris):
        person.page.locator("#tournament-live").get_by_role("link", name="Table 1").click()
        person.page.wait_for_url(TABLE_URL)
        expect(person.page.locator("#table .seats")).to_contain_text("anna")
        expect(person.page.locator("#table .seats")).to_contain_text("boris")
    anna.page.goto(tournament_page)
    expect(anna.page.locator("#standings")).to_contain_text("0")

    boris.page.locator("#table").get_by_role("link", name="Resign…").click()
    boris.page.locator("#match-dialog").get_by_role("button", name="Yes, resign").click()
    expect(boris.page.locator("#table .turn")).to_contain_text("Game over.")

    # anna's tournament page hears of the table's end: the standings change live.
    navigations = len(anna.navigations)
    first = anna.page.locator("#standings tbody tr").first
    expect(first).to_contain_text("anna", timeout=15_000)
    expect(first.locator("td").nth(2)).to_have_text("1")
    expect(anna.page.locator("#tournament-status")).to_have_text("finished")
    assert len(anna.navigations) == navigations
    assert_accessible(anna.page, "main")
