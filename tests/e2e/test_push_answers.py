"""Turning notifications on always gets an answer in words: at once when the browser
refuses (a private window's "Push API not supported"), within seconds when it never
answers; the profile shows one notification switch. A logged-out visitor who loses the
connection gets the site's offline page, in their language, not the browser's error."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import PASSWORD, log_in, offline

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.service_worker]

SHOTS = "artifacts/screenshots"
# What a private window's browser does with push: the subscription is refused.
REFUSED = """PushManager.prototype.subscribe = function () {
  return Promise.reject(new DOMException("Push API not supported in incognito", "AbortError"));
};"""
# A browser that never answers.
HANGS = "PushManager.prototype.subscribe = function () { return new Promise(() => {}); };"


def _profile(new_page, django_user_model, script, **options):
    django_user_model.objects.create_user("nina", "nina@example.org", PASSWORD)
    person = log_in(new_page, "nina", permissions=["notifications"], **options)
    person.page.add_init_script(script)
    person.page.goto("/accounts/profile/")
    return person.page


def _switches(page):
    """The notification switches a person sees on the page."""
    return page.locator("[data-push-toggle]:visible, [data-notify-toggle]:visible")


def test_a_refused_push_is_told_at_once(new_page, django_user_model):
    page = _profile(new_page, django_user_model, REFUSED,
                    viewport={"width": 390, "height": 844})
    switch = page.get_by_role("button", name="Notify me on this device")
    expect(switch).to_be_visible()
    expect(_switches(page)).to_have_count(1)  # one switch, not two look-alikes
    switch.click()
    status = page.locator("[data-push-status]")
    expect(status).to_contain_text("a private window cannot", timeout=2000)
    expect(switch).to_have_attribute("aria-pressed", "false")
    page.screenshot(path=f"{SHOTS}/push-refused-phone.png")


def test_a_browser_that_never_answers_is_told_within_seconds(new_page, django_user_model):
    page = _profile(new_page, django_user_model, HANGS)
    page.get_by_role("button", name="Notify me on this device").click()
    status = page.locator("[data-push-status]")
    expect(status).to_contain_text("Turning notifications on", timeout=1000)  # at once
    expect(status).to_contain_text("The browser gave no answer", timeout=9000)
    page.screenshot(path=f"{SHOTS}/push-no-answer-desktop.png")


def test_without_push_the_profile_says_so_and_offers_notices_while_open(
        new_page, django_user_model):
    page = _profile(new_page, django_user_model, "delete window.PushManager;")
    expect(page.locator("[data-push-status]")).to_contain_text("a private window cannot")
    expect(_switches(page)).to_have_count(1)
    expect(page.get_by_role("button", name="Tell me while the site is open in a tab")).to_be_visible()


def test_a_logged_out_visitor_offline_gets_the_offline_page_in_their_language(new_page):
    page = new_page(locale="ru-RU", viewport={"width": 390, "height": 844})
    page.goto("/leaderboards/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    with offline(page):
        page.goto("/tournaments/")
        expect(page.get_by_role("heading", name="Нет подключения к сети")).to_be_visible()
        assert page.locator("html").get_attribute("lang") == "ru"
        page.screenshot(path=f"{SHOTS}/offline-logged-out-ru-phone.png")


def test_the_offline_page_follows_a_change_of_language(new_page):
    """One worker for every language: after the visitor picks Finnish, a page that can't
    be reached opens as the Finnish offline page."""
    page = new_page(locale="en-US")
    page.goto("/leaderboards/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.locator('.languages button[value="fi"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    kept = """async () => { const r = await caches.match('/offline/language');
                          return r ? await r.text() : null; }"""
    for _ in range(100):  # the worker keeps the Finnish page after the page has come
        if page.evaluate(kept) == "fi":
            break
        page.wait_for_timeout(50)
    with offline(page):
        page.goto("/tournaments/")
        expect(page.get_by_role("heading", name="Yhteys on poikki")).to_be_visible()
