"""The WebSocket paths and what every socket goes through on its way to its consumer.

A table's socket (`/ws/games/<id>/`) and the per-page navigation socket (`/ws/me/`); any
other path is refused. On the way (games/live/middleware.py): the origin check, the
session and user (channels' AuthMiddlewareStack), the reader's language and time zone,
then on each path the socket counts; durak_site/asgi.py serves `websocket_application`.
"""

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from django.urls import path, re_path

from . import nav, table
from .middleware import ReaderMiddleware, SiteOriginValidator, SocketCounts

# channels' stubs take path() of an ASGI application (its documented use) for an HTTP
# view's, and URLRouter's routes for theirs alone: hence the ignores below.
websocket_urlpatterns = [
    path("ws/games/<int:game_id>/",
         SocketCounts(table.TableConsumer.as_asgi(), per_table=True)),  # type: ignore[arg-type]
    path("ws/me/", SocketCounts(nav.NavConsumer.as_asgi())),  # type: ignore[arg-type]  # per address
    re_path(r"", table.RefuseConsumer.as_asgi()),  # type: ignore[arg-type]  # refused
]

websocket_application = SiteOriginValidator(
    AuthMiddlewareStack(ReaderMiddleware(URLRouter(websocket_urlpatterns))))  # type: ignore[arg-type]
