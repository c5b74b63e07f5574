"""The forms that ask for the player's password again (email change, password change) count
wrong passwords per player like log-in guesses ("password_guesses", accounts.ratelimit):
past the limit they are refused, the right password too, and change nothing."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

pytestmark = pytest.mark.django_db
EMAIL = "/accounts/email/"
PASSWORD_CHANGE = "/accounts/password_change/"
NEW = "a-new-unusual-secret-77"
GUESSES = 40  # as many as the attack sent


def change_email(client, password):
    return client.post(EMAIL, {"email": "new@example.org", "password": password})


def change_password(client, old):
    return client.post(PASSWORD_CHANGE, {"old_password": old, "new_password1": NEW,
                                         "new_password2": NEW})


@pytest.mark.parametrize("send", [change_email, change_password])
def test_guesses_past_the_limit_are_refused_even_the_right_one(alice_client, alice, password,
                                                              send, settings):
    allowed = settings.LIMITS["password_guesses"][0]
    statuses = [send(alice_client, f"guess-{n}").status_code for n in range(GUESSES)]
    assert statuses == [200] * allowed + [429] * (GUESSES - allowed)
    r = send(alice_client, password)
    assert r.status_code == 429 and r["Retry-After"] == "3600"
    assert "Your password has been typed wrong too many times." in r.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(password) and alice.email == "alice@example.org"
    assert mail.outbox == []
    # An hour on, the right password works again.
    with time_machine.travel(timezone.now() + timedelta(hours=1, seconds=1)):
        assert send(alice_client, password).status_code == 302


def test_both_forms_share_one_count(alice_client, password, settings):
    allowed = settings.LIMITS["password_guesses"][0]
    for n in range(allowed):
        change_email(alice_client, f"guess-{n}")
    assert change_password(alice_client, password).status_code == 429


def test_the_right_password_and_other_mistakes_are_not_guesses(alice_client, alice, password,
                                                               settings):
    allowed = settings.LIMITS["password_guesses"][0]
    for _ in range(allowed + 3):  # the right password, but an address that is not one
        r = alice_client.post(EMAIL, {"email": "not-an-address", "password": password})
        assert r.status_code == 200
    for _ in range(allowed - 1):
        change_email(alice_client, "wrong")
    assert change_password(alice_client, password).status_code == 302


def test_the_count_is_per_player(alice_client, bob, password, settings, client):
    for n in range(settings.LIMITS["password_guesses"][0] + 1):
        change_email(alice_client, f"guess-{n}")
    client.force_login(bob)
    assert change_password(client, password).status_code == 302
