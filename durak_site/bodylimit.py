"""The request body limit, by what the ASGI spec offers (docs/design.md, "Public APIs
only").

`BodyLimit` counts the http.request messages' body bytes and answers 413 at `max_body()`
(MAX_REQUEST_BODY, else Django's limit plus room for a form's other fields): at once for a
Content-Length over it, else once a streamed body passes it, holding at most the limit.
Daphne reads a body whole before the application runs (it has no limit of its own), so
the first wall is nginx's client_max_body_size in the deploy recipe, which refuses a big
body before Daphne reads a byte of it.
"""

from __future__ import annotations

from django.conf import settings

MARGIN = 64 * 1024


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
