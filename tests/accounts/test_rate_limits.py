"""Sign-ups per client address; password-reset mails per client address and per account."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

pytestmark = pytest.mark.django_db
SIGNUP = "/accounts/signup/"
RESET = "/accounts/password_reset/"
SECRET = "a-long-unusual-secret-42"


def sign_up(client, n, addr="203.0.113.7"):
    data = {"username": f"player{n}", "password1": SECRET, "password2": SECRET}
    r = client.post(SIGNUP, data, REMOTE_ADDR=addr)
    client.logout()
    return r


def test_the_limits_are_as_promised():
    from django.conf import settings

    assert settings.LIMITS["signup_ip"] == (5, 3600)
    assert settings.LIMITS["reset_ip"] == (5, 3600)
    assert settings.LIMITS["reset_account"] == (3, 3600)


def test_it_refuses_the_sixth_sign_up_from_one_address(client):
    for n in range(5):
        assert sign_up(client, n).status_code == 302
    r = sign_up(client, 5)
    assert r.status_code == 429
    body = r.content.decode()
    assert "Too many new accounts have been made from your network." in body
    assert "Nothing was changed. You can try again within" in body
    assert r["Retry-After"] == "3600"
    assert 'class="site-header"' in body  # the site's own page, not a bare error
    users = get_user_model().objects
    assert users.count() == 5
    assert not users.filter(username="player5").exists()
    assert "_auth_user_id" not in client.session


def test_another_address_may_still_sign_up(client):
    for n in range(6):
        sign_up(client, n)
    assert sign_up(client, 6, addr="198.51.100.9").status_code == 302
    assert get_user_model().objects.filter(username="player6").exists()


def test_mistyped_forms_do_not_use_up_the_allowance(client):
    for _ in range(8):
        r = client.post(SIGNUP, {"username": "x", "password1": "a", "password2": "b"},
                        REMOTE_ADDR="203.0.113.7")
        assert r.status_code == 200
    assert sign_up(client, 1).status_code == 302


def test_reset_mails_stop_at_the_limit_for_one_address(client, alice, bob):
    # Alternate accounts so that only the per-address limit (5) can stop them.
    statuses = []
    for n in range(8):
        email = "alice@example.org" if n % 2 else "bob@example.org"
        statuses.append(client.post(RESET, {"email": email}, REMOTE_ADDR="203.0.113.7")
                        .status_code)
    assert statuses == [302] * 5 + [429] * 3
    assert len(mail.outbox) == 5
    r = client.post(RESET, {"email": "alice@example.org"}, REMOTE_ADDR="203.0.113.7")
    assert r.status_code == 429
    assert "Too many password resets have been asked for from your network." in r.content.decode()
    assert len(mail.outbox) == 5


def test_reset_mails_stop_at_the_limit_for_one_account_from_many_addresses(client, alice):
    statuses = [
        client.post(RESET, {"email": "alice@example.org"}, REMOTE_ADDR=f"198.51.100.{n}")
        .status_code
        for n in range(1, 7)
    ]
    assert statuses == [302] * 3 + [429] * 3
    assert len(mail.outbox) == 3
    assert all(m.to == ["alice@example.org"] for m in mail.outbox)
    r = client.post(RESET, {"email": "ALICE@example.org"}, REMOTE_ADDR="198.51.100.99")
    assert r.status_code == 429  # the address's case makes no new allowance
    assert "Too many password-reset emails have been asked for this address." in r.content.decode()
    assert len(mail.outbox) == 3


def test_an_unknown_address_is_limited_the_same_way(client, alice):
    # Otherwise the 429 would tell which addresses belong to players.
    statuses = [client.post(RESET, {"email": "nobody@example.org"},
                            REMOTE_ADDR=f"198.51.100.{n}").status_code for n in range(1, 5)]
    assert statuses == [302, 302, 302, 429]
    assert mail.outbox == []


def test_the_counts_outlive_the_cache(client, alice):
    """They are kept in the database: a cache (Redis) emptied or restarted forgets none."""
    from django.core.cache import caches

    for n in range(5):
        assert sign_up(client, n).status_code == 302
    for n in range(3):
        client.post(RESET, {"email": "alice@example.org"}, REMOTE_ADDR=f"198.51.100.{n}")
    for alias in caches:
        caches[alias].clear()
    assert sign_up(client, 5).status_code == 429
    r = client.post(RESET, {"email": "alice@example.org"}, REMOTE_ADDR="198.51.100.50")
    assert r.status_code == 429
    assert not get_user_model().objects.filter(username="player5").exists()


def test_a_window_ends_and_a_new_one_starts(client):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        for n in range(5):
            sign_up(client, n)
        assert sign_up(client, 5).status_code == 429
    with time_machine.travel(start + timedelta(minutes=59), tick=False):
        assert sign_up(client, 5).status_code == 429
    with time_machine.travel(start + timedelta(minutes=61), tick=False):
        assert sign_up(client, 5).status_code == 302
        for n in range(6, 10):
            assert sign_up(client, n).status_code == 302
        assert sign_up(client, 10).status_code == 429
