"""axe-core (axe-playwright-python, which carries its own axe.min.js: no network) finds no
serious or critical violation on the lobby, a table in play, My games, the profile, the
computer players' ladder and the deal check."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.helpers import open_table
from tests.e2e.test_table_look import bout_in_play, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def serious(page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            f"{[n['target'] for n in v['nodes']][:5]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_lobby_and_a_table_in_play_have_no_serious_violation(
        new_page, django_user_model, monkeypatch, size):
    game, _ = bout_in_play(monkeypatch, django_user_model, 4, seed=11)
    person = log_in(new_page, "pia", size)
    page = person.page
    page.goto("/")
    assert serious(page) == []
    open_table(person, game.pk, "(s) => s.mine")
    assert serious(page) == []
    for url in ("/games/mine/", "/accounts/profile/", "/leaderboards/computer/", "/deals/check/"):
        page.goto(url)
        assert serious(page) == [], url
