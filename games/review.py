"""The coach's review of a finished game: for each person, the moves where their chance of
not being the durak dropped most (games.bots.coach.review, from their view at that
moment), with the move the coach would have made. Shown on the replay page; computed by
a Celery task and kept in the cache."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from . import describe
from .bots.coach import review
from .engine import Action, Attack, Defend, ExchangeTrump, Take, Transfer, action_from_token
from .models import Game
from .present.replay import moves_of, start_of

REVIEW_WORLDS = 8  # sampled deals per position
REVIEW_SECONDS = 7 * 24 * 3600
MARKS_PER_PLAYER = 5


def _key(game_id: int) -> str:
    return f"review:v2:{game_id}"  # v2: marks carry both chances


PENDING_SECONDS = 15 * 60  # a review asked for and not yet made: its page waits this long


def _pending_key(game_id: int) -> str:
    return f"review-pending:{game_id}"


def mark_pending(game: Game) -> bool:
    """A player has asked: the replay shows that the coach is at work, and waits for it.
    False if it was already (one review on its way per game: atomic in the cache)."""
    return cache.add(_pending_key(game.pk), True, PENDING_SECONDS)


def unmark_pending(game: Game) -> None:
    cache.delete(_pending_key(game.pk))


def pending(game: Game) -> bool:
    return bool(cache.get(_pending_key(game.pk)))


def kept(game: Game) -> list[dict[str, Any]] | None:
    """The review's marks, once the coach has made them (else None)."""
    return cache.get(_key(game.pk))


def compute(game: Game) -> list[dict[str, Any]]:
    """Review every deal of the game for its people; keep and return the marks (the
    costliest first, at most MARKS_PER_PLAYER each), each naming its replay step."""
    moves, match = moves_of(game), start_of(game)
    seats = list(game.seats.order_by("number"))
    people = [s.number for s in seats if s.player_id is not None and not s.bot_level]
    found: list[dict[str, Any]] = []
    i = 0
    while i < len(moves):
        if match.deal.is_over and not match.is_over:
            match.next_deal()
        start = match.deal.copy()
        pairs: list[tuple[int, Action]] = []
        steps: list[int] = []
        while i < len(moves) and not match.deal.is_over:
            seat, tokens = moves[i]
            i += 1
            for token in tokens:
                action = action_from_token(token)
                pairs.append((seat, action))
                steps.append(i)  # replay step N shows the table after the Nth move
                match.deal.apply(seat, action)
        for point in review(start, pairs, seats=people, worlds=REVIEW_WORLDS, seed=game.pk):
            found.append({"step": steps[point.number], "seat": point.seat,
                          "played": point.played.token(), "better": point.better.token(),
                          "drop": round(point.drop * 100), "exact": point.exact,
                          "kept": round(point.before * 100), "left": round(point.after * 100)})
    found.sort(key=lambda m: (-m["drop"], m["step"]))
    marks: list[dict[str, Any]] = []
    per_seat: dict[int, int] = {}
    for mark in found:
        if per_seat.get(mark["seat"], 0) < MARKS_PER_PLAYER:
            per_seat[mark["seat"]] = per_seat.get(mark["seat"], 0) + 1
            marks.append(mark)
    cache.set(_key(game.pk), marks, REVIEW_SECONDS)
    cache.delete(_pending_key(game.pk))
    return marks


def action_words(token: str) -> str:
    """A move in the player's words: "beat the 7♠ with the 9♠"."""
    action = action_from_token(token)
    if isinstance(action, Defend):
        return _("beat the %(attack)s with the %(card)s") % {
            "attack": describe.label(action.attack.code), "card": describe.label(action.card.code)}
    if isinstance(action, Attack):
        return _("play the %(card)s") % {"card": describe.label(action.card.code)}
    if isinstance(action, Transfer):
        return _("transfer with the %(card)s") % {"card": describe.label(action.card.code)}
    if isinstance(action, Take):
        return _("take the cards")
    if isinstance(action, ExchangeTrump):
        return _("exchange the trump 6")
    return _("pass")
