"""The site's own downtime is not the players': when the deadline sweep has not run for
longer than its grace (the site, beat, the worker or the database was down), the clocks
move on by the outage before any timeout is charged. On a frozen clock."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from games import services
from games.models import Game, Move
from games.services import clocks
from tests.games.conftest import seat_user

pytestmark = pytest.mark.django_db

T0 = datetime(2037, 12, 1, 9, 0, tzinfo=UTC)  # after any real "now": no time bomb
MINUTE = timedelta(minutes=1)
SWEEP = timedelta(seconds=3)  # beat's interval (settings.SWEEP_INTERVAL)


def _minute_games(alice, bob, classic, n=3):
    games = []
    for _ in range(n):
        game = services.create_game(alice, classic, players=2, move_time=MINUTE)
        services.join_game(game.pk, bob)
        games.append(Game.objects.get(pk=game.pk))
    return games


def _timeouts():
    return Move.objects.filter(kind=Move.Kind.TIMEOUT).count()


def _sweep_every_3_s(clock, until):
    """Beat as it should be: a sweep every 3 s up to `until`; the timeouts it played."""
    played = 0
    while timezone.now() < until:
        clock.shift(SWEEP)
        played += services.sweep_expired()
    return played


def test_75_s_without_a_sweep_charge_no_timeout_and_move_the_deadlines_on(
        alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        games = _minute_games(alice, bob, classic)
        clock.shift(9 * SWEEP)
        assert services.sweep_expired() == 0  # the last sweep before the outage, at T0+27 s
        clock.shift(timedelta(seconds=75))  # the site is down for 75 s
        assert services.sweep_expired() == 0
        assert _timeouts() == 0
        for before in games:
            after = Game.objects.get(pk=before.pk)
            assert after.version == before.version + 1  # the shift is a change of its own
            assert after.moves.last().actions == ["clocks"]
            assert after.deadline == before.deadline + timedelta(seconds=75)
            assert after.turn_started == before.turn_started + timedelta(seconds=75)
        # The 33 s that were left run out, and then the sweep charges them.
        assert _sweep_every_3_s(clock, T0 + timedelta(seconds=27 + 75 + 30)) == 0
        assert _sweep_every_3_s(clock, T0 + timedelta(seconds=27 + 75 + 36)) == len(games)
        assert _timeouts() == len(games)


def test_a_sweep_that_runs_on_time_charges_a_real_timeout(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        games = _minute_games(alice, bob, classic)
        services.sweep_expired()
        assert _sweep_every_3_s(clock, T0 + MINUTE - SWEEP) == 0
        assert _sweep_every_3_s(clock, T0 + MINUTE + SWEEP) == len(games)
        assert _timeouts() == len(games)
        for before in games:
            assert Game.objects.get(pk=before.pk).version == before.version + 1


def test_an_outage_shorter_than_the_grace_forgives_nothing(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        (game,) = _minute_games(alice, bob, classic, n=1)
        clock.shift(timedelta(seconds=40))
        services.sweep_expired()
        clock.shift(clocks.SWEEP_GRACE)  # not longer than the grace: the site was up
        assert services.sweep_expired() == 1


def test_the_first_sweep_ever_shifts_nothing(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        (game,) = _minute_games(alice, bob, classic, n=1)
        clock.shift(timedelta(seconds=75))
        assert services.sweep_expired() == 1  # no record of an earlier sweep: no outage known
    assert _timeouts() == 1


def test_a_second_sweep_after_the_outage_shifts_nothing_more(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        (game,) = _minute_games(alice, bob, classic, n=1)
        services.sweep_expired()
        clock.shift(timedelta(seconds=75))
        now = timezone.now()
        services.sweep_expired()
        services.sweep_expired(now=now)  # another worker's sweep, at the same moment
        services.sweep_expired(now=now - timedelta(seconds=1))  # or a clock a bit behind
        assert Game.objects.get(pk=game.pk).deadline == game.deadline + timedelta(seconds=75)


def test_a_turn_that_began_during_the_outage_gets_its_whole_time(alice, bob, classic, seeded):
    """Daphne was up while beat was down: a move began a new turn 20 s before the sweep
    came back. That turn's 20 s are given back, no more."""
    with time_machine.travel(T0, tick=False) as clock:
        (game,) = _minute_games(alice, bob, classic, n=1)
        services.sweep_expired()
        clock.shift(timedelta(seconds=55))
        mover = game.turn_seat
        token = game.match().deal.legal_actions(mover)[0].token()
        services.play(game.pk, seat_user(game, mover), [token], game.version)
        game.refresh_from_db()
        assert game.turn_started == T0 + timedelta(seconds=55)
        clock.shift(timedelta(seconds=20))
        assert services.sweep_expired() == 0
        moved = Game.objects.get(pk=game.pk)
        assert moved.turn_started == T0 + timedelta(seconds=75)
        assert moved.deadline == game.deadline + timedelta(seconds=20)


