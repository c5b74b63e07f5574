"""The time zones a player can choose (docs/design.md, "Time zones offered"): each by its
current IANA name (zone.tab: "Asia/Kolkata", never the old alias "Asia/Calcutta"), grouped
by region, labelled by its city and its UTC offset now; an alias a browser sends or a
profile holds is read as the zone it stands for (tzdata.zi's links)."""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from importlib import resources
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.dates import get_timezone_location
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.kept import memo

# The first part of a zone's name, as the profile's list groups them.
REGIONS = {
    "Europe": _("Europe"),
    "Asia": _("Asia"),
    "America": _("Americas"),
    "Africa": _("Africa"),
    "Australia": _("Australia"),
    "Pacific": _("Pacific Ocean"),
    "Atlantic": _("Atlantic Ocean"),
    "Indian": _("Indian Ocean"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
}


def _tz_file(name: str) -> str:
    """A file of the time zone database: the system's (where zoneinfo reads zones first),
    else the tzdata package's."""
    for folder in zoneinfo.TZPATH:
        path = Path(folder) / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    try:
        return (resources.files("tzdata.zoneinfo") / name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return ""


@memo("accounts.zones.current", maxsize=1, lasting=True)
def current_zones() -> frozenset[str]:
    """The zones by their current names, one or more per country (zone.tab), and UTC."""
    known = zoneinfo.available_timezones()
    names = {line.split("\t")[2] for line in _tz_file("zone.tab").splitlines()
             if line and not line.startswith("#") and line.count("\t") >= 2}
    if not names:  # a database without zone.tab: every zone of a region, as before
        names = {name for name in known if name.split("/")[0] in REGIONS}
    return frozenset(name for name in names | {"UTC"} if name in known)


@memo("accounts.zones.links", maxsize=1, lasting=True)
def _links() -> dict[str, str]:
    """Old name -> the name it links to (tzdata.zi's "L target name" lines)."""
    links = {}
    for line in _tz_file("tzdata.zi").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "L":
            links[parts[2]] = parts[1]
    return links


def canonical(name: str) -> str:
    """The offered zone `name` stands for ("Asia/Calcutta" -> "Asia/Kolkata"); a zone
    offered, or one with no offered target (a valid "Etc/GMT+3"), is itself."""
    offered, links = current_zones(), _links()
    seen = name
    for _hop in range(5):
        if seen in offered:
            return seen
        if seen not in links:
            break
        seen = links[seen]
    return name


def offset_words(zone: str, now: datetime | None = None) -> str:
    """ "UTC+05:30" now in `zone`."""
    offset = (now or timezone.now()).astimezone(zoneinfo.ZoneInfo(zone)).utcoffset()
    minutes = round(offset.total_seconds() / 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "−"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


@memo("accounts.zones.city", maxsize=4096, lasting=True)
def city(zone: str, language: str) -> str:
    """The zone's city in `language` ("Europe/Moscow", "ru" -> "Москва"; "Knox, Indiana"),
    from CLDR; its name's last part where CLDR has none."""
    parts = zone.replace("_", " ").split("/")
    plain = parts[-1] if len(parts) < 3 else f"{parts[-1]}, {parts[1]}"
    try:
        found = get_timezone_location(zone, locale=Locale.parse(language, sep="-"),
                                      return_city=True)
    except (LookupError, UnknownLocaleError, ValueError):
        return plain
    return found or plain


def zone_label(zone: str, now: datetime | None = None) -> str:
    """ "Kolkata (UTC+05:30)", "Буэнос-Айрес (UTC−03:00)": in the active language."""
    if zone == "UTC":
        return "UTC"
    language = translation.get_language() or "en"
    return f"{city(zone, language)} ({offset_words(zone, now)})"


def zone_choices(now: datetime | None = None) -> list:
    """The profile's grouped choices: (region, [(zone, label)…]) by region, then city, in
    the active language; made once a quarter of an hour (an offset changes on the hour or
    the half hour)."""
    now = now or timezone.now()
    quarter = now.replace(minute=now.minute - now.minute % 15, second=0, microsecond=0)
    return _choices_at(translation.get_language() or "en", quarter)


@memo("accounts.zones.choices", maxsize=16)
def _choices_at(language: str, now: datetime) -> list:
    groups: dict[str, list[tuple[str, str]]] = {}
    with translation.override(language):
        for zone in current_zones():
            region = zone.split("/")[0]
            if region in REGIONS:
                groups.setdefault(region, []).append((zone, zone_label(zone, now)))
    return [("UTC", "UTC")] + [(REGIONS[region], sorted(groups[region], key=lambda c: c[1]))
                               for region in REGIONS if region in groups]
