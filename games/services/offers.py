"""Which choices go together for a rule preset: the one place the forms fit their lists to
(games.forms) and the services check (docs/design.md, "Honest forms"). A choice is offered
only if the service that takes it would accept it."""

from __future__ import annotations

from datetime import timedelta

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import RulePreset

TWO = 2  # a quick match and a challenge are games for two


def player_counts(preset: RulePreset) -> tuple[int, ...]:
    """The numbers of players the preset can be played by: within its fewest and most,
    and ones its rules allow (teams need their own count; a deck must hold the hands)."""
    counts = []
    for players in preset.player_counts:
        try:
            preset.rules(players)
        except ValueError:
            continue
        counts.append(players)
    return tuple(counts)


def bot_counts(players: int) -> range:
    """Computer players at a new table: all but the maker's seat."""
    return range(0, max(players, 1))


def for_two(preset: RulePreset) -> bool:
    """The preset fits a quick match (two players)."""
    return TWO in player_counts(preset)


def for_challenge(preset: RulePreset) -> bool:
    """The preset fits a challenge: two players, and no teams."""
    return for_two(preset) and not preset.teams


def table_sizes(preset: RulePreset) -> tuple[int, ...]:
    """A tournament's tables: as many players as a game of the preset."""
    return player_counts(preset)


def may_fill_with_bots(preset: RulePreset, rated: bool) -> bool:
    """Computer players fill a tournament's short tables only in a casual one, and never
    at tables of teams (a computer partner would carry a person's points)."""
    return not rated and not preset.teams


def players_words(preset: RulePreset) -> str:
    """ "4 players" or "2–6 players", in the reader's language."""
    counts = player_counts(preset) or (preset.min_players,)
    low, high = min(counts), max(counts)
    if low == high:
        return ngettext("%(n)s player", "%(n)s players", low) % {"n": low}
    return _("%(min)s–%(max)s players") % {"min": low, "max": high}


def played_by(preset: RulePreset) -> str:
    """The refusal of a number of players the preset is not played by."""
    return _("%(preset)s is played by %(players)s.") % {
        "preset": preset.label, "players": players_words(preset)}


def move_time_in_round(move_time: timedelta, round_time: timedelta) -> timedelta:
    """A tournament's time per move, at most its round's: a table whose round ends first is
    lost by the player to act, so a longer clock would show hours that are not there."""
    return min(move_time, round_time)
