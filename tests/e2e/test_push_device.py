"""Push notifications in a real browser: the profile's switch registers the site's real
service worker (/sw.js, at the root), a push the site made is handed to it through
Chromium's DevTools protocol (ServiceWorker.deliverPushMessage: no public push service is
reachable from here), the notification it shows is checked, and a click on it leads to
the table. The site is installable: manifest, icons, theme, offline page, no inline
script."""

import json
import time
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games import services
from games.models import PushSubscription, RulePreset
from tests.e2e.helpers import PASSWORD, log_in, offline, quiet_notify

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.service_worker]

NOTIFICATIONS = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
  .map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}))"""


def _until(check, what, timeout=15):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {timeout}s")


def test_a_push_becomes_a_notification_that_leads_to_the_table(
        live, new_page, django_user_model, monkeypatch):
    quiet_notify(monkeypatch)
    alice = django_user_model.objects.create_user("alice", "alice@example.org", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.org", PASSWORD)
    game = services.create_game(alice, RulePreset.objects.get(name="Classic"), players=2,
                                move_time=timedelta(days=1))
    services.join_game(game.pk, bob)
    game.refresh_from_db()

    person = log_in(new_page, "bob", permissions=["notifications"])
    page = person.page
    page.goto("/accounts/profile/")
    switch = page.get_by_role("button", name="Notify me on this device")
    expect(switch).to_be_visible()
    # The page registered the worker; it takes this page over (clients.claim()).
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == f"{live.url}/"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    cdp = page.context.new_cdp_session(page)
    registrations = {}
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.update(
        {r["scopeURL"]: r["registrationId"] for r in event["registrations"]
         if not r["isDeleted"]}))
    cdp.send("ServiceWorker.enable")
    registration = _until(lambda: page.wait_for_timeout(100) or registrations.get(scope),
                          "the service worker's registration")

    # What the site pushes for bob's move, exactly as its push service would get it
    # before encryption (the encryption is tested against a real decryption in tests/games).
    sent = []
    monkeypatch.setattr(services.push, "_deliver",
                        lambda subscription, payload: sent.append(payload.decode()) or True)
    PushSubscription.objects.create(player=bob, endpoint="https://push.invalid/bob",
                                    p256dh="BPlaceholderKey0", auth="authsecret0")
    seat = game.seats.get(player=bob)
    assert services.push.your_move(game, seat) == 1
    assert json.loads(sent[0])["url"] == f"/games/{game.pk}/"
    cdp.send("ServiceWorker.deliverPushMessage",
             {"origin": live.url, "registrationId": registration, "data": sent[0]})

    shown = _until(lambda: page.evaluate(NOTIFICATIONS), "the notification")
    assert shown == [{"title": "Your move", "tag": f"game-{game.pk}",
                      "url": f"{live.url}/games/{game.pk}/",
                      "body": json.loads(sent[0])["body"]}]
    assert shown[0]["body"].startswith(f"Classic #{game.pk}. Move by tomorrow at ")

    # A click on it (the worker's own notificationclick handler) leads to the table.
    (worker,) = [w for w in page.context.service_workers  # /sw.js
                 if w.url.split("?")[0].endswith("/sw.js")]
    worker.evaluate("""async () => {
        const [notification] = await self.registration.getNotifications();
        self.dispatchEvent(new NotificationEvent("notificationclick", {notification}));
    }""")
    page.wait_for_url(f"**/games/{game.pk}/")
    assert page.evaluate(NOTIFICATIONS) == []  # closed by the click


def test_the_site_is_installable(live, new_page, django_user_model):
    """The checks Chromium makes before it offers to install a site, by hand: a manifest
    with a name, a start URL, standalone display, 192 and 512 pixel icons, and a service
    worker controlling the page; the offline page comes from the worker's cache."""
    django_user_model.objects.create_user("carol", "carol@example.org", PASSWORD)
    person = log_in(new_page, "carol")
    page = person.page
    page.goto("/accounts/profile/")  # the switch registers the worker
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(href)
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] and manifest["start_url"] == "/games/mine/"
    assert manifest["display"] == "standalone" and manifest["theme_color"] == "#1f5f3f"
    for icon in manifest["icons"]:
        image = page.request.get(icon["src"])
        assert image.ok and image.headers["content-type"] == "image/png"
    assert page.locator("meta[name=theme-color]").get_attribute("content") == "#1f5f3f"
    worker = page.request.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    # No inline script on the pages, and the policy forbids one.
    policy = page.request.get("/accounts/profile/").headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert page.evaluate("[...document.scripts].every((s) => s.src)")
    # Offline, a page opens as the offline page.
    with offline(page):
        page.goto("/games/mine/")
        expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
