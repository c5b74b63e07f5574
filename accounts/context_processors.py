"""`login_next`: where "Log in" and "Sign up" send a person back to afterwards."""

from django.utils.http import url_has_allowed_host_and_scheme

# Pages that are themselves about logging in: their links pass on the `next` they got.
AUTH_PAGES = {"login", "signup", "logout", "password_reset", "password_reset_done",
              "password_reset_confirm", "password_reset_complete"}


def safe_next(request, url: str | None) -> str:
    """`url` if it stays on this site (Django's own check), else ""."""
    if url and url_has_allowed_host_and_scheme(
            url, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return url
    return ""


def login_next(request) -> dict:
    match = request.resolver_match
    if match is not None and match.url_name in AUTH_PAGES:
        return {"login_next": safe_next(request, request.POST.get("next")
                                        or request.GET.get("next"))}
    if request.method != "GET" or match is None or match.url_name == "lobby":
        return {"login_next": ""}
    return {"login_next": request.get_full_path()}
