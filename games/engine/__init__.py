"""The rules of Podkidnoy Durak (docs/rules.md) as a pure library: standard library only.

>>> from games.engine import Rules, Deal, Attack
>>> deal = Deal.start(Rules(players=2), seed=1)
>>> deal.talon_size
24
"""

from .actions import (
    Action,
    Attack,
    Defend,
    ExchangeTrump,
    Pass,
    Take,
    Transfer,
    action_from_dict,
    action_from_token,
)
from .cards import ALL_CARDS, LOWEST_RANK, Card, beats, full_deck
from .deal import Deal
from .errors import IllegalAction, InvalidAction
from .infostate import View
from .match import Match
from .outcome import Outcome, Termination
from .rules import Rules

__all__ = [
    "Card", "Rules", "Deal", "Match", "Outcome", "Termination", "IllegalAction",
    "Attack", "Defend", "Take", "Pass", "Transfer", "ExchangeTrump",
    "Action", "InvalidAction", "View", "action_from_token", "action_from_dict",
    "beats", "full_deck", "ALL_CARDS", "LOWEST_RANK",
]
