"""Never lock the owner out (accounts.newdevice): while guesses from many addresses slow an
account down, its owner's right password from a new address gets no 429 but a one-time
log-in link by mail, in their language; a wrong password gets the same page and no mail."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
HOME = "192.0.2.10"  # where alice logged in before
NEW = "198.51.100.77"  # her new phone's address
GUESSERS = 30


@pytest.fixture(scope="module", autouse=True)
def _catalogues():
    call_command("compilemessages", locale=["fi"], ignore_patterns=[".venv"], verbosity=0)


def log_in(client, address, password, username="alice"):
    return client.post(LOGIN, {"username": username, "password": password},
                       REMOTE_ADDR=address)


@pytest.fixture
def locked(client, alice, password):
    """alice has logged in from HOME; then 30 addresses guess her password."""
    assert log_in(client, HOME, password).status_code == 302
    client.logout()
    for n in range(1, GUESSERS + 1):
        log_in(client, f"203.0.113.{n}", "wrong-guess")
    assert log_in(client, "203.0.113.99", "wrong-guess").status_code != 302
    mail.outbox.clear()
    return client


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def mailed_link(message) -> str:
    found = re.search(r"http://testserver(/accounts/device/\S+/)", message.body)
    assert found, message.body
    return found.group(1)


def test_the_right_password_from_a_new_address_gets_a_link(locked, alice, password):
    r = log_in(locked, NEW, password)
    assert r.status_code == 200
    assert "sent you a link to log in from this device" in r.content.decode()
    assert not logged_in(locked)
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    link = mailed_link(mail.outbox[0])
    # Opening it (a mail scanner may) changes nothing; its button logs in, once.
    page = locked.get(link, REMOTE_ADDR=NEW)
    assert page.status_code == 200 and not logged_in(locked)
    r = locked.post(link, REMOTE_ADDR=NEW)
    assert r.status_code == 302 and locked.session["_auth_user_id"] == str(alice.pk)
    locked.logout()
    again = locked.post(link, REMOTE_ADDR=NEW)
    assert again.status_code == 400 and not logged_in(locked)
    assert "works once" in again.content.decode()
    # The address is one of hers now: her password works there at once.
    assert log_in(locked, NEW, password).status_code == 302


def test_a_wrong_password_gets_the_same_page_and_no_mail(locked, password):
    right, wrong = log_in(locked, NEW, password), log_in(locked, "198.51.100.78", "nope")
    assert wrong.status_code == right.status_code == 200
    shown = re.compile(r'<div class="panel">.*?</div>', re.S)
    assert shown.findall(wrong.content.decode()) == shown.findall(right.content.decode())
    assert len(mail.outbox) == 1


def test_the_usual_address_still_logs_in(locked, password):
    assert log_in(locked, HOME, password).status_code == 302


def test_the_link_expires(locked, password):
    log_in(locked, NEW, password)
    link = mailed_link(mail.outbox[0])
    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        assert locked.post(link, REMOTE_ADDR=NEW).status_code == 400
    assert not logged_in(locked)


def test_a_new_password_ends_the_link(locked, alice, password):
    log_in(locked, NEW, password)
    link = mailed_link(mail.outbox[0])
    alice.set_password("another-secret-88")
    alice.save()
    assert locked.post(link, REMOTE_ADDR=NEW).status_code == 400


def test_the_links_mailed_are_limited_per_account(locked, password, settings):
    allowed = settings.LIMITS["device_link_account"][0]
    for n in range(allowed + 3):
        assert log_in(locked, f"198.51.100.{n + 1}", password).status_code == 200
    assert len(mail.outbox) == allowed


def test_the_mail_speaks_the_players_language(locked, alice, password):
    alice.language = "fi"
    alice.save(update_fields=["language"])
    log_in(locked, NEW, password)
    (message,) = mail.outbox
    assert "log in" not in message.subject.lower() and "Durak" in message.subject
    mailed_link(message)
