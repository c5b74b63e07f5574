"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by Daphne;
the sockets' way in, its origin check and per-connection middleware: games/live/routing.py)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

# Initialise Django (apps, models) before anything that imports models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402
from django.core.exceptions import SuspiciousOperation  # noqa: E402
from django.http import Http404  # noqa: E402

from durak_site.bodylimit import BodyLimit  # noqa: E402
from games.live.routing import websocket_application  # noqa: E402


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


application = ProtocolTypeRouter(
    {
        # A body over the limit: 413 before the application reads it (nginx refuses first).
        "http": BodyLimit(django_asgi_app),
        # A socket from another origin, or to a game the user may not see, is refused.
        "websocket": websocket_application,
    }
)
