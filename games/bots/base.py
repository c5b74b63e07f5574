"""What every computer player shares: it is given one seat's view, nothing else."""

from __future__ import annotations

import random

from games.engine import ExchangeTrump, action_from_dict

from .determinize import Determinizer
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

    def __init__(self, *, seed=None):
        self.rng = random.Random(seed)

    def act(self, view: dict, budget: float | None = None):
        legal = legal_actions(view)
        if len(legal) == 1:
            return legal[0]
        if EXCHANGE in legal:
            return EXCHANGE  # R25: always worth it, in or out of turn
        return self.decide(view, legal, self.default_budget if budget is None else budget)

    def decide(self, view: dict, legal: list, budget: float):  # pragma: no cover - abstract
        raise NotImplementedError


def legal_actions(view: dict) -> list:
    if not isinstance(view, dict) or "legal_actions" not in view:
        raise ValueError("A bot needs a seat's view: deal.view(seat).")
    legal = [action_from_dict(d) for d in view["legal_actions"]]
    if not legal:
        raise ValueError("This seat has nothing to do right now.")
    return legal


def _match(action, legal):
    """The equal action from the view's list (so the bot returns exactly one of them)."""
    for a in legal:
        if a == action:
            return a
    raise AssertionError(f"bot chose {action!r}, not a legal action")  # pragma: no cover


class MediumBot(Bot):
    """The heuristic player: low non-trumps first, the cheapest beating card, takes when
    defending would cost too much, throws in cheap cards, exchanges, transfers."""

    level = "medium"

    def __init__(self, *, seed=None, params: Params = DEFAULT):
        super().__init__(seed=seed)
        self.params = params

    def decide(self, view, legal, budget):
        # The heuristic reads only the seat's own hand and public facts, so any deal
        # consistent with the view gives the same choice.
        deal = Determinizer(view).sample(self.rng)
        return _match(heuristic_action(deal, view["seat"], None, self.params), legal)


class EasyBot(Bot):
    """Random legal moves with a bias to sensible ones: half the time the heuristic's
    move, otherwise any legal move, though rarely a trump while cheaper cards will do."""

    level = "easy"

    def decide(self, view, legal, budget):
        rng = self.rng
        if rng.random() < 0.5:
            deal = Determinizer(view).sample(rng)
            return _match(heuristic_action(deal, view["seat"]), legal)
        trump = view["trump"]
        weights = [0.25 if getattr(a, "card", None) is not None and a.card.suit == trump else 1.0
                   for a in legal]
        return rng.choices(legal, weights)[0]
