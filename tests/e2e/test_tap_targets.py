"""On a phone, every choice and number box of the player's own pages is big enough for a
finger (Apple and Google ask for 44 and 48 px; 40 px is the least we allow)."""

import pytest

from tests.e2e.helpers import sign_up
from tests.e2e.test_screenshots import SIZES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SMALL_JS = """(els) => els
  .map((e) => [e.name, Math.round(e.getBoundingClientRect().height), Math.round(e.getBoundingClientRect().width)])
  .filter(([, h, w]) => h < 40 || w < 44)"""


@pytest.mark.parametrize("path", ["/accounts/profile/", "/"])
def test_choices_and_number_boxes_fit_a_finger(new_page, path):
    page = new_page(SIZES["phone"], is_mobile=True, has_touch=True)
    sign_up(page, "tapper")
    page.goto(path)
    boxes = page.locator("main select:visible, main input[type=number]:visible")
    assert boxes.count() >= 2
    assert boxes.evaluate_all(SMALL_JS) == []
