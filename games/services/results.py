"""The end of a deal and of a match: each finished deal counts in the players' records and
is kept (its public log and its result) so that it stays readable after the next deal
starts, and `finish_match` is the one place where a game's match ends (the last deal
played out, a forfeit, a resignation)."""

from __future__ import annotations

from django.utils import timezone

from ..engine import Match
from ..models import DealRecord, Game, Seat
from .ratings import rate_game


def out_order(history: list[dict]) -> list[int]:
    """The seats in the order they went out (R19), from the deal's public log."""
    return [e["seat"] for e in history if e.get("type") == "out"]


def keep_deal(game: Game, match: Match, *, resigned: int | None = None) -> DealRecord:
    """Keep the current deal, finished (or given up by seat `resigned`), as everybody saw
    it: `deal.view(None)` holds no hidden card, so neither does the record."""
    deal, rules = match.deal, match.rules
    history = deal.view(None)["history"]
    if resigned is not None:
        history.append({"type": "resign", "seat": resigned})
    record, _created = DealRecord.objects.update_or_create(
        game=game, number=match.deal_number,
        defaults={
            "history": history,
            "loser": deal.loser if resigned is None else (None if rules.teams else resigned),
            "losing_team": deal.losing_team if resigned is None else rules.team_of(resigned),
            "draw": deal.is_draw and resigned is None,
            "out": out_order(history),
            "resigned": resigned,
        })
    return record


def record_deal(game: Game, match: Match, seats: list[Seat], *, forfeit_team=None) -> None:
    """Count a finished deal in every seated player's record (R21, R22, R31)."""
    rules, deal = match.rules, match.deal
    for seat in seats:
        if seat.player_id is None:
            continue
        if seat.stands_in and forfeit_team is None and not game.preset.stand_in_counts:
            continue  # a computer finished the deal: not on the absent player's record
        if forfeit_team is not None:
            lost, drawn = rules.team_of(seat.number) == forfeit_team, False
        elif deal.is_draw:
            lost, drawn = False, True
        else:
            lost, drawn = rules.team_of(seat.number) == deal.losing_team, False
        seat.player.record_deal(lost=lost, drawn=drawn)


def finish_match(game: Game, match: Match, now=None, *, seats: list[Seat] | None = None,
                 gave_up: int | None = None, forfeit: bool = False) -> None:
    """The match is over (R24), or seat `gave_up` gives it up (its team in team play): by
    resigning, or (`forfeit`) out of time (section 10). The game is finished and, if rated,
    its players' ratings move.

    Every path that ends a match comes through here, inside its transaction, with the
    game row locked; whatever else must happen when a match ends belongs here. Given up,
    the deal in play counts as lost by the side that gave up, in the records (`seats`, the
    game's in order) and in the kept deal.
    """
    if gave_up is not None:
        team = match.rules.team_of(gave_up)
        record_deal(game, match, seats or [], forfeit_team=team)
        keep_deal(game, match, resigned=gave_up)
        match.resign(team)  # the tally counts the deal as lost, and the match is over
        game.state = match.to_json()
        if forfeit:
            game.forfeited_seat = gave_up
    game.status = Game.Status.FINISHED
    game.finished_at = now or timezone.now()
    game.turn_seat = None
    game.turn_started = game.deadline = game.paused_at = None
    game.next_reminder = game.move_email_at = None
    game.reminders_sent = 0
    rate_game(game)  # a rated game moves its players' ratings, once
