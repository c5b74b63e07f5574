"""Migration 0004: move log rows written as action dicts become tokens (and back)."""

import importlib

import pytest
from django.apps import apps

from games.models import Move

tokens = importlib.import_module("games.migrations.0004_move_tokens")


@pytest.mark.parametrize("old, new", [
    ({"type": "attack", "card": "7S"}, "attack:7S"),
    ({"type": "defend", "attack": "7S", "card": "9S"}, "defend:7S:9S"),
    ({"type": "transfer", "card": "TH"}, "transfer:TH"),
    ({"type": "take"}, "take"),
    ({"type": "pass"}, "pass"),
    ({"type": "exchange"}, "exchange"),
    ({"type": "create"}, "create"),
    ({"type": "forfeit"}, "forfeit"),
    ("attack:7S", "attack:7S"),  # already a token
])
def test_each_logged_action_becomes_its_token_and_back(old, new):
    assert tokens.token(old) == new
    if isinstance(old, dict):
        assert tokens.to_dict(new) == old


@pytest.mark.django_db
def test_it_converts_the_rows_of_the_move_log(duel):
    Move.objects.filter(game=duel).delete()
    old = Move.objects.create(game=duel, seq=1, kind=Move.Kind.MOVE, actions=[
        {"type": "attack", "card": "7C"}, {"type": "attack", "card": "7D"}, {"type": "pass"}])
    new = Move.objects.create(game=duel, seq=2, kind=Move.Kind.MOVE, actions=["take"])
    tokens.forwards(apps, None)
    old.refresh_from_db()
    new.refresh_from_db()
    assert old.actions == ["attack:7C", "attack:7D", "pass"]
    assert new.actions == ["take"]
    tokens.backwards(apps, None)
    old.refresh_from_db()
    assert old.actions == [{"type": "attack", "card": "7C"}, {"type": "attack", "card": "7D"},
                           {"type": "pass"}]
