"""The account limits that matter (sign-ups, password resets, log-in lockouts) are kept in
PostgreSQL: emptying Redis forgets none of them, and many processes count each use once."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounts import ratelimit

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
SECRET = "a-long-unusual-secret-42"


def sign_up(client, n, addr="203.0.113.7"):
    data = {"username": f"player{n}", "password1": SECRET, "password2": SECRET}
    r = client.post("/accounts/signup/", data, REMOTE_ADDR=addr)
    client.logout()
    return r


def test_limits_and_lockouts_survive_emptying_redis(real_services, client):
    for n in range(5):
        assert sign_up(client, n).status_code == 302
    assert sign_up(client, 5).status_code == 429
    for _ in range(5):
        r = client.post("/accounts/login/", {"username": "player0", "password": "wrong"},
                        REMOTE_ADDR="198.51.100.4")
    assert r.status_code == 429

    real_services.flushdb()  # its database: a browser tier beside it keeps its own

    assert sign_up(client, 5).status_code == 429
    assert not get_user_model().objects.filter(username="player5").exists()
    r = client.post("/accounts/login/", {"username": "player0", "password": SECRET},
                    REMOTE_ADDR="198.51.100.4")
    assert r.status_code == 429


def test_uses_at_the_same_moment_are_each_counted_once(real_services):
    allowed, start = [], threading.Barrier(12)

    def use():
        try:
            start.wait()
            allowed.append(ratelimit.hit("signup_ip", "192.0.2.1"))
        finally:
            connection.close()

    threads = [threading.Thread(target=use) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(allowed) == [False] * 7 + [True] * 5
    assert ratelimit.exhausted("signup_ip", "192.0.2.1")
