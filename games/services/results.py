"""The end of a deal and of a match: each finished deal is kept (its public log and its
result) so that it stays readable after the next deal starts, and `finish_match` is the
one place where a game's match ends (a finished deal, a forfeit, a resignation)."""

from __future__ import annotations

from django.utils import timezone

from ..engine import Match
from ..models import DealRecord, Game


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


def finish_match(game: Game, match: Match, now=None) -> None:
    """The match is over (R24, a forfeit or a resignation): the game is finished.

    Every path that ends a match comes through here, inside its transaction, with the
    game row locked; whatever else must happen when a match ends belongs here.
    """
    game.status = Game.Status.FINISHED
    game.finished_at = now or timezone.now()
    game.turn_seat = None
    game.turn_started = game.deadline = game.paused_at = None
    game.next_reminder = game.move_email_at = None
