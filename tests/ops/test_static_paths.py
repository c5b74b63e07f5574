"""Daphne serves /static/ (Django's ASGIStaticFilesHandler): a path that leads outside the
static folders, or one no file system can hold, is a 404 (the site's page), never a 500
and never the file. Asked through the whole ASGI application, as Daphne asks it."""

import pytest

from durak_site.asgi import application

from .asgi_client import call

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

OUTSIDE = [
    "/static/..%2f..%2fdurak_site/settings.py",
    "/static/%2e%2e/%2e%2e/durak_site/settings.py",
    "/static/%2e%2e%2f%2e%2e%2fdurak_site%2fsettings.py",
    "/static/%252e%252e/%252e%252e/durak_site/settings.py",
    "/static/%252e%252e%252f%252e%252e%252fdurak_site%252fsettings.py",
    "/static/../../durak_site/settings.py",
    "/static/css/..%2f..%2f..%2fdurak_site/settings.py",
    "/static/..%5c..%5cdurak_site%5csettings.py",
    "/static/%2fetc%2fpasswd",
    "/static//etc/passwd",
    "/static/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc/passwd",
    "/static/%00",
    "/static/css%00/site.css",
    "/static/" + "a" * 5000,
]


@pytest.mark.parametrize("path", OUTSIDE)
async def test_a_path_outside_the_static_folders_is_a_404(settings, path):
    settings.DEBUG = False
    answer = await call(application, path)
    assert answer.status == 404, (answer.status, answer.text[:500])
    assert "SECRET_KEY" not in answer.text and "root:" not in answer.text
    assert "This page is not on the table" in answer.text  # the site's own 404 page


async def test_a_real_static_file_is_still_served(settings):
    settings.DEBUG = False
    answer = await call(application, "/static/css/site.css")
    assert answer.status == 200 and b"{" in answer.body
