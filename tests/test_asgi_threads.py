"""durak_site.asgi.KeptRequestThreads (issue 15): each request runs its sync code on a
thread of its own, kept for later requests rather than started anew each time."""

import asyncio
import threading

import pytest
from django.http import HttpResponse
from django.urls import path

from durak_site.asgi import KeptRequestThreads

pytestmark = pytest.mark.asyncio

seen = []
together = threading.Barrier(3, timeout=5)


def where(request):
    seen.append(threading.get_ident())
    if request.GET.get("together"):
        together.wait()  # three requests in their views at once, or a BrokenBarrierError
    if request.GET.get("fail"):
        raise RuntimeError("a view that fails")
    return HttpResponse("ok")


def failed(request):
    return HttpResponse("failed", status=500)


urlpatterns = [path("where/", where)]
handler500 = failed


async def call(app, query=""):
    sent, asked = [], []

    async def receive():
        if not asked:
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays until the answer

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/where/", "query_string": query.encode(),
             "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 1),
             "server": ("testserver", 80), "scheme": "http", "asgi": {"version": "3.0"}}
    await app(scope, receive, send)
    return next(m["status"] for m in sent if m["type"] == "http.response.start")


@pytest.fixture
def app(settings):
    from django.core.asgi import get_asgi_application

    settings.ROOT_URLCONF = __name__
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    seen.clear()
    return KeptRequestThreads(get_asgi_application())


async def test_requests_one_after_another_share_a_kept_thread(app):
    assert await call(app) == 200
    assert await call(app) == 200
    assert len(seen) == 2 and seen[0] == seen[1]
    assert seen[0] != threading.get_ident()  # not the event loop's thread
    assert len(app.idle) == 1


async def test_requests_at_once_each_get_a_thread(app):
    together.reset()
    statuses = await asyncio.gather(*(call(app, "together=1") for _ in range(3)))
    assert statuses == [200, 200, 200]  # none waited for another's thread
    assert len(set(seen)) == 3
    assert len(app.idle) == 3


async def test_a_failing_view_still_answers_and_threads_stay_bounded(app):
    for _ in range(app.KEEP + 3):
        assert await call(app, "fail=1") == 500
    assert await call(app) == 200
    assert len(app.idle) <= app.KEEP
