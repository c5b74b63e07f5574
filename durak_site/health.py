"""/healthz (django-health-check): the database, the cache and, with REDIS_URL, Redis.

200 when every check passes; 503 (the library says 500) when one fails, so that a load
balancer or a monitor reads "unavailable", not "the site has a bug". Ask for JSON with
`Accept: application/json` or `?format=json`.
"""

from django.conf import settings
from health_check.checks import Cache, Database
from health_check.contrib.redis import Redis
from health_check.views import HealthCheckView
from redis.asyncio import Redis as RedisClient


def redis_client() -> RedisClient:
    # Short timeouts: a dead Redis must make /healthz answer 503 at once, not hang.
    return RedisClient.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)


def site_checks() -> list:
    checks: list = [Database, Cache]
    if settings.REDIS_URL:  # the channel layer and the Celery broker
        checks.append((Redis, {"client_factory": redis_client}))
    return checks


class HealthView(HealthCheckView):
    def get_checks(self):
        self.checks = site_checks()
        return super().get_checks()

    async def get(self, request, *args, **kwargs):
        response = await super().get(request, *args, **kwargs)
        if response.status_code == 500:  # a check failed: the service is unavailable
            response.status_code = 503
        return response
