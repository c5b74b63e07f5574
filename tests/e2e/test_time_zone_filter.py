"""The profile's time zones in a browser: grouped by region, each with its city and offset,
and found by typing a city into the box above the list."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import PASSWORD, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_typing_a_city_finds_its_zone(new_page, django_user_model):
    django_user_model.objects.create_user("timo", "timo@example.org", PASSWORD,
                                          language="ru", time_zone="Asia/Calcutta")
    page = log_in(new_page, "timo", viewport={"width": 390, "height": 844},
                  timezone_id="Asia/Kolkata").page
    page.goto("/accounts/profile/")
    select = page.locator("#id_time_zone")
    expect(select).to_have_value("Asia/Kolkata")  # the old name, read as the current one
    assert select.locator("optgroup").first.get_attribute("label") == "Европа"
    box = page.get_by_label("Найти часовой пояс по городу")
    shown = "s => [...s.options].filter(o => !o.hidden && o.value).map(o => o.text)"
    for typed in ("владив", "vladiv"):  # the city in the reader's words, or the zone's name
        box.fill(typed)
        expect(select).to_have_value("Asia/Vladivostok")
        assert select.evaluate(shown) == ["Владивосток (UTC+10:00)"], typed
        box.fill("")
    box.fill("владив")
    select.evaluate("s => s.scrollIntoView({block: 'center'})")
    page.screenshot(path="artifacts/screenshots/profile-zones-ru-phone.png")
    page.get_by_role("button", name="Сохранить").click()
    page.wait_for_url("**/accounts/profile/")
    expect(page.locator("#id_time_zone")).to_have_value("Asia/Vladivostok")
