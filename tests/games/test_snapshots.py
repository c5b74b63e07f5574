"""games.present.snapshots: a table's versions share what a move never changes, and
what changes elsewhere reaches the table all the same."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game, Rating
from games.present import snapshots
from games.present.render import table_html

from .conftest import client_for, first_legal, post_move
from .matchplay import play_on

pytestmark = pytest.mark.django_db


def test_the_answer_to_a_move_is_made_from_the_rows_it_wrote(duel, alice, bob):
    snapshots.read(duel.pk)  # the process has seen the game
    seat = duel.match().deal.to_act
    client = client_for(alice if seat == 0 else bob)
    client.get(f"/games/{duel.pk}/")  # log-in's first request notes "last seen"
    action = first_legal(duel)
    with CaptureQueriesContext(connection) as posted:
        r = post_move(client, duel, [action])
    assert r.status_code == 200
    reads = [q["sql"] for q in posted.captured_queries if q["sql"].startswith("SELECT")]
    # the session, the user, the locked game and its seats: nothing read again after it
    assert len(reads) == 4, reads
    game, seats = snapshots.at(duel.pk, duel.version + 1)
    assert game.version == duel.version + 1
    assert [s.player for s in seats] == [alice, bob]
    assert f'data-version="{duel.version + 1}"' in r.content.decode()


def test_a_new_rating_shows_once_the_shared_parts_are_read_again(duel, alice, monkeypatch):
    Rating.objects.create(player=alice, pool=Rating.Pool.INDIVIDUAL, mu=30, sigma=2, games=9)
    game, seats = snapshots.read(duel.pk)
    before = table_html(game, alice, seats=seats)
    assert "after 9 rated games" in before
    Rating.objects.filter(player=alice).update(games=10)  # another game of hers ended
    services.play_seat(duel.pk, game.match().deal.to_act, [first_legal(duel)], game.version)
    game, seats = snapshots.read(duel.pk)
    assert "after 9 rated games" in table_html(game, alice, seats=seats)  # shared a while
    monkeypatch.setattr(snapshots, "SHARED_SECONDS", 0.0)
    services.play_seat(duel.pk, game.match().deal.to_act, [first_legal(duel)], game.version)
    game, seats = snapshots.read(duel.pk)
    assert "after 10 rated games" in table_html(game, alice, seats=seats)


def test_the_finished_deals_are_read_again_when_a_deal_ends(alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=2, deals=2, move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    game = Game.objects.get(pk=game.pk)
    _, seats = snapshots.read(game.pk)
    assert list(snapshots.at(game.pk, game.version)[0].deal_records.all()) == []
    game = play_on(game, until_deal=2)
    kept, seats = snapshots.read(game.pk)
    assert [r.number for r in kept.deal_records.all()] == [1]
    assert "Deal 1" in table_html(kept, alice, seats=seats)
    game = play_on(game)
    kept, seats = snapshots.read(game.pk)
    assert kept.status == Game.Status.FINISHED
    assert [r.number for r in kept.deal_records.all()] == [1, 2]
