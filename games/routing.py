"""The WebSocket paths: a table's socket (`/ws/games/<id>/`), the per-page navigation
socket (`/ws/me/`), the load benchmark's echo when switched on; any other path is refused."""

from django.conf import settings
from django.urls import path, re_path

from . import consumers, navigation

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/me/", navigation.NavConsumer.as_asgi()),
]
if settings.LOADTEST_ECHO:  # the load benchmark's baseline only
    from .loadecho import EchoConsumer

    websocket_urlpatterns.append(path("ws/loadtest/echo/", EchoConsumer.as_asgi()))
websocket_urlpatterns.append(re_path(r"", consumers.RefuseConsumer.as_asgi()))  # refused
