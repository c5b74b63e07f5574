"""Four at a table on a phone: every opponent's name is read whole, in English and Russian
(a computer player's level is part of its name)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import create_game, sign_up
from tests.e2e.test_screenshots import SIZES, shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Names whose text does not fit their box (cut off with an ellipsis, or past two lines).
CUT_NAMES_JS = """(names) => names
  .filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
  .map((n) => n.innerText)"""


def test_opponents_names_are_whole_on_a_phone(new_page):
    page = new_page(SIZES["phone"], is_mobile=True, has_touch=True)
    sign_up(page, "pia")
    create_game(page, players=4, bots=3, level="medium", rated=False)
    names = page.locator("#table .seat.opp .name")
    expect(names).to_have_count(3)
    expect(names.first).to_contain_text("(medium)")
    assert names.evaluate_all(CUT_NAMES_JS) == []
    page.locator(".site-menu summary").click()  # a table's header keeps its links behind "Menu"
    page.locator('.languages button[value="ru"]').click()
    expect(names.first).to_contain_text("(средний)")
    assert names.evaluate_all(CUT_NAMES_JS) == []
    shoot(page, "table-4p-bots-ru-phone", SIZES["phone"])
