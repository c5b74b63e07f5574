"""Concurrency on PostgreSQL: real threads, each with its own connection, lined up by a
barrier so that their transactions meet at the game row's lock (`select_for_update`).

Each race is run for several rounds; every round must end with exactly one change.
"""

from datetime import timedelta
from functools import partial

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Game, Move

from .helpers import fresh, moves, plain_action, race, split, to_act, user_at

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROUNDS = 8


def test_it_runs_on_postgresql_with_row_locks(real_services, duel):
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        assert cursor.fetchone()[0]
        cursor.execute("SHOW transaction_isolation")
        assert cursor.fetchone()[0] == "read committed"
    assert connection.settings_dict["NAME"].startswith("test_")
    assert real_services.ping()


def two_legal_moves(game):
    """Two different legal single moves for the seat to act (or one, twice)."""
    game = fresh(game)
    deal = game.match().deal
    seat = deal.to_act
    legal = [a.token() for a in deal.legal_actions(seat) if a.token() != "exchange"]
    return seat, legal[0], legal[-1]


def test_two_moves_at_once_apply_exactly_one(real_services, duel):
    """A player's two tabs send different moves for the same version at the same moment."""
    for _ in range(ROUNDS):
        game = fresh(duel)
        version = game.version
        seat, first, second = two_legal_moves(game)
        user = user_at(game, seat)
        outcomes = race(partial(services.play, game.pk, user, [first], version),
                        partial(services.play, game.pk, user, [second], version))
        applied, refused = split(outcomes)
        assert len(applied) == 1 and len(refused) == 1, outcomes
        assert type(refused[0]) is services.StaleVersion, refused
        game = fresh(duel)
        assert game.version == version + 1
        logged = moves(game, seq__gt=version)
        assert len(logged) == 1
        assert logged[0].kind == Move.Kind.MOVE and logged[0].seat == seat
        assert logged[0].actions in ([first], [second])


def test_the_same_request_sent_twice_is_applied_once(real_services, duel):
    for _ in range(ROUNDS):
        game = fresh(duel)
        version = game.version
        action = plain_action(game)
        user = user_at(game, to_act(game))
        send = partial(services.play, game.pk, user, [action], version)
        applied, refused = split(race(send, send))
        assert len(applied) == 1, refused
        assert [type(e) for e in refused] == [services.StaleVersion]
        assert fresh(duel).version == version + 1
        assert [m.actions for m in moves(duel, seq__gt=version)] == [[action]]


def test_two_players_racing_for_the_last_seat_one_gets_it(real_services, alice, bob, carol,
                                                          classic, seeded):
    for _ in range(ROUNDS // 2):
        game = services.create_game(alice, classic, players=2, move_time=timedelta(hours=1))
        outcomes = race(partial(services.join_game, game.pk, bob),
                        partial(services.join_game, game.pk, carol))
        applied, refused = split(outcomes)
        assert len(applied) == 1 and len(refused) == 1, outcomes
        error = refused[0]
        assert isinstance(error, services.Conflict) and error.status == 409
        assert error.message in ("This game has already started.", "The table is full.")
        game = fresh(game)
        assert game.status == Game.Status.PLAYING
        seated = set(game.seats.values_list("player__username", flat=True))
        assert seated in ({"alice", "bob"}, {"alice", "carol"})
        assert [m.actions[0] for m in moves(game)] == ["create", "join"]


def test_a_timeout_and_a_move_at_once_make_one_move(real_services, duel):
    """A player's move and the site's timeout move for the same seat, sent at once.

    In odd rounds the deadline passed a second ago: the move comes too late (TimeRanOut)
    and the timeout is played once, by the racing call or by play() itself. In even rounds
    the deadline passes while the two race, so either may win. Every round leaves one move.
    """
    outcomes_seen = set()
    for round_ in range(ROUNDS):
        too_late = round_ % 2 == 0
        deadline = timezone.now() + (timedelta(seconds=-1) if too_late
                                     else timedelta(milliseconds=40))
        Game.objects.filter(pk=duel.pk).update(deadline=deadline)
        game = fresh(duel)
        version, seat = game.version, game.turn_seat
        action = plain_action(game)
        user = user_at(game, seat)
        played, timed_out = race(partial(services.play, game.pk, user, [action], version),
                                 partial(services.timeout, game.pk, version))
        for outcome in (played, timed_out):
            assert isinstance(outcome, (Game, services.Conflict)), outcome
        if isinstance(played, Game):
            assert not too_late, played
            # The move landed before the deadline: the timeout found the version gone, or
            # (first at the lock) the seat's time not yet run out.
            assert isinstance(timed_out, services.Conflict), timed_out
            kind = Move.Kind.MOVE
        else:
            # Too late: play() refused the move and played the timeout itself, unless the
            # racing timeout had played it first (then the move found the version gone).
            assert type(played) in (services.TimeRanOut, services.StaleVersion), played
            if type(played) is services.StaleVersion:
                assert isinstance(timed_out, Game), timed_out
            kind = Move.Kind.TIMEOUT
        logged = moves(duel, seq__gt=version)
        assert [(m.kind, m.seat) for m in logged] == [(kind, seat)], (played, timed_out)
        assert fresh(duel).version == version + 1
        outcomes_seen.add((kind, type(timed_out).__name__))
    print(f"outcomes: {sorted(outcomes_seen)}")


def test_a_deadline_sweep_and_a_move_at_once_make_one_move(real_services, duel):
    """The move comes after the deadline: it is refused, and the timeout is played once,
    by the sweep or by play() itself (whichever takes the lock first)."""
    for _ in range(ROUNDS):
        Game.objects.filter(pk=duel.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        game = fresh(duel)
        version, seat = game.version, game.turn_seat
        action = plain_action(game)
        user = user_at(game, seat)
        played, swept = race(partial(services.play, game.pk, user, [action], version),
                             services.sweep_expired)
        assert not isinstance(swept, BaseException), swept
        # Refused: too late (play() then plays the timeout unless the sweep has), or the
        # sweep's timeout came first.
        assert type(played) in (services.TimeRanOut, services.StaleVersion), played
        assert swept == 1 if type(played) is services.StaleVersion else swept in (0, 1)
        logged = moves(duel, seq__gt=version)
        assert [(m.kind, m.seat) for m in logged] == [(Move.Kind.TIMEOUT, seat)]
        assert fresh(duel).version == version + 1
