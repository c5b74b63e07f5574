"""Two friends at a 2x2 table with two computer players choose to be partners: on a phone,
the second taps "Sit here" on the first's team, and the table names each one's partner."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import create_game, open_table, sign_up, wait_state, watch
from tests.e2e.test_screenshots import SIZES, shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_friends_sit_on_one_team(new_page):
    phone = {"viewport": SIZES["phone"], "is_mobile": True, "has_touch": True}
    anna = watch(new_page(**phone), "anna")
    sign_up(anna.page, "anna")
    game_id = create_game(anna.page, preset="Pairs 2x2", players=4, bots=2, rated=False)
    boris = watch(new_page(**phone), "boris")
    sign_up(boris.page, "boris")
    boris.page.goto(f"/games/{game_id}/")
    seats = boris.page.locator(".seat-list li")
    expect(seats).to_have_count(4)
    expect(seats.nth(2)).to_contain_text("team A")  # anna's team: seats 1 and 3
    shoot(boris.page, "team-seats-waiting-phone", SIZES["phone"])
    seats.nth(2).get_by_role("button", name="Sit here").tap()
    wait_state(boris, "(s) => s.version > 0")
    partner = boris.page.locator(".seat", has=boris.page.locator(".role.partner"))
    expect(partner).to_have_count(1)
    expect(partner).to_contain_text("anna")
    open_table(anna, game_id)
    expect(anna.page.locator(".seat", has=anna.page.locator(".role.partner"))).to_contain_text("boris")
    shoot(boris.page, "team-seats-table-phone", SIZES["phone"])
