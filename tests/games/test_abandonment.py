"""A player who runs out of time again and again: a computer stands in at a person's pace,
the deal counts on their record only if the rules say so, and the others may claim."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from games import services
from games.models import DeadlineSweep, Game, Move, RulePreset
from games.services import turn
from tests.games.conftest import client_for, seat_user

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

T0 = datetime(2037, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday, after any real "now": no time bomb
HOUR = timedelta(hours=1)


@pytest.fixture
def patient(db):
    """One timeout in a row hands the seat to a stand-in."""
    return RulePreset.objects.create(name="One strike", min_players=2, max_players=4,
                                     timeouts_allowed=1)


def _sweep():
    """The sweep, as beat runs it every 3 s: the clock jumps here are time with the site
    up, not an outage to forgive (games.services.clocks.forgive_downtime)."""
    DeadlineSweep.objects.update_or_create(
        pk=1, defaults={"last_run": timezone.now() - timedelta(seconds=3)})
    return services.sweep_expired()


def _absent_player_game(alice, bob, preset, clock, **kwargs):
    """alice vs bob, an hour per move; whoever is to act first lets their time run out."""
    game = services.create_game(alice, preset, players=2, move_time=HOUR, **kwargs)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    absent = game.turn_seat
    clock.shift(HOUR + timedelta(seconds=1))
    assert _sweep() == 1
    seat = game.seats.get(number=absent)
    assert seat.stands_in and seat.timeouts == 1
    return game, absent


def _turn_of(game, number, clock):
    """Let the other (present) player move until it is seat `number`'s turn."""
    for _ in range(40):
        game.refresh_from_db()
        if not game.is_playing or game.turn_seat == number:
            return game
        deal = game.match().deal
        token = deal.legal_actions(game.turn_seat)[0].token()
        services.play(game.pk, seat_user(game, game.turn_seat), [token], game.version)
        clock.shift(timedelta(seconds=30))
    raise AssertionError("the turn never came")


def test_a_stand_in_moves_at_a_persons_pace(alice, bob, patient, seeded, monkeypatch):
    monkeypatch.setattr(turn.STAND_IN_PACE, "uniform", lambda a, b: 0.2)
    with time_machine.travel(T0, tick=False) as clock:
        game, absent = _absent_player_game(alice, bob, patient, clock)
        game = _turn_of(game, absent, clock)
        if not game.is_playing:
            pytest.fail("the deal ended before the stand-in's turn")
        started = game.turn_started
        assert game.deadline == started + HOUR * 0.2  # a fifth of the hour, not at once
        bot_moves = Move.objects.filter(game=game, kind=Move.Kind.BOT).count()
        assert services.wake_stalled_bots(now=started + timedelta(minutes=5)) == 0
        clock.shift(timedelta(minutes=11))
        assert _sweep() == 0  # not yet its time
        assert Move.objects.filter(game=game, kind=Move.Kind.BOT).count() == bot_moves
        clock.shift(timedelta(minutes=1, seconds=1))
        assert _sweep() == 1  # its time: the (eager) worker plays it
    played = Move.objects.filter(game=game, kind=Move.Kind.BOT).last()
    assert played is not None and played.seat == absent
    assert game.seats.get(number=absent).timeouts == 1  # a stand-in's move is no timeout


def test_the_pace_stays_within_the_seats_time(alice, bob, patient, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        game, absent = _absent_player_game(alice, bob, patient, clock)
        game = _turn_of(game, absent, clock)
        left = game.deadline - game.turn_started
        assert HOUR * 0.05 <= left <= HOUR * 0.25


@pytest.mark.parametrize("counts", [False, True])
def test_a_deal_a_stand_in_finished_counts_only_if_the_rules_say(alice, bob, patient, seeded,
                                                                 counts):
    patient.stand_in_counts = counts
    patient.save()
    with time_machine.travel(T0, tick=False) as clock:
        game, absent = _absent_player_game(alice, bob, patient, clock)
        player = seat_user(game, absent)
        for _ in range(400):  # play the deal out: the present player moves, the sweep wakes
            game.refresh_from_db()
            if not game.is_playing:
                break
            if game.turn_seat == absent:
                clock.move_to(game.deadline + timedelta(seconds=1))
                _sweep()
            else:
                token = game.match().deal.legal_actions(game.turn_seat)[0].token()
                services.play(game.pk, seat_user(game, game.turn_seat), [token], game.version)
    assert game.status == Game.Status.FINISHED
    player.refresh_from_db()
    assert player.deals_played == (1 if counts else 0)
    present = seat_user(game, 1 - absent)
    present.refresh_from_db()
    assert present.deals_played == 1


def test_the_other_player_may_claim_the_match(alice, bob, patient, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        game, absent = _absent_player_game(alice, bob, patient, clock)
    present_user = seat_user(game, 1 - absent)
    absent_user = seat_user(game, absent)
    with pytest.raises(services.Conflict):
        services.claim_match(game.pk, absent_user)  # not the absent player (their seat is a bot)
    services.claim_match(game.pk, present_user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.forfeited_seat == absent
    assert Move.objects.filter(game=game, actions=["claim"], player=present_user).exists()
    absent_user.refresh_from_db()
    assert (absent_user.deals_played, absent_user.deals_lost) == (1, 1)


def test_no_claim_while_everyone_plays(alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=2, move_time=HOUR)
    services.join_game(game.pk, bob)
    with pytest.raises(services.Conflict, match="run out of time often enough"):
        services.claim_match(game.pk, alice)
    game.refresh_from_db()
    assert game.is_playing


def test_the_table_offers_the_claim_and_the_result_says_what_counts(alice, bob, patient, seeded):
    with time_machine.travel(T0, tick=False) as clock:
        game, absent = _absent_player_game(alice, bob, patient, clock)
    present = client_for(seat_user(game, 1 - absent))
    page = present.get(f"/games/{game.pk}/").content.decode()
    assert "End the match: they lose" in page
    assert "End the match" not in client_for(seat_user(game, absent)).get(
        f"/games/{game.pk}/").content.decode()
    response = present.post(f"/games/{game.pk}/claim/", headers={"HX-Request": "true"})
    body = response.content.decode()
    game.refresh_from_db()
    assert response.status_code == 200 and game.status == Game.Status.FINISHED
    name = game.seats.get(number=absent).name
    assert f"A computer played for {name} after they ran out of time; the deals it played " \
           "do not count on their record." in body
    again = present.post(f"/games/{game.pk}/claim/", headers={"HX-Request": "true"})
    assert again.status_code == 409 and game.version == Game.objects.get(pk=game.pk).version
