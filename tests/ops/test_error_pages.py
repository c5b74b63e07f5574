"""Players get the site's own 400, 403, 404 and 500 pages, never Django's technical ones."""

import pytest
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.test import Client
from django.urls import include, path
from django.views import defaults

pytestmark = pytest.mark.django_db


def boom(request):
    raise RuntimeError("a bug")


def forbidden(request):
    raise PermissionDenied


urlpatterns = [path("boom/", boom), path("forbidden/", forbidden),
               path("", include("durak_site.urls"))]


def looks_like_the_site(body: str):
    assert '<header class="site-header">' in body and "css/site.css" in body
    assert "Back to the lobby" in body
    assert "URLconf" not in body and "Traceback" not in body and "urlpatterns" not in body


def test_an_unknown_game_gets_the_friendly_404(client, settings):
    settings.DEBUG = False
    r = client.get("/games/987654/")
    assert r.status_code == 404
    body = r.content.decode()
    looks_like_the_site(body)
    assert "This page is not on the table" in body and "games/&lt;int:game_id&gt;" not in body


def test_a_bug_gets_the_friendly_500(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__
    r = Client(raise_request_exception=False).get("/boom/")
    assert r.status_code == 500
    looks_like_the_site(r.content.decode())
    assert "Something went wrong on our side" in r.content.decode()


def test_the_500_page_renders_without_a_request():
    looks_like_the_site(render_to_string("500.html"))


def test_a_refusal_gets_the_friendly_403(client, settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = __name__
    r = client.get("/forbidden/")
    assert r.status_code == 403
    looks_like_the_site(r.content.decode())
    assert "do that here" in r.content.decode()


def test_a_stale_form_gets_the_friendly_csrf_403(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    r = client.post("/games/new/", {})
    assert r.status_code == 403
    looks_like_the_site(r.content.decode())
    assert "The form was too old to send" in r.content.decode()


def test_a_bad_request_gets_the_friendly_400(rf):
    r = defaults.bad_request(rf.get("/"), Exception())
    assert r.status_code == 400
    looks_like_the_site(r.content.decode())
