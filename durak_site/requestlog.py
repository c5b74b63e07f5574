"""One log line per request: method, path, status, duration, and the game it was about.

The fields go as `extra`, so with LOG_FORMAT=json each is a key of the line's object
(`game`, `status`, `duration_ms`…); the query string is left out (it may carry a token).
"""

import logging
import time

logger = logging.getLogger("durak.request")


def request_log(get_response):
    def middleware(request):
        started = time.monotonic()
        response = get_response(request)
        duration_ms = round((time.monotonic() - started) * 1000, 1)
        match = request.resolver_match
        user = getattr(request, "user", None)
        fields = {
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "duration_ms": duration_ms,
            "game": match.kwargs.get("game_id") if match else None,
            "user": user.pk if user is not None and user.is_authenticated else None,
            "client": request.META.get("REMOTE_ADDR"),
        }
        logger.info("%s %s %s %.1f ms", request.method, request.path, response.status_code,
                    duration_ms, extra=fields)
        return response

    return middleware
