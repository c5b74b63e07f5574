"""The actions a seat can take (ENGINE_API). Card arguments accept a Card or its code."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True, slots=True)
class Attack:
    """Lead or throw in one card (R7, R8, R13, R15)."""

    card: Card

    def __post_init__(self):
        object.__setattr__(self, "card", Card.parse(self.card))

    def to_dict(self) -> dict:
        return {"type": "attack", "card": self.card.code}


@dataclass(frozen=True, slots=True)
class Defend:
    """Beat the table's attack card `attack` with `card` (R12)."""

    attack: Card
    card: Card

    def __post_init__(self):
        object.__setattr__(self, "attack", Card.parse(self.attack))
        object.__setattr__(self, "card", Card.parse(self.card))

    def to_dict(self) -> dict:
        return {"type": "defend", "attack": self.attack.code, "card": self.card.code}


@dataclass(frozen=True, slots=True)
class Take:
    """The defender gives up the bout (R14)."""

    def to_dict(self) -> dict:
        return {"type": "take"}


@dataclass(frozen=True, slots=True)
class Pass:
    """An attacker ends their turn (R13, R15)."""

    def to_dict(self) -> dict:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Transfer:
    """Perevodnoy: pass the attack on with a card of the same rank (R32)."""

    card: Card

    def __post_init__(self):
        object.__setattr__(self, "card", Card.parse(self.card))

    def to_dict(self) -> dict:
        return {"type": "transfer", "card": self.card.code}


@dataclass(frozen=True, slots=True)
class ExchangeTrump:
    """Swap the trump 6 for the face-up trump card (R25-R27); allowed out of turn."""

    def to_dict(self) -> dict:
        return {"type": "exchange"}


ACTION_TYPES = (Attack, Defend, Take, Pass, Transfer, ExchangeTrump)
_BY_NAME = {"attack": Attack, "defend": Defend, "take": Take, "pass": Pass,
            "transfer": Transfer, "exchange": ExchangeTrump}
_ARGS = {Attack: ("card",), Defend: ("attack", "card"), Transfer: ("card",)}


def action_from_dict(d) -> Attack | Defend | Take | Pass | Transfer | ExchangeTrump:
    """Parse {"type": "defend", "attack": "9S", "card": "TS"}; ValueError on anything else."""
    if not isinstance(d, dict):
        raise ValueError(f"An action is a mapping with a 'type', not {type(d).__name__}.")
    cls = _BY_NAME.get(d.get("type"))
    if cls is None:
        raise ValueError(f"Unknown action type {d.get('type')!r}: use one of {', '.join(_BY_NAME)}.")
    args = _ARGS.get(cls, ())
    missing = [a for a in args if a not in d]
    if missing:
        raise ValueError(f"A {d['type']} action needs {', '.join(missing)}.")
    return cls(*(d[a] for a in args))
