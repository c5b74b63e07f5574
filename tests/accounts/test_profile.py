"""The player's own profile: the record shown, display name and reminders saved, bad
input refused, the record out of reach."""

import pytest
from django.utils import translation

pytestmark = pytest.mark.django_db
URL = "/accounts/profile/"


def test_it_requires_login(client):
    r = client.get(URL)
    assert r.status_code == 302
    assert r.url == "/accounts/login/?next=/accounts/profile/"


def test_it_shows_the_record(alice_client, alice):
    alice.deals_played, alice.deals_lost, alice.deals_drawn = 17, 5, 2
    alice.save()
    body = alice_client.get(URL).content.decode()
    assert "<strong>17</strong>deals played" in body
    assert "<strong>5</strong>deals lost" in body
    assert "<strong>2</strong>deals drawn" in body


def test_it_saves_display_name_and_reminders(alice_client, alice):
    r = alice_client.post(URL, {"display_name": "Alice the Bold"})
    # an unchecked checkbox is simply absent
    assert r.status_code == 302
    assert r.url == URL
    alice.refresh_from_db()
    assert alice.display_name == "Alice the Bold"
    assert alice.email_reminders is False
    body = alice_client.get(URL).content.decode()
    assert "Your profile has been saved." in body
    assert "Alice the Bold" in body


def test_it_rejects_a_bad_display_name(alice_client, alice):
    r = alice_client.post(URL, {"display_name": "X\u200bY"})
    assert r.status_code == 200
    assert "invisible or control characters" in r.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_it_cannot_touch_the_record(alice_client, alice):
    alice_client.post(URL, {"display_name": "", "deals_played": 99, "email_reminders": "on"})
    alice.refresh_from_db()
    assert alice.deals_played == 0


def test_language_and_time_zone_are_chosen_on_the_profile(alice_client, alice):
    body = alice_client.get(URL).content.decode()
    assert 'name="language"' in body and '<option value="Asia/Vladivostok">' in body
    alice_client.cookies["tz"] = "Europe/Helsinki"
    alice_client.get("/")  # the browser's zone, saved on the profile
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Helsinki"
    r = alice_client.post(URL, {"display_name": "", "language": "fi",
                                "time_zone": "Asia/Vladivostok"})
    assert r.status_code == 302
    alice_client.get("/")  # the same browser's zone does not undo the choice
    alice.refresh_from_db()
    assert (alice.language, alice.time_zone) == ("fi", "Asia/Vladivostok")
    alice_client.cookies["tz"] = "America/Chicago"  # the browser moved: it wins again
    alice_client.get("/")
    alice.refresh_from_db()
    assert alice.time_zone == "America/Chicago"


def test_a_form_without_language_and_zone_keeps_them(alice_client, alice):
    alice.language, alice.time_zone = "ru", "Europe/Moscow"
    alice.save()
    alice_client.post(URL, {"display_name": "Alice"})
    alice.refresh_from_db()
    assert (alice.language, alice.time_zone) == ("ru", "Europe/Moscow")


def test_without_an_email_the_mail_settings_say_they_need_one(alice_client, alice):
    assert alice.email
    assert "No mail is sent without an address" not in alice_client.get(URL).content.decode()
    alice.email = ""
    alice.save()
    body = alice_client.get(URL).content.decode()
    assert "No mail is sent without an address" in body and "Add an email address" in body


def test_the_saved_notice_speaks_the_language_just_chosen(alice_client, alice):
    alice.language = "ru"
    alice.save(update_fields=["language"])
    r = alice_client.post(URL, {"display_name": "Alice", "language": "en"})
    assert r.status_code == 302
    body = alice_client.get(URL).content.decode()
    assert "Your profile has been saved." in body
    # Back to the browser's language (Finnish here): the notice follows it too.
    r = alice_client.post(URL, {"display_name": "Alice", "language": ""},
                          HTTP_ACCEPT_LANGUAGE="fi")
    body = alice_client.get(URL, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    with translation.override("fi"):
        saved_fi = translation.gettext("Your profile has been saved.")
    assert saved_fi != "Your profile has been saved." and saved_fi in body
