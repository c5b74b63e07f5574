"""Log-in links for a new device (docs/design.md, "Never lock the owner out"): while guessing
from other addresses slows an account down (accounts.lockout's "throttle"), a log-in from an
address new to the account does not get a 429. Whatever the password, the page says that a
link has been mailed if it was right (so it tells a guesser nothing), and with the right one
the account's address gets a link that logs in once, within LINK_MAX_AGE.

The link is signed and names a digest of the player's password hash, last log-in and email:
using it logs in, which changes the last log-in, so it works once; a new password or
address ends it too. The mails are limited per account ("device_link_account").
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core import signing
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare, salted_hmac

from . import ratelimit

SALT = "accounts.new-device"
LINK_MAX_AGE = 15 * 60  # seconds


def _digest(player) -> str:
    state = f"{player.password}|{player.last_login}|{player.email}"
    return salted_hmac(SALT, state, algorithm="sha256").hexdigest()[:32]


def token(player) -> str:
    return signing.dumps({"p": player.pk, "d": _digest(player)}, salt=SALT)


def read(value: str):
    """The player a link logs in, or None if it is not valid, has expired or was used."""
    try:
        data = signing.loads(value, salt=SALT, max_age=LINK_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    if not isinstance(data, dict) or not isinstance(data.get("p"), int):
        return None
    player = get_user_model().objects.filter(pk=data["p"], is_active=True).first()
    if player is None or not constant_time_compare(str(data.get("d")), _digest(player)):
        return None
    return player


def use(player) -> bool:
    """Claim the link's one use: True for the first of two racing uses only."""
    return bool(get_user_model().objects.filter(pk=player.pk, last_login=player.last_login)
                .update(last_login=timezone.now()))


def offer(request) -> None:
    """The log-in form's username and password, checked without django-axes (which refuses
    them): if they are right and the account has an address, mail it a link, at most
    "device_link_account" a window."""
    username, password = request.POST.get("username"), request.POST.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        return
    player = ModelBackend().authenticate(request, username=username, password=password)
    if player is None or not player.email:
        return
    if not ratelimit.hit("device_link_account", str(player.pk)):
        return
    link = request.build_absolute_uri(reverse("device_login", args=[token(player)]))
    with translation.override(player.language or settings.LANGUAGE_CODE):
        context = {"player": player, "link": link, "minutes": LINK_MAX_AGE // 60,
                   "reset": request.build_absolute_uri(reverse("password_reset"))}
        subject = render_to_string("accounts/device_link_subject.txt", context).strip()
        body = render_to_string("accounts/device_link_email.txt", context)
    send_mail(subject, body, None, [player.email])
