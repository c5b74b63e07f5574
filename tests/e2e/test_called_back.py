"""Called back in one's own language and time zone: a player signs up from a Russian,
Finnish or Norwegian browser without touching the language switch, and the challenge and
"your move" mails the worker sends reach a real SMTP server in that language, with times in
the browser's zone; the first page a Vladivostok browser opens shows Vladivostok time."""

import re
import time
import zoneinfo
from datetime import timedelta

import pytest
from celery import Celery
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from games.models import Game, RulePreset
from tests.e2e.helpers import PASSWORD, quiet_notify

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BROWSERS = {
    # language: (browser locale, zone, the game as the mail names it, "your move" words)
    "ru": ("ru-RU", "Europe/Moscow", "«Классический» №{id}", "Срок: {when}"),
    "fi": ("fi-FI", "Europe/Helsinki", "Klassinen nro {id}", "Siirrä viimeistään {when}"),
    "nb": ("nb-NO", "Europe/Oslo", "Klassisk nr. {id}", "Trekk innen {when}"),
}
SUBJECTS = {"ru": "Ваш ход: {game}", "fi": "Sinun vuorosi: {game}", "nb": "Ditt trekk: {game}"}
CHALLENGES = {"ru": "aino вызывает вас", "fi": "aino haastaa sinut", "nb": "aino utfordrer deg"}
# How each language's time of day reads ("9:36", "9.36", "09:36"): Django's TIME_FORMAT.
CLOCK = {"ru": "{d.hour}:{d:%M}", "fi": "{d.hour}.{d:%M}", "nb": "{d:%H}:{d:%M}"}


def _worker(site):
    """Tasks go to the site's own worker through its Redis (the test process runs Celery
    eagerly). Not the process's current app: later tests queue through the site's."""
    return Celery(broker=site.redis_url, set_as_current=False)


def _mail_to(site, address, count, timeout=30):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        mine = [m for m in site.inbox.messages if m["To"] == address]
        if len(mine) >= count:
            return mine
        time.sleep(0.2)
    raise AssertionError(f"{count} mails to {address} did not come: {site.inbox.messages}")


@pytest.mark.parametrize("language", ["ru", "fi", "nb"])
def test_mails_reach_a_new_player_in_their_browsers_language_and_zone(
        live, new_page, django_user_model, monkeypatch, language):
    quiet_notify(monkeypatch)
    locale, zone, game_words, move_words = BROWSERS[language]
    page = new_page(locale=locale, timezone_id=zone)
    page.goto("/accounts/signup/")
    assert page.locator("html").get_attribute("lang") == language  # Accept-Language alone
    name = f"boris{language}"
    address = f"{name}@example.org"
    page.fill("input[name=username]", name)
    page.fill("input[name=email]", address)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form.panel button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    player = get_user_model().objects.get(username=name)
    assert (player.language, player.time_zone) == (language, zone)

    aino = django_user_model.objects.create_user("aino", "aino@example.org", PASSWORD)
    game = services.challenge(aino, player, RulePreset.objects.get(name="Classic"),
                              move_time=timedelta(days=1))
    worker = _worker(live)
    worker.send_task("games.tasks.challenge_mail", args=(game.pk,), queue="mail")
    (challenge,) = _mail_to(live, address, 1)
    assert CHALLENGES[language] in challenge["Subject"]

    # The challenge accepted, the new player's turn came a while ago and they have not
    # looked since: the beat's round sends the "your move" mail.
    services.accept_challenge(game.pk, player)
    game.refresh_from_db()
    seat = game.seats.get(player=player)
    now = timezone.now()
    deadline = (now + timedelta(hours=23)).replace(second=0, microsecond=0)
    Game.objects.filter(pk=game.pk).update(
        turn_seat=seat.number, turn_started=now - timedelta(hours=1), deadline=deadline,
        move_email_at=now - timedelta(minutes=1), next_reminder=None)
    get_user_model().objects.filter(pk=player.pk).update(last_seen=now - timedelta(hours=2))
    worker.send_task("games.tasks.send_reminders", queue="mail")
    _, your_move = _mail_to(live, address, 2)
    assert your_move["Subject"] == SUBJECTS[language].format(
        game=game_words.format(id=game.pk))
    body = your_move.get_content()
    local = deadline.astimezone(zoneinfo.ZoneInfo(zone))
    clock = CLOCK[language].format(d=local)
    assert move_words.format(when="") in body and _shows(body, clock) and f"({zone})" in body
    assert not _shows(body, CLOCK[language].format(d=deadline))  # not UTC


def test_the_first_page_in_a_vladivostok_browser_shows_vladivostok_time(
        live, new_page, django_user_model, monkeypatch):
    quiet_notify(monkeypatch)
    alice = django_user_model.objects.create_user("alice", "alice@example.org", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.org", PASSWORD)
    game = services.create_game(alice, RulePreset.objects.get(name="Classic"), players=2,
                                move_time=timedelta(days=3))
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    page = new_page(locale="ru-RU", timezone_id="Asia/Vladivostok")
    page.goto(f"/games/{game.pk}/")  # a spectator's link, opened first: no cookie yet
    shown = page.locator(".clock .by time").inner_text()
    local = game.deadline.astimezone(zoneinfo.ZoneInfo("Asia/Vladivostok"))
    assert _shows_time(shown, local), shown
    assert not _shows_time(shown, game.deadline), shown  # not UTC
    # From the next page on the server knows the zone (the cookie) and renders it itself.
    assert {c["name"]: c["value"] for c in page.context.cookies()}["tz"] == "Asia/Vladivostok"
    page.reload()
    shown = page.locator(".clock .by time").inner_text()
    assert _shows_time(shown, local), shown


def _shows_time(text, moment):
    """The time of day of `moment` in `text`, its hour padded ("00:02", the browser) or not
    ("0:02", the server)."""
    return _shows(text, f"{moment.hour}:{moment:%M}") or _shows(text, f"{moment:%H}:{moment:%M}")


def _shows(text, clock):
    """`clock` ("6:36") stands in `text` as a time of its own (not inside "16:36")."""
    return re.search(rf"(?<![\d.:]){re.escape(clock)}(?!\d)", text) is not None
