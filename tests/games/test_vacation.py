"""Vacation on a frozen clock: the clocks of a player's slow games stop, and run again from
where they stood when the player comes back or the vacation runs out."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail

from games import services, tasks
from games.models import Game, Move
from tests.games.conftest import client_for, seat_user

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


@pytest.fixture
def slow(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False):
        game = services.create_game(alice, classic, players=2, move_time=DAY)
        services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def test_the_clock_stops_and_restarts_where_it_stood(slow):
    player = seat_user(slow, slow.turn_seat)
    with time_machine.travel(T0 + 3 * HOUR, tick=False) as clock:
        services.start_vacation(player, 5)
        slow.refresh_from_db()
        assert slow.paused_at == T0 + 3 * HOUR
        assert Move.objects.filter(game=slow, actions=["vacation"]).exists()
        clock.shift(4 * DAY)
        assert services.sweep_expired() == 0  # long past the deadline, but stopped
        assert services.send_reminders() == 0 and services.send_move_emails() == 0
        services.end_vacation(player)
    slow.refresh_from_db()
    assert slow.paused_at is None
    # 21 hours were left when the clock stopped; they still are.
    assert slow.deadline == T0 + 3 * HOUR + 4 * DAY + 21 * HOUR
    player.refresh_from_db()
    assert services.days_left(player, T0) == 30 - 4  # one unused whole day given back


def test_a_turn_that_comes_during_the_vacation_waits(slow):
    mover = seat_user(slow, slow.turn_seat)
    other = seat_user(slow, 1 - slow.turn_seat)
    with time_machine.travel(T0 + HOUR, tick=False):
        services.start_vacation(other, 3)
        slow.refresh_from_db()
        assert slow.paused_at is None  # not their turn: nothing to stop yet
        token = slow.match().deal.legal_actions(slow.turn_seat)[0].token()
        services.play(slow.pk, mover, [token], slow.version)
        slow.refresh_from_db()
        assert seat_user(slow, slow.turn_seat) == other and slow.paused_at == T0 + HOUR
    # The vacation runs out: the beat restarts the clock with the whole day.
    with time_machine.travel(T0 + HOUR + 3 * DAY + HOUR, tick=False):
        tasks.send_reminders()
    slow.refresh_from_db()
    assert slow.paused_at is None
    assert slow.deadline == T0 + HOUR + 3 * DAY + HOUR + DAY
    other.refresh_from_db()
    assert other.vacation_until is None


def test_live_games_keep_their_clocks(alice, bob, classic, seeded):
    with time_machine.travel(T0, tick=False):
        game = services.create_game(alice, classic, players=2, move_time=5 * timedelta(minutes=1))
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        services.start_vacation(seat_user(game, game.turn_seat), 2)
    game.refresh_from_db()
    assert game.paused_at is None


def test_a_player_on_vacation_may_still_move(slow):
    player = seat_user(slow, slow.turn_seat)
    with time_machine.travel(T0 + HOUR, tick=False) as clock:
        services.start_vacation(player, 5)
        clock.shift(2 * DAY)  # past the deadline the clock would have had
        slow.refresh_from_db()
        token = slow.match().deal.legal_actions(slow.turn_seat)[0].token()
        services.play(slow.pk, player, [token], slow.version)
    assert Move.objects.filter(game=slow, kind=Move.Kind.MOVE).count() == 1
    assert not Move.objects.filter(game=slow, kind=Move.Kind.TIMEOUT).exists()


@pytest.mark.parametrize(("days", "words"), [
    (0, "between 1 and 30 days"), (31, "between 1 and 30 days"), ("7", "whole number"),
    (True, "whole number"),
])
def test_bad_vacations_are_refused(alice, days, words):
    with pytest.raises(services.BadRequest, match=words):
        services.start_vacation(alice, days, T0)
    alice.refresh_from_db()
    assert alice.vacation_until is None and alice.vacation_days == {}


def test_the_days_of_a_year_run_out(alice):
    services.start_vacation(alice, 20, T0)
    services.end_vacation(alice, T0 + 20 * DAY)
    with pytest.raises(services.BadRequest, match="between 1 and 10 days"):
        services.start_vacation(alice, 11, T0 + 30 * DAY)
    with pytest.raises(services.Conflict):
        services.end_vacation(alice, T0 + 30 * DAY)
    # A new year, new days.
    services.start_vacation(alice, 30, datetime(2027, 1, 2, tzinfo=UTC))


def test_the_profile_starts_and_ends_a_vacation(alice_client, alice, slow):
    response = alice_client.post("/games/vacation/", {"days": "3"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.vacation_until is not None
    page = alice_client.get("/accounts/profile/").content.decode()
    assert "on vacation until" in page
    assert alice_client.post("/games/vacation/", {"days": "banana"}).status_code == 400
    alice_client.post("/games/vacation/", {"back": "1"})
    alice.refresh_from_db()
    assert alice.vacation_until is None
    assert mail.outbox == []
    assert Game.objects.get(pk=slow.pk).paused_at is None


def test_the_table_tells_everyone_who_is_on_vacation(slow):
    away = seat_user(slow, slow.turn_seat)
    watcher = client_for(seat_user(slow, 1 - slow.turn_seat))
    with time_machine.travel(T0 + HOUR, tick=False):
        assert "on vacation" not in watcher.get(f"/games/{slow.pk}/").content.decode()
        services.start_vacation(away, 5)
        page = watcher.get(f"/games/{slow.pk}/").content.decode()
    assert "The clock has stopped: the player to move is on vacation." in page
    assert page.count('class="role vacation"') == 1


def test_a_vacation_called_off_at_once_costs_no_day(alice):
    services.start_vacation(alice, 3, T0)
    services.end_vacation(alice, T0 + timedelta(seconds=4))
    alice.refresh_from_db()
    assert services.days_left(alice, T0) == 30
    # Two hours into it, the first day is used; the two others come back.
    services.start_vacation(alice, 3, T0 + DAY)
    services.end_vacation(alice, T0 + DAY + 2 * HOUR)
    alice.refresh_from_db()
    assert services.days_left(alice, T0) == 29


def test_my_games_says_the_clock_has_stopped_not_a_time_left(slow):
    player = seat_user(slow, slow.turn_seat)
    other = seat_user(slow, 1 - slow.turn_seat)
    with time_machine.travel(T0 + 3 * HOUR, tick=False):
        services.start_vacation(player, 5)
        for reader in (player, other):
            row = client_for(reader).get("/games/mine/").content.decode()
            row = row[row.find(f'data-game="{slow.pk}"'):]
            row = row[:row.find("</li>")]
            assert "The clock has stopped: the player to move is on vacation." in row
            assert "left" not in row and "data-deadline" not in row
