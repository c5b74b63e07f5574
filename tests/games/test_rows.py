"""games.services.rows: the game and seat rows a move reads with SQL compiled once are the
rows the ORM reads, value for value, and a bad id finds nothing."""

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game, Move, Seat
from games.services import rows

pytestmark = pytest.mark.django_db


def _values(obj):
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.fixture
def bank_game(alice, classic):
    """A game in play with a time bank, a computer player and an empty seat's worth of
    kinds: durations, times, JSON, booleans and nulls in its rows."""
    game = services.create_game(alice, classic, players=3, bots=1,
                                move_time=timedelta(hours=2), bank_time=timedelta(hours=5),
                                increment=timedelta(minutes=3))
    return game


def test_the_game_and_its_seats_read_as_the_orm_reads_them(bank_game, bob):
    services.join_game(bank_game.pk, bob)  # the table is full: the deal starts
    orm_game = Game.objects.get(pk=bank_game.pk)
    orm_seats = list(orm_game.seats.select_related("player").order_by("number"))
    assert orm_game.deadline is not None and orm_game.state

    with transaction.atomic():
        game = rows.game(bank_game.pk, lock=True)
    assert _values(game) == _values(orm_game)
    assert game.match().deal.to_json() == orm_game.match().deal.to_json()
    seats = rows.seats(game)
    assert [_values(s) for s in seats] == [_values(s) for s in orm_seats]
    assert [s.player and _values(s.player) for s in seats] == [
        s.player and _values(s.player) for s in orm_seats]
    assert any(s.player is None for s in seats)  # the computer's seat: no player
    with CaptureQueriesContext(connection) as later:
        assert all(s.game is game for s in seats)
        assert [s.player for s in seats] == [s.player for s in orm_seats]
    assert not later.captured_queries  # the game and players came with the seats


def test_an_open_table_has_its_empty_seats(bank_game):
    seats = rows.seats(rows.game(str(bank_game.pk)))
    assert [(s.number, s.player_id, s.bot_level) for s in seats] == list(
        Seat.objects.filter(game=bank_game).order_by("number")
        .values_list("number", "player_id", "bot_level"))


@pytest.mark.parametrize("bad", ["x", None, "", 2**70, -(2**70), True, [1], "1.5"])
def test_a_bad_id_finds_no_game(bank_game, bad):
    assert rows.game(bad) is None


def test_a_row_is_locked_inside_a_transaction_only(bank_game, monkeypatch):
    monkeypatch.setattr(connection, "get_autocommit", lambda: True)  # as outside the test's
    with pytest.raises(TransactionManagementError):
        rows.game(bank_game.pk, lock=True)


def test_changed_columns_and_a_new_row_are_written_as_the_orm_writes_them(bank_game, bob):
    services.join_game(bank_game.pk, bob)
    game = rows.game(bank_game.pk)
    game.deadline += timedelta(minutes=7)
    game.turn_seat, game.timeout_marks, game.last_move_mark = 2, {"1": [3, 4]}, [1, 5]
    game.paused_at, game.status = None, Game.Status.FINISHED
    rows.update(game, ["deadline", "turn_seat", "timeout_marks", "last_move_mark",
                       "paused_at", "status"])
    assert _values(Game.objects.get(pk=game.pk)) == _values(game)

    move = Move(game=game, seq=99, seat=1, player=bob, actions=["attack:7S", "pass"],
                kind=Move.Kind.BOT)
    rows.insert(move)
    written = Move.objects.get(game=game, seq=99)
    assert move.at is not None and written.at == move.at  # auto_now_add, as save() sets it
    assert {k: v for k, v in _values(written).items() if k != "id"} == {
        k: v for k, v in _values(move).items() if k != "id"}


def test_an_update_of_no_row_is_an_error(bank_game):
    game = rows.game(bank_game.pk)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(DatabaseError):
        rows.update(game, ["turn_seat"])
