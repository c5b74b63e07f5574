"""A name as long as the site allows, with no space to break at, never widens a page on a
phone: the lobby, a table in play, My games and the profiles stay 390 px wide; at the
table the player still sees "(you)" at their own seat, the name cut before it."""

import pytest

from games import services
from games.models import RulePreset
from tests.e2e.helpers import PASSWORD, log_in, quiet_notify
from tests.e2e.test_screenshots import SIZES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG_USERNAME = "W" * 30  # accounts.names.USERNAME_MAX
LONG_DISPLAY_NAME = "M" * 40  # Player.display_name's max_length


def test_the_longest_names_fit_a_phone(new_page, django_user_model, monkeypatch):
    quiet_notify(monkeypatch)
    wide = django_user_model.objects.create_user(username=LONG_USERNAME, password=PASSWORD)
    other = django_user_model.objects.create_user(username="mia", password=PASSWORD,
                                                  display_name=LONG_DISPLAY_NAME)
    classic = RulePreset.objects.get(name_en="Classic")
    game = services.create_game(wide, classic, players=2, deals=1)
    services.join_game(game.pk, other)
    services.create_game(other, classic, players=3, deals=1)  # open: "Made by" in the lobby
    page = log_in(new_page, LONG_USERNAME, viewport=SIZES["phone"], is_mobile=True,
                  has_touch=True).page
    widths = {}
    for path in ("/", f"/games/{game.pk}/", "/games/mine/", f"/accounts/u/{LONG_USERNAME}/",
                 f"/accounts/u/{other.username}/", "/accounts/profile/"):
        page.goto(path)
        page.wait_for_load_state("load")
        widths[path] = page.evaluate("document.documentElement.scrollWidth")
    assert {path: width for path, width in widths.items() if width > 390} == {}
    page.goto(f"/games/{game.pk}/")
    you = page.locator("#table .seat.me .you")
    assert you.inner_text() == "(you)"
    assert you.evaluate(YOU_IN_SIGHT_JS) == [], "\n".join(you.evaluate(YOU_IN_SIGHT_JS))
    # On a wide screen the header stays one row at a table with a person to befriend (its
    # "Friends" menu is in the header), the long name cut, not the site's name or links.
    desk = log_in(new_page, other.username, viewport=SIZES["desktop"]).page
    desk.goto(f"/games/{game.pk}/")
    assert desk.locator(".site-header .table-friends, .site-header details").count() >= 1
    assert desk.evaluate(ONE_ROW_HEADER_JS) == [], desk.evaluate(ONE_ROW_HEADER_JS)


# "(you)" in sight: inside its name's box, its seat and the screen, not cut by an ellipsis.
YOU_IN_SIGHT_JS = """(you) => {
  const box = (el) => el.getBoundingClientRect(), r = box(you), found = [];
  for (const el of [you.closest('.name'), you.closest('.seat'), document.documentElement]) {
    const b = box(el);
    if (r.left < b.left - 1 || r.right > b.right + 1 || r.width < 1)
      found.push(`(you) at ${Math.round(r.left)}-${Math.round(r.right)} outside `
                 + `${el.className || el.tagName} ${Math.round(b.left)}-${Math.round(b.right)}`);
  }
  if (you.scrollWidth > you.clientWidth + 1) found.push('(you) cut');
  const name = you.closest('.name');
  if (name.scrollWidth > name.clientWidth + 1) found.push(`name box overflows (${name.scrollWidth} > ${name.clientWidth})`);
  return found;
}"""


# The header in one row: each of its parts one line high, all on the same line.
ONE_ROW_HEADER_JS = """() => {
  const header = document.querySelector('.site-header'), found = [];
  const parts = [...header.children].filter(el => el.getBoundingClientRect().width > 0);
  const top = Math.min(...parts.map(el => el.getBoundingClientRect().top));
  for (const el of parts) {
    const r = el.getBoundingClientRect();
    if (r.top > top + 12) found.push(`${el.className || el.tagName} on a second row`);
  }
  for (const el of header.querySelectorAll('.brand, nav, nav > a, nav > form, .languages')) {
    const lines = el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight || 20);
    if (lines > 1.6) found.push(`${el.className || el.textContent.trim()} on ${lines.toFixed(1)} lines`);
  }
  return found;
}"""
