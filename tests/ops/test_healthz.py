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
