"""The countdown for the player to act, for two people in two time zones: each browser's
zone (Intl) is saved on the profile, the deadline is shown in that zone, and the time left
counts down live in words, on the table and on "My games"."""

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import formats, translation
from playwright.sync_api import expect

from accounts.models import Player
from games import services
from games.models import Game, RulePreset
from tests.e2e import helpers
from tests.e2e.helpers import PASSWORD, log_in, open_table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ZONES = {"anna": "Europe/Helsinki", "boris": "America/New_York"}
LEFT = re.compile(r"^(\d+) min, (\d+) sec left$")  # Intl.DurationFormat, English, short


def seconds_left(text: str) -> int:
    m = LEFT.match(text)
    assert m, f"not a countdown in words: {text!r}"
    return int(m.group(1)) * 60 + int(m.group(2))


def test_the_countdown_in_two_time_zones(new_page, django_user_model, monkeypatch):
    helpers.quiet_notify(monkeypatch)
    users = {n: django_user_model.objects.create_user(username=n, password=PASSWORD)
             for n in ZONES}
    game = services.create_game(users["anna"], RulePreset.objects.get(name="Classic"),
                                players=2, deals=1, move_time=timedelta(minutes=5))
    game = services.join_game(game.pk, users["boris"])
    to_act = game.seats.get(number=game.turn_seat).player.username
    people = {n: log_in(new_page, n, timezone_id=zone, locale="en-US")
              for n, zone in ZONES.items()}

    shown = {}
    for username, person in people.items():
        page = person.page
        open_table(person, game.pk)
        # The browser's zone reached the profile (the cookie was set on the log-in page).
        assert Player.objects.get(username=username).time_zone == ZONES[username]
        local = Game.objects.get(pk=game.pk).deadline.astimezone(ZoneInfo(ZONES[username]))
        with translation.override("en"):
            expected = formats.date_format(local, "DATETIME_FORMAT")
        clock = page.locator("#table .turn .clock")
        expect(clock.locator("time")).to_have_text(expected)
        shown[username] = expected
        countdown = clock.locator(".countdown")
        first = seconds_left(countdown.inner_text())
        assert 4 * 60 <= first <= 5 * 60
        page.wait_for_timeout(2100)
        later = seconds_left(countdown.inner_text())
        assert first - 4 <= later <= first - 1, (first, later)  # live, a second at a time
        if username == to_act:
            assert page.title() == "(1) Your move — Durak"
            expect(page.locator("link[rel=icon]")).to_have_attribute(
                "href", re.compile(r"favicon-turn\.svg$"))
        else:
            assert page.title().startswith("Classic #")

        page.goto("/games/mine/")
        row = page.locator(".my-games li").filter(has_text=f"#{game.pk}")
        expect(row.locator(".countdown")).to_have_text(LEFT)  # in words once clock.js runs
        expect(row.locator("time")).to_have_text(expected)
        if username == to_act:
            expect(row.locator(".badge")).to_have_text("Your move")
        else:
            expect(row).to_contain_text(f"{to_act} to move")
    assert shown["anna"] != shown["boris"]  # seven hours apart
