"""Resetting a forgotten password by an emailed link; nothing is sent to an unknown address."""

import re

import pytest
from django.core import mail

pytestmark = pytest.mark.django_db
URL = "/accounts/password_reset/"
NEW = "a-fresh-reset-secret-31"


def test_it_emails_a_link_that_resets_the_password(client, alice):
    r = client.post(URL, {"email": "alice@example.org"})
    assert r.status_code == 302
    assert r.url == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.org"]
    assert "Reset your password" in message.subject
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)

    # The emailed link redirects to a token-free URL holding the form.
    r = client.get(link)
    assert r.status_code == 302
    r = client.get(r.url)
    assert 'name="new_password1"' in r.content.decode()
    r = client.post(r.wsgi_request.path, {"new_password1": NEW, "new_password2": NEW})
    assert r.status_code == 302
    assert r.url == "/accounts/reset/done/"
    alice.refresh_from_db()
    assert alice.check_password(NEW)

    # The link is single-use.
    r = client.get(link, follow=True)
    assert "invalid or has already been used" in r.content.decode()


def test_it_sends_nothing_for_an_unknown_address(client, alice):
    r = client.post(URL, {"email": "nobody@example.org"})
    assert r.status_code == 302  # same answer: no way to probe for accounts
    assert mail.outbox == []
