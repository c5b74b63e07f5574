"""Changing the password: for a logged-in player who knows the old one."""

import pytest

pytestmark = pytest.mark.django_db
URL = "/accounts/password_change/"
NEW = "a-brand-new-secret-phrase-7"


def test_it_requires_login(client):
    r = client.get(URL)
    assert r.status_code == 302
    assert r.url.startswith("/accounts/login/?next=")


def test_it_changes_the_password(alice_client, alice, password):
    r = alice_client.post(
        URL, {"old_password": password, "new_password1": NEW, "new_password2": NEW}
    )
    assert r.status_code == 302
    assert r.url == "/accounts/password_change/done/"
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    # The session survives the change (update_session_auth_hash).
    assert alice_client.get("/accounts/profile/").status_code == 200


def test_it_rejects_a_wrong_old_password(alice_client, alice, password):
    r = alice_client.post(
        URL, {"old_password": "wrong-old-one", "new_password1": NEW, "new_password2": NEW}
    )
    assert r.status_code == 200
    assert "Your old password was entered incorrectly" in r.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(password)
