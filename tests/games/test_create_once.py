"""Making a table is safe against a double click: the same form sent twice makes one game."""

import re

import pytest
from django.core.cache import cache

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def shown_form(client) -> dict:
    """The lobby's create form as a person sends it, with the token the page gave."""
    body = client.get("/").content.decode()
    token = re.search(r'name="once" value="([^"]+)"', body)
    assert token, "the create form carries no one-time token"
    return {"players": 2, "bots": 0, "bot_level": "medium", "match_kind": "deals",
            "count": 1, "move_time": 300, "once": token.group(1)}


def test_it_makes_one_game_from_the_same_form_sent_twice(alice_client, classic):
    data = {**shown_form(alice_client), "preset": classic.pk}
    first = alice_client.post("/games/new/", data)
    second = alice_client.post("/games/new/", data)
    game = Game.objects.get()
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == f"/games/{game.pk}/"


def test_with_htmx_the_repeat_goes_to_the_same_table(alice_client, classic):
    data = {**shown_form(alice_client), "preset": classic.pk}
    answers = [alice_client.post("/games/new/", data, headers={"HX-Request": "true"})
               for _ in range(2)]
    game = Game.objects.get()
    assert [r["HX-Redirect"] for r in answers] == [f"/games/{game.pk}/"] * 2


def test_each_showing_of_the_form_makes_its_own_game(alice_client, classic):
    for _ in range(2):
        alice_client.post("/games/new/", {**shown_form(alice_client), "preset": classic.pk})
    assert Game.objects.count() == 2


def test_another_players_token_is_not_theirs(alice_client, bob_client, classic):
    data = {**shown_form(alice_client), "preset": classic.pk}
    alice_client.post("/games/new/", data)
    bob_client.post("/games/new/", data)
    assert sorted(Game.objects.values_list("created_by__username", flat=True)) == ["alice", "bob"]


def test_a_refused_form_can_be_sent_again(alice_client, classic, monkeypatch):
    data = {**shown_form(alice_client), "preset": classic.pk}
    real = services.create_game

    def refuse(*args, **kwargs):
        raise services.Conflict("No tables today.")

    monkeypatch.setattr(services, "create_game", refuse)
    assert alice_client.post("/games/new/", data).status_code == 409
    monkeypatch.setattr(services, "create_game", real)
    assert alice_client.post("/games/new/", data).status_code == 302
    assert Game.objects.count() == 1


def test_a_repeat_while_the_first_is_at_work_is_told_to_wait(alice_client, alice, classic,
                                                            monkeypatch):
    from games import once

    data = {**shown_form(alice_client), "preset": classic.pk}
    assert once.claim("create_game", alice.pk, data["once"]) is None  # the first, at work
    monkeypatch.setattr(once, "WAIT_STEP", 0)
    r = alice_client.post("/games/new/", data)
    assert r.status_code == 409 and "still being made" in r.content.decode()
    assert not Game.objects.exists()


def test_a_damaged_token_is_refused_with_400(alice_client, classic):
    r = alice_client.post("/games/new/", {**shown_form(alice_client), "preset": classic.pk,
                                          "once": "<script>"})
    assert r.status_code == 400 and "This form is damaged" in r.content.decode()
    assert not Game.objects.exists()
