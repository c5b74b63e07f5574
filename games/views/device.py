"""What the site gives a device beyond its pages: the service worker (at the root, so that
its scope is the whole site: push notifications, the offline page), the web app manifest
that makes the site installable, the offline page, and a player's push subscriptions
(one per device; games.services.push)."""

from __future__ import annotations

import re
from contextlib import nullcontext

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from .. import services, wire
from ..limits import limited

KEY = re.compile(r"^[A-Za-z0-9_=-]{8,200}\Z")  # base64url, as browsers give the keys
MAX_BODY = 4096  # bytes of a subscription's JSON (an endpoint of 1000 and two keys)
THEME = "#1f5f3f"  # the felt (--felt in static/css/site.css)


@require_GET
@cache_control(no_cache=True)
def service_worker(request):
    """static/js/sw.js, served at /sw.js: a service worker's scope is its path's folder."""
    path = finders.find("js/sw.js")
    if not isinstance(path, str):
        raise Http404
    with open(path, encoding="utf-8") as f:
        response = HttpResponse(f.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


def _in_language(lang: str | None):
    """The words of `lang` (one of the site's, as the URL's pattern checks), else of the
    request's language."""
    return translation.override(lang) if lang else nullcontext()


@require_GET
@cache_control(max_age=3600)
def manifest(request, lang: str | None = None):
    """The web app manifest in a language: name, description, icons, "My games" as the
    start, the theme. The page links to its language's (/manifest.ru.webmanifest): a
    browser fetches a manifest without the site's cookies, so it can't say the language."""
    with _in_language(lang):
        return _manifest(lang or request.LANGUAGE_CODE)


def _manifest(lang: str) -> JsonResponse:
    data = {
        "name": _("Durak"),
        "short_name": _("Durak"),
        "description": _("Podkidnoy Durak against friends or computer players."),
        "lang": lang,
        "start_url": reverse("my_games"),
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "background_color": "#f6f4ef",
        "theme_color": THEME,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json",
                        json_dumps_params={"ensure_ascii": False})


@require_GET
def offline(request, lang: str | None = None):
    """What the service worker shows when a page can't be reached, in the language of the
    page that registered it (static/js/sw.js keeps /offline/<lang>/ in its cache)."""
    with _in_language(lang):
        return render(request, "offline.html")


def _subscription(request) -> dict[str, str]:
    """The browser's PushSubscription.toJSON(), checked for its shape: an endpoint and its
    keys (the endpoint's address is the door's to judge: games.outbound)."""
    data = wire.json_object(request, MAX_BODY)
    endpoint, keys = data.get("endpoint"), data.get("keys")
    if not isinstance(endpoint, str) or not isinstance(keys, dict):
        raise services.BadRequest(_("This is not a push subscription."))
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not (isinstance(p256dh, str) and KEY.match(p256dh)
            and isinstance(auth, str) and KEY.match(auth) and len(auth) <= 100):
        raise services.BadRequest(_("This is not a push subscription."))
    return {"endpoint": endpoint, "p256dh": p256dh, "auth": auth}


@limited("push_subscriptions")
@login_required
@require_POST
def push_subscribe(request):
    """This device notifies the player from now on."""
    try:
        if not services.push.enabled():
            raise services.BadRequest(_("This is not a push subscription."))
        services.push.subscribe(request.user, **_subscription(request))
    except services.GameError as exc:
        return HttpResponseBadRequest(exc.message, content_type="text/plain; charset=utf-8")
    return HttpResponse(status=204)


@limited("push_unsubscriptions")
@login_required
@require_POST
def push_unsubscribe(request):
    """This device no longer notifies the player."""
    try:
        endpoint = wire.json_object(request, MAX_BODY).get("endpoint")
        if not isinstance(endpoint, str) or len(endpoint) > 1000:
            raise services.BadRequest(_("This is not a push subscription."))
    except services.GameError as exc:
        return HttpResponseBadRequest(exc.message, content_type="text/plain; charset=utf-8")
    services.push.unsubscribe(request.user, endpoint)
    return HttpResponse(status=204)
