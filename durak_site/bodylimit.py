"""The request body limit, before a body is read whole.

Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE only after the server has read it,
and Daphne reads every body whole (Twisted spools it to a file, then Daphne queues all of
it for the application in memory) before the application even starts. So the limit is
kept twice, both with 413 and both at `max_body()` (MAX_REQUEST_BODY, else Django's limit
plus room for a form's other fields):

- in Daphne, as the body arrives (`install_in_daphne`, done by durak_site.asgi when Daphne
  runs it): a Content-Length over the limit is answered at once, before any of the body
  is read; a chunked body is dropped once it passes the limit. The rest of what the
  client sends is read and thrown away for a moment, so that it sees the answer, and the
  connection is closed.
- around the application (`BodyLimit`), for any other ASGI server: the same two checks,
  holding at most the limit in memory.
"""

from __future__ import annotations

from django.conf import settings

MARGIN = 64 * 1024
LINGER = 2.0  # seconds a refused client may go on sending (thrown away) before the close
REFUSAL = (b"HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\n"
           b"Connection: close\r\n\r\n")


def max_body() -> int | None:
    """The most bytes a request body may have; None: no limit."""
    explicit = getattr(settings, "MAX_REQUEST_BODY", None)
    if explicit is not None:
        return int(explicit)
    if settings.DATA_UPLOAD_MAX_MEMORY_SIZE is None:
        return None
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE + MARGIN


def declared_length(headers) -> int | None:
    for name, value in headers:
        if name.lower() == b"content-length":
            return int(value) if value.strip().isdigit() else None
    return None


async def refuse(send) -> None:
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-length", b"0"), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": b""})


class BodyLimit:
    """ASGI middleware: 413 for a body over the limit, by its Content-Length before
    reading any of it, or once a streamed body passes the limit; the application gets
    the body (at most the limit) as one message."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        limit = max_body()
        if scope["type"] != "http" or limit is None:
            return await self.application(scope, receive, send)
        length = declared_length(scope.get("headers") or [])
        if length is not None and length > limit:
            return await refuse(send)
        body, more = [], True
        size = 0
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return None
            size += len(message.get("body", b""))
            if size > limit:
                return await refuse(send)
            body.append(message.get("body", b""))
            more = message.get("more_body", False)
        replay = [{"type": "http.request", "body": b"".join(body), "more_body": False}]

        async def replayed():
            return replay.pop() if replay else await receive()

        return await self.application(scope, replayed, send)


def install_in_daphne() -> None:
    """Make Daphne's HTTP requests keep the limit as their body arrives (Daphne builds
    each request from daphne.http_protocol.WebRequest when a connection comes)."""
    from daphne import http_protocol
    from twisted.internet import reactor

    if getattr(http_protocol.WebRequest, "keeps_body_limit", False):
        return

    class LimitedWebRequest(http_protocol.WebRequest):
        keeps_body_limit = True
        _refused = False
        _received = 0

        def gotLength(self, length):
            self._limit = max_body()
            if length is not None and self._limit is not None and length > self._limit:
                self.content = _Discard()
                self._refuse()
                return
            super().gotLength(length)

        def handleContentChunk(self, data):
            if self._refused:
                return
            self._received += len(data)
            if self._limit is not None and self._received > self._limit:
                self.content.close()
                self.content = _Discard()
                self._refuse()
                return
            super().handleContentChunk(data)

        def process(self):
            if not self._refused:
                return super().process()
            return None

        def _refuse(self):
            self._refused = True
            # No "100 Continue" after the answer (Twisted sends it after gotLength).
            self.requestHeaders.removeHeader(b"expect")
            channel = self.channel
            transport = channel.transport
            transport.write(REFUSAL)
            # From now on the connection's bytes are thrown away, unparsed; after a short
            # while (or once the client closes) the connection ends.
            channel.dataReceived = _drop
            channel.rawDataReceived = _drop
            channel.persistent = False
            if hasattr(transport, "loseWriteConnection"):
                transport.loseWriteConnection()
            # Twisted's interfaces declare methods without self, which mypy reads as self.
            reactor.callLater(LINGER, _close, transport)  # type: ignore[arg-type]
            http_protocol.logger.info("HTTP 413: a body over %s bytes from %s", self._limit,
                                      getattr(transport.getPeer(), "host", "?"))

    http_protocol.WebRequest = LimitedWebRequest


class _Discard:
    closed = False

    def write(self, data):
        return None

    def read(self, size=-1):
        return b""

    def seek(self, *args):
        return 0

    def close(self):
        self.closed = True


def _drop(data):
    return None


def _close(transport):
    if getattr(transport, "connected", False):
        transport.abortConnection()
