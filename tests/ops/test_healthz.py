"""/healthz: 200 while the database and the cache answer, 503 when one does not.
(Killing and restarting a real Redis behind nginx: tests/deploy/test_recipe.py.)"""

import dataclasses

import pytest
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable

from durak_site import health


@dataclasses.dataclass
class Broken(HealthCheck):
    async def run(self):
        raise ServiceUnavailable("gone")


@pytest.mark.django_db
def test_healthz_answers_200_with_every_check_in_json(client):
    response = client.get("/healthz", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response.json() == {"Database(alias='default')": "OK", "Cache(alias='default')": "OK"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_answers_503_when_a_check_fails(client, monkeypatch):
    monkeypatch.setattr(health, "site_checks", lambda: [health.Database, Broken])
    response = client.get("/healthz?format=json")
    assert response.status_code == 503
    assert response.json()["Broken()"] == "Unavailable: gone"
    assert client.get("/healthz").status_code == 503  # the HTML page too


def test_with_redis_the_checks_include_redis(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    checks = health.site_checks()
    assert checks[:2] == [health.Database, health.Cache]
    assert checks[2][0] is health.Redis


# ------------------------------------------------------------- who may read the details
REMOTE = ["203.0.113.5", "10.0.0.7", "2001:db8::1", "::ffff:203.0.113.5", "", "unknown"]


@pytest.mark.django_db
@pytest.mark.parametrize("address", REMOTE)
@pytest.mark.parametrize("ask", [{}, {"HTTP_ACCEPT": "application/json"}, {"format": "json"}])
def test_to_others_than_this_machine_healthz_says_only_ok(client, settings, address, ask):
    settings.REDIS_URL = ""
    query = {"format": ask["format"]} if "format" in ask else {}
    headers = {k: v for k, v in ask.items() if k != "format"}
    response = client.get("/healthz", query, REMOTE_ADDR=address, **headers)
    assert response.status_code == 200
    assert response.content.decode().strip() == "ok"
    assert response["Content-Type"].startswith("text/plain")
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
@pytest.mark.parametrize("address", REMOTE)
def test_to_others_a_failing_check_is_only_failing(client, settings, monkeypatch, address):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/healthz?format=json", REMOTE_ADDR=address)
    assert response.status_code == 503
    body = response.content.decode()
    assert body.strip() == "failing"
    assert "127.0.0.1" not in body and ":1" not in body and "Redis" not in body


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])
def test_this_machine_reads_which_check_failed(client, monkeypatch, address):
    monkeypatch.setattr(health, "site_checks", lambda: [health.Database, Broken])
    response = client.get("/healthz?format=json", REMOTE_ADDR=address)
    assert response.status_code == 503
    assert response.json()["Broken()"] == "Unavailable: gone"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_through_the_asgi_application_a_proxied_client_is_not_this_machine(settings):
    """Behind nginx, Daphne with --proxy-headers puts the client's address in the scope:
    that client gets no details, though nginx itself is on this machine."""
    from durak_site.asgi import application

    from .asgi_client import call

    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    remote = await call(application, "/healthz?format=json", client=("198.51.100.9", 4000),
                        headers=[(b"accept", b"application/json")])
    assert (remote.status, remote.text.strip()) == (503, "failing")
    local = await call(application, "/healthz?format=json", client=("127.0.0.1", 4000))
    assert local.status == 503 and "Redis" in local.text
