"""The end of a deal and of a match: each finished deal counts in the players' records and
is kept (its public log and its result) so that it stays readable after the next deal
starts, and `finish_match` is the one place where a game's match ends, as the engine's
`Match.outcome()` says it did (the deals played out, a loss limit reached, a resignation, a
forfeit)."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from .. import notify
from ..engine import Match, Termination
from ..models import DealRecord, Game, RoundTable, Seat
from .ratings import places, rate_game


def out_order(history: list[dict[str, Any]]) -> list[int]:
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
            "commitment": match.commitment() or "",
        })
    return record


def record_deal(game: Game, match: Match, seats: list[Seat], *,
                given_up_by: int | None = None) -> None:
    """Count a finished deal in every seated player's record (R21, R22, R31), or the deal
    in play as lost by the side (`given_up_by`) that resigned or forfeited the match."""
    rules, deal = match.rules, match.deal
    for seat in seats:
        if seat.player is None:  # no query when player_id is None
            continue
        if seat.stands_in and given_up_by is None and not game.preset.stand_in_counts:
            continue  # a computer finished the deal: not on the absent player's record
        if given_up_by is not None:
            lost, drawn = rules.team_of(seat.number) == given_up_by, False
        elif deal.is_draw:
            lost, drawn = False, True
        else:
            lost, drawn = rules.team_of(seat.number) == deal.losing_team, False
        seat.player.record_deal(lost=lost, drawn=drawn)


def finish_match(game: Game, match: Match, now: datetime | None = None, *,
                 seats: list[Seat] | None = None) -> None:
    """The match is over, as `match.outcome()` says: played out (R24), or given up by a
    seat in the engine, resigned (`Match.resign`) or forfeited out of time
    (`Match.forfeit`, section 10). The game is finished and, if rated, its players'
    ratings move.

    Every path that ends a match comes through here, inside its transaction, with the
    game row locked; whatever else must happen when a match ends belongs here. Given up,
    the deal in play counts as lost by the side that gave up, in the records (`seats`, the
    game's in order) and in the kept deal.
    """
    outcome = match.outcome()
    if outcome is None:
        raise ValueError("The match is not over.")
    if outcome.given_up:
        record_deal(game, match, seats or [], given_up_by=outcome.loser)
        keep_deal(game, match, resigned=outcome.seat)
        game.state = match.to_json()
        if outcome.termination is Termination.FORFEIT:
            game.forfeited_seat = outcome.seat
    game.status = Game.Status.FINISHED
    game.finished_at = now or timezone.now()
    game.turn_seat = None
    game.turn_started = game.deadline = game.paused_at = None
    game.next_reminder = game.move_email_at = None
    game.reminders_sent = 0
    rate_game(game)  # a rated game moves its players' ratings, once
    mark_losers(game)
    tournament = (RoundTable.objects.filter(game=game)
                  .values_list("round__tournament", flat=True).first())
    if tournament is not None:  # its round may be over (services.tournament.advance)
        transaction.on_commit(partial(notify.queue_tournament_check, tournament), robust=True)
    # Each person at the table hears of it on their devices (games.services.push).
    transaction.on_commit(partial(notify.queue_push, "finished", game.pk), robust=True)


def mark_losers(game: Game) -> None:
    """Seat.lost for every seat of a finished match: its side came last, not in a full
    draw (the profile's counts read it; docs/design.md, "A year of data")."""
    place = places(game)
    worst = max(place.values())
    losing = [side for side, p in place.items() if len(set(place.values())) > 1 and p == worst]
    Seat.objects.filter(game=game).update(lost=False)
    Seat.objects.filter(game=game, team__in=losing).update(lost=True)
