"""The lobby on a phone: a slim header, a shorter page, and forms that offer only what the
server takes as the choices change (static/js/fit.js; docs/design.md, "Honest forms")."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Measured before: a 142 px header and a 3,678 px lobby (English, a newcomer).
MOST_HEADER = {"en": 64, "ru": 84}
MOST_LOBBY = 3300  # about 2,900 in English and 3,100 in Russian (the chosen rules described beside
# the choice, quick match's two minutes shown), with room for the open tables


def test_the_lobby_on_a_phone_is_short_and_its_forms_fit_their_choices(new_page):
    page = new_page(PHONE, is_mobile=True, has_touch=True)
    sign_up(page, "olga")
    for language in ("ru", "en"):
        page.locator(f".languages button[value='{language}']").click()
        page.wait_for_load_state()
        expect(page.locator("html")).to_have_attribute("lang", language)
        size = page.evaluate("""() => ({
            header: document.querySelector('.site-header').getBoundingClientRect().height,
            page: document.documentElement.scrollHeight,
            wide: document.documentElement.scrollWidth - window.innerWidth})""")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"lobby-phone-{language}.png", full_page=True)
        assert size["header"] <= MOST_HEADER[language], size
        assert size["page"] <= MOST_LOBBY, size
        assert size["wide"] <= 0, size
    # The challenge is folded; its jump link still finds it.
    challenge = page.locator("#challenge-form")
    expect(challenge).to_be_hidden()
    page.locator(".jump a[href='#challenge-title']").click()
    page.locator("#challenge-title").click()
    expect(challenge).to_be_visible()

    # Two players leave room for one computer player; six for five.
    form = page.locator("#create-game")
    bots = form.get_by_label("Computer players:", exact=True)
    offered = "s => [...s.options].filter(o => !o.disabled).map(o => o.value)"
    form.get_by_label("Players:", exact=True).select_option("6")
    bots.select_option("5")
    form.get_by_label("Players:", exact=True).select_option("2")
    assert bots.evaluate(offered) == ["0", "1"]
    expect(bots).to_have_value("1")

    # A tournament's computer players fill tables only in a casual one.
    page.goto("/tournaments/")
    form = page.locator("#create-tournament")
    fill = form.get_by_label("Computer players fill short tables", exact=False)
    expect(fill).to_be_disabled()
    form.get_by_label("casual", exact=True).check()
    expect(fill).to_be_enabled()
    form.get_by_label("rated", exact=True).check()
    expect(fill).to_be_disabled()
