"""The load benchmark's baseline (bench.loadtest --echo): a socket that sends back what it
receives, by way of the channel layer, on the site's Redis.

An ASGI application of its own, `bench.loadecho:application`: the benchmark starts it in
a Daphne of its own (`serve`), so the site's routing never carries it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import django
from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer

ROOT = Path(__file__).resolve().parents[1]
MAX_ECHO_BYTES = 256  # a timestamp; anything longer is cut
ECHO_PATH = "ws/loadtest/echo/"


class EchoConsumer(WebsocketConsumer):
    """A sync consumer like the table's, so that it works the same way: the message goes
    out to Redis and back to this socket, then to the client."""

    def connect(self):
        self.accept()

    def receive(self, text_data=None, bytes_data=None):
        text = (text_data or "")[:MAX_ECHO_BYTES]
        async_to_sync(self.channel_layer.send)(self.channel_name,
                                               {"type": "echo.back", "text": text})

    def echo_back(self, event):
        self.send(text_data=event["text"])


def make_application():
    """The echo socket alone: the site's settings (its channel layer), no HTTP."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
    from django.apps import apps

    if not apps.ready:
        django.setup()
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    # channels' stubs take path() of a consumer for an HTTP view (its documented use).
    return ProtocolTypeRouter({"websocket": URLRouter([
        path(ECHO_PATH, EchoConsumer.as_asgi())])})  # type: ignore[arg-type, list-item]


def free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def serve(host: str = "127.0.0.1", port: int = 0, timeout: float = 60.0
          ) -> tuple[subprocess.Popen, str]:
    """Start Daphne with this application (the environment as it is: REDIS_URL, the
    secret key); (the process, its URL) once it listens."""
    port = port or free_port(host)
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-v", "0", "-b", host, "-p", str(port),
         "bench.loadecho:application"], cwd=ROOT, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the echo server stopped (exit {proc.returncode})")
        try:
            with socket.create_connection((host, port), timeout=1):
                return proc, f"http://{host}:{port}"
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the echo server did not listen on {host}:{port} in {timeout:.0f} s")


def __getattr__(name: str):
    # Built on first use (Daphne's import of `application`), so that importing the
    # consumer or `serve` sets nothing up.
    if name == "application":
        app = make_application()
        globals()["application"] = app
        return app
    raise AttributeError(name)
