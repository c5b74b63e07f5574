"""A game's rows as every change reads and writes them: the game row (locked or not), its
seats in order with their players, the changed columns of a row and a new row (the move's
log line) (docs/design.md, "How a move flows").

The ORM builds a statement's SQL again each time it runs it; for the statements of a move
that was most of the move's own time. Here the SQL is written out once per database and
process from the models' fields (docs/design.md, "Public APIs only") and run through
`connection.cursor()`: read columns are converted by the converters the field and the
backend give (`get_db_converters`, as the ORM converts them), objects made by
`Model.from_db`; written values are prepared as the ORM prepares them (`pre_save`,
`get_db_prep_save`). There is no signal for these models' saves to skip.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.transaction import TransactionManagementError

from ..kept import Kept
from ..models import Game, Seat

Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


@dataclass(frozen=True)
class Table:
    """One model's columns in a SELECT: where they start, their attnames, and where its
    primary key is among them."""

    model: type[Model]
    start: int
    names: list[str]
    pk: int


@dataclass(frozen=True)
class Select:
    sql: str
    tables: list[Table]
    converters: list[tuple[int, list[Converter], Any]]  # column, its converters, its column


def _select(connection: BaseDatabaseWrapper, model: type[Model], *,
            join: tuple[str, type[Model]] | None = None, where: str,
            order_by: str | None = None, lock: bool = False) -> Select:
    """SELECT every concrete column of `model` (and of the model `join` names by its
    foreign key, LEFT JOINed) WHERE the field `where` is the one parameter."""
    quote = connection.ops.quote_name
    columns: list[str] = []
    tables: list[Table] = []
    converters: list[tuple[int, list[Converter], Any]] = []
    for each in [model] + ([join[1]] if join else []):
        meta = each._meta  # Model._meta is Django's documented model API
        fields = list(meta.concrete_fields)
        names = [f.attname for f in fields]
        tables.append(Table(each, len(columns), names, names.index(meta.pk.attname)))
        for field in fields:
            assert field.column is not None  # a concrete field has its column
            col = field.get_col(meta.db_table)
            functions = [*connection.ops.get_db_converters(col),
                         *field.get_db_converters(connection)]
            if functions:
                converters.append((len(columns), functions, col))
            columns.append(f"{quote(meta.db_table)}.{quote(field.column)}")
    meta = model._meta
    sql = f"SELECT {', '.join(columns)} FROM {quote(meta.db_table)}"
    if join:
        fk = meta.get_field(join[0])
        other = join[1]._meta
        assert isinstance(fk, Field) and fk.column is not None and other.pk.column is not None
        sql += (f" LEFT OUTER JOIN {quote(other.db_table)} ON ({quote(meta.db_table)}."
                f"{quote(fk.column)} = {quote(other.db_table)}.{quote(other.pk.column)})")
    key = meta.get_field(where)
    assert isinstance(key, Field) and key.column is not None
    sql += f" WHERE {quote(meta.db_table)}.{quote(key.column)} = %s"
    if order_by:
        ordered = meta.get_field(order_by)
        assert isinstance(ordered, Field) and ordered.column is not None
        sql += f" ORDER BY {quote(meta.db_table)}.{quote(ordered.column)} ASC"
    if lock and connection.features.has_select_for_update:
        sql += " " + connection.ops.for_update_sql()
    return Select(sql, tables, converters)


class Statement:
    """A SELECT whose only parameter is an id, written out once per database (`make`):
    `rows(id)` runs it and converts its columns as the ORM would."""

    def __init__(self, name: str, make: Callable[[BaseDatabaseWrapper], Select]):
        self.make = make
        self.made: Kept[tuple[str, str], Select] = Kept(8, name=f"services.rows.{name}")

    def rows(self, id_: int, alias: str = DEFAULT_DB_ALIAS) -> tuple[Select, list[list[Any]]]:
        connection = connections[alias]
        select = self.made.get_or_make((alias, connection.vendor), lambda: self.make(connection))
        with connection.cursor() as cursor:
            cursor.execute(select.sql, [id_])
            rows = [list(row) for row in cursor.fetchall()]
        for row in rows:
            for i, functions, col in select.converters:
                value = row[i]
                for convert in functions:
                    value = convert(value, col, connection)
                row[i] = value
        return select, rows


def _make(table: Table, row: list[Any], alias: str) -> Model | None:
    values = row[table.start:table.start + len(table.names)]
    if values[table.pk] is None:
        return None  # the LEFT JOIN found nothing (an empty seat)
    return table.model.from_db(alias, table.names, values)


_GAME = Statement("game", lambda c: _select(c, Game, where="id"))
_LOCKED_GAME = Statement("locked_game", lambda c: _select(c, Game, where="id", lock=True))
_SEATS = Statement("seats", lambda c: _select(
    c, Seat, join=("player", Seat.player.field.related_model), where="game", order_by="number"))


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
    select, rows = (_LOCKED_GAME if lock else _GAME).rows(id_)
    if not rows:
        return None
    found = _make(select.tables[0], rows[0], DEFAULT_DB_ALIAS)
    assert isinstance(found, Game)
    return found


def seats(game: Game) -> list[Seat]:
    """The game's seats in order, each with its game (`game`) and player."""
    alias = router.db_for_read(Seat, instance=game) or DEFAULT_DB_ALIAS
    select, rows = _SEATS.rows(game.pk, alias)
    seat_table, player_table = select.tables
    out = []
    for row in rows:
        seat = _make(seat_table, row, alias)
        assert isinstance(seat, Seat)
        seat.game = game
        seat.player = _make(player_table, row, alias)  # type: ignore[assignment]
        out.append(seat)
    return out


_WRITES: Kept[tuple[object, ...], tuple[str, list[Field[Any, Any]]]] = Kept(
    64, name="services.rows.writes")


def _writing(model: type[Model], names: tuple[str, ...] | None,
             connection: BaseDatabaseWrapper) -> tuple[str, list[Field[Any, Any]]]:
    """The UPDATE of `names` (None: the INSERT of a new row) and its fields, made once."""

    def make() -> tuple[str, list[Field[Any, Any]]]:
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
        return sql, fields

    return _WRITES.get_or_make((model, names, connection.alias, connection.vendor), make)


def update(obj: Model, names: Sequence[str]) -> None:
    """Write the columns `names` of `obj`'s row, as `obj.save(update_fields=names)` would."""
    connection = connections[router.db_for_write(type(obj), instance=obj) or DEFAULT_DB_ALIAS]
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
