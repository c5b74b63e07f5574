"""Changing the email address: the password first, then a signed link to the new address."""

import re
import time
from unittest import mock

import pytest
from django.core import mail, signing

pytestmark = pytest.mark.django_db
URL = "/accounts/email/"
PROFILE = "/accounts/profile/"
NEW = "alice.new@example.org"


def confirmation_link(message):
    return re.search(r"http://testserver(/accounts/email/confirm/\S+/)", message.body).group(1)


def ask(client, password, email=NEW):
    return client.post(URL, {"email": email, "password": password})


def test_it_requires_login(client):
    r = client.get(URL)
    assert r.status_code == 302
    assert r.url.startswith("/accounts/login/")


def test_it_shows_the_form_and_the_profile_links_to_it(alice_client):
    body = alice_client.get(URL).content.decode()
    assert 'name="password"' in body and 'name="email"' in body
    assert "alice@example.org" in body
    profile = alice_client.get(PROFILE).content.decode()
    assert f'href="{URL}"' in profile
    assert 'name="email"' not in profile


def test_the_profile_no_longer_changes_the_address(alice_client, alice):
    r = alice_client.post(PROFILE, {"display_name": "", "email": "evil@example.org"})
    assert r.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
    assert mail.outbox == []


@pytest.mark.parametrize("password", ["", "wrong-password-entirely"])
def test_it_refuses_without_the_right_password(alice_client, alice, password):
    r = ask(alice_client, password)
    assert r.status_code == 200
    body = r.content.decode()
    assert "That is not your current password." in body or "This field is required." in body
    assert mail.outbox == []
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"


def test_it_mails_the_new_address_and_changes_only_when_the_link_is_opened(
        alice_client, alice, password):
    r = ask(alice_client, password)
    assert r.status_code == 302
    assert r.url == PROFILE
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [NEW]
    assert "Confirm your new email address" in message.subject
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"  # not yet
    assert f"We sent a link to {NEW}." in alice_client.get(PROFILE).content.decode()

    link = confirmation_link(message)
    r = alice_client.get(link)  # opening the page changes nothing by itself
    assert r.status_code == 200
    assert "Yes, use this address" in r.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"

    r = alice_client.post(link)
    assert r.status_code == 302
    assert r.url == PROFILE
    alice.refresh_from_db()
    assert alice.email == NEW
    assert f"Your email address is now {NEW}." in alice_client.get(PROFILE).content.decode()

    # The link is spent: it names the old address.
    r = alice_client.post(link)
    assert r.status_code == 400
    assert "already been used" in r.content.decode()


def test_the_link_works_for_whoever_holds_it(client, alice, password):
    client.force_login(alice)
    ask(client, password)
    link = confirmation_link(mail.outbox[0])
    client.logout()
    r = client.post(link)
    assert r.status_code == 302
    assert r.url == "/accounts/login/"
    alice.refresh_from_db()
    assert alice.email == NEW


@pytest.mark.parametrize("tamper", [
    lambda link: link.replace("/confirm/", "/confirm/x"),
    lambda link: link[:-3] + ("A" if link[-3] != "A" else "B") + link[-2:],
    lambda link: link.rstrip("/").rsplit(":", 1)[0] + ":forged/",
    lambda link: "/accounts/email/confirm/nonsense/",
])
def test_a_tampered_link_changes_nothing(alice_client, alice, password, tamper):
    ask(alice_client, password)
    link = tamper(confirmation_link(mail.outbox[0]))
    for method in (alice_client.get, alice_client.post):
        r = method(link)
        assert r.status_code == 400
        assert "This link is not valid." in r.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"


def test_a_link_for_another_address_cannot_be_forged(alice_client, alice, bob):
    token = signing.dumps({"player": alice.pk, "old": alice.email, "new": "evil@example.org"},
                          salt="some-other-purpose")
    r = alice_client.post(f"/accounts/email/confirm/{token}/")
    assert r.status_code == 400
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"


def link_asked_for(client, password, days_ago):
    then = time.time() - days_ago * 24 * 3600
    with mock.patch("django.core.signing.time.time", return_value=then):
        ask(client, password)
    return confirmation_link(mail.outbox[0])


def test_an_expired_link_changes_nothing(alice_client, alice, password):
    r = alice_client.post(link_asked_for(alice_client, password, days_ago=4))
    assert r.status_code == 400
    assert "This link has expired." in r.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"


def test_a_link_two_days_old_still_works(alice_client, alice, password):
    r = alice_client.post(link_asked_for(alice_client, password, days_ago=2))
    assert r.status_code == 302
    alice.refresh_from_db()
    assert alice.email == NEW


def test_confirmation_mails_are_limited(alice_client, alice, password):
    statuses = [ask(alice_client, password, f"a{n}@example.org").status_code for n in range(5)]
    assert statuses == [302, 302, 302, 429, 429]
    assert len(mail.outbox) == 3


def test_a_link_is_good_for_one_use_even_after_the_address_comes_back(
        alice_client, alice, password):
    ask(alice_client, password, email="alice2@example.org")
    first = confirmation_link(mail.outbox[-1])  # alice -> alice2
    assert alice_client.post(first).status_code == 302
    ask(alice_client, password, email="alice@example.org")
    second = confirmation_link(mail.outbox[-1])  # and back
    assert alice_client.post(second).status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"

    for method in (alice_client.get, alice_client.post):
        r = method(first)  # names the address as it is again, but it has been used
        assert r.status_code == 400
        assert "already been used" in r.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"


def test_a_later_confirmation_voids_an_earlier_link(alice_client, alice, password):
    ask(alice_client, password, email="alice2@example.org")
    first = confirmation_link(mail.outbox[-1])
    ask(alice_client, password, email="alice3@example.org")
    assert alice_client.post(confirmation_link(mail.outbox[-1])).status_code == 302
    alice.refresh_from_db()
    alice.email = "alice@example.org"  # set back by other means (the admin, say)
    alice.save()
    r = alice_client.post(first)
    assert r.status_code == 400 and "already been used" in r.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.org"
