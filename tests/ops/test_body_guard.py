"""The body limit before a body is read: through the site's ASGI application, a
Content-Length over the limit is a 413 before any of the body is asked for, and a
streamed body (no Content-Length) is a 413 once it passes the limit, the rest unread.
(Daphne itself, which reads bodies before the application runs: test_body_guard_daphne.py.)"""

import pytest

from durak_site.asgi import application
from durak_site.bodylimit import max_body

from .asgi_client import call

pytestmark = pytest.mark.django_db(transaction=True)

CHUNK = 256 * 1024
FORM = [(b"content-type", b"application/x-www-form-urlencoded")]


def test_the_limit_is_djangos_with_room_for_the_other_fields(settings):
    assert max_body() == settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 64 * 1024
    settings.MAX_REQUEST_BODY = 5000
    assert max_body() == 5000


@pytest.mark.asyncio
async def test_a_content_length_over_the_limit_is_refused_before_reading():
    answer = await call(application, "/accounts/login/", method="POST",
                        headers=[*FORM, (b"content-length", str(300 * 1024 * 1024).encode())],
                        body_chunks=[b"x" * CHUNK] * 3)
    assert answer.status == 413
    assert answer.read == 0, f"{answer.read} chunks read"


@pytest.mark.asyncio
async def test_a_streamed_body_is_refused_once_it_passes_the_limit():
    chunks = [b"x" * CHUNK] * 40  # 10 MiB, no Content-Length
    answer = await call(application, "/accounts/login/", method="POST", headers=FORM,
                        body_chunks=chunks)
    assert answer.status == 413
    assert answer.read <= max_body() // CHUNK + 1, f"{answer.read} chunks read"
    assert answer.read < len(chunks)


@pytest.mark.asyncio
async def test_a_body_under_the_limit_reaches_the_site():
    # Django's own limit (400) still answers a body between the two.
    over_django = b"pad=" + b"x" * (1024 * 1024)
    answer = await call(application, "/accounts/login/", method="POST", headers=[
        *FORM, (b"content-length", str(len(over_django)).encode())],
        body_chunks=[over_django[:CHUNK], over_django[CHUNK:]])
    assert answer.status == 400
    small = b"username=nobody&password=x"
    answer = await call(application, "/accounts/login/", method="POST", headers=[
        *FORM, (b"content-length", str(len(small)).encode())], body_chunks=[small])
    assert answer.status == 403  # no CSRF token: Django read the form and refused it
