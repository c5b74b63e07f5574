"""Computer players. A bot sees only `deal.view(seat)`, like a person at the table.

>>> from games.engine import Deal, Rules
>>> from games.bots import choose_action
>>> deal = Deal.start(Rules(players=2), seed=4)
>>> seat = deal.to_act
>>> action = choose_action("medium", deal.view(seat), seed=1)
>>> action in deal.legal_actions(seat)
True

Levels (`LEVELS`, labels in `LEVEL_LABELS`, default thinking time in `DEFAULT_BUDGETS`):
- easy: random legal moves with a bias to sensible ones;
- medium: the heuristic player (`heuristic.py`);
- hard: determinized Monte Carlo search over deals consistent with the view, playouts by
  the heuristic, exact search once the hidden cards are known (`search.py`), ~1 s a move;
- expert: at two hands, information-set Monte Carlo tree search (`ismcts.py`) over both
  seats' moves, each iteration on a sampled deal, finished by a noisy playout (a random
  move at a quarter of the steps) cut at the second bout and scored by `leaf.py`; at three
  hands or more and in teams, Hard's search with noisy whole playouts and twice the time.

Bots are pure Python (no Django) and read the game only through the engine's public API
(`deal.view(seat)`, `Deal.sample`, `deal.key`): `choose_action(level, view)` returns an
action; `bot_move` is the same for a Celery task, with the action's token as the result.
"""

from __future__ import annotations

from typing import Any

from games.engine import Action, View

from .base import Bot, EasyBot, MediumBot
from .ismcts import ISMCTSBot
from .search import EXPERT_EPSILON, EXPERT_HORIZON, EXPERT_PARAMS, SearchBot

LEVELS = ("easy", "medium", "hard", "expert")
# Levels kept for the arena (bench.arena plays them; the site does not offer them):
# expert-flat, the Expert before its tree search (flat Monte Carlo, docs/arena/expert.md).
TRIAL_LEVELS = ("expert-flat",)
LEVEL_LABELS = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert"}
DEFAULT_BUDGETS = {"easy": 0.0, "medium": 0.0, "hard": 1.0, "expert": 0.48}
# Expert's time at tables of three or more and teams, where its playouts are not cut (no
# evaluation fitted there): its former 2 s, unmeasured at 0.48 s (docs/arena/expert.md).
EXPERT_WIDE_BUDGET = 2.0


def make_bot(level: str, *, seed: Any = None, budget: float | None = None) -> Bot:
    """A bot of that level; `budget` overrides the level's default thinking time."""
    if level == "easy":
        return EasyBot(seed=seed)
    if level == "medium":
        return MediumBot(seed=seed)
    if level == "hard":
        return SearchBot(seed=seed, budget=DEFAULT_BUDGETS["hard"] if budget is None else budget,
                         level="hard")
    if level in ("expert", "expert-flat"):
        kind = ISMCTSBot if level == "expert" else SearchBot
        return kind(seed=seed, budget=DEFAULT_BUDGETS["expert"] if budget is None else budget,
                    params=EXPERT_PARAMS, level=level, epsilon=EXPERT_EPSILON,
                    horizon=EXPERT_HORIZON, wide=EXPERT_WIDE_BUDGET / DEFAULT_BUDGETS["expert"])
    raise ValueError(f"Unknown bot level {level!r}: use one of {', '.join(LEVELS)}.")


def choose_action(level: str, view: View, *, budget: float | None = None,
                  seed: Any = None) -> Action:
    """The action a bot of `level` plays from `view` (= deal.view(seat)), within `budget`
    seconds (None: the level's default). The result is one of the view's legal actions."""
    return make_bot(level, seed=seed, budget=budget).act(view)


def bot_move(level: str, view: View, *, budget: float | None = None, seed: Any = None) -> str:
    """`choose_action` for a Celery task: JSON in, the action's token out.

    A move takes about its budget (Hard 1 s, Expert 0.48 s, 2 s at three players or more;
    Easy and Medium a millisecond),
    so a task with `soft_time_limit = budget + 2` never times out in normal operation.
    """
    return choose_action(level, view, budget=budget, seed=seed).token()


__all__ = ["Bot", "LEVELS", "TRIAL_LEVELS", "LEVEL_LABELS", "DEFAULT_BUDGETS", "make_bot",
           "choose_action", "bot_move"]
