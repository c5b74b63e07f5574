"""A name as long as the site allows, with no space to break at, never widens a page on a
phone: the lobby, a table in play, My games and the profiles stay 390 px wide."""

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
