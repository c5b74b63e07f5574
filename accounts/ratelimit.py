"""The account limits (sign-ups, password resets, email changes, wrong passwords in the
forms that ask for it, log-in links for a new device): games.limits' fixed windows, kept in
the database (accounts.models.RateCount) so that a Redis restart forgets none of them. Their
values are settings.LIMITS' "signup_ip", "reset_ip", "reset_account",
"email_change_account", "password_guesses" and "device_link_account";
ACCOUNT_RATE_LIMITS=off in the environment switches them off.
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


def refund(name: str, ident: str) -> None:
    """Give back one use counted by `hit`."""
    if enabled():
        _kept.refund(name, ident)


class Kept:
    """These limits as a games.limits.Store, for `limited(..., store=KEPT)`."""

    def hit(self, name: str, ident: object) -> bool:
        return hit(name, str(ident))

    def refund(self, name: str, ident: object) -> None:
        refund(name, str(ident))


KEPT = Kept()


def found_wrong_password(request, wrong: bool) -> None:
    """The view's word to `password_guesses`: its form found the password wrong."""
    request.wrong_password = wrong


def wrong_password(request, response) -> bool:
    """What "password_guesses" counts: a form that found the password wrong."""
    return bool(getattr(request, "wrong_password", False))


def password_guesses(view):
    """A form that asks for the player's password again: wrong ones are counted per player
    like log-in guesses; over the limit it is refused, even the right one."""
    return limits.limited("password_guesses", counts=wrong_password, store=KEPT)(view)
