"""The WebSocket paths: a table's socket (`/ws/games/<id>/`) and the per-page navigation
socket (`/ws/me/`); any other path is refused."""

from django.urls import path, re_path

from . import nav, table

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", table.TableConsumer.as_asgi()),
    path("ws/me/", nav.NavConsumer.as_asgi()),
    re_path(r"", table.RefuseConsumer.as_asgi()),  # refused
]