def test_a_time_bank_is_not_charged_for_the_outage(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        game = services.create_game(alice, classic, players=2, time_control="bank",
                                    bank_time=2 * MINUTE, increment=timedelta(0))
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        mover = game.turn_seat
        clock.shift(timedelta(seconds=10))
        services.sweep_expired()
        clock.shift(timedelta(minutes=5))  # far longer than the whole bank
        assert services.sweep_expired() == 0
        token = game.match().deal.legal_actions(mover)[0].token()
        # Played on the version from before the shift: the clocks alone moved since.
        services.play(game.pk, seat_user(game, mover), [token], game.version)
        # 10 s before the outage are paid for; the five minutes are not.
        assert game.seats.get(number=mover).bank == 2 * MINUTE - timedelta(seconds=10)


def test_a_stopped_clock_stays_stopped(alice, bob, classic, seeded):
    """A vacation's clock stands still already: the outage moves nothing, and the
    vacation's end gives back the time that was left, once."""
    with time_machine.travel(T0, tick=False) as clock:
        game = services.create_game(alice, classic, players=2, move_time=timedelta(days=1))
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        player = seat_user(game, game.turn_seat)
        services.start_vacation(player, 3)
        services.sweep_expired()
        stopped = Game.objects.get(pk=game.pk)
        assert stopped.paused_at == T0
        clock.shift(timedelta(hours=2))
        assert services.sweep_expired() == 0
        assert Game.objects.get(pk=game.pk).deadline == stopped.deadline
        services.end_vacation(player)
        assert Game.objects.get(pk=game.pk).deadline == T0 + timedelta(hours=2, days=1)


def test_a_late_move_before_the_first_sweep_after_the_outage_is_played(
        alice, bob, classic, seeded):
    """Daphne comes back before beat: the player's move is not refused for the time the
    site was down."""
    with time_machine.travel(T0, tick=False) as clock:
        (game,) = _minute_games(alice, bob, classic, n=1)
        clock.shift(timedelta(seconds=30))
        services.sweep_expired()
        clock.shift(timedelta(seconds=75))
        mover = game.turn_seat
        token = game.match().deal.legal_actions(mover)[0].token()
        services.play(game.pk, seat_user(game, mover), [token], game.version)
    assert _timeouts() == 0
    assert Move.objects.filter(game=game, kind=Move.Kind.MOVE).count() == 1


def test_a_game_already_overdue_before_the_outage_is_charged(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        (game,) = _minute_games(alice, bob, classic, n=1)
        services.sweep_expired()
        Game.objects.filter(pk=game.pk).update(deadline=T0 - timedelta(seconds=1))
        clock.shift(timedelta(seconds=75))
        assert services.sweep_expired() == 1  # its time had run out while the site was up


async def _next_event(layer, channel):
    return await asyncio.wait_for(layer.receive(channel), 2)  # none: the page never hears


def test_opening_the_table_during_an_outage_charges_no_timeout(alice, bob, classic, seeded,
                                                                client):
    """Beat and the workers stopped for 75 s on a one-minute clock: a page view at 65 s
    (the page, its htmx fragment, the poll) shows the table and changes nothing; the sweep
    that comes back forgives the outage."""
    with time_machine.travel(T0, tick=False) as clock:
        (game,) = _minute_games(alice, bob, classic, n=1)
        services.sweep_expired()
        clock.shift(timedelta(seconds=65))
        client.force_login(seat_user(game, game.turn_seat))
        url = game.get_absolute_url()
        hx = {"HX-Request": "true"}
        for answer in (client.get(url), client.get(url, headers=hx),
                       client.get(f"{url}?since={game.version - 1}", headers=hx)):
            assert answer.status_code == 200
        assert Game.objects.get(pk=game.pk).version == game.version
        assert _timeouts() == 0
        clock.shift(timedelta(seconds=10))
        assert services.sweep_expired() == 0
        assert _timeouts() == 0


def test_shifted_clocks_reach_the_table_s_group_and_its_snapshot(
        alice, bob, classic, seeded, django_capture_on_commit_callbacks):
    """A clock shift is a change as any: a new version, whose event carries the rows, so
    an open page's process makes the new snapshot with the new deadline."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from games import notify
    from games.present import snapshots

    with time_machine.travel(T0, tick=False) as clock:
        (game,) = _minute_games(alice, bob, classic, n=1)
        services.sweep_expired()
        snapshots.forget()
        assert snapshots.read(game.pk)[0].version == game.version  # an open page's version
        layer = get_channel_layer()
        channel = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(notify.group_name(game.pk), channel)
        clock.shift(timedelta(seconds=75))
        with django_capture_on_commit_callbacks(execute=True):
            services.sweep_expired()
        event = async_to_sync(_next_event)(layer, channel)
        assert event["type"] == "game.changed" and event["version"] == game.version + 1
        shifted, _seats = snapshots.at(game.pk, event["version"], event["state"])
        assert shifted.version == game.version + 1
        assert shifted.deadline == game.deadline + timedelta(seconds=75)
        assert snapshots.kept(game.pk, game.version)[0].deadline == game.deadline


def test_a_version_older_than_a_real_change_is_stale_despite_the_shift(
        alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        (game,) = _minute_games(alice, bob, classic, n=1)
        services.sweep_expired()
        clock.shift(timedelta(seconds=75))
        services.sweep_expired()
        mover = game.turn_seat
        token = game.match().deal.legal_actions(mover)[0].token()
        with pytest.raises(services.StaleVersion):  # the join came after it, not only clocks
            services.play(game.pk, seat_user(game, mover), [token], game.version - 1)
        assert Game.objects.get(pk=game.pk).version == game.version + 1
