"""The clocks forgive the site's downtime once, on PostgreSQL: sweeps that meet after an
outage (two workers' tasks, a late move) move the deadlines on by the outage once, and
charge no timeout for it."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

import pytest
from django.utils import timezone

from games import services
from games.models import DeadlineSweep, Game, Move

from .helpers import fresh, plain_action, race, user_at

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

OUTAGE = timedelta(seconds=75)


def test_sweeps_that_meet_after_an_outage_forgive_it_once(real_services, alice, bob, classic,
                                                           seeded):
    games = []
    for _ in range(6):
        game = services.create_game(alice, classic, players=2, move_time=timedelta(minutes=1))
        services.join_game(game.pk, bob)
        games.append(fresh(game))
    # The last sweep ran 75 s ago, when every turn had begun: 1-minute clocks, all past
    # their deadlines now.
    now = timezone.now()
    last = now - OUTAGE
    Game.objects.filter(pk__in=[g.pk for g in games]).update(
        turn_started=last - timedelta(seconds=10), deadline=last + timedelta(seconds=50))
    # One turn began during the outage (a move while beat was down): it starts again.
    begun = games[-1]
    Game.objects.filter(pk=begun.pk).update(turn_started=last + timedelta(seconds=20),
                                            deadline=last + timedelta(seconds=80))
    DeadlineSweep.objects.update_or_create(pk=1, defaults={"last_run": last})
    before = {g.pk: fresh(g) for g in games}
    late = games[0]
    mover = user_at(late, late.turn_seat)

    outcomes = race(*[partial(services.sweep_expired, now=now) for _ in range(4)],
                    partial(services.play, late.pk, mover, [plain_action(late)], late.version))
    ended = timezone.now()
    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    assert outcomes[:4] == [0, 0, 0, 0]
    assert not Move.objects.filter(kind=Move.Kind.TIMEOUT).exists()
    assert Move.objects.filter(game_id=late.pk, kind=Move.Kind.MOVE).count() == 1
    # Whichever came first (a sweep at `now`, or the late move a moment later) moved every
    # clock on by the outage up to its time; the others moved nothing more.
    caught_up = fresh(begun).turn_started
    assert now <= caught_up <= ended
    assert fresh(begun).deadline == caught_up + timedelta(minutes=1)
    for game in games[1:-1]:
        after = fresh(game)
        assert after.deadline == before[game.pk].deadline + (caught_up - last), game.pk
        assert after.turn_started == before[game.pk].turn_started + (caught_up - last)
    assert DeadlineSweep.objects.get().last_run >= now
