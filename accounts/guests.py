"""Guests from a link (docs/design.md, "Guests from a link"): a player made from an invite
link with a name only, logged in by this browser's session and no password, who plays
casual games until they claim the account with an email address and a password.

Making one counts in the sign-up limit of the client's address (settings.LIMITS'
"signup_ip", accounts.ratelimit), as a sign-up does; the name follows the accounts' rules
(accounts.names: no look-alike of another player's name)."""

import secrets
from datetime import timedelta

from django.contrib.auth import login, update_session_auth_hash

from . import ratelimit
from .models import Player

GUEST_DAYS = 30  # an unclaimed guest away this long is removed (games.services.guests)
SESSION_AGE = timedelta(days=GUEST_DAYS)  # their session lasts as long, from the last visit
BACKEND = "django.contrib.auth.backends.ModelBackend"


def newcomer(request) -> str | None:
    """Who the guest limit counts: the client's address, for a visitor only (a logged-in
    player makes no guest)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return None
    return ratelimit.client_address(request)


def make_guest(name: str, *, language: str = "", time_zone: str = "") -> Player:
    """A new guest called `name` (already checked by accounts.forms.GuestForm). Its
    username is never shown and no sign-up can take it: "~" is not allowed there."""
    guest = Player(username=f"guest~{secrets.token_hex(8)}", display_name=name,
                   is_guest=True, language=language, time_zone=time_zone)
    guest.set_unusable_password()
    guest.save()
    return guest


def log_in(request, guest: Player) -> None:
    """The guest's games are kept in this browser's session (Django's login())."""
    login(request, guest, backend=BACKEND)
    request.session.set_expiry(SESSION_AGE)


def keep_session(request) -> None:
    """A guest's visit keeps their session for another GUEST_DAYS (written once a day at
    most): the session is all that holds their account (accounts.middleware)."""
    session = getattr(request, "session", None)
    if session is not None and session.get_expiry_age() < SESSION_AGE.total_seconds() - 86400:
        session.set_expiry(SESSION_AGE)


def claim(request, form) -> Player:
    """The guest becomes a player like any other (`form`: a valid accounts.forms.ClaimForm
    on them: a username, an email address, a password), keeping their games; this browser
    stays logged in."""
    player = form.save(commit=False)
    player.is_guest = False
    player.save()
    update_session_auth_hash(request, player)
    request.session.set_expiry(None)  # the site's usual session from now on
    return player
