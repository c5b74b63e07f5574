"""One-click unsubscribe links for the site's emails: signed, no log-in needed, good for
MAX_AGE (a POST unsubscribes, as RFC 8058's mail programs send it; a GET only asks)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.urls import reverse

SALT = "accounts.unsubscribe"
MAX_AGE = 60 * 24 * 60 * 60  # seconds: a link works for 60 days
KINDS = ("moves", "reminders")  # "your move" emails and summaries; deadline reminders


def token(user, kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown email kind {kind!r}")
    return signing.dumps({"u": user.pk, "k": kind}, salt=SALT, compress=True)


def link(user, kind: str) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("unsubscribe", args=[token(user, kind)])


def read(value: str):
    """(player, kind) from a token; signing.SignatureExpired when it is older than MAX_AGE,
    signing.BadSignature if it was not made here."""
    data = signing.loads(value, salt=SALT, max_age=MAX_AGE)
    if not isinstance(data, dict) or data.get("k") not in KINDS:
        raise signing.BadSignature("not an unsubscribe token")
    user_id = data.get("u")
    user = None
    if isinstance(user_id, int):  # token() signs the player's pk
        user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise signing.BadSignature("no such player")
    return user, data["k"]


def subscribe(user, kind: str, on: bool, moves: str | None = None) -> None:
    """Turn a kind of email off, or back on (`moves`: how often "your move" comes)."""
    if kind == "reminders":
        user.email_reminders = on
        user.save(update_fields=["email_reminders"])
        return
    choices = type(user).MoveEmails
    user.move_emails = (moves if moves in (choices.NOW, choices.DAILY) else choices.NOW) if on \
        else choices.NEVER
    user.save(update_fields=["move_emails"])
