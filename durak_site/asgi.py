"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by Daphne)."""

import os
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlparse

from asgiref.sync import ThreadSensitiveContext
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")


class KeptRequestThreads:
    """Django's ASGI handler, each request's sync code (middleware, view) on a thread of
    its own, as Django runs it, but on a thread kept for later requests (issue 15).

    Django starts a thread per request (asgiref's ThreadSensitiveContext) and another to
    join it, and a thread's first query opens a new database connection: together about
    a twentieth of Daphne's time under load. Up to KEEP idle threads wait here, each
    with its connection (CONN_MAX_AGE); a request that did not end normally (the client
    went away mid-view) leaves its thread to finish alone.
    """

    KEEP = 4

    def __init__(self, handler):
        self.handler = handler
        self.idle: list[ThreadPoolExecutor] = []  # touched only on the event loop

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.handler(scope, receive, send)
        executor = self.idle.pop() if self.idle else ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="request")
        ended = False
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handler.handle(scope, receive, send)
            ended = True
        finally:
            if ended and len(self.idle) < self.KEEP:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)


# Initialise Django (apps, models) before anything that imports models.
django_asgi_app = KeptRequestThreads(get_asgi_application())

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator, WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.http.request import split_domain_port, validate_host  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

if settings.SERVE_STATIC:
    # Daphne serves /static/ itself unless a proxy in front does (SERVE_STATIC=false).
    django_asgi_app = ASGIStaticFilesHandler(django_asgi_app)



class SiteOriginValidator(OriginValidator):
    """Only pages of this site may open a socket: the Origin must match, scheme, host and
    port, SITE_URL, a CSRF_TRUSTED_ORIGINS entry, or the socket's own Host (an allowed
    host) with the site's scheme (https when SITE_URL is https)."""

    def __init__(self, application):
        super().__init__(application, [])

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        allowed = [settings.SITE_URL, *settings.CSRF_TRUSTED_ORIGINS]
        if host and validate_host(split_domain_port(host)[0], settings.ALLOWED_HOSTS):
            allowed.append(("https://" if settings.HTTPS else "http://") + host)
        origin = urlparse(headers.get(b"origin", b"").decode("latin-1"))
        # Every entry carries its scheme: never a bare host matching any scheme or port.
        if any(self.match_allowed_origin(origin, p) for p in allowed if "://" in p):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # A socket from another origin, or to a game the user may not see, is refused.
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
