"""Time controls on a frozen clock: time per move, time bank with increment, the refusal
of a move after its deadline, and sweeps whose queries don't grow with waiting games."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game, Move, RulePreset, TimeControl
from tests.games.conftest import seat_user

pytestmark = pytest.mark.django_db

T0 = datetime(2037, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday, after any real "now": no time bomb
DAY = timedelta(days=1)


def _bank_game(alice, bob, preset, **kwargs):
    options = {"time_control": "bank", "bank_time": 3 * DAY, "increment": DAY, **kwargs}
    game = services.create_game(alice, preset, players=2, **options)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def _move(game, token=None):
    """The seat to act plays its first legal move (or `token`)."""
    game.refresh_from_db()
    deal = game.match().deal
    seat = deal.to_act
    token = token or deal.legal_actions(seat)[0].token()
    services.play(game.pk, seat_user(game, seat), [token], game.version)
    return seat


def _bank(game, seat):
    return game.seats.get(number=seat).bank


def test_a_time_bank_is_drawn_on_and_refilled_up_to_the_bank(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        game = _bank_game(alice, bob, classic)
        assert game.time_control == TimeControl.BANK
        first = game.turn_seat
        assert _bank(game, 0) == _bank(game, 1) == 3 * DAY
        assert game.deadline == T0 + 3 * DAY  # the whole bank for the first move
        clock.shift(10 * timedelta(hours=1))
        seat = _move(game)
        assert seat == first
        assert _bank(game, seat) == 3 * DAY  # 3 days - 10 h + 1 day, capped at the bank
        game.refresh_from_db()
        other = game.turn_seat
        assert other != seat
        assert game.deadline == T0 + timedelta(hours=10) + 3 * DAY
        clock.shift(2 * DAY + timedelta(hours=12))
        _move(game)
        assert _bank(game, other) == DAY + timedelta(hours=12)  # 3 d - 2.5 d + 1 d
        game.refresh_from_db()
        if game.turn_seat == other:  # the same seat acts again: its new bank counts
            assert game.deadline == T0 + timedelta(hours=70) + DAY + timedelta(hours=12)


def test_a_bank_that_runs_out_gets_the_timeout_move_and_then_the_increment(
        alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        game = _bank_game(alice, bob, classic, bank_time=DAY, increment=timedelta(hours=2))
        seat = game.turn_seat
        clock.shift(DAY + timedelta(seconds=1))
        assert services.sweep_expired() == 1
        assert Move.objects.filter(game=game, kind=Move.Kind.TIMEOUT).count() == 1
        assert _bank(game, seat) == timedelta(hours=2)  # empty, plus the increment
        game.refresh_from_db()
        if game.turn_seat == seat:
            assert game.deadline == T0 + DAY + timedelta(seconds=1, hours=2)


def test_time_per_move_gives_every_turn_the_same_time(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        game = services.create_game(alice, classic, players=2, move_time=timedelta(hours=5))
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        assert game.time_control == TimeControl.MOVE and game.deadline == T0 + timedelta(hours=5)
        clock.shift(timedelta(hours=4))
        _move(game)
        game.refresh_from_db()
        assert game.deadline == T0 + timedelta(hours=9)
        assert _bank(game, 0) is None


def test_a_move_one_second_late_is_refused_and_the_site_plays(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        game = services.create_game(alice, classic, players=2, move_time=timedelta(minutes=5))
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        clock.shift(timedelta(minutes=5, seconds=1))
        with pytest.raises(services.TimeRanOut):
            _move(game)
        kinds = list(Move.objects.filter(game=game).values_list("kind", flat=True))
        assert kinds[-1] == Move.Kind.TIMEOUT and Move.Kind.MOVE not in kinds


def test_a_move_just_in_time_is_accepted(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        game = services.create_game(alice, classic, players=2, move_time=timedelta(minutes=5))
        services.join_game(game.pk, bob)
        clock.shift(timedelta(minutes=4, seconds=59))
        _move(game)
        assert not Move.objects.filter(game=game, kind=Move.Kind.TIMEOUT).exists()


def test_the_preset_gives_the_default_time_control(alice, bob, seeded):
    preset = RulePreset.objects.create(name="Slow bank", min_players=2, max_players=2,
                                       time_control="bank", bank_time=5 * DAY,
                                       increment=timedelta(hours=6))
    game = services.create_game(alice, preset, players=2)
    assert (game.time_control, game.bank_time, game.increment) == ("bank", 5 * DAY,
                                                                   timedelta(hours=6))
    chosen = services.create_game(alice, preset, players=2, time_control="move",
                                  move_time=timedelta(hours=2))
    assert (chosen.time_control, chosen.move_time, chosen.bank_time) == ("move",
                                                                         timedelta(hours=2), None)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"time_control": "hourglass"}, "time per move or a time bank"),
    ({"time_control": "bank", "bank_time": timedelta(days=31)}, "thirty days"),
    ({"time_control": "bank", "bank_time": timedelta(seconds=30)}, "thirty days"),
    ({"time_control": "bank", "increment": timedelta(days=15)}, "fourteen days"),
    ({"time_control": "bank", "increment": "1 day"}, "fourteen days"),
])
def test_bad_time_controls_are_refused(alice, classic, kwargs, words):
    with pytest.raises(services.BadRequest, match=words):
        services.create_game(alice, classic, players=2, **kwargs)
    assert not Game.objects.exists()


def _waiting_games(alice, bob, classic, n):
    for _ in range(n):
        game = services.create_game(alice, classic, players=2, move_time=timedelta(hours=8))
        services.join_game(game.pk, bob)


def _sweep_queries(now):
    with CaptureQueriesContext(connection) as queries:
        services.sweep_expired(now=now)
        services.wake_stalled_bots(now=now)
        services.send_reminders(now=now)
    return len(queries)


def test_sweeps_query_only_for_games_that_are_due(alice, bob, classic, seeded):
    """The sweep, the stalled-bot check and the reminders cost the same number of queries
    with 3 or 30 games waiting whose time has not come."""
    with time_machine.travel(T0, tick=False):
        _waiting_games(alice, bob, classic, 3)
    now = T0 + timedelta(hours=1)
    services.sweep_expired(now=now)  # the sweep's record of its last run exists
    few = _sweep_queries(now)
    with time_machine.travel(T0, tick=False):
        _waiting_games(alice, bob, classic, 27)
    # 3, and the sweep's record: a savepoint, its row locked and its time written.
    assert _sweep_queries(now) == few == 3 + 4
    # Once they are due, each is handled.
    assert services.send_reminders(now=T0 + timedelta(hours=2, minutes=1)) == 30


def test_a_player_makes_a_table_with_a_time_bank(alice_client, alice, bob, classic, client):
    data = {"preset": classic.pk, "players": 2, "bots": 0, "bot_level": "medium",
            "match_kind": "deals", "count": 1, "time_control": "bank",
            "bank_time": 3 * 86400, "increment": 86400}
    assert alice_client.post("/games/new/", data).status_code == 302
    game = Game.objects.get()
    assert (game.time_control, game.bank_time, game.increment) == ("bank", 3 * DAY, DAY)
    assert "3 days + 1 day per move" in client.get("/").content.decode()
    services.join_game(game.pk, bob)
    assert "3 days + 1 day per move" in alice_client.get(game.get_absolute_url()).content.decode()


def test_the_form_refuses_a_time_it_does_not_offer(alice_client, classic):
    data = {"preset": classic.pk, "players": 2, "bots": 1, "bot_level": "medium",
            "match_kind": "deals", "count": 1, "time_control": "bank", "bank_time": 31 * 86400}
    response = alice_client.post("/games/new/", data)
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    assert not Game.objects.exists()
