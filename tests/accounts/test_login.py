"""Logging in: the form, a good and a wrong password, and where it goes next."""

import pytest

pytestmark = pytest.mark.django_db
URL = "/accounts/login/"


def test_it_shows_the_form(client):
    r = client.get(URL)
    assert r.status_code == 200
    assert 'name="username"' in r.content.decode()


def test_it_logs_in(client, alice, password):
    r = client.post(URL, {"username": "alice", "password": password})
    assert r.status_code == 302
    assert r.url == "/"
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_follows_next(client, alice, password):
    r = client.post(URL, {"username": "alice", "password": password, "next": "/accounts/profile/"})
    assert r.url == "/accounts/profile/"


def test_it_ignores_an_offsite_next(client, alice, password):
    r = client.post(
        URL, {"username": "alice", "password": password, "next": "https://evil.example/"}
    )
    assert r.url == "/"


def test_it_rejects_a_wrong_password(client, alice):
    r = client.post(URL, {"username": "alice", "password": "not-the-password"})
    assert r.status_code == 200
    assert "Please enter a correct username and password" in r.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_works_with_the_test_client_login_given_a_request(client, alice, password, rf):
    # The axes backend needs the request; client.login() passes credentials straight through.
    assert client.login(request=rf.get("/"), username="alice", password=password)
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_the_nav_shows_log_in_to_anonymous_visitors(client):
    body = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in body
    assert 'action="/accounts/logout/"' not in body
