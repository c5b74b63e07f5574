"""A tournament's mails: a round has started (to those at its tables) and the final
standings (to everyone entered), each in the player's language and time zone."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.translation import gettext as _

from ..models import Seat, Tournament, TournamentRound
from ..tournament import Standing
from .mail import mail_player
from .tournament_results import tournament_standings
from .words import deadline_words, for_player, player_zone

if TYPE_CHECKING:
    from accounts.models import Player


def send_tournament_mail(tournament_id: int, number: int) -> int:
    """Email the players: round `number` has started (to those at its tables, with theirs),
    or with 0 the final standings (to everyone entered). Players who want no emails about
    their moves get none. Returns how many mails went."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    root = settings.SITE_URL.rstrip("/")
    page = root + tournament.get_absolute_url()
    if number:
        seats = Seat.objects.filter(game__round_table__round__tournament=tournament,
                                    game__round_table__round__number=number,
                                    player__isnull=False).select_related("player", "game")
        rnd = tournament.round_set.filter(number=number).first()
        sent = 0
        for seat in seats:
            assert seat.player is not None  # player__isnull=False
            table = root + seat.game.get_absolute_url()
            if seat.game.private:
                table = root + seat.game.invite_url
            sent += _mail(seat.player, partial(_round_words, tournament, number, rnd,
                                               seat.player, table, page))
        return sent
    standings = tournament_standings(tournament)
    names = {e.player_id: e.player for e in tournament.entries.select_related("player")}
    top = "\n".join(f"{s.rank}. {names[s.player].name} ({s.points:g})" for s in standings[:10]
                     if s.player in names)
    sent = 0
    for s in standings:
        player = names.get(s.player)
        if player is not None:
            sent += _mail(player, partial(_final_words, tournament, s, player, top, page))
    return sent


def _round_words(tournament: Tournament, number: int, rnd: TournamentRound | None,
                 player: Player, table: str, page: str) -> tuple[str, str]:
    """The subject and body of "round N has started", in the active language."""
    return (
        _("Round %(n)s of %(tournament)s has started") % {
            "n": number, "tournament": tournament.name},
        _("Hello %(player)s,\n\nRound %(n)s of %(tournament)s has started. Your "
          "table: %(table)s\nThe round ends %(deadline)s (%(zone)s): finish your game by "
          "then.\n\n"
          "The standings: %(page)s") % {
            "player": player.name, "n": number, "tournament": tournament.name,
            "table": table, "page": page, "zone": player_zone(player),
            "deadline": deadline_words(rnd.deadline) if rnd and rnd.deadline else "—"})


def _final_words(tournament: Tournament, standing: Standing, player: Player, top: str,
                 page: str) -> tuple[str, str]:
    """The subject and body of the final standings, in the active language."""
    return (
        _("%(tournament)s is over") % {"tournament": tournament.name},
        _("Hello %(player)s,\n\n%(tournament)s is over. You are number %(rank)s "
          "with %(points)s points.\n\n%(top)s\n\nThe standings: %(page)s") % {
            "player": player.name, "tournament": tournament.name, "rank": standing.rank,
            "points": f"{standing.points:g}", "top": top, "page": page})


def _mail(player: Player, words: Callable[[], tuple[str, str]]) -> int:
    """One mail, worded in the player's language and time zone (`words()` gives subject
    and body)."""
    if not player.is_active or not player.email:
        return 0
    if player.move_emails == type(player).MoveEmails.NEVER:
        return 0
    with for_player(player):
        subject, body = words()
        mail_player(player, "moves", subject, body)
    return 1
