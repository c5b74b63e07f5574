"""Quick match by two people lands them at the same table; the waiting room's Copy button
puts the invite link on the clipboard and says so."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import TABLE_URL, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _quick_match(page) -> int:
    page.goto("/")
    form = page.locator("#quick-match")
    form.get_by_label("Rules:", exact=True).select_option(label="Classic")
    form.get_by_label("Clock:", exact=True).select_option("move")
    form.get_by_label("Time per move:", exact=True).select_option("3600")
    form.get_by_role("button", name="Find me a game").click()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table")
    return int(TABLE_URL.search(page.url).group(1))


def test_two_quick_matches_meet_at_one_table_and_the_link_copies(new_page):
    anna = new_page(permissions=["clipboard-read", "clipboard-write"])
    boris = new_page()
    sign_up(anna, "anna")
    sign_up(boris, "boris")

    game_id = _quick_match(anna)
    expect(anna.locator(".seat-list")).to_contain_text("empty seat")
    anna.get_by_role("button", name="Copy", exact=True).click()
    expect(anna.locator(".copy-status")).to_have_text("Copied")
    link = anna.locator("#invite-link").input_value()
    assert anna.evaluate("navigator.clipboard.readText()") == link
    assert link.endswith(f"/games/{game_id}/")

    assert _quick_match(boris) == game_id
    for page in (anna, boris):
        expect(page.locator("#table .seats")).to_contain_text("anna")
        expect(page.locator("#table .seats")).to_contain_text("boris")
