"""The site's own page for an address opened the wrong way (405): a rematch, a chat line
or a challenge is sent by a button, and following such an address as a link would show
the browser's blank error page."""

from django.shortcuts import render


class NotAllowedPage:
    """A 405 with no body, to a GET or HEAD, becomes templates/405.html (Allow kept)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.method not in ("GET", "HEAD"):
            return response
        page = render(request, "405.html", status=405)
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page
