"""Logging out: a form in the navigation, by POST only."""

import pytest

pytestmark = pytest.mark.django_db
URL = "/accounts/logout/"


def test_the_nav_has_a_logout_form(alice_client):
    body = alice_client.get("/").content.decode()
    assert 'action="/accounts/logout/"' in body
    assert 'method="post"' in body


def test_it_logs_out_on_post(alice_client):
    r = alice_client.post(URL)
    assert r.status_code == 302
    assert r.url == "/"
    assert "_auth_user_id" not in alice_client.session


def test_it_refuses_get(alice_client):
    r = alice_client.get(URL)
    assert r.status_code == 405
    assert "_auth_user_id" in alice_client.session
