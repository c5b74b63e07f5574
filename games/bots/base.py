"""What every computer player shares: it is given one seat's view, nothing else."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from games.engine import (
    Action,
    Attack,
    Deal,
    Defend,
    ExchangeTrump,
    Transfer,
    View,
    action_from_token,
)

from .heuristic import DEFAULT, Params, heuristic_action

EXCHANGE = ExchangeTrump()


class Bot:
    """A computer player. `act(view, budget)` returns one of the view's legal actions.

    `view` is `deal.view(seat)`: the seat's own hand, the public table and history, and
    its legal actions. That is all a bot ever sees (no other hand, no talon order).
    `budget` is the thinking time in seconds (None: the level's default).
    """

    level = "base"
    default_budget = 0.0
    # What a budget counts: wall-clock time, or (the arena's --cpu-clock) CPU time.
    clock: Callable[[], float] = staticmethod(time.perf_counter)

    def __init__(self, *, seed: Any = None):
        self.rng = random.Random(seed)

    def act(self, view: View, budget: float | None = None) -> Action:
        legal = legal_actions(view)
        if len(legal) == 1:
            return legal[0]
        if EXCHANGE in legal:
            return EXCHANGE  # R25: always worth it, in or out of turn
        return self.decide(view, legal, self.default_budget if budget is None else budget)

    def decide(self, view: View, legal: list[Action], budget: float) -> Action:  # pragma: no cover
        raise NotImplementedError


def legal_actions(view: View) -> list[Action]:
    if not isinstance(view, dict) or "legal_actions" not in view:
        raise ValueError("A bot needs a seat's view: deal.view(seat).")
    legal = [action_from_token(t) for t in view["legal_actions"]]
    if not legal:
        raise ValueError("This seat has nothing to do right now.")
    return legal


def _seat(view: View) -> int:
    seat = view["seat"]
    if seat is None:
        raise ValueError("A spectator's view has no seat to play for.")
    return seat


def _match(action: Action, legal: list[Action]) -> Action:
    """The equal action from the view's list (so the bot returns exactly one of them)."""
    for a in legal:
        if a == action:
            return a
    raise AssertionError(f"bot chose {action!r}, not a legal action")  # pragma: no cover


class MediumBot(Bot):
    """The heuristic player: low non-trumps first, the cheapest beating card, takes when
    defending would cost too much, throws in cheap cards, exchanges, transfers."""

    level = "medium"

    def __init__(self, *, seed: Any = None, params: Params = DEFAULT):
        super().__init__(seed=seed)
        self.params = params

    def decide(self, view: View, legal: list[Action], budget: float) -> Action:
        # The heuristic reads only the seat's own hand and public facts, so any deal
        # consistent with the view gives the same choice.
        deal = Deal.sample(view, self.rng)
        return _match(heuristic_action(deal, _seat(view), None, self.params), legal)


class EasyBot(Bot):
    """Random legal moves with a bias to sensible ones: half the time the heuristic's
    move, otherwise any legal move, though rarely a trump while cheaper cards will do."""

    level = "easy"

    def decide(self, view: View, legal: list[Action], budget: float) -> Action:
        rng = self.rng
        if rng.random() < 0.5:
            deal = Deal.sample(view, rng)
            return _match(heuristic_action(deal, _seat(view)), legal)
        trump = view["trump"]
        weights = [0.25 if isinstance(a, Attack | Defend | Transfer) and a.card.suit == trump
                   else 1.0 for a in legal]
        return rng.choices(legal, weights)[0]
