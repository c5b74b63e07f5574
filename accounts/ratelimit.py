"""The account limits (sign-ups, password resets, email changes): games.limits' fixed
windows, kept in the database (accounts.models.RateCount) so that a Redis restart forgets
none of them. Their values are settings.LIMITS' "signup_ip", "reset_ip", "reset_account"
and "email_change_account"; ACCOUNT_RATE_LIMITS=off in the environment switches them off.
"""

from django.conf import settings

from games import limits

from .models import RateCount

_kept = limits.KeptWindows(RateCount)


def enabled() -> bool:
    # The browser tier signs up many players from 127.0.0.1: ACCOUNT_RATE_LIMITS=off there.
    return bool(settings.ACCOUNT_RATE_LIMITS_ENABLED)


def limit(name: str) -> limits.Window:
    return limits.window(name)


def client_address(request) -> str:
    """REMOTE_ADDR: behind a proxy, Daphne's --proxy-headers puts the client's there."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def exhausted(name: str, ident: str) -> bool:
    """True when `ident` has used up `name`'s allowance (counts nothing)."""
    return enabled() and _kept.exhausted(name, ident)


def hit(name: str, ident: str) -> bool:
    """Count one use; True if it is within the limit, False if it goes over."""
    return not enabled() or _kept.hit(name, ident)
