"""A tournament's field under races, on PostgreSQL: real threads, each with its own
connection, released together. Joins at the last second, a start racing joins and a
leave: every entry standing at the start is paired (a table or a bye), and nobody else."""

from datetime import timedelta
from functools import partial

import pytest

from games import services
from games.models import Entry, Seat, Tournament
from games.services.errors import Conflict

from .helpers import race, split

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

T = services.tournament
ROUNDS = 4


@pytest.fixture
def people(django_user_model, transactional_db):
    return [django_user_model.objects.create_user(username=f"entrant{i}", password="x-" * 8)
            for i in range(8)]


@pytest.fixture
def director(django_user_model, transactional_db):
    return django_user_model.objects.create_user(username="director", password="x-" * 8,
                                                 is_staff=True)


def new_tournament(director, preset, entrants, **options):
    tournament = T.create_tournament(director, preset, name="Race cup",
                                     move_time=timedelta(hours=1), **options)
    for player in entrants:
        T.join_tournament(tournament.pk, player)
    return tournament


def paired(tournament) -> set[int]:
    rnd = tournament.round_set.get(number=1)
    seated = Seat.objects.filter(game__round_table__round=rnd).values_list("player", flat=True)
    return set(seated) | set(rnd.byes)


def test_two_last_second_joins_for_the_last_place(real_services, classic, seeded, people,
                                                  director):
    for round_ in range(ROUNDS):
        Tournament.objects.all().delete()
        tournament = new_tournament(director, classic, people[:3], max_players=4)
        outcomes = race(partial(T.join_tournament, tournament.pk, people[4]),
                        partial(T.join_tournament, tournament.pk, people[5]))
        entries, errors = split(outcomes)
        assert len(entries) == 1 and len(errors) == 1, (round_, outcomes)
        assert isinstance(errors[0], Conflict)
        assert Entry.objects.filter(tournament=tournament).count() == 4


def test_a_start_racing_joins_and_a_leave_pairs_exactly_the_field(real_services, classic,
                                                                   seeded, people, director):
    for round_ in range(ROUNDS):
        Tournament.objects.all().delete()
        tournament = new_tournament(director, classic, people[:5])
        outcomes = race(partial(T.start_tournament, tournament.pk, director),
                        partial(T.leave_tournament, tournament.pk, people[0]),
                        partial(T.join_tournament, tournament.pk, people[6]),
                        partial(T.join_tournament, tournament.pk, people[7]))
        started, errors = outcomes[0], outcomes[1:]
        assert isinstance(started, Tournament), (round_, outcomes)
        assert all(e is None or isinstance(e, (Conflict, Entry)) for e in errors), outcomes
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.PLAYING
        field = set(Entry.objects.filter(tournament=tournament).values_list("player", flat=True))
        assert paired(tournament) == field, (round_, outcomes)
        left = outcomes[1] is None
        assert (people[0].pk in field) != left, "a leave either came first or was refused"
        for outcome, player in zip(outcomes[2:], people[6:]):
            assert isinstance(outcome, Entry) == (player.pk in field)
