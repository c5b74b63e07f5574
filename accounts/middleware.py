"""The language a logged-in player saved on their profile wins over the browser's."""

from django.utils import translation


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
