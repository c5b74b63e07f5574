"""The lobby's forms show only the chosen clock's times, so the lobby stays short on a phone."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_each_form_shows_the_times_of_its_clock_only(new_page):
    page = new_page(PHONE, is_mobile=True, has_touch=True)
    sign_up(page, "kaisa")
    page.goto("/")
    tall = page.evaluate("() => document.documentElement.scrollHeight")
    for form_id in ("create-game", "quick-match"):
        form = page.locator(f"#{form_id}")
        move = form.get_by_label("Time per move:", exact=True)
        bank = form.get_by_label("Time bank:", exact=True)
        added = form.get_by_label("Added per move:", exact=True)
        clock = form.get_by_label("Clock:", exact=True)
        if form_id == "quick-match":  # played now: two minutes a move, shown
            expect(move).to_be_visible()
            expect(move).to_have_value("120")
        else:  # as the rules say: the rules choose the times too
            expect(move).to_be_hidden()
        for field in (bank, added):
            expect(field).to_be_hidden()
        clock.select_option("move")
        expect(move).to_be_visible()
        expect(bank).to_be_hidden()
        expect(added).to_be_hidden()
        clock.select_option("bank")
        expect(move).to_be_hidden()
        expect(bank).to_be_visible()
        expect(added).to_be_visible()
    shown = page.evaluate("() => document.documentElement.scrollHeight")
    assert shown > tall  # the chosen clocks' times take room again
