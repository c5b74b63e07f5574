"""What the site says to a player away from the table (mails, push notifications): in
their own language and time zone (`for_player`), a game's name that needs no grammatical
case (docs/glossary.md, "A game in a sentence"), a deadline in words ("tomorrow at 9:36")
and the time left ("in 23 h")."""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import dateformat, formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

if TYPE_CHECKING:
    from accounts.models import Player

    from ..models import Game


def player_zone(player: object) -> zoneinfo.ZoneInfo:
    """The player's time zone (their profile's, which follows their browser), else the
    site's."""
    name = getattr(player, "time_zone", "") or ""
    try:
        return zoneinfo.ZoneInfo(name) if name else zoneinfo.ZoneInfo(settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


@contextmanager
def for_player(player: Player | None) -> Iterator[None]:
    """Words and times for this player: their profile's language (else the site's) and
    time zone."""
    with ExitStack() as stack:
        stack.enter_context(translation.override(
            getattr(player, "language", "") or settings.LANGUAGE_CODE))
        stack.enter_context(timezone.override(player_zone(player)))
        yield


def game_name(game: Game) -> str:
    """A game as a message names it, a title standing apart from the sentence's grammar:
    "Classic #10", «Классический» №10."""
    return pgettext("a game's name in a message", "%(preset)s #%(id)s") % {
        "preset": game.preset.label, "id": game.pk}


def deadline_words(deadline: datetime, now: datetime | None = None) -> str:
    """A deadline in the active time zone: "today at 9:36", "tomorrow at 9:36", "on
    December 5 at 9:36"."""
    now = now or timezone.now()
    local, today = timezone.localtime(deadline), timezone.localtime(now).date()
    time = formats.time_format(local, "TIME_FORMAT")
    if local.date() == today:
        return _("today at %(time)s") % {"time": time}
    if local.date() == today + timedelta(days=1):
        return _("tomorrow at %(time)s") % {"time": time}
    # A date format letter string, as Django's date filter takes it.
    day = dateformat.format(local, pgettext("a day in a sentence (Django date format)", "F j"))
    return _("on %(day)s at %(time)s") % {"day": day, "time": time}


def time_left_words(deadline: datetime, now: datetime | None = None) -> str:
    """How long until the deadline, roughly: "in 40 min", "in 23 h", "in 3 days"."""
    now = now or timezone.now()
    minutes = max(1, round((deadline - now).total_seconds() / 60))
    if minutes < 60:
        return _("in %(n)s min") % {"n": minutes}
    hours = round(minutes / 60)
    if hours < 48:
        return _("in %(n)s h") % {"n": hours}
    days = round(hours / 24)
    return ngettext("in %(n)s day", "in %(n)s days", days) % {"n": days}
