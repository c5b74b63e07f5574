"""The coach: what a search bot would play and why (a hint), and, after a deal, the moves
where a player's chance of not being the durak dropped most (a review).

Both look only at the player's view (`deal.view(seat)`), as every bot does. A chance is
the share of sampled deals (`Deal.sample`) that the player's side does not lose when the
rest is played out by the heuristic for every seat; with nothing hidden and two players
left, the exact solver gives the value instead (1 a win, 0.5 a draw, 0 a loss).

A few sampled deals only screen the moves: one playout differs from another by chance
alone, and the best of several moves looks better than it is. So a sampled difference
is borne out on fresh deals (`confirm` of them) before the coach states it: a review
marks a move, or a hint prefers another move to the heuristic's own, only when the gap
holds there by CONFIRM_SIGMAS standard errors.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

from games.engine import (
    Action,
    Attack,
    Card,
    Deal,
    Defend,
    ExchangeTrump,
    Pass,
    Rules,
    Take,
    Transfer,
    View,
    beats,
)

from .base import legal_actions
from .heuristic import DEFAULT, heuristic_action
from .search import Solver, Timeout, nothing_hidden, playout

WORLDS = 24  # sampled deals per position (a hint, one step of a review): the screen
CONFIRM_WORLDS = 96  # fresh sampled deals that must bear out a screened gap
CONFIRM_SIGMAS = 2.5
SOLVE_SECONDS = 1.0  # the exact solver's time for a position with nothing hidden
BLUNDER = 0.25  # a review marks a move that costs at least this much chance


class Advice(NamedTuple):
    """A move the coach recommends, its estimated chance of not losing the deal, and why:
    `reason` is a code the site words for the player, `card` the card it names."""

    action: Action
    chance: float
    reason: str
    card: str | None


class Mark(NamedTuple):
    """A move of a finished deal that cost its player `drop` chance: `number` counts the
    deal's moves from 0; `better` is the move the coach would have played."""

    number: int
    seat: int
    played: Action
    better: Action
    before: float  # the chance after the better move
    after: float  # the chance after the move played
    exact: bool  # values from the solver, not sampled

    @property
    def drop(self) -> float:
        return self.before - self.after


def chances(view: View, *, worlds: int = WORLDS, rng: random.Random | None = None,
            solve_seconds: float = SOLVE_SECONDS) -> tuple[list[tuple[Action, float]], bool]:
    """Every legal action of the viewer with its chance of not losing the deal, best
    first, and whether the values are exact (solved) rather than sampled."""
    rng = rng or random.Random(0)
    seat = view["seat"]
    if seat is None:
        raise ValueError("A spectator has no moves to weigh.")
    legal = legal_actions(view)
    team = Rules.from_dict(view["rules"]).team_of(seat)
    values: list[tuple[Action, float]] | None = None
    if nothing_hidden(view) and view["players"] - len(view["out"]) == 2:
        world = Deal.sample(view, rng)
        solver = Solver(world, team, time.perf_counter() + solve_seconds, DEFAULT)
        try:
            values = []
            for action in legal:  # every move's exact value, not just the first win
                child = world.copy()
                child.apply(seat, action)
                values.append((action, solver.value(child)))
        except Timeout:
            values = None
    exact = values is not None
    if values is None:
        results = _playouts(view, legal, worlds, rng)
        values = [(a, sum(r) / len(r)) for a, r in zip(legal, results)]
    order = {a: i for i, a in enumerate(legal)}
    values.sort(key=lambda av: (-av[1], order[av[0]]))
    return values, exact


def _playouts(view: View, actions: Sequence[Action], worlds: int,
              rng: random.Random) -> list[list[float]]:
    """Each action's results (1 win, 0.5 draw, 0 loss) over the same sampled deals."""
    seat = _seat(view)
    team = Rules.from_dict(view["rules"]).team_of(seat)
    results: list[list[float]] = [[] for _ in actions]
    for _ in range(max(1, worlds)):
        world = Deal.sample(view, rng)  # common deals for every action
        for i, action in enumerate(actions):
            d = world.copy()
            d.apply(seat, action)
            results[i].append(playout(d, team, DEFAULT, rng))
    return results


