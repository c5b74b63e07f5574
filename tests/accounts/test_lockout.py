import pytest
from axes.models import AccessAttempt

pytestmark = pytest.mark.django_db
URL = "/accounts/login/"


def fail(client, username="alice"):
    return client.post(URL, {"username": username, "password": "wrong-guess"})


def test_it_locks_out_after_the_failure_limit(client, alice, password, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert fail(client).status_code == 200
    r = fail(client)
    assert r.status_code == 429
    assert "Too many log-in attempts" in r.content.decode()
    assert "Please try again in 1\xa0hour." in r.content.decode()
    assert r["Retry-After"] == "3600"

    # Even the right password is refused while locked out.
    r = client.post(URL, {"username": "alice", "password": password})
    assert r.status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_locks_only_that_username(client, alice, bob, password, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        fail(client)
    r = client.post(URL, {"username": "bob", "password": password})
    assert r.status_code == 302
    assert client.session["_auth_user_id"] == str(bob.pk)


def test_a_success_resets_the_count(client, alice, password, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        fail(client)
    assert client.post(URL, {"username": "alice", "password": password}).status_code == 302
    assert not AccessAttempt.objects.filter(username="alice", failures_since_start__gt=0).exists()
    client.post("/accounts/logout/")
    assert fail(client).status_code == 200


def test_force_login_is_unaffected(client, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        fail(client)
    client.force_login(alice)
    assert client.get("/accounts/profile/").status_code == 200
