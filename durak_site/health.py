"""/healthz (django-health-check): the database, the cache and, with REDIS_URL, Redis.

200 when every check passes; 503 (the library says 500) when one fails, so that a load
balancer or a monitor reads "unavailable", not "the site has a bug". Ask for JSON with
`Accept: application/json` or `?format=json`. Only this machine (a loopback client
address) reads which check failed; anyone else gets a plain "ok" or "failing". Behind
nginx, Daphne's --proxy-headers makes the address the client's, not nginx's.
"""

import ipaddress

from django.conf import settings
from django.http import HttpResponse
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


def from_this_machine(request) -> bool:
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR") or "")
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_loopback


class HealthView(HealthCheckView):
    def get_checks(self):
        self.checks = site_checks()
        return super().get_checks()

    async def get(self, request, *args, **kwargs):
        response = await super().get(request, *args, **kwargs)
        if not from_this_machine(request):  # no names, hosts or ports for others
            failing = any(result.error for result in self.results)
            return HttpResponse("failing\n" if failing else "ok\n", status=503 if failing else 200,
                                content_type="text/plain; charset=utf-8")
        if response.status_code == 500:  # a check failed: the service is unavailable
            response.status_code = 503
        return response
