"""Attacks over HTTP on the real stack: a Daphne on PostgreSQL and Redis, each request from
a real socket, its client address the socket's own (127.0.0.0/8 is all loopback on Linux:
each guesser binds its own 127.0.0.x).

- A flood of tables made, and JSON nested 10,000 deep: refused past the named limit, a
  400 and no 500 (docs/design.md, "Limits by default"; games/wire.py).
- The owner locked out: after guesses from 30 addresses, the right password from a new
  address gets the one-time link by mail, not a 429 (docs/design.md, "Never lock the owner
  out"); the mail is printed by the console backend into Daphne's log.
"""

from __future__ import annotations

import quopri
import re
from collections import Counter
from urllib.parse import urlencode

import pytest
from django.conf import settings

from games.models import Game

from .conftest import PASSWORD
from .procs import LOOPBACK
from .test_daphne import request, session_cookie

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

GUESSERS = [f"127.0.0.{n}" for n in range(2, 32)]  # thirty addresses
NEW = "127.0.0.77"  # the owner's new phone
HOME = "127.0.0.1"  # where the owner logged in before
LINK = re.compile(r"http://[^/\s]+(/accounts/device/[^/\s]+/)")


def call(port: int, method: str, path: str, cookies: dict, *, source: str = LOOPBACK,
         form: dict | None = None, body: str | None = None,
         headers: dict | None = None) -> tuple[int, str]:
    """One request from `source`; cookies set are kept in `cookies`. A form or body is
    sent with the CSRF cookie's token and the page's origin, as a browser sends it."""
    sent = dict(headers or {})
    if form is not None:
        body = urlencode({**form, "csrfmiddlewaretoken": cookies.get("csrftoken", "")})
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    if method == "POST":
        sent.setdefault("X-CSRFToken", cookies.get("csrftoken", ""))
        sent["Origin"] = f"http://{LOOPBACK}:{port}"
    return request(port, method, path, cookies, body=body, headers=sent, source=source)


def test_a_flood_of_tables_is_stopped_at_its_limit_and_deep_json_is_a_400(procs, alice,
                                                                          classic):
    daphne, port = procs.daphne()
    cookies = session_cookie(alice)
    assert call(port, "GET", "/", cookies)[0] == 200 and "csrftoken" in cookies
    table = {"preset": classic.pk, "players": 2, "bots": 1, "bot_level": "easy",
             "match_kind": "deals", "count": 1, "move_time": 300}
    answers = Counter(call(port, "POST", "/games/new/", cookies, form={**table, "once": f"t{n}"})[0]
                      for n in range(40))
    allowed = settings.LIMITS["games_made"][0]
    print(f"40 tables asked for through Daphne: {dict(answers)}")
    assert answers == {302: allowed, 429: 40 - allowed}
    assert Game.objects.filter(created_by=alice).count() == allowed

    deep = "[" * 10_000 + "]" * 10_000
    for path in ("/push/subscribe/", "/push/unsubscribe/"):
        status, _text = call(port, "POST", path, cookies, body=deep,
                             headers={"Content-Type": "application/json"})
        assert status in (400, 429), (path, status)
    assert "Traceback" not in daphne.log(), daphne.tail()


def test_the_owner_gets_a_link_not_a_429_after_guesses_from_thirty_addresses(procs, alice,
                                                                            settings):
    # Her password hashed as the site hashes it (the tests' own hasher is not the site's).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]
    alice.set_password(PASSWORD)
    alice.save()
    daphne, port = procs.daphne()

    def log_in(address: str, password: str) -> tuple[int, str, dict]:
        cookies: dict = {}
        assert call(port, "GET", "/accounts/login/", cookies, source=address)[0] == 200
        status, text = call(port, "POST", "/accounts/login/", cookies, source=address,
                            form={"username": "alice", "password": password})
        return status, text, cookies

    assert log_in(HOME, PASSWORD)[0] == 302  # her usual address
    guesses = Counter(log_in(address, "wrong-guess")[0] for address in GUESSERS)
    print(f"wrong guesses from {len(GUESSERS)} addresses: {dict(guesses)}")
    assert guesses[302] == 0

    status, text, cookies = log_in(NEW, PASSWORD)
    assert status == 200, (status, text[:300])
    assert "sent you a link to log in from this device" in text
    printed = quopri.decodestring(daphne.log().encode()).decode(errors="replace")  # the mail
    found = LINK.search(printed)
    assert found, daphne.tail()
    link = found.group(1)
    assert call(port, "GET", link, cookies, source=NEW)[0] == 200
    status, _text = call(port, "POST", link, cookies, source=NEW)
    assert status == 302 and "sessionid" in cookies
    assert call(port, "GET", "/games/mine/", cookies, source=NEW)[0] == 200  # logged in
    again: dict = {}
    assert call(port, "GET", link, again, source=NEW)[0] == 400  # it works once
    assert call(port, "GET", "/accounts/login/", again, source=NEW)[0] == 200
    assert call(port, "POST", link, again, source=NEW)[0] == 400
    assert log_in(HOME, PASSWORD)[0] == 302  # and home still works
