"""Signing up: the form, a new player logged in, bad passwords and taken names refused."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db
URL = "/accounts/signup/"


def form(**overrides):
    data = {
        "username": "carol",
        "email": "carol@example.org",
        "password1": "a-long-unusual-secret-42",
        "password2": "a-long-unusual-secret-42",
    }
    return data | overrides


def test_it_shows_the_form(client):
    r = client.get(URL)
    assert r.status_code == 200
    assert 'name="password1"' in r.content.decode()


def test_it_creates_a_player_and_logs_in(client):
    r = client.post(URL, form())
    assert r.status_code == 302
    assert r.url == "/"
    player = get_user_model().objects.get(username="carol")
    assert player.email == "carol@example.org"
    assert player.check_password("a-long-unusual-secret-42")
    assert client.session["_auth_user_id"] == str(player.pk)
    r = client.get("/")
    assert "Welcome, carol!" in r.content.decode()


def test_it_rejects_mismatched_passwords(client):
    r = client.post(URL, form(password2="something-else-entirely-9"))
    assert r.status_code == 200
    assert "The two password fields didn" in r.content.decode()
    assert not get_user_model().objects.exists()
    assert "_auth_user_id" not in client.session


def test_it_rejects_a_weak_password(client):
    r = client.post(URL, form(password1="12345678", password2="12345678"))
    assert r.status_code == 200
    body = r.content.decode()
    assert "This password is too common." in body
    assert "This password is entirely numeric." in body
    assert not get_user_model().objects.exists()


def test_it_rejects_a_taken_username(client, alice):
    r = client.post(URL, form(username="alice"))
    assert r.status_code == 200
    assert "A user with that username already exists." in r.content.decode()
    assert get_user_model().objects.count() == 1


def test_it_redirects_a_logged_in_player(alice_client):
    r = alice_client.get(URL)
    assert r.status_code == 302
    assert r.url == "/accounts/profile/"


def test_a_username_has_at_most_thirty_characters(client):
    page = client.get(URL).content.decode()
    assert 'maxlength="30"' in page and "At most 30 characters" in page
    r = client.post(URL, form(username="c" * 31))
    assert r.status_code == 200
    assert "at most 30 characters" in r.content.decode()
    assert not get_user_model().objects.exists()
    assert client.post(URL, form(username="c" * 30)).status_code == 302


def test_the_admin_holds_new_names_to_thirty_but_keeps_a_longer_old_one(client, password):
    Player = get_user_model()
    root = Player.objects.create_superuser("root", "root@example.org", password)
    old = Player.objects.create_user("o" * 40, password=password)  # made before the limit
    client.force_login(root)
    r = client.post("/admin/accounts/player/add/", {
        "username": "n" * 31, "password1": "a-long-unusual-secret-42",
        "password2": "a-long-unusual-secret-42", "usable_password": "true"})
    assert r.status_code == 200 and not Player.objects.filter(username="n" * 31).exists()
    data = {"username": old.username, "date_joined_0": "2026-01-01", "date_joined_1": "10:00",
            "deals_played": 0, "deals_lost": 0, "deals_drawn": 0, "is_active": "on",
            "display_name": "Old timer"}
    r = client.post(f"/admin/accounts/player/{old.pk}/change/", data)
    assert r.status_code == 302
    old.refresh_from_db()
    assert old.display_name == "Old timer"
    # Its owner still logs in with it.
    r = Client().post("/accounts/login/", {"username": "o" * 40, "password": password})
    assert r.status_code == 302
    renamed = client.post(f"/admin/accounts/player/{root.pk}/change/", data | {
        "username": "r" * 31, "is_staff": "on", "is_superuser": "on"})
    assert renamed.status_code == 200
    assert Player.objects.filter(username="root").exists()


def test_the_browsers_language_and_time_zone_are_kept(client):
    """Mails speak to a new player in the language and zone of the browser they signed up
    from (the hidden field is filled by static/js/clock.js)."""
    r = client.post(URL, form(time_zone="Europe/Moscow"), HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")
    assert r.status_code == 302
    player = get_user_model().objects.get(username="carol")
    assert (player.language, player.time_zone) == ("ru", "Europe/Moscow")


def test_the_zone_cookie_stands_in_for_the_field_and_nonsense_is_dropped(client):
    client.cookies["tz"] = "Europe/Oslo"
    client.post(URL, form(time_zone="Mars/Olympus_Mons"), HTTP_ACCEPT_LANGUAGE="nb")
    player = get_user_model().objects.get(username="carol")
    assert (player.language, player.time_zone) == ("nb", "Europe/Oslo")


def test_the_form_has_the_hidden_zone_field(client):
    assert 'name="time_zone" data-browser-zone' in client.get(URL).content.decode()


def test_signing_up_hashes_the_password_once_and_sends_no_mail(client, settings,
                                                              django_assert_max_num_queries):
    """The password hash is the sign-up's cost by design (Argon2 at Django's cost for it:
    about 0.2 s of CPU); nothing else may be slow: no second hash (no
    authenticate after the save), no mail in the request, a bounded look-alike check."""
    from unittest import mock

    from django.contrib.auth.hashers import MD5PasswordHasher
    from django.core import mail

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    hashes = mock.patch.object(MD5PasswordHasher, "encode", autospec=True,
                               side_effect=MD5PasswordHasher.encode)
    with hashes as encode, django_assert_max_num_queries(25):
        r = client.post(URL, form())
    assert r.status_code == 302
    assert encode.call_count == 1
    assert mail.outbox == []
