"""A player asks the coach for a hint at a casual table, on a phone, and can read it."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import create_game, sign_up, wait_state, watch
from tests.e2e.test_screenshots import SIZES, shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The relative luminance of a CSS colour (WCAG), and the contrast of two.
CONTRAST_JS = """(el) => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let bg = el, back = 'rgba(0, 0, 0, 0)';
  while (bg && (back === 'rgba(0, 0, 0, 0)' || back === 'transparent')) {
    back = getComputedStyle(bg).backgroundColor; bg = bg.parentElement;
  }
  const [a, b] = [lum(getComputedStyle(el).color), lum(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_a_hint_at_a_casual_table_is_readable_on_a_phone(new_page):
    pia = watch(new_page(SIZES["phone"], is_mobile=True, has_touch=True), "pia")
    sign_up(pia.page, "pia")
    create_game(pia.page, players=2, bots=1, level="medium", rated=False)
    wait_state(pia, "(s) => s.mine")
    pia.page.get_by_role("button", name="Ask the coach for a hint").click()
    hint = pia.page.locator("#hint")
    expect(hint).to_contain_text("Coach:", timeout=30_000)  # a Celery task thinks first
    expect(hint).to_contain_text(re.compile(r"about \d+%"))
    # Dark words on a light card (it was white on the cream page: 1.1 to 1).
    assert hint.evaluate(CONTRAST_JS) >= 4.5
    card = hint.get_attribute("data-card")  # the card the hint names, marked in the hand
    if card and pia.page.locator(f'fieldset.hand [data-card="{card}"]').count():
        mark = pia.page.locator(f'fieldset.hand [data-card="{card}"]').evaluate(
            "(c) => getComputedStyle(c).boxShadow")
        assert "127, 211, 255" in mark, mark
        others = pia.page.locator(f'fieldset.hand [data-card]:not([data-card="{card}"])')
        assert all("127, 211, 255" not in s for s in others.evaluate_all(
            "(cs) => cs.map((c) => getComputedStyle(c).boxShadow)"))
    hint.scroll_into_view_if_needed()
    shoot(pia.page, "table-hint-phone", SIZES["phone"])
