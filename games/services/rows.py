"""A game's rows as every change reads and writes them: the game row (locked or not), its
seats in order with their players, the changed columns of a row and a new row (the move's
log line) (docs/design.md, "How a move flows").

The ORM compiles a statement's SQL again each time it runs it; for the statements of a
move that was most of the move's own time. Here each is compiled once per database and
process, then run with new values: read columns are converted as the ORM converts them and
objects made as it makes them (`Model.from_db`, the seat's game and player cached on it);
written values are prepared as it prepares them (`pre_save`, `get_db_prep_save`). There is
no signal for these models' saves to skip.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model, QuerySet
from django.db.transaction import TransactionManagementError

from ..models import Game, Seat

_ID = -1  # the id the statement is compiled with; the real one takes its place


@dataclass(frozen=True)
class _Compiled:
    sql: str
    converters: list[tuple[int, list[Any], Any]]  # column, its converters, its expression
    # per model: its columns, their attnames and where its primary key is among them
    models: list[tuple[type[Model], list[int], list[str], int]]


class Statement:
    """A queryset of one model (and what it select_relates) whose only parameter is an id,
    compiled once per database: `rows(id)` runs it and converts its columns as the
    queryset would."""

    def __init__(self, queryset: Callable[[int], QuerySet[Any]]):
        self._queryset = queryset
        self._compiled: dict[tuple[str, str], _Compiled] = {}

    def _compile(self, alias: str) -> _Compiled:
        connection = connections[alias]
        key = (alias, connection.vendor)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiler = self._queryset(_ID).query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            if list(params) != [_ID]:
                raise ValueError(f"a statement takes the id alone, not {params!r}")
            expressions = [expression for expression, _, _ in compiler.select]
            converters = [(i, functions, expression) for i, (functions, expression)
                          in compiler.get_converters(expressions).items()]
            models = []
            infos = [compiler.klass_info]
            while infos:  # the model, then what it select_relates
                info = infos.pop(0)
                columns = list(info["select_fields"])
                names = [expressions[i].target.attname for i in columns]
                models.append((info["model"], columns, names,
                               names.index(info["model"]._meta.pk.attname)))
                infos.extend(info.get("related_klass_infos", []))
            compiled = self._compiled[key] = _Compiled(sql, converters, models)
        return compiled

    def rows(self, id_: int, alias: str = DEFAULT_DB_ALIAS) -> tuple[_Compiled, list[list[Any]]]:
        compiled = self._compile(alias)
        connection = connections[alias]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [id_])
            rows = [list(row) for row in cursor.fetchall()]
        for row in rows:
            for i, functions, expression in compiled.converters:
                value = row[i]
                for convert in functions:
                    value = convert(value, expression, connection)
                row[i] = value
        return compiled, rows


def _make(model: type[Model], columns: Sequence[int], names: list[str], pk: int,
          row: list[Any], alias: str) -> Model | None:
    values = [row[i] for i in columns]
    if values[pk] is None:
        return None  # the LEFT JOIN found nothing (an empty seat)
    return model.from_db(alias, names, values)


_GAME = Statement(lambda id_: Game.objects.filter(pk=id_))
_LOCKED_GAME = Statement(lambda id_: Game.objects.select_for_update().filter(pk=id_))
_SEATS = Statement(lambda id_: Seat.objects.filter(game_id=id_).select_related("player")
                   .order_by("number"))


def game(game_id: object, *, lock: bool = False) -> Game | None:
    """The game row (locked until the transaction ends, `lock`); None when there is no
    such game, or `game_id` is no id at all (as the ORM answers an id out of range)."""
    try:
        id_ = int(game_id)  # type: ignore[call-overload]  # anything a URL or a frame brings
    except (TypeError, ValueError):
        return None
    low, high = connections[DEFAULT_DB_ALIAS].ops.integer_field_range(
        Game._meta.pk.get_internal_type())
    if isinstance(game_id, bool) or not (low or 0) <= id_ <= (high or id_):
        return None
    if lock and connections[DEFAULT_DB_ALIAS].get_autocommit():
        raise TransactionManagementError("a game row is locked inside a transaction only")
    compiled, rows = (_LOCKED_GAME if lock else _GAME).rows(id_)
    if not rows:
        return None
    found = _make(*compiled.models[0], rows[0], DEFAULT_DB_ALIAS)
    assert isinstance(found, Game)
    return found


def seats(game: Game) -> list[Seat]:
    """The game's seats in order, each with its game (`game`) and player."""
    compiled, rows = _SEATS.rows(game.pk)
    seat_model, player_model = compiled.models
    alias = game._state.db or DEFAULT_DB_ALIAS
    out = []
    for row in rows:
        seat = _make(*seat_model, row, alias)
        assert isinstance(seat, Seat)
        Seat.game.field.set_cached_value(seat, game)
        Seat.player.field.set_cached_value(seat, _make(*player_model, row, alias))
        out.append(seat)
    return out


_WRITES: dict[tuple[object, ...], tuple[str, list[Field[Any, Any]]]] = {}


def _writing(model: type[Model], names: tuple[str, ...] | None,
             connection: BaseDatabaseWrapper) -> tuple[str, list[Field[Any, Any]]]:
    """The UPDATE of `names` (None: the INSERT of a new row) and its fields, made once."""
    key = (model, names, connection.alias, connection.vendor)
    made = _WRITES.get(key)
    if made is None:
        meta = model._meta

        def quote(field: Field[Any, Any]) -> str:
            assert field.column is not None  # a concrete field has its column
            return connection.ops.quote_name(field.column)

        table = connection.ops.quote_name(meta.db_table)
        if names is None:
            fields = [f for f in meta.concrete_fields if f is not meta.pk]
            sql = (f"INSERT INTO {table} ({', '.join(quote(f) for f in fields)})"
                   f" VALUES ({', '.join(['%s'] * len(fields))})")
        else:
            fields = [meta.get_field(name) for name in names]  # type: ignore[misc]
            sql = (f"UPDATE {table} SET {', '.join(f'{quote(f)} = %s' for f in fields)}"
                   f" WHERE {quote(meta.pk)} = %s")
        made = _WRITES[key] = (sql, fields)
    return made


def update(obj: Model, names: Sequence[str]) -> None:
    """Write the columns `names` of `obj`'s row, as `obj.save(update_fields=names)` would."""
    connection = connections[obj._state.db or DEFAULT_DB_ALIAS]
    sql, fields = _writing(type(obj), tuple(names), connection)
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, obj.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"{type(obj).__name__} {obj.pk}: no row to update")


def insert(obj: Model) -> None:
    """Write `obj` as a new row (its id is left unknown: the move's log line is not read
    again in the change that writes it)."""
    connection = connections[router.db_for_write(type(obj), instance=obj)]
    sql, fields = _writing(type(obj), None, connection)
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
