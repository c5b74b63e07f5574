"""Emails to players: in their language and time zone (words.for_player), with a one-click
unsubscribe link in the text and in the List-Unsubscribe headers (RFC 2369, RFC 8058)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.mail import EmailMessage
from django.utils.translation import gettext as _

from accounts import unsubscribe

if TYPE_CHECKING:
    from accounts.models import Player



def mail_player(player: Player, kind: str, subject: str, body: str) -> None:
    """Send one email; `kind` ("moves", "reminders") is what its link unsubscribes from.
    Call inside `for_player(player)`."""
    link = unsubscribe.link(player, kind)
    body = body + "\n\n-- \n" + _("No more emails like this one: %(url)s") % {"url": link}
    EmailMessage(subject, body, to=[player.email], headers={
        "List-Unsubscribe": f"<{link}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }).send()
