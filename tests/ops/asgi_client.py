"""Call the site's ASGI application as Daphne does: the scope's path is the request
line's path percent-decoded once, `client` is the peer's address (or, with
--proxy-headers, X-Forwarded-For's)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote

from asgiref.testing import ApplicationCommunicator


@dataclass
class Answer:
    status: int
    headers: dict[bytes, bytes]
    body: bytes
    read: int  # bytes of the request body the application asked for (chunks received)

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


async def call(app, raw_path: str, *, method: str = "GET", client=("127.0.0.1", 50000),
               headers: list[tuple[bytes, bytes]] | None = None, body_chunks=(b"",),
               timeout: float = 30) -> Answer:
    path, _, query = raw_path.partition("?")
    scope = {
        "type": "http", "http_version": "1.1", "method": method, "scheme": "http",
        "path": unquote(path), "raw_path": path.encode(), "root_path": "",
        "query_string": query.encode(), "client": list(client), "server": ["127.0.0.1", 80],
        "headers": [(b"host", b"127.0.0.1"), *(headers or [])],
    }
    chunks = list(body_chunks)
    comm = ApplicationCommunicator(app, scope)
    for i, chunk in enumerate(chunks):
        await comm.send_input({"type": "http.request", "body": chunk,
                               "more_body": i < len(chunks) - 1})
    start = await comm.receive_output(timeout)
    assert start["type"] == "http.response.start", start
    body = b""
    while True:
        message = await comm.receive_output(timeout)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    # What is still queued was never read by the application.
    unread = comm.input_queue.qsize()
    await comm.wait(timeout)
    return Answer(start["status"], dict(start.get("headers", [])), body, len(chunks) - unread)
