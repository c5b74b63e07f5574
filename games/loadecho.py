"""The load benchmark's baseline (games.loadtest --echo): a socket that sends back what it
receives, by way of the channel layer, on the same Daphne and Redis as the tables.

Routed only when LOADTEST_ECHO=1 (games.routing): a site in use never serves it.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer

MAX_ECHO_BYTES = 256  # a timestamp; anything longer is cut


class EchoConsumer(WebsocketConsumer):
    """A sync consumer like TableConsumer, so that it shares the same thread: the message
    goes out to Redis and back to this socket, then to the client."""

    def connect(self):
        self.accept()

    def receive(self, text_data=None, bytes_data=None):
        text = (text_data or "")[:MAX_ECHO_BYTES]
        async_to_sync(self.channel_layer.send)(self.channel_name,
                                               {"type": "echo.back", "text": text})

    def echo_back(self, event):
        self.send(text_data=event["text"])
