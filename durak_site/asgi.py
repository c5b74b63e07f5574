"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by Daphne)."""

import os
import sys
from urllib.parse import urlparse

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

# Initialise Django (apps, models) before anything that imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator, WebsocketDenier  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.core.exceptions import SuspiciousOperation  # noqa: E402
from django.http import Http404  # noqa: E402
from django.http.request import split_domain_port, validate_host  # noqa: E402

from durak_site.bodylimit import BodyLimit, install_in_daphne  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402

if "daphne.http_protocol" in sys.modules:
    # Run by Daphne: refuse a body over the limit as it arrives, not once read whole.
    install_in_daphne()


class StaticFiles(ASGIStaticFilesHandler):
    """Django's static file handler, with a path outside the static folders (`..`, an
    absolute path) or one no file can have (a NUL, too long) answered 404, not 500."""

    def serve(self, request):
        try:
            return super().serve(request)
        except (SuspiciousOperation, ValueError, OSError) as exc:
            raise Http404 from exc  # the site's own 404 page


if settings.SERVE_STATIC:
    # Daphne serves /static/ itself unless a proxy in front does (SERVE_STATIC=false).
    django_asgi_app = StaticFiles(django_asgi_app)


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
        # A body over the limit: 413 before the application reads it (other ASGI servers).
        "http": BodyLimit(django_asgi_app),
        # A socket from another origin, or to a game the user may not see, is refused.
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
