"""A committed change as the game's group event carries it, so that no other server
process reads the game again to push it (docs/design.md, "The live layer").

`carry` writes the game row and its seats, as committed, in plain values (msgpack and
JSON safe); `restore` makes the rows again from them, taking the players (and their
ratings) from the table's previous version that the process keeps. The event travels
between server processes through the channel layer (Redis) only: it holds the whole
deal, hidden cards too, and no socket ever sends it on; each reader is still shown only
`deal.view(their seat)`.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import DateField, DateTimeField, DurationField, Field, Model

from ..models import Game, Seat

type Plain = dict[str, Any]


def _fields(model: type[Model]) -> list[Field[Any, Any]]:
    return list(model._meta.concrete_fields)


def _plain(field: Field[Any, Any], value: object) -> object:
    if value is None:
        return None
    if isinstance(value, datetime.timedelta):
        return [value.days, value.seconds, value.microseconds]
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    return value


def _value(field: Field[Any, Any], value: object) -> object:
    if value is None:
        return None
    if isinstance(field, DurationField) and isinstance(value, list | tuple):
        days, seconds, micro = value
        return datetime.timedelta(days=days, seconds=seconds, microseconds=micro)
    if isinstance(field, DateTimeField | DateField):
        return field.to_python(value)
    return value


def _row(obj: Model) -> list[object]:
    return [_plain(f, getattr(obj, f.attname)) for f in _fields(type(obj))]


def carry(game: Game, seats: list[Seat]) -> Plain:
    """The game and its seats as committed, in plain values."""
    return {"game": _row(game), "seats": [_row(s) for s in seats]}


def _make[M: Model](model: type[M], values: object) -> M | None:
    fields = _fields(model)
    if not isinstance(values, list) or len(values) != len(fields):
        return None  # another release's event: read the rows instead
    return model.from_db(None, [f.attname for f in fields],
                         [_value(f, v) for f, v in zip(fields, values, strict=True)])


def restore(carried: object, before: list[Seat]) -> tuple[Game, list[Seat]] | None:
    """The game and seats of `carried`, each seat with its player taken from `before`
    (the same seats at an earlier version); None when a seat has a player `before` does
    not know (someone sat down) or the event is not one `carry` made."""
    if not isinstance(carried, dict) or not isinstance(carried.get("seats"), list):
        return None
    game = _make(Game, carried.get("game"))
    players = {s.player_id: s.player for s in before if s.player_id is not None}
    seats: list[Seat] = []
    for values in carried["seats"]:
        seat = _make(Seat, values)
        if seat is None or game is None or (seat.player_id is not None
                                            and seat.player_id not in players):
            return None
        Seat.game.field.set_cached_value(seat, game)
        if seat.player_id is not None:
            Seat.player.field.set_cached_value(seat, players[seat.player_id])
        seats.append(seat)
    if game is None:
        return None
    return game, seats
