"""A move posted as JSON: any malformed body is a 400 with a message, never a 500."""

import json

import pytest
from django.urls import reverse

from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("body", [
    '{"version":1,"actions":' + "[" * 5000,  # RecursionError in json before the fix
    '{"version":1,"actions":' + "[" * 5000 + "]" * 5000 + "}",
    json.dumps({"version": 1, "actions": [[[[[[[[[["take"]]]]]]]]]]}),
    b'{"version": 1, "actions": ["\xff"]}',  # not UTF-8
    "not json",
    json.dumps({"version": 1, "actions": "take"}),
    json.dumps({"version": 1, "actions": [{"type": "take"}]}),
    json.dumps([1, 2]),
])
def test_a_malformed_json_move_is_a_400_with_a_message(duel, alice, client, body):
    client.force_login(alice)
    before = Game.objects.get(pk=duel.pk)
    response = client.post(reverse("play", args=[duel.pk]), data=body,
                           content_type="application/json")
    assert response.status_code == 400
    text = response.content.decode()
    assert "not valid JSON" in text or "not a move" in text
    after = Game.objects.get(pk=duel.pk)
    assert (after.state, after.version) == (before.state, before.version)
