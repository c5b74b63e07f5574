"""What a table's render costs does not grow with the deal. Its log is
described once per event (games.present.table.event_lines), each card drawn once (the card tag)."""

import pytest
from django.utils import translation

from games import describe, services
from games.models import Game
from games.present import table

from .conftest import first_legal, seat_user

pytestmark = pytest.mark.django_db


def context(game, seat):
    game = Game.objects.get(pk=game.pk)
    seats = list(game.seats.select_related("player").order_by("number"))
    return table.table_context(game, seats, seats[seat])


def move(game):
    game = Game.objects.get(pk=game.pk)
    services.play_seat(game.pk, game.match().deal.to_act, [first_legal(game)], game.version)


def test_each_version_describes_only_its_new_events(duel, monkeypatch):
    described = []
    real = describe.event

    def counted(event, name):
        described.append(event["type"])
        return real(event, name)

    monkeypatch.setattr(describe, "event", counted)
    for _ in range(6):
        move(duel)
    ctx = context(duel, 0)
    events = len(ctx["view"]["history"])
    assert len(described) == events  # the first render describes the whole deal so far
    described.clear()
    context(duel, 1)  # the other seat, the same version: nothing new
    assert described == []
    move(duel)
    ctx = context(duel, 0)
    assert len(described) == len(ctx["view"]["history"]) - events  # only the new ones
    monkeypatch.setattr(describe, "event", real)
    fresh = list(reversed(describe.history(ctx["view"]["history"], lambda s: ctx["seats"][s].name)))
    assert ctx["log"] == fresh


def test_the_log_is_kept_per_language(duel):
    for _ in range(3):
        move(duel)
    english = context(duel, 0)["log"]
    with translation.override("ru"):
        russian = context(duel, 0)["log"]
    assert english != russian and len(english) == len(russian)
    assert context(duel, 0)["log"] == english


def test_a_renamed_player_gets_a_new_log(duel):
    for _ in range(4):
        move(duel)
    alice = seat_user(duel, 0)
    assert any("alice " in line for line in context(duel, 0)["log"])
    alice.display_name = "Alicia"
    alice.save()
    log = context(duel, 0)["log"]
    assert any("Alicia " in line for line in log) and not any("alice " in line for line in log)
