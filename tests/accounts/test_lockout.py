"""Failed log-ins: the lockout per username and address, per address, the slowing of
addresses new to an account, and the lockouts kept in the database."""

import re
from datetime import timedelta

import pytest
import time_machine
from axes.models import AccessAttempt
from django.core import mail
from django.utils import timezone

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


# One address against many accounts; many addresses against one account.
HOME = "192.0.2.10"  # alice's usual address
OFFICE = "198.51.100.1"


def fail_from(client, address, username="alice"):
    return client.post(URL, {"username": username, "password": "wrong-guess"},
                       REMOTE_ADDR=address)


def log_in_from(client, address, password, username="alice"):
    r = client.post(URL, {"username": username, "password": password}, REMOTE_ADDR=address)
    client.logout()
    return r


def test_one_address_trying_many_usernames_is_locked_out(client, alice, bob, password,
                                                         settings):
    limit = settings.AXES_ADDRESS_FAILURE_LIMIT
    assert limit == 20
    statuses = [fail_from(client, OFFICE, f"user{n}").status_code
                for n in range(7) for _ in range(3)]  # never 5 for one username
    assert statuses == [200] * (limit - 1) + [429] * (21 - limit + 1)
    assert "from your address" in fail_from(client, OFFICE, "user8").content.decode()
    # Every account from that address, even with the right password...
    assert log_in_from(client, OFFICE, password, "bob").status_code == 429
    # ...but not from elsewhere.
    assert log_in_from(client, HOME, password, "bob").status_code == 302


def test_a_success_does_not_wipe_the_addresss_count_of_other_accounts(client, bob, password,
                                                                      settings):
    for n in range(settings.AXES_ADDRESS_FAILURE_LIMIT - 1):
        assert fail_from(client, OFFICE, f"user{n % 5}").status_code == 200
    assert log_in_from(client, OFFICE, password, "bob").status_code == 302  # one's own account
    assert fail_from(client, OFFICE, "user9").status_code == 429


def throttled(r):
    """Slowed: the new-device page (accounts.newdevice), the same whatever the password,
    and nobody logged in."""
    body = r.content.decode()
    return (r.status_code == 200 and "from other addresses" in body
            and "sent you a link to log in from this device" in body
            and "_auth_user_id" not in r.wsgi_request.session)


def test_many_addresses_on_one_account_are_slowed(client, alice, password):
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        for n in range(1, 6):
            assert fail_from(client, f"203.0.113.{n}").status_code == 200
        r = fail_from(client, "203.0.113.6")
        assert throttled(r)
        assert r["Retry-After"] == "60"
        # The right password too only gets a link by mail, and a refusal does not count.
        assert throttled(log_in_from(client, "203.0.113.7", password))
        alice.refresh_from_db()
        assert alice.last_login is None
    with time_machine.travel(start + timedelta(seconds=61), tick=False):
        assert fail_from(client, "203.0.113.8").status_code == 200  # one more try
        r = fail_from(client, "203.0.113.9")
        assert throttled(r) and r["Retry-After"] == "120"  # then twice as long
    with time_machine.travel(start + timedelta(seconds=61 + 121), tick=False):
        assert log_in_from(client, "203.0.113.9", password).status_code == 302


def test_one_address_alone_locks_only_itself_out(client, alice, password):
    for _ in range(5):
        fail_from(client, OFFICE)
    assert log_in_from(client, OFFICE, password).status_code == 429
    assert log_in_from(client, "203.0.113.1", password).status_code == 302  # a new address


def test_the_owner_still_logs_in_from_their_usual_address(client, alice, password):
    assert log_in_from(client, HOME, password).status_code == 302
    for n in range(1, 12):
        fail_from(client, f"203.0.113.{n}")
    assert throttled(log_in_from(client, "203.0.113.50", password))
    r = log_in_from(client, HOME, password)
    assert r.status_code == 302


def test_a_password_reset_still_works_and_ends_the_slowing(client, alice, password):
    for n in range(1, 12):
        fail_from(client, f"203.0.113.{n}")
    assert throttled(log_in_from(client, "203.0.113.50", password))
    mail.outbox.clear()  # the new device's link
    r = client.post("/accounts/password_reset/", {"email": "alice@example.org"},
                    REMOTE_ADDR="203.0.113.50")
    assert r.status_code == 302 and len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    r = client.get(client.get(link, REMOTE_ADDR="203.0.113.50").url, REMOTE_ADDR="203.0.113.50")
    new = "a-fresh-reset-secret-31"
    r = client.post(r.wsgi_request.path, {"new_password1": new, "new_password2": new},
                    REMOTE_ADDR="203.0.113.50")
    assert r.status_code == 302 and r.url == "/accounts/reset/done/"
    assert log_in_from(client, "203.0.113.50", new).status_code == 302


def test_the_lockouts_are_kept_in_the_database(settings):
    from axes.handlers.database import AxesDatabaseHandler
    from axes.handlers.proxy import AxesProxyHandler

    assert isinstance(AxesProxyHandler.get_implementation(force=True), AxesDatabaseHandler)
