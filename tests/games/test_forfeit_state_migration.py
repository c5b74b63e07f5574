"""Migration 0016: a game forfeited before the engine kept forfeits (its row says
forfeited_seat, its saved match only that the side resigned) reads as a forfeit."""

import importlib
import json

import pytest
from django.apps import apps

from games.engine import Termination
from games.models import Game
from games.present.outcome import match_verdict

migration = importlib.import_module("games.migrations.0016_forfeit_in_match_state")

pytestmark = pytest.mark.django_db


def test_an_old_forfeit_becomes_a_forfeit_and_back(duel):
    match = duel.match()
    match.resign(1)  # as forfeits were saved: the side resigned, the row names the seat
    old = json.loads(match.to_json())
    del old["forfeited"]
    Game.objects.filter(pk=duel.pk).update(state=json.dumps(old), forfeited_seat=1,
                                           status=Game.Status.FINISHED)
    seats = list(duel.seats.order_by("number"))
    game = Game.objects.get(pk=duel.pk)
    assert game.match().outcome().termination is Termination.RESIGNATION
    migration.forwards(apps, None)
    game = Game.objects.get(pk=duel.pk)
    outcome = game.match().outcome()
    assert outcome.termination is Termination.FORFEIT and (outcome.seat, outcome.loser) == (1, 1)
    assert match_verdict(game, seats) == "bob ran out of time too often and loses the match."
    migration.forwards(apps, None)  # twice: nothing more changes
    assert Game.objects.get(pk=duel.pk).state == game.state
    migration.backwards(apps, None)
    assert "forfeited" not in json.loads(Game.objects.get(pk=duel.pk).state)


def test_games_not_forfeited_are_left_alone(duel):
    before = Game.objects.get(pk=duel.pk).state
    migration.forwards(apps, None)
    assert Game.objects.get(pk=duel.pk).state == before
