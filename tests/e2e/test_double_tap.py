"""A card tapped twice at once (a 0 ms double tap) plays once: the second tap neither
sends the move again nor brings "the game has moved on". Where a tap plays, no "Play
selected" button is shown."""

import pytest
from playwright.sync_api import expect

from games.models import RulePreset
from tests.e2e.helpers import PASSWORD, wait_state
from tests.e2e.test_choosing_cards import hand_card, log_in, stacked_game
from tests.e2e.test_screenshots import SIZES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_double_tap_on_a_card_plays_it_once(new_page, django_user_model, monkeypatch):
    pia, person = log_in(new_page, django_user_model, "pia", viewport=SIZES["phone"],
                         is_mobile=True, has_touch=True)
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    game = stacked_game(monkeypatch, pia, olga, RulePreset.objects.get(name="Classic"))
    page = person.page
    page.goto(f"/games/{game.pk}/")
    state = wait_state(person, "(s) => s.mine")
    # A tap plays the lead (R7): no "Play selected" beside the hand.
    expect(page.get_by_role("button", name="Play selected", exact=True)).to_be_hidden()
    hand_card(page, "QS").click(click_count=2, delay=0)
    after = wait_state(person, "(s, v) => s.version > v", state["version"])
    page.wait_for_timeout(1000)  # a second move would be refused by now
    final = person.state()
    assert after["table"] == ["QS"]
    assert final["message"] == "" and final["version"] == after["version"]
    assert len(person.moves_sent) + len(person.move_posts) == 1
