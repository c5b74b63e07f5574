"""The language a logged-in player saved on their profile wins over the browser's; when a
player was last on the site; times are shown in the player's own time zone."""

import zoneinfo
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from games.kept import memo

from . import guests
from .zones import canonical

SEEN_EVERY = timedelta(minutes=1)  # at most one write per player per minute
TIME_ZONE_COOKIE = "tz"  # set by static/js/clock.js from the browser (Intl)
SEEN_ZONE = "browser_zone"  # in the session: the browser's zone last saved on the profile


class PlayerLanguageMiddleware:
    """After LocaleMiddleware and AuthenticationMiddleware: activate the profile's language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None else ""
        if user is not None and user.is_authenticated and language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


class LastSeenMiddleware:
    """After AuthenticationMiddleware: note when a player was last on the site (no "your
    move" email for a move they have seen)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            seen(user)
            if user.is_guest:
                guests.keep_session(request)
        return self.get_response(request)


def seen(user, now=None) -> None:
    now = now or timezone.now()
    if user.last_seen is None or now - user.last_seen >= SEEN_EVERY:
        get_user_model().objects.filter(pk=user.pk).update(last_seen=now)
        user.last_seen = now


@memo("accounts.middleware.zones", maxsize=1, lasting=True)
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def valid_time_zone(name) -> str:
    """The zone `name` is, by its current name ("Asia/Calcutta" -> "Asia/Kolkata":
    accounts.zones), if it is a known IANA zone; else ""."""
    return canonical(name) if isinstance(name, str) and name in _zones() else ""


def activate_time_zone(name: str) -> None:
    if valid_time_zone(name):
        timezone.activate(zoneinfo.ZoneInfo(name))
    else:
        timezone.deactivate()


class TimeZoneMiddleware:
    """After AuthenticationMiddleware and the sessions: the browser's zone (its cookie) is
    saved on the player's profile when this session first sees it or it changes (a zone
    chosen on the profile stays until then), and the page's times are shown in the
    profile's zone, or the browser's, or the site's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        zone = valid_time_zone(request.COOKIES.get(TIME_ZONE_COOKIE))
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            session = getattr(request, "session", None)
            if zone and (session is None or session.get(SEEN_ZONE) != zone):
                if session is not None:
                    session[SEEN_ZONE] = zone
                if zone != user.time_zone:
                    get_user_model().objects.filter(pk=user.pk).update(time_zone=zone)
                    user.time_zone = zone
            zone = user.time_zone or zone
        activate_time_zone(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
