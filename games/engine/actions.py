"""The actions a seat can take, and their one text form (tokens). Card arguments accept a
Card or its code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import InvalidAction


@dataclass(frozen=True, slots=True)
class Attack:
    """Lead or throw in one card (R7, R8, R13, R15)."""

    card: Card

    def __init__(self, card: Card | str) -> None:
        object.__setattr__(self, "card", Card.parse(card))

    def to_dict(self) -> dict[str, Any]:
        return {"type": "attack", "card": self.card.code}

    def token(self) -> str:
        return "attack:" + self.card.code


@dataclass(frozen=True, slots=True)
class Defend:
    """Beat the table's attack card `attack` with `card` (R12)."""

    attack: Card
    card: Card

    def __init__(self, attack: Card | str, card: Card | str) -> None:
        object.__setattr__(self, "attack", Card.parse(attack))
        object.__setattr__(self, "card", Card.parse(card))

    def to_dict(self) -> dict[str, Any]:
        return {"type": "defend", "attack": self.attack.code, "card": self.card.code}

    def token(self) -> str:
        return f"defend:{self.attack.code}:{self.card.code}"


@dataclass(frozen=True, slots=True)
class Take:
    """The defender gives up the bout (R14)."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "take"}

    def token(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class Pass:
    """An attacker ends their turn (R13, R15)."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass"}

    def token(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Transfer:
    """Perevodnoy: pass the attack on with a card of the same rank (R32)."""

    card: Card

    def __init__(self, card: Card | str) -> None:
        object.__setattr__(self, "card", Card.parse(card))

    def to_dict(self) -> dict[str, Any]:
        return {"type": "transfer", "card": self.card.code}

    def token(self) -> str:
        return "transfer:" + self.card.code


@dataclass(frozen=True, slots=True)
class ExchangeTrump:
    """Swap the trump 6 for the face-up trump card (R25-R27); allowed out of turn."""

    def to_dict(self) -> dict[str, Any]:
        return {"type": "exchange"}

    def token(self) -> str:
        return "exchange"


Action = Attack | Defend | Take | Pass | Transfer | ExchangeTrump
ACTION_TYPES = (Attack, Defend, Take, Pass, Transfer, ExchangeTrump)
_BY_NAME: dict[str, type[Action]] = {
    "attack": Attack, "defend": Defend, "take": Take, "pass": Pass,
    "transfer": Transfer, "exchange": ExchangeTrump,
}
_ARGS: dict[type[Action], tuple[str, ...]] = {
    Attack: ("card",), Defend: ("attack", "card"), Transfer: ("card",),
}
_SIMPLE: dict[str, Action] = {"take": Take(), "pass": Pass(), "exchange": ExchangeTrump()}


def _card(text: str, what: str) -> Card:
    if len(text) != 2 or text != text.upper():
        raise InvalidAction(f"{what} must be a card code such as 'TH', not {text!r}.")
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise InvalidAction(str(exc)) from None


def action_from_token(s: object) -> Action:
    """The action a token names: `attack:TH`, `defend:7S:8S` (attack card, then the card
    that beats it), `transfer:TH`, `take`, `pass`, `exchange`. InvalidAction otherwise.

    >>> action_from_token("defend:7S:8S")
    Defend(attack=Card('7S'), card=Card('8S'))
    >>> action_from_token("defend:7S:8S").token()
    'defend:7S:8S'
    """
    if not isinstance(s, str):
        raise InvalidAction(f"An action is a text such as 'attack:TH', not {type(s).__name__}.")
    if len(s) > 16:
        raise InvalidAction("That is not an action: it is too long.")
    simple = _SIMPLE.get(s)
    if simple is not None:
        return simple
    kind, _, rest = s.partition(":")
    parts = rest.split(":") if rest else []
    if kind in ("attack", "transfer") and len(parts) == 1:
        card = _card(parts[0], "The card")
        return Attack(card) if kind == "attack" else Transfer(card)
    if kind == "defend" and len(parts) == 2:
        return Defend(_card(parts[0], "The attack card"), _card(parts[1], "The beating card"))
    raise InvalidAction(
        f"{s!r} is not an action: use attack:CARD, defend:ATTACK:CARD, transfer:CARD, "
        "take, pass or exchange."
    )


def action_from_dict(d: object) -> Action:
    """Parse {"type": "defend", "attack": "9S", "card": "TS"}; InvalidAction on anything else."""
    if not isinstance(d, dict):
        raise InvalidAction(f"An action is a mapping with a 'type', not {type(d).__name__}.")
    cls = _BY_NAME.get(d.get("type", ""))  # a missing type: "", not an action either
    if cls is None:
        raise InvalidAction(f"Unknown action type {d.get('type')!r}: use one of {', '.join(_BY_NAME)}.")
    args = _ARGS.get(cls, ())
    missing = [a for a in args if a not in d]
    if missing:
        raise InvalidAction(f"A {d['type']} action needs {', '.join(missing)}.")
    try:
        return cls(*(d[a] for a in args))
    except InvalidAction:
        raise
    except ValueError as exc:
        raise InvalidAction(str(exc)) from None
