"""Counting requests per client address or per account, in fixed windows kept in the
database (accounts.models.RateCount): shared by every process, and a Redis restart forgets
none of them.

Limits are (count, seconds). They can be changed with the setting ACCOUNT_RATE_LIMITS,
e.g. {"signup_ip": (5, 3600)}, and switched off with ACCOUNT_RATE_LIMITS_ENABLED = False
(ACCOUNT_RATE_LIMITS=off in the environment).
"""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from .models import RateCount

DEFAULT_LIMITS = {
    "signup_ip": (5, 60 * 60),  # new accounts from one client address per hour
    "reset_ip": (5, 60 * 60),  # password-reset requests from one client address per hour
    "reset_account": (3, 60 * 60),  # password-reset mails for one address per hour
    "email_change_account": (3, 60 * 60),  # confirmation mails one player asks for per hour
}


def enabled() -> bool:
    # The browser tier signs up many players from 127.0.0.1: ACCOUNT_RATE_LIMITS=off there.
    return bool(settings.ACCOUNT_RATE_LIMITS_ENABLED)


def limit(name: str) -> tuple[int, int]:
    return {**DEFAULT_LIMITS, **getattr(settings, "ACCOUNT_RATE_LIMITS", {})}[name]


def client_address(request) -> str:
    """REMOTE_ADDR: behind a proxy, Daphne's --proxy-headers puts the client's there."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def _key(name: str, ident: str) -> str:
    digest = hashlib.sha256(ident.strip().casefold().encode()).hexdigest()[:32]
    return f"{name}:{digest}"


def exhausted(name: str, ident: str) -> bool:
    """True when `ident` has used up `name`'s allowance (counts nothing)."""
    if not enabled():
        return False
    count, _seconds = limit(name)
    return RateCount.objects.filter(
        key=_key(name, ident), expires__gt=timezone.now(), count__gte=count).exists()


def hit(name: str, ident: str) -> bool:
    """Count one use; True if it is within the limit, False if it goes over."""
    if not enabled():
        return True
    count, seconds = limit(name)
    key, now = _key(name, ident), timezone.now()
    live = RateCount.objects.filter(key=key, expires__gt=now)
    with transaction.atomic():
        # The UPDATE locks the row until the commit: no two processes read the same count.
        if not live.update(count=F("count") + 1):
            try:  # the window starts at the first use
                with transaction.atomic():
                    RateCount.objects.filter(expires__lte=now).delete()
                    RateCount.objects.create(key=key, count=1,
                                             expires=now + timedelta(seconds=seconds))
                return True
            except IntegrityError:  # another process started it first
                RateCount.objects.filter(key=key).update(count=F("count") + 1)
        used = RateCount.objects.filter(key=key).values_list("count", flat=True).get()
    return used <= count


def window_text(name: str) -> int:
    """The window's length in minutes, for the page that says to wait."""
    return limit(name)[1] // 60
