"""ASGI entry point: HTTP through Django, WebSockets through Channels (served by Daphne)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

# Initialise Django (apps, models) before anything that imports models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

if settings.SERVE_STATIC:
    # Daphne serves /static/ itself unless a proxy in front does (SERVE_STATIC=false).
    django_asgi_app = ASGIStaticFilesHandler(django_asgi_app)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # WebSocket routing goes here once games/routing.py exists:
        # "websocket": AllowedHostsOriginValidator(
        #     AuthMiddlewareStack(URLRouter(games.routing.websocket_urlpatterns))
        # ),
    }
)
