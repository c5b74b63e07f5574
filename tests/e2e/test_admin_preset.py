"""The admin makes a rule preset in the Django admin, and a game with it is played."""

import random

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import PASSWORD, create_game, finish_line, play_against_bots, watch

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_preset_made_in_the_admin_is_offered_and_played(new_page, django_user_model):
    django_user_model.objects.create_superuser("root", "root@example.org", PASSWORD)
    admin = watch(new_page(), "root")
    page = admin.page

    page.goto("/admin/")
    page.get_by_label("Username:").fill("root")
    page.get_by_label("Password:").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Rule presets").click()
    page.get_by_role("link", name="Add rule preset").click()

    page.get_by_label("Name [en]:").fill("Quick 24")
    page.get_by_label("Description [en]:").fill("A short game: 24 cards, five in hand.")
    page.get_by_label("Fewest players:").fill("2")
    page.get_by_label("Most players:").fill("6")
    page.get_by_label("Deck size:").select_option("24")
    page.get_by_label("Hand size:").select_option("5")
    page.get_by_label("First bout limit:").select_option("5")
    page.get_by_role("button", name="Save", exact=True).click()
    # Six hands of five can't come from 24 cards: the admin is told so in plain words.
    expect(page.locator(".errornote, .errorlist").first).to_be_visible()
    expect(page.locator("#content")).to_contain_text("6 players with 5 cards each need 30 cards")

    page.get_by_label("Most players:").fill("4")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    expect(page.locator("#result_list")).to_contain_text("Quick 24")

    # In the lobby, the new preset is offered; the admin plays it against a bot.
    page.goto("/")
    expect(page.locator(".presets")).to_contain_text("A short game: 24 cards, five in hand.")
    game_id = create_game(page, preset="Quick 24", players=2, bots=1, level="easy")
    table = page.locator("#table")
    expect(table.locator("h1")).to_contain_text("Quick 24")
    expect(table.locator("fieldset.hand .card")).to_have_count(5)
    expect(table.locator(".deck")).to_contain_text("Talon: 14")  # 24 - 2 hands of 5

    moves = play_against_bots(admin, random.Random(11))
    assert moves
    final = admin.state()
    finish_line(final)
    expect(table.locator(".turn")).to_contain_text("Game over.")

    # The admin's list of games shows it finished.
    page.goto("/admin/games/game/")
    row = page.locator("#result_list tbody tr").filter(has=page.get_by_role(
        "link", name=str(game_id), exact=True))
    expect(row).to_contain_text("Quick 24")
    expect(row).to_contain_text("finished")
