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


def test_a_visitor_sent_here_from_a_private_game_is_told_why(client, alice):
    from games import services
    from games.models import RulePreset

    preset = RulePreset.objects.create(name="Login classic", min_players=2, max_players=6)
    game = services.create_game(alice, preset, players=2, private=True)
    r = client.get(f"/games/{game.pk}/", follow=True)
    page = r.content.decode()
    assert r.redirect_chain[-1][0] == f"{URL}?next=%2Fgames%2F{game.pk}%2F"
    assert "This game is private: log in to go to its table." in page
    ru = client.get(r.redirect_chain[-1][0], HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Эта игра закрытая: войдите, чтобы перейти к её столу." in ru
    assert "private" not in client.get(URL).content.decode()  # not from a game: nothing said
    assert "private" not in client.get(f"{URL}?next=/accounts/profile/").content.decode()


def test_passwords_are_kept_by_argon2_and_an_older_hash_is_upgraded_at_log_in(client, alice,
                                                                              password,
                                                                              settings):
    """The site's own hashers (the tests' fast one set aside): a password set now is an
    Argon2 hash; an account kept with PBKDF2 still logs in and leaves with Argon2."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    from durak_site import settings as site

    settings.PASSWORD_HASHERS = site.PASSWORD_HASHERS
    alice.set_password(password)
    assert alice.password.startswith("argon2$argon2id$")
    older = PBKDF2PasswordHasher()
    alice.password = older.encode(password, older.salt(), iterations=1000)
    alice.save(update_fields=["password"])
    r = client.post(URL, {"username": "alice", "password": password})
    assert r.status_code == 302 and client.session["_auth_user_id"] == str(alice.pk)
    alice.refresh_from_db()
    assert alice.password.startswith("argon2$argon2id$")
