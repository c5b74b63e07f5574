"""Counting requests per client address or per account in Django's cache (fixed windows).

Limits are (count, seconds). They can be changed with the setting ACCOUNT_RATE_LIMITS,
e.g. {"signup_ip": (5, 3600)}, and switched off with ACCOUNT_RATE_LIMITS_ENABLED = False
(read with getattr: both are optional). The cache alias is ACCOUNT_RATE_LIMIT_CACHE
("default"); with several processes it must be a shared cache (Redis), as it is when
REDIS_URL is set.
"""

import hashlib
import os

from django.conf import settings
from django.core.cache import caches

DEFAULT_LIMITS = {
    "signup_ip": (5, 60 * 60),  # new accounts from one client address per hour
    "reset_ip": (5, 60 * 60),  # password-reset requests from one client address per hour
    "reset_account": (3, 60 * 60),  # password-reset mails for one address per hour
    "email_change_account": (3, 60 * 60),  # confirmation mails one player asks for per hour
}


def enabled() -> bool:
    # The browser tier signs up many players from 127.0.0.1; it may set the environment
    # variable ACCOUNT_RATE_LIMITS=off until settings.py carries the setting itself.
    default = os.getenv("ACCOUNT_RATE_LIMITS", "on").lower() not in ("off", "0", "false")
    return bool(getattr(settings, "ACCOUNT_RATE_LIMITS_ENABLED", default))


def limit(name: str) -> tuple[int, int]:
    return {**DEFAULT_LIMITS, **getattr(settings, "ACCOUNT_RATE_LIMITS", {})}[name]


def client_address(request) -> str:
    """REMOTE_ADDR: behind a proxy, Daphne's --proxy-headers puts the client's there."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def _key(name: str, ident: str) -> str:
    digest = hashlib.sha256(ident.strip().casefold().encode()).hexdigest()[:32]
    return f"acct-rl:{name}:{digest}"


def _cache():
    return caches[getattr(settings, "ACCOUNT_RATE_LIMIT_CACHE", "default")]


def exhausted(name: str, ident: str) -> bool:
    """True when `ident` has used up `name`'s allowance (counts nothing)."""
    if not enabled():
        return False
    count, _seconds = limit(name)
    return (_cache().get(_key(name, ident)) or 0) >= count


def hit(name: str, ident: str) -> bool:
    """Count one use; True if it is within the limit, False if it goes over."""
    if not enabled():
        return True
    count, seconds = limit(name)
    cache, key = _cache(), _key(name, ident)
    cache.add(key, 0, timeout=seconds)  # the window starts at the first use
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=seconds)
        used = 1
    return used <= count


def window_text(name: str) -> int:
    """The window's length in minutes, for the page that says to wait."""
    return limit(name)[1] // 60
