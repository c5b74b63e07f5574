"""A seat carries its game's status, privacy, preset and finish time (Seat.FACTS), kept
in step by every change of the game (docs/design.md, "A year of data")."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game, Seat

from .playout import finish, table

pytestmark = pytest.mark.django_db


def facts(game: Game) -> set[tuple]:
    """Each seat's facts beside the game's own (one tuple when they agree)."""
    game.refresh_from_db()
    return {(s.game_status, s.game_private, s.game_preset_id, s.game_finished_at)
            for s in Seat.objects.filter(game=game)} | {
        (game.status, game.private, game.preset_id, game.finished_at)}


def test_a_rated_game_s_seats_follow_it_from_open_to_finished(alice, bob, classic):
    game = services.create_game(alice, classic, players=2, rated=True)
    assert facts(game) == {(Game.Status.OPEN, False, classic.pk, None)}
    services.join_game(game.pk, bob, invite_token=game.invite_token)
    assert facts(game) == {(Game.Status.PLAYING, False, classic.pk, None)}
    game = finish(game)
    assert game.rated and game.finished_at is not None
    assert facts(game) == {(Game.Status.FINISHED, False, classic.pk, game.finished_at)}
    assert {s.lost for s in game.seats.all()} == {True, False}


def test_an_aborted_private_game_s_seats_say_so(alice, classic):
    game = services.create_game(alice, classic, players=3, private=True)
    assert facts(game) == {(Game.Status.OPEN, True, classic.pk, None)}
    services.abort_game(game.pk, alice)  # its maker cancels the open table
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.finished_at is not None
    assert facts(game) == {(Game.Status.ABORTED, True, classic.pk, game.finished_at)}


def test_a_move_leaves_the_seats_facts_unwritten(alice, bob, classic):
    game = table(alice, classic, [bob])
    seat = game.match().deal.to_act
    action = game.match().deal.legal_actions(seat)[0]
    with CaptureQueriesContext(connection) as captured:
        services.play_seat(game.pk, seat, [action.token()], game.version)
    assert not [q for q in captured if "game_status" in q["sql"] and "UPDATE" in q["sql"]]
    assert facts(game) == {(Game.Status.PLAYING, False, classic.pk, None)}
