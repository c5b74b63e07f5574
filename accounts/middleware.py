"""The language a logged-in player saved on their profile wins over the browser's; when a
player was last on the site."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone, translation

SEEN_EVERY = timedelta(minutes=1)  # at most one write per player per minute


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
        return self.get_response(request)


def seen(user, now=None) -> None:
    now = now or timezone.now()
    if user.last_seen is None or now - user.last_seen >= SEEN_EVERY:
        get_user_model().objects.filter(pk=user.pk).update(last_seen=now)
        user.last_seen = now
