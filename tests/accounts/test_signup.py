"""Signing up: the form, a new player logged in, bad passwords and taken names refused."""

import pytest
from django.contrib.auth import get_user_model

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