def confirmed(view: View, better: Action, worse: Action, *, worlds: int = CONFIRM_WORLDS,
              rng: random.Random) -> tuple[float, float, bool]:
    """On fresh sampled deals: the chance after `better`, after `worse`, and whether
    `better` is ahead by CONFIRM_SIGMAS standard errors of the paired difference."""
    after_better, after_worse = _playouts(view, [better, worse], worlds, rng)
    n = len(after_better)
    diffs = [b - w for b, w in zip(after_better, after_worse)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 1.0
    return sum(after_better) / n, sum(after_worse) / n, mean - CONFIRM_SIGMAS * (var / n) ** 0.5 > 0


def hint(view: View, *, worlds: int = WORLDS, confirm: int = CONFIRM_WORLDS,
         seed: Any = 0) -> Advice:
    """The move the coach would make from this view, and why in a word: the heuristic's
    own move (it keeps the strong cards), unless another is surely better."""
    rng = random.Random(seed)
    values, exact = chances(view, worlds=worlds, rng=rng)
    chance = dict(values)
    top_action, top = values[0]
    mine = heuristic_action(Deal.sample(view, rng), _seat(view), None, DEFAULT)
    if exact:
        best = [a for a, v in values if v == top]
        action = mine if mine in best else best[0]
    elif mine not in chance:  # pragma: no cover - the heuristic picks among the legal moves
        action = top_action
    elif top_action == mine or top == chance[mine]:
        action, top = mine, chance[mine]
    else:
        after_top, after_mine, sure = confirmed(view, top_action, mine, worlds=confirm, rng=rng)
        action, top = (top_action, after_top) if sure else (mine, after_mine)
    reason, card = _why(view, action, exact and top == 1.0)
    return Advice(action, top, reason, card)


def review(start: Deal, moves: Sequence[tuple[int, Action]], *,
           seats: Sequence[int] | None = None, worlds: int = WORLDS,
           confirm: int = CONFIRM_WORLDS, seed: Any = 0,
           threshold: float = BLUNDER) -> list[Mark]:
    """Replay a deal from `start` through `moves` ((seat, action) in order) and mark each
    move of `seats` (default: all) whose chance fell at least `threshold` below the best
    move's (sampled gaps borne out on `confirm` fresh deals); the costliest first."""
    rng = random.Random(seed)
    deal = start.copy()
    marks: list[Mark] = []
    for index, (seat, action) in enumerate(moves):
        if (seats is None or seat in seats) and not isinstance(action, ExchangeTrump):
            legal = deal.legal_actions(seat)
            if action in legal and len(legal) > 1:
                view = deal.view(seat)
                values, exact = chances(view, worlds=worlds, rng=rng)
                better, before = values[0]
                after = dict(values)[action]
                if before - after >= threshold and not exact:
                    before, after, sure = confirmed(view, better, action, worlds=confirm, rng=rng)
                    if not sure:
                        after = before
                if before - after >= threshold:
                    marks.append(Mark(index, seat, action, better, before, after, exact))
        deal.apply(seat, action)
    marks.sort(key=lambda m: (-m.drop, m.number))
    return marks


def _seat(view: View) -> int:
    seat = view["seat"]
    assert seat is not None
    return seat


def _why(view: View, action: Action, wins: bool) -> tuple[str, str | None]:
    """A reason code for `action`, and the card it names."""
    trump = view["trump"]
    hand = [Card.parse(c) for c in view["hand"] or []]
    if isinstance(action, Take):
        unbeaten = [Card.parse(a) for a, d in view["table"] if a and d is None]
        if any(not any(beats(c, a, trump) for c in hand) for a in unbeaten):
            return "must_take", None  # a card nothing in the hand beats
    if wins:
        return "wins", _card(action)
    if isinstance(action, ExchangeTrump):
        return "exchange", view["trump_card"]  # R25: the face-up trump is worth more
    if isinstance(action, Take):
        return "take", None
    if isinstance(action, Pass):
        return ("stop", None) if view["table"] else ("pass", None)
    if isinstance(action, Transfer):
        return "transfer", action.card.code  # R32
    if isinstance(action, Defend):
        could = [c for c in hand if beats(c, action.attack, trump)]
        if action.card.suit != trump and any(c.suit == trump for c in could):
            return "keeps_trumps", action.card.code
        if action.card == min(could, key=_strength(trump)):
            return "cheapest", action.card.code
        return "beat", action.card.code
    if isinstance(action, Attack):
        if view["table"]:
            return "throw_in", action.card.code
        plain = [c for c in hand if c.suit != trump]
        if plain and action.card == min(plain, key=_strength(trump)):
            return "lowest", action.card.code
        return "lead", action.card.code
    return "best", None  # pragma: no cover


def _card(action: Action) -> str | None:
    card = getattr(action, "card", None)
    return card.code if isinstance(card, Card) else None


def _strength(trump: str) -> Any:
    return lambda c: (c.suit == trump, c.rank)


__all__ = ["Advice", "Mark", "chances", "confirmed", "hint", "review"]
